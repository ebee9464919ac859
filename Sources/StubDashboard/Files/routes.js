// The routes view: variant, delay, fault, throttle and hold per route, in the scope steered.
"use strict";
(() => {
  const S = window.stubd;
  const { PAGE, FAULTS, $, state, el, api, routePath, fail } = S;

  // ---- routes ----------------------------------------------------------------------------------

  async function loadRoutes() {
    const json = await api("GET", "/__stubd/routes", undefined, state.scope);
    state.routes = json.routes;
    state.routeById = new Map(json.routes.map((r) => [r.id, r]));
    renderRoutes();
  }

  function matchingRoutes() {
    const words = $("route-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return state.routes;
    return state.routes.filter((r) => {
      const text = [r.id, r.method, r.path, r.operation || "", r.variants.map((v) => v.name).join(" ")].join(" ").toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }

  function renderRoutes() {
    // A row being edited is not redrawn under the person's cursor; it is redrawn on blur.
    const active = document.activeElement;
    if (active && active.closest && active.closest("#routes tbody") && active.type === "number") { state.routesStale = true; return; }
    state.routesStale = false;
    const list = matchingRoutes();
    const pages = Math.max(1, Math.ceil(list.length / PAGE));
    state.routePage = Math.min(state.routePage, pages - 1);
    const first = state.routePage * PAGE;
    const body = document.querySelector("#routes tbody");
    const rows = list.slice(first, first + PAGE).map(routeRow);
    body.replaceChildren(...rows);
    if (!list.length) body.append(el("tr", {}, el("td", { colspan: 10, class: "muted", text: state.routes.length ? "No route matches the filter." : "No routes loaded." })));
    const pager = $("route-page");
    pager.replaceChildren(
      el("span", { text: list.length ? `${first + 1}–${Math.min(first + PAGE, list.length)} of ${list.length}` : "0 routes" }),
      pageButton("‹", state.routePage > 0, -1), pageButton("›", state.routePage < pages - 1, 1));
  }

  function pageButton(label, enabled, step) {
    const b = el("button", { class: "quiet", "aria-label": step < 0 ? "Previous page" : "Next page", text: label });
    b.disabled = !enabled;
    b.addEventListener("click", () => { state.routePage += step; renderRoutes(); });
    return b;
  }

  function routeRow(route) {
    const o = route.override || {};
    const variant = el("select", { class: "variant", "aria-label": "Variant of " + route.id },
      el("option", { value: "", text: "stub files (" + route.default + ")" }),
      route.variants.map((v) => el("option", { value: v.name, text: `${v.name} · ${v.fault || v.status}` })));
    variant.value = o.variant || "";
    variant.addEventListener("change", () => change(route, { variant: variant.value || null }));

    const delay = el("input", { type: "number", min: 0, max: 3600000, step: 100, class: "delay", "aria-label": "Delay of " + route.id,
      value: o.delay && o.delay.ms !== undefined ? o.delay.ms : "", placeholder: o.delay && o.delay.ms === undefined ? "custom" : "" });
    delay.addEventListener("change", () => change(route, { delay: delay.value === "" ? null : { ms: Number(delay.value) } }));

    const fault = el("select", { class: "fault", "aria-label": "Fault of " + route.id }, el("option", { value: "", text: "none" }),
      FAULTS.map((f) => el("option", { value: f, text: f })));
    fault.value = o.fault || "";
    fault.addEventListener("change", () => change(route, { fault: fault.value || null }));

    const throttle = el("input", { type: "number", min: 1, step: 1000, class: "throttle", "aria-label": "Throttle of " + route.id,
      value: o.throttle ? o.throttle.bytesPerSecond : "" });
    throttle.addEventListener("change", () => change(route, { throttle: throttle.value === "" ? null : { bytesPerSecond: Number(throttle.value) } }));

    const hold = el("input", { type: "checkbox", class: "hold", "aria-label": "Hold " + route.id, checked: o.hold });
    hold.addEventListener("change", () => change(route, { hold: hold.checked }));

    const release = el("button", { class: "release quiet", text: "Release" });
    release.disabled = !route.held;
    release.addEventListener("click", () => api("POST", routePath(route.id) + "/release", undefined, state.scope).then(loadRoutes).catch(fail));
    const clear = el("button", { class: "clear quiet", text: "Clear", title: "Back to the stub files" });
    clear.disabled = !route.override;
    clear.addEventListener("click", () => api("DELETE", routePath(route.id), undefined, state.scope).then(loadRoutes).catch(fail));

    const sequence = o.sequenceRemaining && o.sequenceRemaining.length ? el("span", { class: "tag", text: "next: " + o.sequenceRemaining.join(", ") }) : null;
    const label = route.operation ? `${route.path}#${route.operation}` : route.path;
    // data-label names each cell where a narrow screen stacks the row into a card (app.css).
    const row = el("tr", { "data-route": route.id, class: route.override ? "overridden" : "" },
      el("td", { "data-label": "Route" }, el("span", { class: "mono", text: route.id }), sequence),
      el("td", { "data-label": "Method", class: "mono", text: route.kind ? route.kind.toUpperCase() : route.method }),
      el("td", { "data-label": "Path", class: "path mono" }, breakable(label)),
      el("td", { "data-label": "Variant" }, variant), el("td", { "data-label": "Delay ms" }, delay),
      el("td", { "data-label": "Fault" }, fault), el("td", { "data-label": "Throttle B/s" }, throttle),
      el("td", { "data-label": "Hold" }, hold), el("td", { "data-label": "Held", class: "held", text: route.held }),
      el("td", { class: "actions" }, release, " ", clear));
    return row;
  }

  // A path wraps after its slashes, not in the middle of a segment: a break opportunity (<wbr>)
  // after every "/" and "#"; only a segment wider than the cell itself is cut (overflow-wrap).
  function breakable(text) {
    return text.split(/(?<=[/#])/).flatMap((part, i) => (i ? [el("wbr", {}), part] : [part]));
  }

  // An override is replaced whole: the fields kept from the current one, with `patch` applied.
  function change(drawn, patch) {
    // The route as last heard of, not as the row was drawn: a change made elsewhere since is kept.
    const route = state.routeById.get(drawn.id) || drawn;
    const o = Object.assign({}, route.override || {}, patch);
    const body = {};
    if (o.variant) body.variant = o.variant;
    if (o.delay) body.delay = o.delay;
    if (o.fault) body.fault = o.fault;
    if (o.throttle) body.throttle = o.throttle;
    if (o.hold) body.hold = true;
    if (o.sequenceRemaining && o.sequenceRemaining.length) body.sequence = o.sequenceRemaining;
    const call = Object.keys(body).length ? api("PUT", routePath(route.id), body, state.scope) : api("DELETE", routePath(route.id), undefined, state.scope);
    call.then((updated) => {
      if (updated && updated.id) { Object.assign(route, updated); state.routeById.set(route.id, route); }
      renderRoutes();
    }).catch((e) => { fail(e); loadRoutes().catch(fail); });
  }

  $("route-filter").addEventListener("input", () => { state.routePage = 0; renderRoutes(); });
  $("routes").addEventListener("focusout", () => setTimeout(() => { if (state.routesStale) renderRoutes(); }, 0));
  $("clear-all").addEventListener("click", () => api("DELETE", "/__stubd/routes", undefined, state.scope).then(loadRoutes).catch(fail));
  $("scope").addEventListener("change", () => { state.scope = $("scope").value; loadRoutes().catch(fail); });

  Object.assign(S, { loadRoutes, renderRoutes });
})();
