// Live traffic: rows drawn in batches once a frame, filters, pause, and one request opened.
"use strict";
(() => {
  const S = window.stubd;
  const { MAX_ENTRIES, MAX_ROWS, $, state, el, nodes, toast } = S;

  // ---- live traffic ----------------------------------------------------------------------------

  // A 101 (a WebSocket conversation opened) counts with the successes.
  const statusClass = (e) => (e.fault ? "fault" : e.status === 101 ? "2" : e.status ? String(Math.floor(e.status / 100)) : "fault");

  function arrive(entries) {
    for (const e of entries) {
      if (e.id <= state.lastID) continue;
      state.lastID = e.id;
      S.count(e);
      state.pending.push(e);
    }
    // Paused, the tab keeps at most as many as it would show.
    if (state.pending.length > MAX_ENTRIES) state.pending.splice(0, state.pending.length - MAX_ENTRIES);
    if (!state.frame) state.frame = requestAnimationFrame(flush);
  }

  // Requests are drawn in batches, once a frame, however fast they come.
  function flush() {
    state.frame = 0;
    $("traffic-count").textContent = String(state.entries.length + state.pending.length);
    if (state.paused || !state.pending.length) return;
    const fresh = state.pending;
    state.pending = [];
    state.entries.push(...fresh);
    if (state.entries.length > MAX_ENTRIES) state.entries.splice(0, state.entries.length - MAX_ENTRIES);
    const body = document.querySelector("#traffic tbody");
    const rows = fresh.filter(visible).slice(-MAX_ROWS).reverse().map(trafficRow);
    body.prepend(...rows);
    while (body.rows.length > MAX_ROWS) body.deleteRow(-1);
    $("traffic-count").textContent = String(state.entries.length);
  }

  function visible(e) {
    const session = $("traffic-session").value;
    if (session !== "*" && (e.session || "") !== session) return false;
    const route = $("traffic-route").value.trim().toLowerCase();
    if (route && !(e.route || "").toLowerCase().includes(route)) return false;
    const status = $("traffic-status").value;
    if (status && statusClass(e) !== status) return false;
    const text = $("traffic-text").value.trim().toLowerCase();
    if (text && ![e.method, e.path + queryText(e), e.route, e.variant, e.operation, e.body, String(e.status)].some((v) => v && String(v).toLowerCase().includes(text))) return false;
    return true;
  }

  function renderTraffic() {
    const rows = [];
    for (let i = state.entries.length - 1; i >= 0 && rows.length < MAX_ROWS; i--) if (visible(state.entries[i])) rows.push(trafficRow(state.entries[i]));
    document.querySelector("#traffic tbody").replaceChildren(...rows);
  }

  function trafficRow(e) {
    const cls = statusClass(e);
    const tags = [];
    if (e.proxied) tags.push(el("span", { class: "tag", text: "proxied" }));
    if (e.scheme === "https") tags.push(el("span", { class: "tag", text: "https" }));
    if (e.contract && e.contract.length) tags.push(el("span", { class: "tag warn", text: "contract" }));
    if (e.clientGone) tags.push(el("span", { class: "tag warn", text: "client left" }));
    if (e.operation) tags.push(el("span", { class: "tag", text: e.operation }));
    const row = el("tr", { "data-id": e.id, class: e.id === state.selectedID ? "selected" : "" },
      el("td", { class: "muted", text: new Date(e.time).toLocaleTimeString() }),
      el("td", { class: "mono", text: e.method }),
      el("td", { class: "path mono", text: e.path + queryText(e) }),
      el("td", { class: "status c" + (cls === "fault" ? "f" : cls), text: e.fault ? e.fault : e.status || "—" }),
      el("td", { class: "mono", text: e.variant || "" }),
      el("td", { text: e.delayMs ? e.delayMs + " ms" : "" }),
      el("td", { text: e.elapsedMs }),
      el("td", { class: "mono", text: e.session || "" }),
      el("td", {}, tags));
    row.addEventListener("click", () => openDetail(e.id));
    return row;
  }

  for (const id of ["traffic-text", "traffic-route"]) $(id).addEventListener("input", renderTraffic);
  for (const id of ["traffic-session", "traffic-status"]) $(id).addEventListener("change", renderTraffic);
  $("pause").addEventListener("click", () => {
    state.paused = !state.paused;
    $("pause").setAttribute("aria-pressed", String(state.paused));
    $("pause").textContent = state.paused ? "Resume" : "Pause";
    if (!state.paused) flush();
  });
  $("clear-traffic").addEventListener("click", () => { state.entries = []; state.pending = []; renderTraffic(); flush(); });

  // ---- one request -----------------------------------------------------------------------------

  function why(e) {
    const s = e.selection;
    if (!s) return e.route ? "no variant: the request was answered before one was chosen" : "no route matched";
    if (s.by === "sequence") return `step ${s.step} of ${s.of} of an admin sequence`;
    if (s.by === "override") return "an admin override" + (e.session ? ` (session ${e.session} or everyone)` : "");
    if (s.by === "request") return "the request asked for it (X-Stub-Variant or __variant)";
    if (s.by === "default") return "the route's default: no variant's when held";
    return "its when held";
  }

  function whenOf(e) {
    const route = state.routeById.get(e.route);
    const variant = route && route.variants.find((v) => v.name === e.variant);
    return variant && variant.when ? JSON.stringify(variant.when, null, 2) : null;
  }

  function pretty(body) {
    try { return JSON.stringify(JSON.parse(body), null, 2); } catch (_) { return body; }
  }

  function openDetail(id) {
    const e = state.entries.find((x) => x.id === id) || state.pending.find((x) => x.id === id);
    if (!e) return;
    state.selectedID = id;
    for (const r of document.querySelectorAll("#traffic tbody tr")) r.classList.toggle("selected", Number(r.dataset.id) === id);
    const pane = $("detail");
    const facts = [["Status", e.fault ? `${e.fault} (fault)` : e.status], ["Route", e.route || "none"], ["Variant", e.variant || "—"],
      ["Chosen by", why(e)], ["Delay", e.delayMs + " ms"], ["Took", e.elapsedMs + " ms"], ["Session", e.session || "none"],
      ["Scheme", e.scheme], ["Proxied", e.proxied ? "yes" : "no"], ["Time", e.time]];
    if (e.clientGone) facts.push(["Client", "left before the answer was complete"]);
    if (e.eventsSent !== null && e.eventsSent !== undefined) facts.push(["Events sent", e.eventsSent]);
    const when = e.selection && e.selection.by === "when" ? whenOf(e) : null;
    const curl = curlOf(e);
    const copy = el("button", { class: "copy-curl", text: "Copy as curl" });
    copy.addEventListener("click", () => copyText(curl));
    const close = el("button", { class: "quiet", text: "Close" });
    close.addEventListener("click", () => { pane.hidden = true; state.selectedID = null; });
    const headers = Object.entries(e.headers || {});
    const query = Object.keys(e.query || {}).length ? JSON.stringify(e.query, null, 2) : null;
    pane.replaceChildren(...nodes(
      el("h2", { class: "mono", text: `${e.method} ${e.path}` }),
      el("div", { class: "actions" }, copy, close),
      el("dl", {}, facts.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])),
      when ? [el("h3", { text: "The when that held" }), el("pre", { class: "when", text: when })] : null,
      e.nearMisses && e.nearMisses.length ? [el("h3", { text: "Near misses" }), el("ul", { class: "near" },
        e.nearMisses.map((m) => el("li", {}, el("span", { class: "mono", text: `${m.method} ${m.path}` }), " ", el("span", { class: "muted", text: `(${m.route})` }),
          el("br"), el("span", { class: "why", text: m.why }))))] : null,
      e.contract && e.contract.length ? [el("h3", { text: "Contract problems" }), el("ul", { class: "problems" },
        e.contract.map((c) => el("li", { text: `${c.where}: ${c.problem}` })))] : null,
      el("h3", { text: "Headers" }),
      el("dl", { class: "headers" }, headers.map(([k, v]) => [el("dt", { class: "mono", text: k }), el("dd", { class: "mono", text: v })])),
      query ? [el("h3", { text: "Query" }), el("pre", { text: query })] : null,
      e.body ? [el("h3", { text: `Body (${e.bodyBytes} bytes${e.bodyTruncated ? ", cut" : ""}${e.bodyEncoding === "base64" ? ", base64" : ""})` }),
        el("pre", { class: "body", text: e.bodyEncoding === "base64" ? e.body : pretty(e.body) })] : null,
      el("h3", { text: "As curl" }), el("pre", { class: "curl", text: curl })));
    pane.hidden = false;
  }

  const quote = (s) => "'" + String(s).replace(/'/g, "'\\''") + "'";

  // The request's query as sent, `?` included; "" for none.
  function queryText(e) {
    const params = [];
    for (const [k, v] of Object.entries(e.query || {})) for (const one of [].concat(v)) params.push(encodeURIComponent(k) + "=" + encodeURIComponent(one));
    return params.length ? "?" + params.join("&") : "";
  }

  function curlOf(e) {
    const host = (e.headers && (e.headers.Host || e.headers.host)) || location.host;
    const url = `${e.scheme || "http"}://${host}${e.path}${queryText(e)}`;
    // Every part quoted, the method too: HTTP allows ` | & $ in a method's name.
    const parts = ["curl", "-X", quote(e.method), quote(url)];
    let sawSession = false;
    for (const [k, v] of Object.entries(e.headers || {})) {
      const lower = k.toLowerCase();
      if (lower === "host" || lower === "content-length") continue;
      if (lower === "x-stub-session") sawSession = true;
      parts.push("-H", quote(`${k}: ${v}`));
    }
    if (e.session && !sawSession) parts.push("-H", quote(`X-Stub-Session: ${e.session}`));
    if (e.body && e.bodyEncoding !== "base64") parts.push("--data-binary", quote(e.body));
    return parts.join(" ");
  }

  function copyText(text) {
    const done = () => toast("Copied");
    if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done)); return; }
    fallbackCopy(text, done);
  }

  function fallbackCopy(text, done) {
    const area = el("textarea", { class: "mono", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (_) { toast("Select the curl text to copy it"); }
    area.remove();
  }

  Object.assign(S, { arrive, renderTraffic, statusClass, flush });
})();
