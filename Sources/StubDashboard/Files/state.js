// The state view: what the stubs remember in the scope steered. Each service's state values
// (`_state.json`, changed by variants' `then`) and each collection with its count, a collection
// opened to its objects; both edited as JSON text and put back, or reset to the seeds. Refreshed
// every second while the view shows; text being edited is kept until saved.
"use strict";
(() => {
  const S = window.stubd;
  const { $, state, el, toast, api, fail } = S;
  let timer = 0;
  let drawn = "", drawnScope = "";
  const opened = new Set();  // collections shown with their objects
  const edited = new Map();  // "s:<service>" or "c:<collection>" → text typed and not yet saved

  const collectionPath = (id) => "/__stubd/collections/" + id.split("/").map(encodeURIComponent).join("/");
  const serviceLabel = (name) => (name === "" ? "(root routes)" : name);

  async function refresh() {
    const scope = state.scope;
    // Another scope's values are not this one's: what was typed for the last scope is dropped.
    if (scope !== drawnScope) { edited.clear(); drawnScope = scope; }
    const [values, list] = await Promise.all([
      api("GET", "/__stubd/state", undefined, scope), api("GET", "/__stubd/collections", undefined, scope)]);
    const objects = {};
    for (const c of list.collections) {
      if (opened.has(c.id)) objects[c.id] = (await api("GET", collectionPath(c.id), undefined, scope)).objects;
    }
    if (scope !== state.scope) return;  // steered elsewhere meanwhile: that scope's refresh draws
    // Redrawn only when the answer changed, so a box being typed into is not replaced under the hand.
    const key = JSON.stringify([scope, values.state, list.collections, objects]);
    if (key === drawn) return;
    drawn = key;
    draw(values.state, list.collections, objects);
  }

  function draw(services, collections, objects) {
    // What has focus is given it back after the redraw, with its text and caret.
    const focused = document.activeElement;
    const active = focused && focused.closest && focused.closest("#view-state") ? focused.dataset.key : undefined;
    const caret = active ? document.activeElement.selectionStart : 0;
    $("state-scope").textContent = state.scope ? "session " + state.scope : "everyone (no session)";
    const names = Object.keys(services).sort();
    $("state-services").replaceChildren(...(names.length
      ? [el("div", { class: "cards" }, names.map((name) => serviceCard(name, services[name])))]
      : [el("p", { class: "muted", text: "No service has state values: a _state.json beside _service.json, or a variant's then, gives it some." })]));
    $("state-collections").replaceChildren(...(collections.length
      ? collections.map((c) => collectionCard(c, objects[c.id]))
      : [el("p", { class: "muted", text: "No collections: a route.json with \"collection\" makes one." })]));
    const again = active && document.querySelector(`#view-state textarea[data-key="${CSS.escape(active)}"]`);
    if (again) { again.focus(); again.setSelectionRange(caret, caret); }
  }

  // After a change the page made: the box shows the server's answer again, typed text gone.
  function changed(key, message) {
    if (key) edited.delete(key); else edited.clear();
    drawn = "";
    toast(message);
    return refresh();
  }

  // A JSON text box that remembers what was typed in it until it is saved.
  function editor(key, value, label) {
    const text = JSON.stringify(value, null, 2);
    const box = el("textarea", { class: "json mono", "data-key": key, spellcheck: "false", "aria-label": label,
      rows: String(Math.min(18, text.split("\n").length + 1)) });
    box.value = edited.has(key) ? edited.get(key) : text;
    const mark = el("span", { class: "tag warn", text: "not saved" });
    mark.hidden = !edited.has(key);
    box.addEventListener("input", () => { edited.set(key, box.value); mark.hidden = false; });
    return { box, mark };
  }

  // The box's text as JSON, or null with a toast saying what is wrong.
  function parsed(box, label, expected, check) {
    let value;
    try { value = JSON.parse(box.value); } catch (e) { toast(`${label}: not JSON (${e.message})`); return null; }
    if (!check(value)) { toast(`${label}: expected ${expected}`); return null; }
    return value;
  }

  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

  function serviceCard(name, values) {
    const key = "s:" + name, label = serviceLabel(name);
    const { box, mark } = editor(key, values, "State values of " + label);
    const save = el("button", { class: "save-state", text: "Save" });
    save.addEventListener("click", () => {
      const value = parsed(box, label, "an object of name → value", isObject);
      if (value === null) return;
      api("PUT", "/__stubd/state", { [name]: value }, state.scope)
        .then(() => changed(key, "Saved " + label)).catch(fail);
    });
    const count = Object.keys(values).length;
    return el("div", { class: "card", "data-service": name },
      el("h2", {}, el("span", { class: "mono", text: label }), el("span", { class: "muted", text: `${count} ${count === 1 ? "value" : "values"}` })),
      box, el("div", { class: "actions" }, save, mark));
  }

  function collectionCard(c, objects) {
    const key = "c:" + c.id;
    const summary = el("summary", {}, el("span", { class: "mono", text: c.id }), " ", el("span", { class: "muted mono", text: c.path }), " ",
      el("span", { class: "pill count", text: c.count }), el("span", { class: "muted", text: c.count === 1 ? " object" : " objects" }));
    const details = el("details", { "data-collection": c.id, open: opened.has(c.id) }, summary);
    details.addEventListener("toggle", () => {
      if (details.open === opened.has(c.id)) return;  // drawn open: nothing changed
      if (details.open) opened.add(c.id); else opened.delete(c.id);
      refresh().catch(fail);
    });
    if (objects) {
      const { box, mark } = editor(key, objects, "Objects of " + c.id);
      const save = el("button", { class: "save-collection", text: "Save" });
      save.addEventListener("click", () => {
        const value = parsed(box, c.id, "an array of objects", (v) => Array.isArray(v) && v.every(isObject));
        if (value === null) return;
        api("PUT", collectionPath(c.id), value, state.scope)
          .then(() => changed(key, "Saved " + c.id)).catch(fail);
      });
      const reset = el("button", { class: "reset-collection quiet", text: "Reset to the seed" });
      reset.addEventListener("click", () => {
        api("DELETE", collectionPath(c.id), undefined, state.scope)
          .then(() => changed(key, "Reset " + c.id)).catch(fail);
      });
      details.append(box, el("div", { class: "actions" }, save, reset, mark));
    }
    return el("div", { class: "card collection" }, details);
  }

  $("state-reset").addEventListener("click", () => {
    api("DELETE", "/__stubd/state", undefined, state.scope)
      .then(() => changed(null, "State values and collections back to the seeds")).catch(fail);
  });

  $("scope").addEventListener("change", () => { if (timer) refresh().catch(fail); });

  // Refreshed while the view shows; stopped when another one does.
  function watch(on) {
    clearInterval(timer);
    timer = 0;
    if (!on) return;
    refresh().catch(fail);
    timer = setInterval(() => refresh().catch(() => {}), 1000);
  }

  Object.assign(S, { watchState: watch, loadState: refresh });
})();
