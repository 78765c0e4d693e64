// The lobby's rated-game parts: the "rated" option, each bot level's rating, and the leaderboard.
import { api, el, levelLabel, toast } from "/static/common.js";
import { number, t } from "/static/i18n.js";

const rating = (value) => number(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });  // 23.9, 23,9

// A rating as people see it: the number, or "provisional" for a person's first rated games (ratings.py:
// a newcomer starts at 0.0 and one loss takes the number below zero, which says nothing yet).
export function ratingText(value, provisional) {
  return provisional ? t("provisional") : rating(value);
}

const boards = new Map();  // "edition:players" -> GET /api/leaderboard's answer
let shownPlayers = 2;
let shownEdition = "first";  // each edition has its own ratings
let provisionalGames = 5;  // GET /api/meta's provisional_games, once the lobby mounts the rated option

// Fetch the leaderboard of every player count of an edition (each lists every bot level's rating).
export async function loadRatings(edition = "first") {
  try {
    for (const players of [2, 3, 4]) {
      boards.set(`${edition}:${players}`, await api("GET", `/api/leaderboard?players=${players}&edition=${edition}`));
    }
  } catch (err) { toast(err.message); }
  renderBoard();
}

// A bot level's rating for a player count (in the first edition), as a suffix for its name ("" until known).
export function levelRating(level, players) {
  const board = boards.get(`first:${players}`);
  const known = board && board.bots[level];
  return known === undefined ? "" : t(" · rating {rating}", { rating: rating(known) });
}

// The "rated game" option, with the other options of the create form; ``provisionalGames``: GET /api/meta's.
export function mountRatedOption(games) {
  provisionalGames = games;
  const box = el("input", { type: "checkbox", id: "rated", "data-testid": "rated" });
  document.getElementById("option-list").append(el("div", { class: "option" },
    el("label", {}, box, " ", t("rated (changes the players' ratings)")),
    el("span", { class: "help", "data-testid": "rated-help" },
      t("signed-in players only, bots at a fixed level, no hints, no hot-seat; a newcomer's rating stays provisional for their first {n} rated games", { n: games }))));
}

export function ratedChosen() {
  const box = document.getElementById("rated");
  return Boolean(box && box.checked);
}

// The leaderboard: a panel with one tab per edition and per player count, best rating first, bots marked.
export function mountLeaderboard() {
  const editions = el("div", { class: "tabs", id: "board-editions" }, ...[["first", t("First edition")], ["second", t("Second edition")]]
    .map(([edition, label]) => {
      const b = el("button", { class: edition === shownEdition ? "on" : null, "data-testid": `board-edition-${edition}` }, label);
      b.addEventListener("click", () => {
        shownEdition = edition;
        editions.querySelectorAll("button").forEach((x) => x.classList.toggle("on", x === b));
        if (boards.has(`${edition}:${shownPlayers}`)) renderBoard();
        else loadRatings(edition);
      });
      return b;
    }));
  const tabs = el("div", { class: "tabs", id: "board-tabs" }, ...[2, 3, 4].map((n) => {
    const b = el("button", { "data-n": n, class: n === shownPlayers ? "on" : null, "data-testid": `board-${n}` },
      n === 4 ? t("4 players (teams)") : t("{n} players", { n }));
    b.addEventListener("click", () => {
      shownPlayers = n;
      tabs.querySelectorAll("button").forEach((x) => x.classList.toggle("on", x === b));
      renderBoard();
    });
    return b;
  }));
  document.querySelector("main.lobby").append(el("section", { class: "panel", "aria-label": t("Leaderboard") },
    el("h2", {}, t("Leaderboard")),
    el("p", { class: "muted", style: "font-size:0.85rem" },
      t("Ratings from rated games (OpenSkill): the estimate minus three times its uncertainty. Bots start where the arena placed them.")),
    editions, tabs,
    el("table", { class: "explain leaderboard", "data-testid": "leaderboard", "data-edition": shownEdition })));
}

function renderBoard() {
  const table = document.querySelector("[data-testid=leaderboard]");
  const board = boards.get(`${shownEdition}:${shownPlayers}`);
  if (!table || !board) return;
  table.dataset.edition = shownEdition;
  table.replaceChildren(
    el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("Player")), el("th", {}, t("Rating")),
                               el("th", {}, t("Games")))),
    el("tbody", {}, ...board.ratings.map((e) => el("tr", { "data-testid": "leaderboard-row", "data-bot": e.bot ? "yes" : "no",
                                                          class: e.bot ? "bot" : null },
      el("td", {}, String(e.rank)),
      el("td", {}, e.bot ? t("{level} bot", { level: levelLabel(e.level) }) : e.name),
      el("td", { title: e.provisional ? t("fewer than {n} rated games", { n: provisionalGames }) : null }, ratingText(e.rating, e.provisional)),
      el("td", {}, String(e.games))))));
}
