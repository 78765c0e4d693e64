// The lobby's account panel: sign up or sign in (or carry on as a guest), then the signed-in name with
// a sign-out button, "my games" (those where it is your turn first, marked, each with its clock), finished games,
// statistics and the e-mail settings (email.js). Signing up or in brings the games played here as a guest into
// the account (POST /api/account/guest-games with the seat tokens this browser keeps).
// The session is an HttpOnly cookie: this page never sees it, it only asks GET /api/account who is signed in.
import { api, el, forgetGames, shownName, redraw } from "/static/common.js";
import { mountPush } from "/static/push.js";
import { t, tn } from "/static/i18n.js";
import { ratingText } from "/static/leaderboard.js";
import { gameClock } from "/static/clock.js";
import { emailSettings } from "/static/email.js";
import { mountFriends, unmountFriends } from "/static/friends.js";
import { mountChallenges, unmountChallenges } from "/static/challenges.js";

let panel = null;
let timer = null;
let brought = 0;  // games played here as a guest that the last sign-up or sign-in made the account's

export async function mountAccount() {
  panel = el("section", { class: "panel account", "aria-label": t("Your account"), "data-testid": "account" });
  const lobby = document.querySelector("main.lobby");
  const hero = lobby.querySelector(".hero");
  if (hero) hero.after(panel); else lobby.prepend(panel);
  await refresh();
}

// Whoever is signed in (null: a guest). Without a session cookie (the page says so) there is no one to ask about.
async function whoAmI() {
  if (!document.body.dataset.session) return null;
  try {
    return await api("GET", "/api/account");
  } catch (err) {
    if (err.status === 401) { document.body.dataset.session = ""; return null; }
    throw err;
  }
}

async function refresh() {
  clearInterval(timer);
  let account;
  try {
    account = await whoAmI();
  } catch (err) {
    panel.replaceChildren(el("h2", {}, t("Your account")), el("div", { class: "error-box" }, err.message));
    return;
  }
  document.body.dataset.account = account ? account.name : "";
  if (!account) { unmountFriends(); unmountChallenges(); showForm(); return; }
  showAccount(account);
  mountFriends(document.getElementById("games")?.closest("section") || panel);  // friends.js, after the games
  mountChallenges(document.querySelector("[data-testid=friends]") || panel);  // challenges.js, after the friends
  const device = panel.appendChild(el("div", { class: "push-device", "data-testid": "push" }));  // static/push.js
  api("GET", "/api/account/notifications").then((view) => mountPush(device, view), () => {});  // none: no switch
  await loadMyGames();
  timer = setInterval(loadMyGames, 10000);
}

function showForm() {
  const name = el("input", { type: "text", maxlength: 40, autocomplete: "username", "data-testid": "account-name",
                             "aria-label": t("Name"), placeholder: t("Name") });
  const password = el("input", { type: "password", maxlength: 128, autocomplete: "current-password",
                                 "data-testid": "account-password", "aria-label": t("Password"), placeholder: t("Password") });
  const error = el("div", { class: "error-box hidden", "data-testid": "account-error", role: "alert" });
  const signIn = el("button", { class: "btn", type: "submit", "data-testid": "sign-in" }, t("Sign in"));
  const signUp = el("button", { class: "btn secondary", type: "button", "data-testid": "sign-up" }, t("Sign up"));
  const form = el("form", { class: "account-form" },
    el("div", { class: "form-row" }, name, password, signIn, signUp),
    el("p", { class: "muted", style: "font-size:0.85rem" },
      t("Sign in to see your games on any device, and to play rated games. Or carry on as a guest: your games stay in this browser, and join your account when you sign up or in.")),
    error);
  const send = async (path) => {
    error.classList.add("hidden");
    try {
      await api("POST", path, { name: name.value, password: password.value });
    } catch (err) {
      error.textContent = err.message;
      error.classList.remove("hidden");
      return;
    }
    document.body.dataset.session = "1";
    brought = await bringGuestGames();
    await refresh();
  };
  form.addEventListener("submit", (event) => { event.preventDefault(); send("/api/account/sign-in"); });
  signUp.addEventListener("click", () => {
    password.setAttribute("autocomplete", "new-password");
    send("/api/account/sign-up");
  });
  panel.replaceChildren(el("h2", {}, t("Your account")), form);
}

// The seat tokens this browser keeps (localStorage "kid:tokens:<game>", common.js), invites left out: as
// {game_id, token}.
function guestSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("kid:tokens:")) continue;
    let tokens = [];
    try { tokens = JSON.parse(localStorage.getItem(key) || "[]"); } catch { continue; }
    if (!Array.isArray(tokens)) continue;
    const game = key.slice("kid:tokens:".length);
    for (const token of tokens) {
      if (typeof token === "string" && token && !token.startsWith("invite-")) seats.push({ game_id: game, token });
    }
  }
  return seats;
}

// Just signed up or in: the games this browser holds as a guest become the account's (the server takes only the
// seats no account holds), so that they are listed below and on the account's other devices. Returns how many
// games it took; a failure leaves them as they were (the next sign-in tries again).
async function bringGuestGames() {
  const seats = guestSeats();
  const games = new Set();
  for (let start = 0; start < seats.length; start += 100) {  // the server takes 100 at a time
    try {
      const answer = await api("POST", "/api/account/guest-games", { seats: seats.slice(start, start + 100) });
      for (const seat of answer.seats) if (seat.result === "claimed") games.add(seat.game_id);
    } catch {
      break;
    }
  }
  return games.size;
}

// The ids of the account's games (running, and the most recent finished): their seat tokens go when it signs out.
async function accountGames() {
  try { return (await api("GET", "/api/account/games?finished=100")).games.map((g) => g.id); } catch { return []; }
}

// Sign this browser out by ``send`` (sign-out, sign-out everywhere, deletion), then forget the seat tokens of the
// account's games. ``send``'s error (a wrong password) is shown in ``error`` and nothing changes.
async function signOutBy(send, error = null) {
  const games = await accountGames();
  try {
    await send();
  } catch (err) {
    if (!error) return;
    error.textContent = err.message;
    error.classList.remove("hidden");
    return;
  }
  forgetGames(games);
  document.body.dataset.session = "";
  await refresh();
}

function showAccount(account) {
  const out = el("button", { class: "btn secondary small", "data-testid": "sign-out" }, t("Sign out"));
  out.addEventListener("click", () => signOutBy(async () => {
    try { await api("POST", "/api/account/sign-out"); } catch { /* signed out already */ }
  }));
  const news = brought ? el("p", { class: "muted", role: "status", "data-testid": "guest-games-brought" },
    tn("{n} game played in this browser as a guest is now your account's.",
       "{n} games played in this browser as a guest are now your account's.", { n: brought })) : "";
  brought = 0;
  panel.replaceChildren(
    el("div", { class: "account-head" },
      el("h2", {}, t("Signed in as {name}", { name: account.name })), out),
    news,
    el("h3", {}, t("My games")),
    el("ul", { class: "game-list", "data-testid": "my-games" }),
    el("h3", {}, t("Finished games")),
    el("ul", { class: "game-list", "data-testid": "my-finished" }),
    el("h3", {}, t("Statistics")),
    statistics(account),
    emailSettings(),
    settings());
}

// Password change, sign out everywhere, deletion: each needs the password but sign-out everywhere.
function settings() {
  const field = (testid, label, autocomplete) => el("input", { type: "password", maxlength: 128, autocomplete,
    "data-testid": testid, "aria-label": label, placeholder: label });
  const box = (testid) => el("div", { class: "error-box hidden", role: "alert", "data-testid": testid });
  const current = field("password-current", t("Current password"), "current-password");
  const fresh = field("password-new", t("New password"), "new-password");
  const changed = box("password-result");
  const change = el("form", { class: "form-row" }, current, fresh,
    el("button", { class: "btn secondary small", type: "submit", "data-testid": "password-change" }, t("Change password")));
  change.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const done = await api("POST", "/api/account/password", { current: current.value, new: fresh.value });
      changed.textContent = t("Password changed; other browsers signed out: {n}", { n: done.sessions_ended });
      changed.className = "muted";
      current.value = fresh.value = "";
    } catch (err) {
      changed.textContent = err.message;
      changed.className = "error-box";
    }
  });
  const everywhere = el("button", { class: "btn secondary small", "data-testid": "sign-out-everywhere" },
    t("Sign out everywhere"));
  everywhere.addEventListener("click", () => signOutBy(() => api("POST", "/api/account/sign-out-everywhere")));
  const password = field("delete-password", t("Password"), "current-password");
  const refused = box("delete-error");
  const remove = el("form", { class: "form-row" }, password,
    el("button", { class: "btn danger small", type: "submit", "data-testid": "delete-account" }, t("Delete my account")));
  remove.addEventListener("submit", (event) => {
    event.preventDefault();
    refused.classList.add("hidden");
    signOutBy(() => api("DELETE", "/api/account", { password: password.value }), refused);
  });
  return el("details", { class: "account-settings", "data-testid": "account-settings" },
    el("summary", {}, t("Account settings")),
    el("h4", {}, t("Change password")), change, changed,
    el("h4", {}, t("Sign out everywhere")),
    el("p", { class: "muted" }, t("Ends your session on every device, this one included.")), everywhere,
    el("h4", {}, t("Delete my account")),
    el("p", { class: "muted" }, t("Your games stay, under an anonymous name; you leave your running games (a bot finishes them). Your name, ratings, e-mail settings and sessions are deleted.")),
    remove, refused);
}

function statistics(account) {
  const ratings = new Map(account.ratings.map((r) => [r.players, r]));
  const rows = [2, 3, 4].map((n) => {
    const s = account.by_players[String(n)];
    const rating = ratings.get(n);
    return el("tr", { "data-testid": `stats-${n}` },
      el("td", {}, n === 4 ? t("4 players (teams)") : t("{n} players", { n })),
      el("td", {}, String(s.played)), el("td", {}, String(s.won)),
      el("td", {}, rating ? ratingText(rating.rating, rating.provisional) : "–"));
  });
  return el("table", { class: "explain account-stats", "data-testid": "stats" },
    el("thead", {}, el("tr", {}, el("th", {}, t("Game")), el("th", {}, t("Played")), el("th", {}, t("Won")),
                                 el("th", {}, t("Rating")))),
    el("tbody", {}, ...rows));
}

async function loadMyGames() {
  let games;
  try {
    games = (await api("GET", "/api/account/games")).games;
  } catch (err) {
    if (err.status === 401) { await refresh(); return; }  // signed out elsewhere, or the session ended
    return;
  }
  const list = panel.querySelector("[data-testid=my-games]");
  const finished = panel.querySelector("[data-testid=my-finished]");
  if (!list || !finished) return;
  const running = games.filter((g) => g.status !== "finished");
  const done = games.filter((g) => g.status === "finished");
  redraw(() => {  // refreshed every 10 s: a click on a game is kept
    list.replaceChildren(...(running.length ? running.map(item) : [el("li", { class: "muted" }, t("No running games: create one."))]));
    finished.replaceChildren(...(done.length ? done.map(item) : [el("li", { class: "muted" }, t("None yet."))]));
  });
}

function item(game) {
  const others = game.seats.filter((s) => !game.your_seats.includes(s.seat))
    .map((s) => (s.kind === "bot" || s.claimed ? shownName(s) || s.name : t("free seat"))).join(" · ");
  let state;
  if (game.status === "finished") state = el("span", { class: game.won ? "tag won" : "tag" }, game.won ? t("won") : t("lost"));
  else if (game.your_turn) state = el("span", { class: "tag your-turn", "data-testid": "your-turn" }, t("Your turn"));
  else state = el("span", { class: "muted" }, t("move {n}", { n: game.move_number }));
  return el("li", { "data-testid": "my-game", "data-game": game.id, "data-your-turn": game.your_turn ? "yes" : "no" },
    el("span", { class: "gid" }, game.id),
    state,
    gameClock(game, game.your_turn),
    el("span", {}, t("{n} players", { n: game.players })),
    el("span", { style: "font-size:0.85rem" }, others ? t("against {names}", { names: others }) : ""),
    el("span", { class: "actions" },
      el("a", { class: "btn secondary small", href: `/game/${game.id}` }, game.status === "finished" ? t("View") : t("Open"))));
}
