// The stubd dashboard: plain JavaScript, no build step, nothing loaded from elsewhere.
// Everything that comes from requests is put on the page as text (textContent), never as markup.
"use strict";
(() => {
  const PAGE = 100;          // routes shown per page
  const MAX_ENTRIES = 3000;  // requests kept in the tab
  const MAX_ROWS = 400;      // traffic rows in the table
  const WINDOW_S = 300;      // seconds the timeline shows
  const FAULTS = ["reset", "empty", "hang", "garbage", "truncate", "slow-headers"];

  const $ = (id) => document.getElementById(id);
  const state = {
    token: sessionStorage.getItem("stubd.token") || "",
    scope: "",
    routes: [], routeById: new Map(), routePage: 0, routesStale: false,
    entries: [], pending: [], paused: false, frame: 0, lastID: 0, selectedID: null,
    buckets: new Map(), held: new Map(),
    sessions: [], notListed: 0,
  };

  // Builds an element; strings and numbers become text nodes, never markup.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") node.textContent = String(v);
      else if (k === "value") node.value = v;
      else if (k === "checked") node.checked = !!v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  // Children as `el` takes them (nested arrays, nulls skipped), for replaceChildren.
  const nodes = (...children) => children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);

  function toast(message) {
    const t = $("toast");
    t.textContent = message;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 2200);
  }

  // ---- admin API -----------------------------------------------------------------------------

  class Unauthorized extends Error {}

  function headers(extra) {
    const h = Object.assign({}, extra);
    if (state.token) h["Authorization"] = "Bearer " + state.token;
    return h;
  }

  async function api(method, path, body, session) {
    const h = headers(body === undefined ? {} : { "Content-Type": "application/json" });
    if (session) h["X-Stub-Session"] = session;
    const res = await fetch(path, { method, headers: h, cache: "no-store", body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status === 401) { askToken(!!state.token); throw new Unauthorized("admin token required"); }
    const text = await res.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (_) { json = null; }
    if (!res.ok) {
      const problems = json && (json.problems || json.variants);
      throw new Error((json && json.error ? json.error : "HTTP " + res.status) + (problems ? ": " + [].concat(problems).join(", ") : ""));
    }
    return json;
  }

  const routePath = (id) => "/__stubd/routes/" + id.split("/").map(encodeURIComponent).join("/");

  function fail(error) {
    if (!(error instanceof Unauthorized)) toast(String(error.message || error));
  }

  // ---- token -----------------------------------------------------------------------------------

  function askToken(refused) {
    const dialog = $("token-dialog");
    $("token-error").hidden = !refused;
    if (!dialog.open) dialog.showModal();
    $("token-input").focus();
  }

  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    state.token = $("token-input").value.trim();
    sessionStorage.setItem("stubd.token", state.token);
    $("token-dialog").close();
    start();
  });

  // ---- tabs ------------------------------------------------------------------------------------

  function show(view) {
    for (const b of document.querySelectorAll("#tabs button")) b.setAttribute("aria-selected", String(b.dataset.view === view));
    for (const s of document.querySelectorAll("main .view")) s.hidden = s.dataset.view !== view;
    if (location.hash !== "#" + view) history.replaceState(null, "", "#" + view);
    if (view === "sessions") loadSessions().catch(fail);
    if (view === "health") loadHealth().catch(fail);
    if (view === "traffic") renderTraffic();
  }
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => show(b.dataset.view));
  const currentView = () => (document.querySelector("#tabs button[aria-selected='true']") || {}).dataset?.view || "routes";

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
    const row = el("tr", { "data-route": route.id, class: route.override ? "overridden" : "" },
      el("td", {}, el("span", { class: "mono", text: route.id }), sequence),
      el("td", { class: "mono", text: route.kind ? route.kind.toUpperCase() : route.method }),
      el("td", { class: "path mono", text: label }),
      el("td", {}, variant), el("td", {}, delay), el("td", {}, fault), el("td", {}, throttle),
      el("td", {}, hold), el("td", { class: "held", text: route.held }), el("td", {}, release, " ", clear));
    return row;
  }

  // An override is replaced whole: the fields kept from the current one, with `patch` applied.
  function change(route, patch) {
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

  // ---- live traffic ----------------------------------------------------------------------------

  const statusClass = (e) => (e.fault ? "fault" : e.status ? String(Math.floor(e.status / 100)) : "fault");

  function arrive(entries) {
    for (const e of entries) {
      if (e.id <= state.lastID) continue;
      state.lastID = e.id;
      count(e);
      state.pending.push(e);
    }
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
    if (text && ![e.method, e.path, e.route, e.variant, e.operation, e.body, String(e.status)].some((v) => v && String(v).toLowerCase().includes(text))) return false;
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
      el("td", { class: "path mono", text: e.path }),
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

  function curlOf(e) {
    const host = (e.headers && (e.headers.Host || e.headers.host)) || location.host;
    const params = [];
    for (const [k, v] of Object.entries(e.query || {})) for (const one of [].concat(v)) params.push(encodeURIComponent(k) + "=" + encodeURIComponent(one));
    const url = `${e.scheme || "http"}://${host}${e.path}${params.length ? "?" + params.join("&") : ""}`;
    const parts = ["curl", "-X", e.method, quote(url)];
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

  // ---- timeline --------------------------------------------------------------------------------

  function count(e) {
    const second = Math.floor(Date.parse(e.time) / 1000);
    let b = state.buckets.get(second);
    if (!b) { b = { "2": 0, "3": 0, "4": 0, "5": 0, fault: 0, delay: 0, n: 0 }; state.buckets.set(second, b); }
    const cls = statusClass(e);
    b[cls in b ? cls : "fault"] += 1;
    b.delay += e.delayMs || 0;
    b.n += 1;
  }

  // Requests the server did not send one by one (more than the list can show): counted in the
  // timeline all the same, and said in the traffic view.
  function dropped(d) {
    const second = Math.floor(Date.parse(d.time) / 1000);
    let b = state.buckets.get(second);
    if (!b) { b = { "2": 0, "3": 0, "4": 0, "5": 0, fault: 0, delay: 0, n: 0 }; state.buckets.set(second, b); }
    for (const [k, n] of Object.entries(d.byStatus || {})) { b[k in b ? k : "fault"] += n; b.n += n; }
    state.notListed += d.dropped;
    $("not-listed").textContent = `${state.notListed} requests counted but not listed (more than 2,000 a second)`;
    $("not-listed").hidden = false;
  }

  function drawTimeline() {
    const now = Math.floor(Date.now() / 1000);
    for (const s of state.buckets.keys()) if (s < now - WINDOW_S) state.buckets.delete(s);
    for (const s of state.held.keys()) if (s < now - WINDOW_S) state.held.delete(s);
    state.held.set(now, state.routes.reduce((sum, r) => sum + (r.held || 0), 0));
    let peak = 1;
    for (const b of state.buckets.values()) peak = Math.max(peak, b.n);
    const w = 600 / WINDOW_S, h = 60;
    const paths = { "2": "", "3": "", "4": "", "5": "", fault: "" };
    let heldLine = "", delayLine = "", lastMinute = 0, delaySum = 0, heldPeak = 1, delayPeak = 1;
    for (const v of state.held.values()) heldPeak = Math.max(heldPeak, v);
    for (const b of state.buckets.values()) if (b.n) delayPeak = Math.max(delayPeak, b.delay / b.n);
    for (let i = 0; i < WINDOW_S; i++) {
      const s = now - WINDOW_S + 1 + i;
      const b = state.buckets.get(s);
      const x = (i * w).toFixed(1);
      if (b) {
        let y = 62;
        for (const k of ["2", "3", "4", "5", "fault"]) {
          if (!b[k]) continue;
          const bh = (b[k] / peak) * h;
          y -= bh;
          paths[k] += `M${x} ${y.toFixed(1)}h${w.toFixed(2)}v${bh.toFixed(1)}h-${w.toFixed(2)}z`;
        }
        if (s > now - 60) { lastMinute += b.n; delaySum += b.delay; }
      }
      const held = state.held.get(s);
      if (held !== undefined) heldLine += `${heldLine ? "L" : "M"}${x} ${(62 - (held / heldPeak) * h * 0.9).toFixed(1)}`;
      if (b && b.n) delayLine += `${delayLine ? "L" : "M"}${x} ${(62 - (b.delay / b.n / delayPeak) * h * 0.9).toFixed(1)}`;
    }
    const ns = "http://www.w3.org/2000/svg";
    const svg = $("timeline");
    const shapes = Object.entries(paths).filter(([, d]) => d).map(([k, d]) => {
      const p = document.createElementNS(ns, "path");
      p.setAttribute("class", "s" + (k === "fault" ? "fault" : k + "xx"));
      p.setAttribute("d", d);
      return p;
    });
    for (const [cls, d] of [["delay-line", delayLine], ["held-line", heldLine]]) {
      if (!d) continue;
      const p = document.createElementNS(ns, "path");
      p.setAttribute("class", cls);
      p.setAttribute("d", d);
      shapes.push(p);
    }
    svg.replaceChildren(...shapes);
    const heldNow = state.held.get(now) || 0;
    $("timeline-summary").textContent = `${lastMinute} requests in the last minute · mean delay ${lastMinute ? Math.round(delaySum / lastMinute) : 0} ms (peak ${Math.round(delayPeak)} ms) · held now ${heldNow} · peak ${peak}/s`;
  }

  // ---- sessions and health ---------------------------------------------------------------------

  async function loadSessions() {
    const json = await api("GET", "/__stubd/sessions");
    state.sessions = json.sessions;
    fillSessionPickers();
    const cards = json.sessions.map((s) => {
      const steer = el("button", { class: "quiet", text: "Steer" });
      steer.addEventListener("click", () => { state.scope = s.session; fillSessionPickers(); loadRoutes().then(() => show("routes")).catch(fail); });
      const clear = el("button", { class: "clear-session", text: "Clear" });
      clear.addEventListener("click", () => api("DELETE", "/__stubd/sessions/" + encodeURIComponent(s.session)).then(loadSessions).catch(fail));
      const overrides = Object.entries(s.overrides);
      return el("div", { class: "card", "data-session": s.session },
        el("h2", {}, el("span", { class: "mono", text: s.session }), el("span", {}, steer, " ", clear)),
        el("div", { class: "muted", text: `${s.requests} ${s.requests === 1 ? "request" : "requests"} in the journal · ${s.held} held` }),
        overrides.length ? el("ul", {}, overrides.map(([route, o]) => el("li", {}, el("span", { class: "mono", text: route }), ": " + describe(o))))
          : el("div", { class: "muted", text: "no overrides" }));
    });
    $("sessions").replaceChildren(...(cards.length ? [el("div", { class: "cards" }, cards)] : [el("p", { class: "muted", text: "No sessions yet." })]));
  }

  function describe(o) {
    const parts = [];
    if (o.variant) parts.push("variant " + o.variant);
    if (o.sequenceRemaining && o.sequenceRemaining.length) parts.push("next " + o.sequenceRemaining.join(", "));
    if (o.delay) parts.push("delay " + (o.delay.ms !== undefined ? o.delay.ms + " ms" : JSON.stringify(o.delay)));
    if (o.fault) parts.push("fault " + o.fault);
    if (o.throttle) parts.push(o.throttle.bytesPerSecond + " B/s");
    if (o.hold) parts.push("held");
    return parts.join(", ") || "nothing";
  }

  function fillSessionPickers() {
    const names = new Set(state.sessions.map((s) => s.session));
    for (const e of state.entries) if (e.session) names.add(e.session);
    if (state.scope) names.add(state.scope);
    const sorted = [...names].sort();
    const scope = $("scope");
    scope.replaceChildren(...nodes(el("option", { value: "", text: "everyone" }), sorted.map((n) => el("option", { value: n, text: "session " + n }))));
    scope.value = state.scope;
    const filter = $("traffic-session");
    const kept = filter.value;
    filter.replaceChildren(...nodes(el("option", { value: "*", text: "every session" }), el("option", { value: "", text: "no session" }),
      sorted.map((n) => el("option", { value: n, text: n }))));
    filter.value = [...filter.options].some((o) => o.value === kept) ? kept : "*";
  }

  async function loadHealth() {
    const h = await api("GET", "/__stubd/health");
    const badge = $("health-badge");
    badge.textContent = h.status;
    badge.className = "pill " + (h.status === "ok" ? "ok" : "bad");
    const limits = Object.entries(h.limitsHit || {});
    const reload = el("button", { class: "reload", text: "Reload stubs" });
    reload.addEventListener("click", () => api("POST", "/__stubd/reload").then(() => { toast("Reloaded"); loadHealth(); loadRoutes(); }).catch((e) => { fail(e); loadHealth(); }));
    $("health").replaceChildren(el("div", { class: "cards" },
      el("div", { class: "card" }, el("h2", {}, el("span", { text: "Stub set" }), el("span", { class: "pill " + (h.status === "ok" ? "ok" : "bad"), text: h.status })),
        el("dl", {}, [["Routes", h.routes], ["Loaded", new Date(h.stubsLoadedAt).toLocaleString()], ["Version", h.version],
          ["Contract violations", h.contractViolations]].map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])), reload),
      el("div", { class: "card" }, el("h2", { text: "Reload problems" }),
        h.errors && h.errors.length ? [el("p", { class: "error", text: "The last reload failed; the stubs loaded before it are still served." }),
          el("ul", { class: "problems" }, h.errors.map((p) => el("li", { text: p })))] : el("p", { class: "muted", text: "None: the last load succeeded." })),
      el("div", { class: "card" }, el("h2", { text: "Limits hit" }),
        limits.length ? el("dl", {}, limits.map(([k, v]) => [el("dt", { text: k }), el("dd", { class: v ? "error" : "", text: v })])) : el("p", { class: "muted", text: "Not reported." }))));
  }

  // ---- live stream -----------------------------------------------------------------------------

  function setLive(on) {
    const live = $("live");
    live.textContent = on ? "● live" : "○ reconnecting";
    live.className = "live" + (on ? " on" : "");
  }

  let refreshTimer = 0;
  function changed() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      loadRoutes().catch(fail);
      if (currentView() === "sessions") loadSessions().catch(fail);
      loadHealth().catch(() => {});
    }, 100);
  }

  function handle(block) {
    let event = "message", data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trimStart();
    }
    if (event === "request") { try { arrive([JSON.parse(data)]); } catch (_) { /* a line cut by a proxy: skipped */ } }
    else if (event === "change") changed();
    else if (event === "dropped") { try { dropped(JSON.parse(data)); } catch (_) { /* skipped */ } }
  }

  // The stream is closed when the page is hidden for good or put in the back-forward cache, so a
  // left page holds none of the browser's six connections to this server; it is opened again if
  // the page comes back.
  let streamAbort = null, streamStopped = false;
  window.addEventListener("pagehide", () => { streamStopped = true; if (streamAbort) streamAbort.abort(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted && started) { streamStopped = false; stream(); } });

  async function stream() {
    if (streamStopped) return;
    streamAbort = new AbortController();
    try {
      const res = await fetch(`/__stubd/journal/stream?scope=all&since=${state.lastID}`,
        { headers: headers(), cache: "no-store", signal: streamAbort.signal });
      if (res.status === 401) { askToken(!!state.token); return; }
      if (!res.ok || !res.body) throw new Error("stream " + res.status);
      setLive(true);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          handle(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (_) { /* reconnect below */ }
    setLive(false);
    if (!streamStopped) setTimeout(stream, 1000);
  }

  // ---- start -----------------------------------------------------------------------------------

  let started = false;
  async function start() {
    try {
      await loadRoutes();
      // For bench/dashboard.py: when the routes view first showed the table.
      if (!started) performance.mark("stubd:routes");
    } catch (e) { fail(e); return; }
    if (started) return;
    started = true;
    const journal = await api("GET", "/__stubd/journal?scope=all&limit=" + MAX_ENTRIES).catch(() => ({ requests: [] }));
    arrive(journal.requests);
    stream();
    loadHealth().catch(() => {});
    loadSessions().catch(() => {});
    drawTimeline();
    setInterval(drawTimeline, 1000);
    setInterval(() => loadHealth().catch(() => {}), 10000);
  }

  const first = (location.hash || "").slice(1);
  show(["routes", "traffic", "sessions", "health"].includes(first) ? first : "routes");
  start();
})();
