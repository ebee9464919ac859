// The live journal stream and the start: this file runs last.
"use strict";
(() => {
  const S = window.stubd;
  const { MAX_ENTRIES, $, state, headers, api, fail, askToken, show, currentView } = S;

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
      S.loadRoutes().catch(fail);
      if (currentView() === "sessions") S.loadSessions().catch(fail);
      S.loadHealth().catch(() => {});
    }, 100);
  }

  function handle(block) {
    let event = "message", data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trimStart();
    }
    if (event === "request") { try { S.arrive([JSON.parse(data)]); } catch (_) { /* a line cut by a proxy: skipped */ } }
    else if (event === "change") changed();
    else if (event === "hello") { try { hello(JSON.parse(data)); } catch (_) { /* skipped */ } }
    else if (event === "dropped") { try { S.dropped(JSON.parse(data)); } catch (_) { /* skipped */ } }
  }

  // The stream is closed when the page is hidden for good or put in the back-forward cache, so a
  // left page holds none of the browser's six connections to this server; it is opened again if
  // the page comes back.
  let streamAbort = null, streamStopped = false;
  window.addEventListener("pagehide", () => { streamStopped = true; if (streamAbort) streamAbort.abort(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted && started) { streamStopped = false; stream(); } });

  // A journal whose last id is below what this tab saw is a new run of the server: start over,
  // reading it from its first entry.
  function hello(h) {
    if (h.lastID >= state.lastID) return;
    state.lastID = 0;
    state.entries = [];
    state.pending = [];
    S.renderTraffic();
    if (streamAbort) streamAbort.abort();
  }

  let streaming = false;
  async function stream() {
    if (streamStopped || streaming) return;
    streaming = true;
    streamAbort = new AbortController();
    try {
      const res = await fetch(`/__stubd/journal/stream?scope=all&since=${state.lastID}`,
        { headers: headers(), cache: "no-store", signal: streamAbort.signal });
      if (res.status === 401) { streaming = false; askToken(!!state.token); return; }
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
    streaming = false;
    setLive(false);
    if (!streamStopped) setTimeout(stream, 1000);
  }

  // ---- start -----------------------------------------------------------------------------------

  let started = false;
  async function start() {
    try {
      await S.loadRoutes();
      // For bench/dashboard.py: when the routes view first showed the table.
      if (!started) performance.mark("stubd:routes");
    } catch (e) { fail(e); return; }
    // After a new token: the stream may have stopped at a 401.
    if (started) { stream(); return; }
    started = true;
    const journal = await api("GET", "/__stubd/journal?scope=all&limit=" + MAX_ENTRIES).catch(() => ({ requests: [] }));
    S.arrive(journal.requests);
    stream();
    S.loadHealth().catch(() => {});
    S.loadSessions().catch(() => {});
    S.drawTimeline();
    setInterval(S.drawTimeline, 1000);
    setInterval(() => S.loadHealth().catch(() => {}), 10000);
  }

  const first = (location.hash || "").slice(1);
  show(["routes", "traffic", "conversations", "state", "sessions", "health"].includes(first) ? first : "routes");
  start();

  Object.assign(S, { start });
})();
