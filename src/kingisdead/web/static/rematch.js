// The end screen's rated-game and rematch parts: each seat's rating change, and "play again".
import { api, el, saveTokens, seatLabel, toast } from "/static/common.js";
import { number, t, tn } from "/static/i18n.js";
import { ratingText } from "/static/leaderboard.js";

const rating = (value) => number(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });  // 23.9, 23,9
function signed(change) {
  return change > 0 ? `+${rating(change)}` : rating(change);
}

// A rated game's rating changes, one row per seat (GET /api/games/{id}'s "ratings"); nothing if unrated.
export function ratingsPanel(view) {
  if (!view.rated) return "";
  if (!view.ratings || !view.ratings.length) {
    return el("p", { class: "muted", "data-testid": "ratings-pending" }, t("Rated game: the ratings are being updated…"));
  }
  // A provisional rating shows no number, so neither does its change (see leaderboard.js ratingText).
  const rows = view.ratings.map((r) => el("tr", { "data-testid": `rating-${r.seat}`, class: r.seat === view.you ? "you" : null },
    el("td", {}, seatLabel(view.seats[r.seat])),
    el("td", {}, ratingText(r.before, r.provisional_before)),
    el("td", {}, r.provisional_after ? tn("provisional ({n} rated game)", "provisional ({n} rated games)", { n: r.games }) : rating(r.after)),
    el("td", { class: r.provisional_before || r.provisional_after ? null : r.change > 0 ? "up" : r.change < 0 ? "down" : null,
               "data-testid": `rating-change-${r.seat}` },
      r.provisional_before || r.provisional_after ? "–" : signed(r.change))));
  return el("div", { class: "ratings", "data-testid": "ratings" },
    el("h3", {}, t("Ratings")),
    el("table", { class: "explain" },
      el("thead", {}, el("tr", {}, el("th", {}, t("Player")), el("th", {}, t("Before")), el("th", {}, t("After")),
                                 el("th", {}, t("Change")))),
      el("tbody", {}, ...rows)));
}

// Ask for the rematch with every seat this browser holds (its tokens, or the session's account when it
// holds none), keep the new seats' tokens and go to the new game.
async function playAgain(gameId, tokens, rotate, buttons, rated = null) {
  buttons.forEach((b) => { b.disabled = true; });
  try {
    const held = [];
    let newId = null;
    for (const token of tokens.length ? tokens : [null]) {
      const answer = await api("POST", `/api/games/${gameId}/rematch`, { rotate, rated }, token);
      newId = answer.id;
      if (answer.token) held.push(answer.token);
    }
    if (held.length) saveTokens(newId, held);
    location.href = `/game/${newId}`;
  } catch (err) {
    toast(err.message);
    buttons.forEach((b) => { b.disabled = false; });
  }
}

// "Play again" and "Play again, seats rotated" for a person seated at a finished game; "Join the
// rematch" once someone made it; a rated game's rematch question while it is open (it stays open when a
// view arriving meanwhile redraws the end screen). ``tokens``: the seat tokens this browser holds for the game.
let asking = null;  // the open question: {game, rotate}
export function rematchButtons(view, tokens) {
  if (view.status !== "finished" || (view.you === null && !tokens.length)) return [];
  const ask = (rotate) => askRated((rated) => playAgain(view.id, tokens, rotate, made, rated));
  const make = (label, rotate, testid) => {
    const b = el("button", { class: "btn", "data-testid": testid }, label);
    b.addEventListener("click", () => {
      if (!view.rated || view.rematch) { playAgain(view.id, tokens, rotate, made); return; }
      if (asking) return;
      asking = { game: view.id, rotate };
      const question = ask(rotate);
      b.parentElement.append(question);
      question.querySelector("button").focus();
    });
    return b;
  };
  const made = view.rematch
    ? [make(t("Join the rematch"), false, "join-rematch")]
    : [make(t("Play again"), false, "play-again"), make(t("Play again, seats rotated"), true, "play-again-rotated")];
  const open = asking && asking.game === view.id && view.rated && !view.rematch;
  return open ? [...made, ask(asking.rotate)] : made;
}

// A rated game's rematch asks first whether it is rated too (it changes the ratings again) or friendly.
function askRated(onChoice) {
  const choice = (label, testid, rated, cls) => {
    const b = el("button", { class: cls, "data-testid": testid }, label);
    b.addEventListener("click", () => { asking = null; ask.remove(); if (rated !== null) onChoice(rated); });
    return b;
  };
  const ask = el("div", { class: "rematch-ask", role: "group", "data-testid": "rematch-ask", "aria-label": t("Rematch") },
    el("p", {}, t("This game was rated. Should the rematch change your ratings too?")),
    el("div", { class: "buttons" },
      choice(t("Rated rematch"), "rematch-rated", true, "btn"),
      choice(t("Friendly rematch (unrated)"), "rematch-unrated", false, "btn secondary"),
      choice(t("Cancel"), "rematch-cancel", null, "btn secondary")));
  return ask;
}
