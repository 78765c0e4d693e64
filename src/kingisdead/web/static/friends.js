// The lobby's friends panel, for a signed-in player (account.js mounts it after the games panel): the players
// you follow, each with a dot saying whether they are online and a link to each running game you share marked
// "your turn" or "their turn"; a field to follow (or block) a name; unfollow and block buttons; your block list
// with unblock buttons; the "let others follow me" setting. Every answer of /api/friends and /api/blocks is the
// whole view (routes/friends.py), drawn again only when it changed, so that a refresh never takes the focus. The
// panel asks again every REFRESH_MS while the page is visible (which also keeps you online to your friends), at
// once when it shows again.
import { api, el, redraw } from "/static/common.js";
import { t, tn } from "/static/i18n.js";

const REFRESH_MS = 30000;  // online dots and turns: "online" means seen in the last 5 minutes

let panel = null;
let timer = null;
let drawn = "";  // the view last drawn, as JSON

// Show the panel after `after` (the lobby's games panel); nothing more if it is shown already.
export function mountFriends(after) {
  if (panel && panel.isConnected) return;
  panel = el("section", { class: "panel friends", "aria-labelledby": "friends-title", "data-testid": "friends" });
  after.after(panel);
  drawn = "";
  panel.append(el("h2", { id: "friends-title" }, t("Friends")), followForm(), el("p", {
    class: "muted", role: "status", "aria-live": "polite", "data-testid": "friends-status" }),
  el("div", { "data-testid": "friends-body" }));
  load();
  clearInterval(timer);
  timer = setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);  // a hidden tab asks nothing
}

document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });

// Signed out: the panel goes.
export function unmountFriends() {
  clearInterval(timer);
  if (panel) panel.remove();
  panel = null;
}

async function load() {
  if (!panel) return;
  try {
    show(await api("GET", "/api/friends"));
  } catch (err) {
    if (err.status === 401) unmountFriends();  // signed out elsewhere: account.js shows the sign-in form
  }
}

function say(text, error = false) {
  const status = panel.querySelector("[data-testid=friends-status]");
  status.textContent = text;
  status.className = error ? "error-box" : "muted";
}

// Send one change; its answer is the new view. Returns whether it went through.
async function change(method, path, body, done) {
  try {
    show(await api(method, path, body));
  } catch (err) {
    say(err.message, true);
    return false;
  }
  say(done);
  return true;
}

function followForm() {
  const name = el("input", { type: "text", maxlength: 40, autocomplete: "off", id: "friend-name",
                             "data-testid": "friend-name", placeholder: t("Player's name") });
  const follow = el("button", { class: "btn small", type: "submit", "data-testid": "follow" }, t("Follow"));
  const block = el("button", { class: "btn secondary small", type: "button", "data-testid": "block-name" }, t("Block"));
  const form = el("form", { class: "friend-form" }, el("label", { for: "friend-name" }, t("Follow a player")),
                  el("div", { class: "form-row" }, name, follow, block));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = name.value.trim();
    if (who && await change("POST", "/api/friends", { name: who }, t("You follow {name}.", { name: who }))) name.value = "";
  });
  block.addEventListener("click", async () => {
    const who = name.value.trim();
    if (who && await change("POST", "/api/blocks", { name: who }, t("You blocked {name}.", { name: who }))) name.value = "";
  });
  return form;
}

function show(view) {
  const json = JSON.stringify(view);
  if (json === drawn || !panel) return;
  drawn = json;
  redraw(() => {
    const open = panel.querySelector("[data-testid=block-list]")?.open;  // a list being read stays open
    const blocked = blockList(view.blocked);
    blocked.open = Boolean(open);
    panel.querySelector("[data-testid=friends-body]").replaceChildren(friendList(view), blocked,
                                                                      setting(view.allow_follow));
  });
}

function friendList(view) {
  if (!view.friends.length) {
    return el("p", { class: "muted", "data-testid": "no-friends" },
              t("You follow no one yet: follow a player by name to see when they are online and your games together."));
  }
  return el("ul", { class: "friend-list", "data-testid": "friend-list", "aria-label": t("Players you follow") },
    ...view.friends.map(friend));
}

function friend(entry) {
  const online = entry.online ? t("online") : t("offline");
  const unfollow = el("button", { class: "btn secondary small", type: "button", "data-testid": "unfollow",
                                  "aria-label": t("Unfollow {name}", { name: entry.name }) }, t("Unfollow"));
  unfollow.addEventListener("click", () => change("DELETE", `/api/friends?name=${encodeURIComponent(entry.name)}`,
    null, t("You no longer follow {name}.", { name: entry.name })).then(focusField));
  const block = el("button", { class: "btn danger small", type: "button", "data-testid": "block",
                               "aria-label": t("Block {name}", { name: entry.name }) }, t("Block"));
  block.addEventListener("click", () => change("POST", "/api/blocks", { name: entry.name },
    t("You blocked {name}.", { name: entry.name })).then(focusField));
  const challenge = el("button", { class: "btn small", type: "button", "data-testid": "challenge-friend",
                                   "aria-label": t("Challenge {name}", { name: entry.name }) }, t("Challenge"));
  // challenges.js takes the name into its form
  challenge.addEventListener("click", () => window.dispatchEvent(new CustomEvent("kid:challenge", { detail: { name: entry.name } })));
  return el("li", { "data-testid": "friend", "data-name": entry.name, "data-online": entry.online ? "yes" : "no" },
    el("span", { class: entry.online ? "dot on" : "dot", role: "img", "aria-label": online, title: online }),
    el("strong", { class: "friend-name" }, entry.name),
    entry.follows_you ? el("span", { class: "tag", "data-testid": "follows-you" }, t("follows you")) : "",
    ...entry.games.map(gameLink),
    el("span", { class: "actions" }, challenge, unfollow, block));
}

function gameLink(game) {
  const words = { yours: t("your turn"), theirs: t("their turn"), other: t("waiting") }[game.turn];
  return el("a", { class: game.turn === "yours" ? "tag your-turn" : "tag", href: `/game/${game.id}`,
                   "data-testid": "shared-game", "data-game": game.id, "data-turn": game.turn,
                   "aria-label": t("Game {id}: {turn}", { id: game.id, turn: words }) }, words);
}

function blockList(blocked) {
  const items = blocked.map((entry) => {
    const unblock = el("button", { class: "btn secondary small", type: "button", "data-testid": "unblock",
                                   "aria-label": t("Unblock {name}", { name: entry.name }) }, t("Unblock"));
    unblock.addEventListener("click", () => change("DELETE", `/api/blocks?name=${encodeURIComponent(entry.name)}`,
      null, t("You unblocked {name}.", { name: entry.name })).then(focusField));
    return el("li", { "data-testid": "blocked", "data-name": entry.name }, el("span", {}, entry.name),
              el("span", { class: "actions" }, unblock));
  });
  return el("details", { class: "blocked-players", "data-testid": "block-list" },
    el("summary", {}, tn("{n} blocked player", "{n} blocked players", { n: blocked.length })),
    el("p", { class: "muted" }, t("Only you see this list. Blocked players cannot follow you or be followed by you, and their chat is hidden.")),
    items.length ? el("ul", { class: "friend-list" }, ...items) : "");
}

function setting(allowed) {
  const box = el("input", { type: "checkbox", "data-testid": "allow-follow", checked: allowed });
  box.addEventListener("change", () => change("PATCH", "/api/friends", { allow_follow: box.checked },
    box.checked ? t("Others may follow you.") : t("New follows of you are refused; your followers stay.")));
  return el("p", { class: "friend-setting" }, el("label", {}, box, " ", t("Let others follow me")));
}

// After an unfollow, block or unblock the button is gone: the focus goes back to the name field.
function focusField() {
  const field = panel && panel.querySelector("[data-testid=friend-name]");
  if (field) field.focus();
}
