// The end screen's rated-game and rematch parts: each seat's rating change, and "play again".
import { api, el, saveTokens, seatLabel, toast } from "/static/common.js";
import { number, t } from "/static/i18n.js";

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
  const rows = view.ratings.map((r) => el("tr", { "data-testid": `rating-${r.seat}`, class: r.seat === view.you ? "you" : null },
    el("td", {}, seatLabel(view.seats[r.seat])),
    el("td", {}, rating(r.before)),
    el("td", {}, rating(r.after)),
    el("td", { class: r.change > 0 ? "up" : r.change < 0 ? "down" : null, "data-testid": `rating-change-${r.seat}` },
      signed(r.change))));
  return el("div", { class: "ratings", "data-testid": "ratings" },
    el("h3", {}, t("Ratings")),
    el("table", { class: "explain" },
      el("thead", {}, el("tr", {}, el("th", {}, t("Player")), el("th", {}, t("Before")), el("th", {}, t("After")),
                                 el("th", {}, t("Change")))),
      el("tbody", {}, ...rows)));
}

// Ask for the rematch with every seat this browser holds (its tokens, or the session's account when it
// holds none), keep the new seats' tokens and go to the new game.
async function playAgain(gameId, tokens, rotate, buttons) {
  buttons.forEach((b) => { b.disabled = true; });
  try {
    const held = [];
    let newId = null;
    for (const token of tokens.length ? tokens : [null]) {
      const answer = await api("POST", `/api/games/${gameId}/rematch`, { rotate }, token);
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
// rematch" once someone made it. ``tokens``: the seat tokens this browser holds for the game.
export function rematchButtons(view, tokens) {
  if (view.status !== "finished" || (view.you === null && !tokens.length)) return [];
  const make = (label, rotate, testid) => {
    const b = el("button", { class: "btn", "data-testid": testid }, label);
    b.addEventListener("click", () => playAgain(view.id, tokens, rotate, made));
    return b;
  };
  const made = view.rematch
    ? [make(t("Join the rematch"), false, "join-rematch")]
    : [make(t("Play again"), false, "play-again"), make(t("Play again, seats rotated"), true, "play-again-rotated")];
  return made;
}
