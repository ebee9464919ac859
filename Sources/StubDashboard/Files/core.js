// The stubd dashboard's shared parts: constants, the state, building elements as text, the admin
// API with its token, and the tabs; the other files read them from `window.stubd`. Plain
// JavaScript, no build step, nothing loaded from elsewhere. Everything that comes from requests
// is put on the page as text (textContent), never as markup.
"use strict";
(() => {
  const S = (window.stubd = {});

  const PAGE = 100;          // routes shown per page
  const MAX_ENTRIES = 3000;  // requests kept in the tab
  const MAX_ROWS = 400;      // traffic rows in the table
  const WINDOW_S = 300;      // seconds the timeline shows
  const FAULTS = ["reset", "empty", "hang", "garbage", "truncate", "slow-headers", "rst-stream", "goaway", "goaway-abrupt"];

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
      const problems = json && (json.problems || json.variants || json.where);
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
    S.start();
  });

  // ---- tabs ------------------------------------------------------------------------------------

  function show(view) {
    for (const b of document.querySelectorAll("#tabs button")) b.setAttribute("aria-selected", String(b.dataset.view === view));
    for (const s of document.querySelectorAll("main .view")) s.hidden = s.dataset.view !== view;
    if (location.hash !== "#" + view) history.replaceState(null, "", "#" + view);
    if (view === "sessions") S.loadSessions().catch(fail);
    if (view === "health") S.loadHealth().catch(fail);
    if (view === "traffic") S.renderTraffic();
    if (S.watchConversations) S.watchConversations(view === "conversations");
    if (S.watchState) S.watchState(view === "state");
  }
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => show(b.dataset.view));
  const currentView = () => (document.querySelector("#tabs button[aria-selected='true']") || {}).dataset?.view || "routes";

  Object.assign(S, { PAGE, MAX_ENTRIES, MAX_ROWS, WINDOW_S, FAULTS, $, state, el, nodes, toast, Unauthorized, headers, api, routePath, fail, askToken, show, currentView });
})();
