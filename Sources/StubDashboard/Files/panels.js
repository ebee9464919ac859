// The timeline (inline SVG), the sessions view and the health view.
"use strict";
(() => {
  const S = window.stubd;
  const { WINDOW_S, $, state, el, nodes, toast, api, fail, show } = S;

  // ---- timeline --------------------------------------------------------------------------------

  function count(e) {
    const second = Math.floor(Date.parse(e.time) / 1000);
    let b = state.buckets.get(second);
    if (!b) { b = { "2": 0, "3": 0, "4": 0, "5": 0, fault: 0, delay: 0, n: 0 }; state.buckets.set(second, b); }
    const cls = S.statusClass(e);
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
      steer.addEventListener("click", () => { state.scope = s.session; fillSessionPickers(); S.loadRoutes().then(() => show("routes")).catch(fail); });
      const clear = el("button", { class: "clear-session", text: "Clear" });
      clear.addEventListener("click", () => api("DELETE", "/__stubd/sessions/" + encodeURIComponent(s.session).replace(/\./g, "%2E")).then(loadSessions).catch(fail));
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
    reload.addEventListener("click", () => api("POST", "/__stubd/reload").then(() => { toast("Reloaded"); loadHealth(); S.loadRoutes(); }).catch((e) => { fail(e); loadHealth(); }));
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

  Object.assign(S, { count, drawTimeline, dropped, loadSessions, loadHealth, fillSessionPickers });
})();
