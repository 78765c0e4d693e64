// The game's chats at the table: the players' (its seats only) and the watchers' (a seat reads it once it opens
// that tab). Loaded when the chat is first opened, so the table's first load carries none of it. Every line is
// what a person typed, put in the page as text (el() makes text nodes: never HTML, no link made clickable).
// Lines arrive on the game's socket ({"type": "chat"}, handed here by game.js); a line is sent over HTTP, whose
// errors (too long, too fast, muted, timed out) are said under the input; its echo comes on the socket.
import { api, el, toast } from "/static/common.js";
import { t } from "/static/i18n.js";

const MAX_TEXT = 300;  // chat.MAX_TEXT
const $ = (id) => document.getElementById(id);
let game = null;       // {gameId, seat, token, send}: from toggle
let room = "seats";
const lines = { seats: new Map(), watchers: new Map() };  // id -> line, per room
let you = null;        // the account's chat here (GET /chat's "you"), null for a guest

function styles() {
  if (document.querySelector("link[href='/static/chat.css']")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/chat.css" }));
}

// The Chat button (game.js): opens the panel, or closes it. seat: the table's seat (null: a watcher); tokens: the
// seats' tokens this browser holds; send(message): on the game's socket.
export async function toggle(gameId, seat, tokens, send) {
  if (!$("chat").classList.contains("hidden")) { closeChat(); return; }
  $("chat-unread").classList.add("hidden");
  $("chat-toggle").setAttribute("aria-expanded", "true");
  await openChat({ gameId, seat, token: seat === null ? null : tokens.get(seat) || null, send });
}

async function openChat(options) {
  game = options;
  styles();
  room = game.seat === null || game.seat === undefined ? "watchers" : "seats";
  if (!$("chat").dataset.keys) {  // Escape closes the chat, back to its button
    $("chat").dataset.keys = "1";
    $("chat").addEventListener("keydown", (event) => { if (event.key === "Escape") closeChat(); });
  }
  $("chat").classList.remove("hidden");
  await show(room);
  $("chat-input")?.focus();
}

function closeChat() {
  $("chat").classList.add("hidden");
  $("chat-toggle").setAttribute("aria-expanded", "false");
  $("chat-toggle").focus();
  if (room === "watchers" && isSeat()) game.send({ type: "chat_open", open: false });
}

function isSeat() { return game.seat !== null && game.seat !== undefined; }

// A chat line from the socket (of a room this socket reads): shown if the panel is open (true), else kept.
export function receive(message) {
  const line = message.line;
  lines[line.room].set(line.id, line);
  if ($("chat").classList.contains("hidden")) return false;
  if (line.room === room) append(line);
  return true;
}

// The socket was opened again: a seat reading the watchers' chat says so again (a new socket reads its own).
export function reconnected() {
  if (game && room === "watchers" && isSeat() && !$("chat").classList.contains("hidden")) {
    game.send({ type: "chat_open", open: true });
  }
}

async function show(which) {
  room = which;
  if (isSeat()) game.send({ type: "chat_open", open: which === "watchers" });
  let log = null;
  try {
    log = await api("GET", `/api/games/${game.gameId}/chat?room=${which}`, null, game.token);
  } catch (err) {
    toast(err.message);
    return;
  }
  you = log.you;
  lines[which] = new Map(log.lines.map((line) => [line.id, line]));  // the server's: blocks and mutes applied
  draw();
}

function draw() {
  const tabs = el("div", { class: "chat-tabs", role: "tablist", "aria-label": t("Chats") });
  const rooms = isSeat() ? ["seats", "watchers"] : ["watchers"];
  for (const which of rooms) {
    const tab = el("button", { type: "button", role: "tab", class: "chat-tab", "data-testid": `chat-tab-${which}`,
      "aria-selected": String(which === room) }, which === "seats" ? t("Players") : t("Watchers"));
    tab.addEventListener("click", () => show(which));
    tabs.append(tab);
  }
  const close = el("button", { type: "button", class: "btn secondary small", "data-testid": "chat-close",
    "aria-label": t("Close the chat") }, "×");
  close.addEventListener("click", closeChat);
  const log = el("div", { id: "chat-log", class: "chat-log", role: "log", "aria-live": "polite", "data-testid": "chat-log",
    "aria-label": room === "seats" ? t("Players' chat") : t("Watchers' chat") });
  const box = $("chat");
  box.replaceChildren(el("div", { class: "chat-head" }, el("h2", {}, t("Chat")), tabs, close), log, writer(), settings());
  const sorted = [...lines[room].values()].sort((a, b) => a.id - b.id);
  if (!sorted.length) log.append(el("p", { class: "chat-empty" }, you && (you.muted || you.off) ? t("The chat is muted.") : t("No messages yet.")));
  for (const line of sorted) append(line);
}

function append(line) {
  const log = $("chat-log");
  if (!log || log.querySelector(`[data-id="${line.id}"]`)) return;
  log.querySelector(".chat-empty")?.remove();
  const item = el("p", { "data-id": String(line.id), "data-testid": "chat-line" },
    el("span", { class: "chat-who" }, line.name), " ", el("span", { class: "chat-text", "data-testid": "chat-text" }, line.text));
  if (you && line.name !== you.name) {
    const report = el("button", { type: "button", class: "chat-act", "data-testid": "chat-report",
      "aria-label": t("Report this line by {name}", { name: line.name }) }, t("Report"));
    report.addEventListener("click", () => reportLine(line, report));
    const block = el("button", { type: "button", class: "chat-act", "data-testid": "chat-block",
      "aria-label": t("Block {name}", { name: line.name }) }, t("Block"));
    block.addEventListener("click", () => blockPerson(line.name));
    item.append(" ", report, " ", block);
  }
  log.append(item);
  log.scrollTop = log.scrollHeight;
}

function writer() {
  if (!you) return el("p", { class: "chat-note", "data-testid": "chat-note" }, t("Sign in to write in the chat."));
  if (!you.can_write) {
    const why = you.timeout_until ? t("You may not write in the chat until {time}.", { time: new Date(you.timeout_until).toLocaleString() })
      : you.muted || you.off ? t("The chat is muted.") : room === "seats" ? t("Only the players write here.") : t("Players write in the players' chat.");
    return el("p", { class: "chat-note", "data-testid": "chat-note" }, why);
  }
  const label = room === "seats" ? t("Message to the players") : t("Message to the watchers");
  const input = el("input", { id: "chat-input", type: "text", maxlength: String(MAX_TEXT), autocomplete: "off",
    placeholder: label, "data-testid": "chat-input" });
  const error = el("p", { class: "chat-error", id: "chat-error", role: "alert" });
  const form = el("form", { class: "chat-form" },
    el("label", { for: "chat-input", class: "sr-only" }, label),
    input, el("button", { type: "submit", class: "btn small", "data-testid": "chat-send" }, t("Send")), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.textContent = "";
    try {
      const line = await api("POST", `/api/games/${game.gameId}/chat`, { room, text });
      input.value = "";
      lines[room].set(line.id, line);
      append(line);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

function settings() {
  if (!you) return "";
  const mute = el("input", { type: "checkbox", id: "chat-mute", "data-testid": "chat-mute", checked: you.muted });
  mute.addEventListener("change", async () => {
    you = { ...you, ...await api("PUT", `/api/games/${game.gameId}/chat/mute`, { muted: mute.checked }) };
    await show(room);
  });
  const off = el("input", { type: "checkbox", id: "chat-off", "data-testid": "chat-off", checked: you.off });
  off.addEventListener("change", async () => {
    await api("PUT", "/api/account/chat", { off: off.checked });
    await show(room);
  });
  return el("div", { class: "chat-settings" },
    el("label", {}, mute, " ", t("Mute this game's chat")), el("label", {}, off, " ", t("Chat off in all my games")));
}

async function reportLine(line, button) {
  try {
    await api("POST", `/api/games/${game.gameId}/chat/${line.id}/report`, {}, game.token);
    button.disabled = true;
    toast(t("Reported: the site's operator will read it."));
  } catch (err) {
    toast(err.message);
  }
}

async function blockPerson(name) {
  if (!confirm(t("Block {name}? Neither of you will see the other's chat.", { name }))) return;
  try {
    await api("POST", "/api/blocks", { name });
  } catch (err) {
    toast(err.message);
    return;
  }
  for (const which of Object.keys(lines)) {
    for (const [id, line] of lines[which]) if (line.name === name) lines[which].delete(id);
  }
  toast(t("{name} is blocked.", { name }));
  draw();
}
