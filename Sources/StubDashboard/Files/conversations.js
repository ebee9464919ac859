// The conversations view: WebSocket conversations, open ones first, and the chosen one's messages
// both ways, refreshed every second while the view shows (the admin API's list and record), with
// a box that pushes a message into it and a button that closes it.
"use strict";
(() => {
  const S = window.stubd;
  const { $, el, nodes, toast, api, fail } = S;
  let chosen = null;
  let timer = 0;

  const time = (iso) => new Date(iso).toLocaleTimeString([], { hour12: false }) + "." + iso.slice(20, 23);

  function row(c) {
    const tr = el("tr", { "data-id": c.id, class: c.id === chosen ? "selected" : "", tabindex: "0" },
      el("td", { class: "mono", text: c.id }),
      el("td", { class: "mono", text: c.path }),
      el("td", { text: c.variant }),
      el("td", { text: c.session || "" }),
      el("td", { class: c.state === "open" ? "ok" : "muted", text: c.state === "open" ? "open" : endText(c.ending) }),
      el("td", { class: "num", text: `${c.messagesIn} in · ${c.messagesOut} out` }));
    const pick = () => { chosen = c.id; refresh(); };
    tr.addEventListener("click", pick);
    tr.addEventListener("keydown", (event) => { if (event.key === "Enter") pick(); });
    return tr;
  }

  function endText(e) {
    if (!e) return "ended";
    return `${e.by}${e.code ? " " + e.code : ""}${e.reason ? ": " + e.reason : ""}`;
  }

  function message(m) {
    const body = m.type === "text" ? m.text : `binary, ${m.size} bytes: ${m.base64 || ""}`;
    return el("li", { class: "msg " + m.direction },
      el("span", { class: "muted mono", text: `${time(m.at)} ${m.direction === "in" ? "→ in " : "← out"}` }),
      el("span", { class: "mono", text: body + (m.truncated ? " …" : "") }));
  }

  function detail(c) {
    const box = el("textarea", { id: "conversation-message", rows: "3", "aria-label": "Message to send", placeholder: "Text to send (JSON is sent as it is)" });
    const send = el("button", { id: "conversation-send", text: "Send" });
    send.addEventListener("click", () => {
      api("POST", `/__stubd/conversations/${c.id}/send`, { text: box.value })
        .then(() => { box.value = ""; toast("Sent"); refresh(); }).catch(fail);
    });
    const close = el("button", { class: "quiet", text: "Close 1000" });
    close.addEventListener("click", () => {
      api("POST", `/__stubd/conversations/${c.id}/close`, { code: 1000, reason: "closed from the dashboard" }).then(refresh).catch(fail);
    });
    const open = c.state === "open";
    return nodes(
      el("h2", { text: `#${c.id} ${c.path}` }),
      el("div", { class: "muted", text: `${c.route} · ${c.variant}${c.subprotocol ? " · " + c.subprotocol : ""} · opened ${time(c.opened)}` +
        (open ? "" : ` · ended by ${endText(c.ending)}`) }),
      c.messagesNotKept ? el("p", { class: "muted", text: `${c.messagesNotKept} earlier messages not kept` }) : null,
      el("ul", { class: "messages", id: "conversation-messages" }, c.messages.map(message)),
      open ? el("div", { class: "actions" }, box) : null,
      open ? el("div", { class: "actions" }, send, close) : null);
  }

  // What was drawn last: the page is redrawn only when the server's answer changed, so a row
  // being clicked or a message being typed is not replaced under the hand.
  let drawnList = "", drawnDetail = "";

  async function refresh() {
    const list = (await api("GET", "/__stubd/conversations")).conversations;
    const listKey = JSON.stringify([list, chosen]);
    if (listKey !== drawnList) {
      drawnList = listKey;
      $("conversations").querySelector("tbody").replaceChildren(...list.map(row));
      $("conversations-empty").hidden = list.length > 0;
    }
    const pane = $("conversation");
    if (chosen === null) { pane.hidden = true; return; }
    const c = await api("GET", `/__stubd/conversations/${chosen}`);
    const detailKey = JSON.stringify(c);
    if (detailKey === drawnDetail) return;
    drawnDetail = detailKey;
    // What was typed in the box survives a redraw.
    const typed = $("conversation-message");
    const keep = typed ? { value: typed.value, focused: document.activeElement === typed } : null;
    pane.replaceChildren(...detail(c));
    pane.hidden = false;
    const box = $("conversation-message");
    if (box && keep) { box.value = keep.value; if (keep.focused) box.focus(); }
    const shown = $("conversation-messages");
    shown.scrollTop = shown.scrollHeight;
  }

  // Refreshed while the view shows; stopped when another one does.
  function watch(on) {
    clearInterval(timer);
    if (!on) return;
    refresh().catch(fail);
    timer = setInterval(() => refresh().catch(() => {}), 1000);
  }

  Object.assign(S, { watchConversations: watch });
})();
