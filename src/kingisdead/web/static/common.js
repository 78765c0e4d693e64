// Helpers shared by the lobby and the table: API calls, seat tokens, small DOM builders.
import { t } from "/static/i18n.js";

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// A request that got no answer (offline, or the connection dropped): an ApiError of status 0 that says so in the
// page's language, in place of the browser's bare "Failed to fetch".
function unreachable() {
  return new ApiError(0, t("The server cannot be reached: check your connection, then try again."));
}

// `fetch`, with a request that got no answer thrown as unreachable().
export async function request(path, options = {}) {
  try {
    return await fetch(path, options);
  } catch {
    throw unreachable();
  }
}

// Call the JSON API; a seat's token goes in the Authorization header. Every request that changes
// something says it is JSON, even without a body: the server refuses cookie-signed ones that do not.
// Throws ApiError: the server's refusal (its status and detail), or unreachable().
export async function api(method, path, body = null, token = null) {
  const headers = {};
  if (body !== null || method !== "GET") headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const response = await request(path, { method, headers, body: body === null ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.detail || `${response.status} ${response.statusText}`);
  return data;
}

// Seat tokens this browser holds for a game: from the link's #token= / #tokens= and from earlier visits.
export function tokensFor(gameId) {
  const key = `kid:tokens:${gameId}`;
  const known = JSON.parse(localStorage.getItem(key) || "[]");
  const hash = new URLSearchParams(location.hash.slice(1));
  const fresh = [hash.get("token"), ...(hash.get("tokens") || "").split(",")].filter(Boolean);
  const all = [...new Set([...fresh, ...known])];
  if (all.length) saveTokens(gameId, all);  // a game only watched is not one of "your games"
  if (fresh.length) history.replaceState(null, "", location.pathname);  // keep the secret out of the address bar
  return all;
}

// Exchange every invite among this browser's tokens for the seat's own token (once: the invite is then
// spent, and opens the seat for no other browser). Returns the tokens left: seat tokens only.
export async function claimInvites(gameId, tokens) {
  const kept = [];
  for (const token of tokens) {
    if (!token.startsWith("invite-")) { kept.push(token); continue; }
    try {
      const claimed = await api("POST", `/api/games/${gameId}/claim`, null, token);
      kept.push(claimed.token);
    } catch (err) {
      toast(err.status === 403 ? t("This invite was already used: its seat belongs to the browser that opened it first.") : err.message);
    }
  }
  localStorage.setItem(`kid:tokens:${gameId}`, JSON.stringify(kept));
  return kept;
}

export function saveTokens(gameId, tokens) {
  localStorage.setItem(`kid:tokens:${gameId}`, JSON.stringify(tokens));
  const mine = new Set(JSON.parse(localStorage.getItem("kid:games") || "[]"));
  mine.add(gameId);
  localStorage.setItem("kid:games", JSON.stringify([...mine].slice(-30)));
}

// This browser's tutorial game (learn.js saves it, game.js loads tutorial.js over its table): {id, tutor (token),
// step, edition, mode}.
export const TUTORIAL_KEY = "kid:tutorial";
export function myGames() { return JSON.parse(localStorage.getItem("kid:games") || "[]"); }

// Forget the seat tokens this browser keeps for these games (an account's, when it signs out): the next person
// on this device must not open them and play the seats.
export function forgetGames(ids) {
  const gone = new Set(ids);
  for (const id of gone) localStorage.removeItem(`kid:tokens:${id}`);
  localStorage.setItem("kid:games", JSON.stringify(myGames().filter((id) => !gone.has(id))));
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ---------- redraws that keep clicks ----------
// A browser fires a click only on the node both the press and the release landed on: a redraw between them (a
// view from the server, the end of an opponent's move shown, a list refreshed) would swallow the click. While a
// pointer is down, redraws wait, and run just after the release's click.
const pressed = new Set();  // the pointers down now
const held = new Set();     // the redraws waiting for their release
function releaseRedraws() {
  if (pressed.size) return;
  const due = [...held];
  held.clear();
  for (const draw of due) draw();
}
addEventListener("pointerdown", (event) => pressed.add(event.pointerId), true);
for (const type of ["pointerup", "pointercancel"]) {
  addEventListener(type, (event) => { pressed.delete(event.pointerId); setTimeout(releaseRedraws); }, true);
}
addEventListener("blur", () => { pressed.clear(); releaseRedraws(); });  // a release the page never heard of

// Run `draw` now, or once no pointer is down (the same function asked twice meanwhile runs once).
export function redraw(draw) {
  if (pressed.size) held.add(draw);
  else draw();
}

let toastTimer = null;
export function toast(message) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = message;
  box.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.add("hidden"), 4000);
}

// A call no one waited for (a list refreshed every few seconds, a page's first loads) whose request got no answer:
// the toast says the server cannot be reached, where the browser would only log an uncaught "Failed to fetch".
// Every other uncaught error stays one.
addEventListener("unhandledrejection", (event) => {
  if (event.reason instanceof ApiError && event.reason.status === 0) {
    event.preventDefault();
    toast(event.reason.message);
  }
});

// Bot levels by name, as GET /api/meta's "levels" gives them (label in the page's language); pages call
// knowLevels once they have the meta data.
const LEVELS = new Map();
export function knowLevels(levels) { for (const level of levels) LEVELS.set(level.name, level); }
export function levelLabel(bot) { return LEVELS.has(bot) ? LEVELS.get(bot).label : bot; }

// The server names seats "Player 2" and "Intermediate bot" when their creator gave no name: those
// default names are shown in the page's language.
export function shownName(seat) {
  if (!seat.name || seat.name === `Player ${seat.seat + 1}`) return null;
  if (seat.kind === "bot" && seat.bot && seat.name === `${seat.bot[0].toUpperCase()}${seat.bot.slice(1)} bot`) {
    return t("{level} bot", { level: levelLabel(seat.bot) });
  }
  return seat.name;
}

export function seatLabel(seat) {
  const number = t("Player {n}", { n: seat.seat + 1 });
  const name = shownName(seat);
  return name && name !== number ? `${number} · ${name}` : number;
}

// "A and B", "A, B and C" in the page's language.
export function andList(items) {
  if (items.length < 2) return items.join("");
  return t("{list} and {last}", { list: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

// The result's title; `facts` (GET /api/meta for the game's edition) names the invasion (facts.invaders.invasion).
export function resultTitle(result, view, facts) {
  const name = (p) => seatLabel(view.seats[p]);
  const winners = andList(result.winners.map(name));
  if (result.ending === "invasion") {
    const invasion = facts.invaders.invasion;
    if (view.players === 4) return t("{invasion}: {players} lead the resistance", { invasion, players: winners });
    return result.ruler !== null ? t("{invasion}: {player} leads the resistance", { invasion, player: name(result.ruler) })
                                 : t("{invasion}: {players} share the lead", { invasion, players: winners });
  }
  if (result.ruler === null) return t("{players} share the throne", { players: winners });
  const player = name(result.ruler);
  if (view.players === 4) {
    const partner = name((result.ruler + 2) % 4);
    return result.ending === "mordred" ? t("{player} rules after Mordred's rebellion (with {partner})", { player, partner })
                                       : t("{player} is crowned (with {partner})", { player, partner });
  }
  return result.ending === "mordred" ? t("{player} rules after Mordred's rebellion", { player })
                                     : t("{player} is crowned", { player });
}
