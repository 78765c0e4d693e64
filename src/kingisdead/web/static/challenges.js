// The lobby's challenges panel, for a signed-in player (account.js mounts it after the friends panel): a field to
// challenge a player by name to a game with the settings of the lobby's create form (players, the bots of the
// seats after the second, edition, mode and options, rated, clock); the open challenges sent to you, each with Accept and Decline; yours, with
// Withdraw while open and, once accepted, a link to the table. The friends panel's Challenge buttons fill the
// name (the "kid:challenge" event). Every answer of /api/challenges is the whole view (routes/challenges.py),
// drawn again only when it changed, so that a refresh never takes the focus.
import { api, el, levelLabel, redraw } from "/static/common.js";
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
  timer = setInterval(load, REFRESH_MS);
}

export function unmountChallenges() {
  clearInterval(timer);
  if (panel) panel.remove();
  panel = null;
}

// A friend's Challenge button: the name goes in the field, which takes the focus.
window.addEventListener("kid:challenge", (event) => {
  const field = panel && panel.querySelector("[data-testid=challenge-name]");
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
  const form = el("form", { class: "friend-form" }, el("label", { for: "challenge-name" }, t("Challenge a player")),
    el("div", { class: "form-row" }, name, send),
    el("p", { class: "muted" }, t("A game with the settings of the New game form, you in the first seat, them in the second, its bots in the others; open for 3 days.")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = name.value.trim();
    if (!who) return;
    const { chosenGame } = await import("/static/lobby.js");
    const settings = chosenGame();
    if (settings.bots.includes(null)) {
      say(t("In a challenge the seats after the second are bots: choose their levels in the New game form."), true);
      return;
    }
    if (await change("POST", "/api/challenges", { name: who, settings },
                     t("You challenged {name}.", { name: who }))) name.value = "";
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
    view.outgoing.length ? el("h3", {}, t("Yours")) : "",
    view.outgoing.length ? el("ul", { class: "friend-list", "data-testid": "outgoing", "aria-label": t("Yours") },
                              ...view.outgoing.map(outgoing)) : ""));
}

// What the challenge proposes, in a few words: edition, mode, rated, clock.
function summary(settings) {
  const parts = [settings.edition === "second" ? t("second edition") : t("first edition")];
  if (settings.players > 2) parts.push(t("{n} players, bots: {bots}", { n: settings.players, bots: settings.bots.map(levelLabel).join(", ") }));
  if (settings.mode === "advanced") parts.push(t("advanced game"));
  parts.push(settings.rated ? t("rated") : t("unrated"));
  if (settings.time_limit) parts.push(limitWords(settings.time_limit));
  return parts.join(", ");
}

function limitWords(seconds) {
  return seconds >= 86400 ? tn("{n} day per move", "{n} days per move", { n: seconds / 86400 })
                          : tn("{n} minute per move", "{n} minutes per move", { n: seconds / 60 });
}

function incoming(entry) {
  const accept = el("button", { class: "btn small", type: "button", "data-testid": "accept",
                                "aria-label": t("Accept the challenge of {name}", { name: entry.from }) }, t("Accept"));
  accept.addEventListener("click", async () => {
    const answer = await change("POST", `/api/challenges/${entry.id}/accept`, null, t("Challenge accepted."));
    if (answer) location.href = `/game/${answer.game}`;
  });
  const decline = el("button", { class: "btn secondary small", type: "button", "data-testid": "decline",
                                 "aria-label": t("Decline the challenge of {name}", { name: entry.from }) }, t("Decline"));
  decline.addEventListener("click", () => change("POST", `/api/challenges/${entry.id}/decline`, null,
                                                 t("Challenge declined.")).then(focusField));
  return el("li", { "data-testid": "incoming-challenge", "data-id": entry.id },
    el("strong", { class: "friend-name" }, entry.from), el("span", { class: "muted" }, summary(entry.settings)),
    el("span", { class: "actions" }, accept, decline));
}

function outgoing(entry) {
  const words = { open: t("waiting for an answer"), accepted: t("accepted"), declined: t("declined"),
                  withdrawn: t("withdrawn"), expired: t("expired") }[entry.status];
  let action = "";
  if (entry.status === "open") {
    action = el("button", { class: "btn secondary small", type: "button", "data-testid": "withdraw",
                            "aria-label": t("Withdraw your challenge to {name}", { name: entry.to }) }, t("Withdraw"));
    action.addEventListener("click", () => change("DELETE", `/api/challenges/${entry.id}`, null,
                                                  t("Challenge withdrawn.")).then(focusField));
  } else if (entry.game) {
    action = el("a", { class: "btn small", href: `/game/${entry.game}`, "data-testid": "challenge-game" },
                t("Go to the table"));
  }
  return el("li", { "data-testid": "outgoing-challenge", "data-id": entry.id, "data-status": entry.status },
    el("strong", { class: "friend-name" }, entry.to), el("span", { class: "muted" }, summary(entry.settings)),
    el("span", { class: entry.status === "accepted" ? "tag your-turn" : "tag" }, words),
    el("span", { class: "actions" }, action));
}

function focusField() {
  const field = panel && panel.querySelector("[data-testid=challenge-name]");
  if (field) field.focus();
}
