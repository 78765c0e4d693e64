// The lobby's challenges panel, for a signed-in player (account.js mounts it after the friends panel): a field to
// challenge a player by name to a game with the settings of the lobby's create form (players, the bots of the
// seats after the second, edition, mode and options, rated, clock), and in a 3- or 4-player game a field for each
// seat after the second, where a name puts a person instead of the form's bot; the open challenges sent to you,
// each with every person's answer so far, Accept and Decline (Decline still after accepting, while others have not
// answered), and those you accepted that ended, with a link to the table once it is made; yours, with each
// person's answer, Withdraw while open and, once accepted, a link to the table. The friends panel's Challenge
// buttons fill the name (the "kid:challenge" event), or the first empty seat's field once it is taken. Every answer
// of /api/challenges is the whole view (routes/challenges.py), drawn again only when it changed, so that a refresh
// never takes the focus. The panel asks again every REFRESH_MS while the page is visible, at once when it shows.
import { andList, api, el, levelLabel, redraw } from "/static/common.js";
import { t, tn } from "/static/i18n.js";

const REFRESH_MS = 10000;  // a challenge sent to you, or yours accepted, shows within this

let panel = null;
let timer = null;
let drawn = "";

// Show the panel after `after` (the friends panel); nothing more if it is shown already.
export function mountChallenges(after) {
  if (panel && panel.isConnected) return;
  // the friends panel's look (style.css): nothing of its own on the table page's stylesheet
  panel = el("section", { class: "panel friends challenges", "aria-labelledby": "challenges-title", "data-testid": "challenges" });
  after.after(panel);
  drawn = "";
  panel.append(el("h2", { id: "challenges-title" }, t("Challenges")), challengeForm(), el("p", {
    class: "muted", role: "status", "aria-live": "polite", "data-testid": "challenges-status" }),
  el("div", { "data-testid": "challenges-body" }));
  load();
  clearInterval(timer);
  timer = setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);  // a hidden tab asks nothing
}

document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });

export function unmountChallenges() {
  clearInterval(timer);
  if (panel) panel.remove();
  panel = null;
}

// A friend's Challenge button: the name goes in the first empty field (the second seat's, else a further seat's
// whose details are open), which takes the focus.
window.addEventListener("kid:challenge", (event) => {
  if (!panel) return;
  const more = panel.querySelector("[data-testid=more-people]");
  const fields = [panel.querySelector("[data-testid=challenge-name]"),
                  ...(more && more.open ? more.querySelectorAll("input") : [])];
  const field = fields.find((f) => !f.value.trim()) || fields[0];
  if (!field) return;
  field.value = event.detail.name;
  field.focus();
  field.scrollIntoView({ block: "center" });
});

async function load() {
  if (!panel) return;
  try {
    show(await api("GET", "/api/challenges"));
  } catch (err) {
    if (err.status === 401) unmountChallenges();
  }
}

function say(text, error = false) {
  const status = panel.querySelector("[data-testid=challenges-status]");
  status.textContent = text;
  status.className = error ? "error-box" : "muted";
}

async function change(method, path, body, done) {
  try {
    const answer = await api(method, path, body);
    show(answer.challenges || answer);
    say(done);
    return answer;
  } catch (err) {
    say(err.message, true);
    return null;
  }
}

function challengeForm() {
  const name = el("input", { type: "text", maxlength: 40, autocomplete: "off", id: "challenge-name",
                             "data-testid": "challenge-name", placeholder: t("Player's name") });
  const send = el("button", { class: "btn small", type: "submit", "data-testid": "challenge" }, t("Challenge"));
  // seats 3 and 4 (a 3- or 4-player game): a name there puts a person instead of the New game form's bot
  const others = [2, 3].map((seat) => el("input", { type: "text", maxlength: 40, autocomplete: "off", id: `challenge-seat-${seat}`,
                                                    "data-testid": `challenge-seat-${seat}`, placeholder: t("a bot of the New game form") }));
  const more = el("details", { "data-testid": "more-people" }, el("summary", {}, t("More people (3 or 4 players)")),
    ...others.map((field, i) => el("div", {}, el("label", { for: field.id }, t("Player {n}", { n: i + 3 })), field)));
  const form = el("form", { class: "friend-form" }, el("label", { for: "challenge-name" }, t("Challenge a player")),
    el("div", { class: "form-row" }, name, send), more,
    el("p", { class: "muted" }, t("A game with the settings of the New game form, you in the first seat, them in the second, bots or the people named above in the others; open for 3 days. It starts when everyone has accepted.")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = name.value.trim();
    if (!who) return;
    const { chosenGame } = await import("/static/lobby.js");
    const { bots, ...settings } = chosenGame();
    const seats = [{ name: who }];
    for (let seat = 2; seat < 4; seat++) {
      const other = others[seat - 2].value.trim();
      if (seat >= settings.players) {
        if (!other) continue;
        say(t("A {n}-player game has no player {seat}: choose more players in the New game form, or empty that field.", { n: settings.players, seat: seat + 1 }), true);
        return;
      }
      if (!other && !bots[seat - 2]) {
        say(t("Name player {seat}, or choose a bot for that seat in the New game form.", { seat: seat + 1 }), true);
        return;
      }
      seats.push(other ? { name: other } : { bot: bots[seat - 2] });
    }
    const names = andList(seats.filter((s) => s.name).map((s) => s.name));
    if (await change("POST", "/api/challenges", { seats, settings }, t("You challenged {name}.", { name: names }))) {
      for (const field of [name, ...others]) field.value = "";
    }
  });
  return form;
}

function show(view) {
  const json = JSON.stringify(view);
  if (json === drawn || !panel) return;
  drawn = json;
  redraw(() => panel.querySelector("[data-testid=challenges-body]").replaceChildren(
    el("h3", {}, t("Sent to you")),
    view.incoming.length ? el("ul", { class: "friend-list", "data-testid": "incoming", "aria-label": t("Sent to you") },
                              ...view.incoming.map(incoming))
                         : el("p", { class: "muted", "data-testid": "no-incoming" }, t("No challenge waits for you.")),
    view.ended.length ? el("ul", { class: "friend-list", "data-testid": "ended", "aria-label": t("Accepted by you") },
                           ...view.ended.map(ended)) : "",
    view.outgoing.length ? el("h3", {}, t("Yours")) : "",
    view.outgoing.length ? el("ul", { class: "friend-list", "data-testid": "outgoing", "aria-label": t("Yours") },
                              ...view.outgoing.map(outgoing)) : ""));
}

// What the challenge proposes, in a few words: edition, players, mode, rated, clock.
function summary(settings) {
  const parts = [settings.edition === "second" ? t("second edition") : t("first edition")];
  if (settings.players > 2) parts.push(tn("{n} player", "{n} players", { n: settings.players }));
  if (settings.mode === "advanced") parts.push(t("advanced game"));
  parts.push(settings.rated ? t("rated") : t("unrated"));
  if (settings.time_limit) parts.push(limitWords(settings.time_limit));
  return parts.join(", ");
}

function limitWords(seconds) {
  return seconds >= 86400 ? tn("{n} day per move", "{n} days per move", { n: seconds / 86400 })
                          : tn("{n} minute per move", "{n} minutes per move", { n: seconds / 60 });
}

// The seats after the challenger's: each person with their answer as far as it is told, each bot by its level.
// `own`: the viewer's seat, left out.
function seatList(entry, own = null) {
  const words = { open: t("waiting"), accepted: t("accepted"), declined: t("declined") };
  const items = entry.seats.filter((s) => s.seat !== own).map((s) => el("li", { "data-testid": "challenge-seat", "data-answer": s.answer || "" },
    s.name === null ? t("{level} bot", { level: levelLabel(s.bot) })
                    : s.answer ? t("{name}: {answer}", { name: s.name, answer: words[s.answer] }) : s.name));
  return items.length ? el("ul", { class: "challenge-seats muted", "aria-label": t("Players") }, ...items) : "";
}

function people(entry) {
  return andList(entry.seats.filter((s) => s.name !== null).map((s) => s.name));
}

function incoming(entry) {
  const mine = entry.seats.find((s) => s.seat === entry.seat);
  // accepted by all with no game yet: its making was cut off (a server stopped), so accepting again makes it
  const answered = mine.answer === "accepted" && entry.seats.some((s) => s.name !== null && s.answer !== "accepted");
  const accept = answered ? el("span", { class: "tag", "data-testid": "you-accepted" }, t("you accepted: waiting for the others"))
    : el("button", { class: "btn small", type: "button", "data-testid": "accept",
                     "aria-label": t("Accept the challenge of {name}", { name: entry.from }) }, t("Accept"));
  if (!answered) accept.addEventListener("click", async () => {
    const answer = await change("POST", `/api/challenges/${entry.id}/accept`, null, t("Challenge accepted."));
    if (answer && answer.game) location.href = `/game/${answer.game}`;
    else if (answer) say(t("You accepted: the game starts when everyone has accepted."));
  });
  const decline = el("button", { class: "btn secondary small", type: "button", "data-testid": "decline",
                                 "aria-label": t("Decline the challenge of {name}", { name: entry.from }) }, t("Decline"));
  decline.addEventListener("click", () => change("POST", `/api/challenges/${entry.id}/decline`, null,
                                                 t("Challenge declined.")).then(focusField));
  return el("li", { "data-testid": "incoming-challenge", "data-id": entry.id },
    el("strong", { class: "friend-name" }, entry.from), el("span", { class: "muted" }, summary(entry.settings)),
    seatList(entry, entry.seat), el("span", { class: "actions" }, accept, decline));
}

// One you accepted that ended: the table once made, or how it ended.
function ended(entry) {
  const words = { accepted: t("accepted"), declined: t("declined"), withdrawn: t("withdrawn"), expired: t("expired") };
  const action = entry.game ? el("a", { class: "btn small", href: `/game/${entry.game}`, "data-testid": "challenge-game" },
                                 t("Go to the table")) : "";
  return el("li", { "data-testid": "ended-challenge", "data-id": entry.id, "data-status": entry.status },
    el("strong", { class: "friend-name" }, entry.from), el("span", { class: "muted" }, summary(entry.settings)),
    seatList(entry, entry.seat), el("span", { class: entry.game ? "tag your-turn" : "tag" }, words[entry.status]),
    el("span", { class: "actions" }, action));
}

function outgoing(entry) {
  const words = { open: t("waiting for an answer"), accepted: t("accepted"), declined: t("declined"),
                  withdrawn: t("withdrawn"), expired: t("expired") }[entry.status];
  let action = "";
  if (entry.status === "open") {
    action = el("button", { class: "btn secondary small", type: "button", "data-testid": "withdraw",
                            "aria-label": t("Withdraw your challenge to {name}", { name: people(entry) }) }, t("Withdraw"));
    action.addEventListener("click", () => change("DELETE", `/api/challenges/${entry.id}`, null,
                                                  t("Challenge withdrawn.")).then(focusField));
  } else if (entry.game) {
    action = el("a", { class: "btn small", href: `/game/${entry.game}`, "data-testid": "challenge-game" },
                t("Go to the table"));
  }
  return el("li", { "data-testid": "outgoing-challenge", "data-id": entry.id, "data-status": entry.status },
    el("strong", { class: "friend-name" }, people(entry)), el("span", { class: "muted" }, summary(entry.settings)),
    entry.seats.length > 1 ? seatList(entry) : "",
    el("span", { class: entry.status === "accepted" ? "tag your-turn" : "tag" }, words),
    el("span", { class: "actions" }, action));
}

function focusField() {
  const field = panel && panel.querySelector("[data-testid=challenge-name]");
  if (field) field.focus();
}
