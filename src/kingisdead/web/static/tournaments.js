// Turn-based tournaments (issue 32): the lobby's tournaments panel (the open, running and recently finished ones,
// with Enter and Withdraw, and a form to create one) and the page of one tournament, /tournaments/{id} (its
// settings in words, the entrants, each round's tables with a link to each game and the byes, the standings, and
// the buttons the API allows). The lobby loads this module only once its panel is opened (lobby.js); the page
// (tournament.html) loads it as its own module. Both ask again every 30 s and when the page comes back into view,
// and draw again only what changed, so a refresh never takes the focus. The API is routes/tournaments.py.
import { api, el, knowLevels, levelLabel, redraw } from "/static/common.js";
import { clauses, lang, number, t, tn } from "/static/i18n.js";

const REFRESH_MS = 30000;  // games of a day or more per move: a round's news within half a minute is enough
const POINTS = ["win", "shared", "loss"];

let facts = null;  // GET /api/meta, once asked (the bot levels' names and which games each may stand in for)

async function meta() {
  if (!facts) {
    facts = await api("GET", "/api/meta");
    knowLevels(facts.levels);
  }
  return facts;
}

// Whether the bot `level` may stand in at a tournament's games (as lobby.js offers levels, and the server checks):
// a network's levels only in the editions it learnt, the advanced game's own levels there, a rated game's allowed.
function standsIn(level, edition, advanced, rated) {
  if (advanced && !(level in facts.advanced_levels) && !facts.advanced_bots.includes(level)) return false;
  if (facts.network_bots.includes(level) && !facts.trained_editions.includes(edition)) return false;
  return !rated || facts.rated_stand_ins.includes(level);
}

// The signed-in account's name ("" for a guest), as account.js or this page learnt it.
function me() { return document.body.dataset.account || ""; }

function stylesheet() {
  if (document.querySelector("link[href='/static/tournaments.css']")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/tournaments.css" }));
}

// Call `load` every REFRESH_MS while the page is shown, and at once when it is shown again.
function keepFresh(load) {
  setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
  addEventListener("focus", load);
}

// ---------- words ----------

// A rating as the leaderboard shows it: one decimal (ratings start at 0.0).
function ratingWords(value) { return number(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 }); }

function dateText(iso) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

function limitWords(seconds) {
  return tn("{n} day per move", "{n} days per move", { n: seconds / 86400 });
}

function gameWords(tournament) {
  const parts = [tournament.edition === "second" ? t("second edition") : t("first edition")];
  if (tournament.variant === "mordred") parts.push(t("Mordred"));
  if (tournament.mode === "advanced") parts.push(t("advanced game"));
  parts.push(tn("{n} player per table", "{n} players per table", { n: tournament.players }));
  return parts.join(", ");
}

// "open for entries", "round 2 of 5", "completed", "cancelled" (not the games' "finished": French gives a game and
// a tournament different genders)
function statusWords(tournament) {
  if (tournament.status === "running") return t("round {n} of {rounds}", { n: tournament.round, rounds: tournament.rounds });
  return { open: t("open for entries"), finished: t("completed"), cancelled: t("cancelled") }[tournament.status];
}

function entrantWords(tournament) {
  return t("{n}/{limit} entered", { n: tournament.entrants, limit: tournament.entry_limit });
}

// ---------- actions ----------

// Enter, Withdraw and (for its creator, before the start, `withCancel`) Cancel, as the tournament's state allows;
// `done(words, error)` runs after each with what happened, in words.
function actions(tournament, done, withCancel) {
  const buttons = [];
  const named = { name: tournament.name };
  const send = (method, path, words, question = null) => async () => {
    if (question && !window.confirm(question)) return;
    try {
      await api(method, path);
    } catch (err) {
      done(err.message, true);
      return;
    }
    done(words, false);
  };
  const button = (label, testid, aria, onClick, kind = "btn small") => {
    const node = el("button", { class: kind, type: "button", "data-testid": testid, "aria-label": aria }, label);
    node.addEventListener("click", onClick);
    buttons.push(node);
  };
  const entry = `/api/tournaments/${tournament.id}/entry`;
  if (me() && tournament.status === "open" && !tournament.entered) {
    button(t("Enter"), "enter", t("Enter {name}", named), send("POST", entry, t("You entered {name}.", named)));
  }
  if (me() && tournament.entered && ["open", "running"].includes(tournament.status)) {
    // after the start a withdrawal is for good: asked first
    const question = tournament.status === "running"
      ? t("Withdraw from {name}? You will be paired in no later round; your games now running go on.", named) : null;
    button(t("Withdraw"), "withdraw", t("Withdraw from {name}", named),
           send("DELETE", entry, t("You withdrew from {name}.", named), question), "btn secondary small");
  }
  if (withCancel && me() && me() === tournament.creator && tournament.status === "open") {
    button(t("Cancel the tournament"), "cancel", null, send("POST", `/api/tournaments/${tournament.id}/cancel`,
           t("{name} is cancelled.", named), t("Cancel {name} for good?", named)), "btn danger small");
  }
  return buttons;
}

// After a redraw the button pressed is gone: the focus goes to the Enter or Withdraw that replaced it in `scope`,
// else to `fallback`.
function refocus(scope, fallback) {
  (scope.querySelector("[data-testid=enter], [data-testid=withdraw]") || fallback)?.focus();
}

// ---------- the lobby's panel ----------

let panel = null;
let panelDrawn = "";

// Fill the lobby's tournaments panel (`body`, inside its <details>); once only.
export async function mountPanel(body) {
  if (panel) return;
  panel = body;
  stylesheet();
  panel.append(el("p", { class: "muted", role: "status", "aria-live": "polite", "data-testid": "tournaments-status" }),
               el("div", { "data-testid": "tournaments-body" }), await createForm());
  await loadPanel();
  keepFresh(() => { if (panel.closest("details")?.open !== false) loadPanel(); });
  // account.js says who is signed in (body's data-account) once it knows, and again on a sign-in or out
  new MutationObserver(loadPanel).observe(document.body, { attributes: true, attributeFilter: ["data-account"] });
}

function sayPanel(text, error = false) {
  const status = panel.querySelector("[data-testid=tournaments-status]");
  status.textContent = text || "";
  status.className = error ? "error-box" : "muted";
}

async function loadPanel() {
  // a guest can read the list; creating and entering need an account
  panel.querySelector("[data-testid=tournament-create]").hidden = !me();
  panel.querySelector("[data-testid=sign-in-to-create]").hidden = Boolean(me());
  const list = (await api("GET", "/api/tournaments")).tournaments;
  const json = JSON.stringify([me(), list]);
  if (json === panelDrawn) return;
  panelDrawn = json;
  redraw(() => {
    const focused = panel.querySelector("[data-testid=tournaments-body]").contains(document.activeElement);
    panel.querySelector("[data-testid=tournaments-body]").replaceChildren(
      list.length ? el("ul", { class: "tournament-list", "data-testid": "tournament-list", "aria-label": t("Tournaments") },
                       ...list.map(listed))
                  : el("p", { class: "muted", "data-testid": "no-tournaments" }, t("No tournament right now: create one.")));
    if (focused) panel.querySelector("[data-testid=tournament-link]")?.focus();
  });
}

function listed(tournament) {
  const after = (words, error) => {
    sayPanel(words, error);
    loadPanel().then(() => refocus(panel.querySelector(`[data-id="${tournament.id}"]`) || panel,
                                   panel.querySelector("[data-testid=tournament-link]")));
  };
  return el("li", { "data-testid": "tournament", "data-id": tournament.id, "data-status": tournament.status },
    el("a", { class: "tournament-name", href: `/tournaments/${tournament.id}`, "data-testid": "tournament-link" }, tournament.name),
    el("span", { class: "muted" }, [gameWords(tournament), tn("{n} round", "{n} rounds", { n: tournament.rounds }),
                                    limitWords(tournament.time_limit)].join(" · ")),
    tournament.status === "open" ? el("span", { class: "muted" }, t("starts {date}", { date: dateText(tournament.starts_at) })) : "",
    el("span", { class: "muted", "data-testid": "entrants" }, entrantWords(tournament)),
    el("span", { class: tournament.status === "running" ? "tag live" : "tag", "data-testid": "tournament-status" }, statusWords(tournament)),
    tournament.entered ? el("span", { class: "tag yours", "data-testid": "entered" }, t("you are in")) : "",
    el("span", { class: "actions" }, ...actions(tournament, after, false)));
}

// ---------- the create form ----------

// A number field of the form: label, input (bounds as the API's), and a hint below where given.
function numberRow(id, label, value, min, max, hint = null, step = 1) {
  const input = el("input", { type: "number", id, name: id, min, max, step, value, required: value !== "",
                              "data-testid": id, "aria-describedby": hint ? `${id}-hint` : null });
  return el("div", { class: "form-row" }, el("label", { class: "lbl", for: id }, label), input,
            hint ? el("span", { class: "help", id: `${id}-hint` }, hint) : "");
}

function selectRow(id, label, options, value) {
  const select = el("select", { id, name: id, "data-testid": id },
                    ...options.map(([key, words]) => el("option", { value: key }, words)));
  select.value = value;
  return el("div", { class: "form-row" }, el("label", { class: "lbl", for: id }, label), select);
}

// Tomorrow at the next full hour, in the browser's time, as <input type=datetime-local> writes it.
function tomorrow() {
  const at = new Date(Date.now() + 86400000);
  at.setMinutes(60, 0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

async function createForm() {
  const levels = (await meta()).levels.map((level) => level.name);
  const standIn = levels.includes("intermediate") ? "intermediate" : levels[0];
  const form = el("form", { class: "tournament-form", "data-testid": "tournament-form", "aria-label": t("Create a tournament") },
    el("div", { class: "form-row" }, el("label", { class: "lbl", for: "tournament-name" }, t("Name")),
       el("input", { type: "text", id: "tournament-name", name: "tournament-name", minlength: 3, maxlength: 60, required: true,
                     autocomplete: "off", "data-testid": "tournament-name" })),
    selectRow("tournament-edition", t("Edition"), [["first", t("First (2015)")], ["second", t("Second (2020)")]], "first"),
    selectRow("tournament-variant", t("Variant"), [["standard", t("Standard")], ["mordred", t("Mordred")],
                                                   ["advanced", t("Advanced game")]], "standard"),
    selectRow("tournament-players", t("Players"), [["2", "2"], ["3", "3"], ["4", t("4 (teams)")]], "2"),
    selectRow("tournament-time", t("Time per move"), [["86400", limitWords(86400)], ["259200", limitWords(259200)]], "86400"),
    selectRow("tournament-stand-in", t("Stand-in bot"), levels.map((name) => [name, levelLabel(name)]), standIn),
    numberRow("tournament-rounds", t("Rounds"), 3, 1, 12),
    el("div", { class: "form-row" }, el("label", { class: "lbl", for: "tournament-starts" }, t("Starts")),
       el("input", { type: "datetime-local", id: "tournament-starts", name: "tournament-starts", value: tomorrow(),
                     required: true, "data-testid": "tournament-starts" })),
    numberRow("tournament-round-days", t("Days per round"), 14, 1, 60,
              t("a game still running then is played out by the stand-in bot")),
    numberRow("tournament-limit", t("Entry limit"), 64, 2, 1000),
    numberRow("tournament-floor", t("Rating floor"), "", -1000, 1000,
              t("the shown rating an entrant needs (newcomers have 0.0); empty: anyone may enter"), 0.1),
    el("fieldset", { class: "tournament-points" }, el("legend", {}, t("Points per game")),
       ...POINTS.map((key) => el("label", { for: `tournament-points-${key}` },
         { win: t("win"), shared: t("shared win"), loss: t("loss") }[key],
         el("input", { type: "number", id: `tournament-points-${key}`, min: 0, max: 10, step: 1, required: true,
                       value: { win: 2, shared: 1, loss: 0 }[key], "data-testid": `tournament-points-${key}` })))),
    el("div", { class: "form-row" },
       el("label", {}, el("input", { type: "checkbox", id: "tournament-rated", "data-testid": "tournament-rated" }), " ",
          t("rated (the edition's default rules, not the advanced game)"))),
    el("div", { class: "buttons" }, el("button", { class: "btn", type: "submit", "data-testid": "create-tournament" },
                                      t("Create tournament"))),
    el("div", { class: "error-box hidden", role: "alert", "data-testid": "tournament-error" }));
  const field = (id) => form.querySelector(`#${id}`);
  // the advanced game is the second edition's and unrated; Mordred the first edition's; the stand-ins as they fit
  const fit = () => {
    const edition = field("tournament-edition").value;
    const rated = field("tournament-rated").checked;
    const variant = field("tournament-variant");
    variant.querySelector("[value=mordred]").disabled = edition === "second";
    variant.querySelector("[value=advanced]").disabled = edition !== "second" || rated;
    if (variant.selectedOptions[0].disabled) variant.value = "standard";
    const standIns = field("tournament-stand-in");
    for (const option of standIns.options) option.disabled = !standsIn(option.value, edition, variant.value === "advanced", rated);
    if (standIns.selectedOptions[0].disabled) standIns.value = [...standIns.options].find((option) => !option.disabled)?.value ?? "";
  };
  for (const id of ["tournament-edition", "tournament-rated", "tournament-variant"]) field(id).addEventListener("change", fit);
  fit();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector("[data-testid=tournament-error]");
    error.classList.add("hidden");
    const variant = field("tournament-variant").value;
    const floor = field("tournament-floor").value.trim();
    const body = {
      name: field("tournament-name").value.trim(), edition: field("tournament-edition").value,
      variant: variant === "mordred" ? "mordred" : "standard", mode: variant === "advanced" ? "advanced" : "standard",
      players: Number(field("tournament-players").value), time_limit: Number(field("tournament-time").value),
      rounds: Number(field("tournament-rounds").value),
      points: Object.fromEntries(POINTS.map((key) => [key, Number(field(`tournament-points-${key}`).value)])),
      starts_at: new Date(field("tournament-starts").value).toISOString(),
      entry_limit: Number(field("tournament-limit").value), rating_floor: floor === "" ? null : Number(floor),
      rated: field("tournament-rated").checked, round_days: Number(field("tournament-round-days").value),
      stand_in: field("tournament-stand-in").value,
    };
    try {
      const made = await api("POST", "/api/tournaments", body);
      location.href = `/tournaments/${made.id}`;
    } catch (err) {
      error.textContent = err.message;
      error.classList.remove("hidden");
    }
  });
  const wrapper = el("details", { class: "tournament-create", "data-testid": "tournament-create" },
    el("summary", { "data-testid": "create-tournament-open" }, t("Create a tournament")), form);
  return el("div", {}, wrapper, el("p", { class: "muted", "data-testid": "sign-in-to-create", hidden: true },
    t("Sign in above to create a tournament or enter one.")));
}

// ---------- the page of one tournament ----------

let page = null;
let pageDrawn = "";

async function showPage(id) {
  stylesheet();
  page = document.querySelector("[data-testid=tournament]");
  if (document.body.dataset.session && !me()) {
    try { document.body.dataset.account = (await api("GET", "/api/account")).name; } catch { /* a guest after all */ }
  }
  await meta();
  const load = async () => {
    let tournament;
    try {
      tournament = await api("GET", `/api/tournaments/${id}`);
    } catch (err) {
      sayPage(err.message, true);
      return;
    }
    drawPage(fromDetail(tournament));
  };
  await load();
  keepFresh(load);
}

function sayPage(text, error = false) {
  const status = document.querySelector("[data-testid=tournament-message]");
  status.textContent = text || "";
  status.className = error ? "error-box" : "muted";
}

// GET /api/tournaments/{id} gives the summary's fields with the lists of entrants (withdrawn ones too) and rounds
// in place of their counts (entrant_count, round_count): as a summary, with the lists beside.
function fromDetail(detail) {
  return { ...detail, entrant_list: detail.entrants, round_list: detail.rounds, rounds: detail.round_count,
           entrants: detail.entrant_count };
}

function drawPage(tournament) {
  const json = JSON.stringify([me(), tournament]);
  if (json === pageDrawn) return;
  pageDrawn = json;
  redraw(() => {
    const pressed = document.activeElement?.dataset.testid;  // an action's button, gone with the redraw
    document.title = `The King Is Dead · ${tournament.name}`;
    page.querySelector("[data-testid=tournament-title]").textContent = tournament.name;
    const after = (words, error) => {
      sayPage(words, error);
      api("GET", `/api/tournaments/${tournament.id}`).then((detail) => drawPage(fromDetail(detail)), () => {});
    };
    // under the title: where it stands and what you may do; then, once it has rounds, the rounds (your game first
    // in view), the standings, the settings and the entrants; before, the settings, the entrants and when it starts
    page.querySelector("[data-testid=tournament-head]").replaceChildren(
      el("span", { class: tournament.status === "running" ? "tag live" : "tag", "data-testid": "tournament-status" }, statusWords(tournament)),
      el("span", { class: "muted" }, [gameWords(tournament), entrantWords(tournament)].join(" · ")),
      tournament.entered ? el("span", { class: "tag yours", "data-testid": "entered" }, t("you are in")) : "",
      el("span", { class: "actions", "data-testid": "tournament-actions" }, ...actions(tournament, after, true)),
      !me() && tournament.status === "open"
        ? el("a", { href: "/", "data-testid": "sign-in-to-enter" }, t("Sign in in the lobby to enter this tournament.")) : "");
    const body = page.querySelector("[data-testid=tournament-body]");
    const settings = el("section", { class: "panel settings-panel", "aria-labelledby": "about-title" },
                        el("h2", { id: "about-title" }, t("Settings")), settingsList(tournament));
    const started = tournament.round_list.length > 0;
    if (started) {
      body.replaceChildren(roundsPanel(tournament), el("div", { class: "tournament-column" }, standingsPanel(tournament),
                                                       entrantsPanel(tournament)), settings);
    }
    else body.replaceChildren(settings, entrantsPanel(tournament), roundsPanel(tournament));
    if (["enter", "withdraw", "cancel"].includes(pressed)) {
      refocus(page.querySelector("[data-testid=tournament-actions]"), page.querySelector("h1"));
    }
  });
}

function settingsList(tournament) {
  const points = tournament.points;
  const rows = [
    [t("Status"), statusWords(tournament)],
    [t("Created by"), tournament.creator],
    [t("Game"), gameWords(tournament)],
    [t("Rounds"), String(tournament.rounds)],
    [t("Time per move"), clauses([limitWords(tournament.time_limit), t("then the {level} bot plays for whoever runs out of time",
                                                                    { level: levelLabel(tournament.stand_in) })])],
    [t("Starts"), dateText(tournament.starts_at)],
    [t("Each round"), clauses([tn("at most {n} day", "at most {n} days", { n: tournament.round_days }),
                               t("a game still running then is played out by the stand-in bot")])],
    [t("Points"), clauses([t("{win} for a win, {shared} for a shared win, {loss} for a loss",
                             { win: points.win, shared: points.shared, loss: points.loss }), t("a bye counts as a win")])],
    [t("Entrants"), entrantWords(tournament)],
    [t("Rating floor"), tournament.rating_floor === null ? t("none") : ratingWords(tournament.rating_floor)],
    [t("Rated"), tournament.rated ? t("yes: its games change the ratings") : t("no")],
  ];
  return el("dl", { class: "tournament-settings", "data-testid": "tournament-settings" },
            ...rows.flatMap(([term, words]) => [el("dt", {}, term), el("dd", {}, words)]));
}

function standingsPanel(tournament) {
  const section = el("section", { class: "panel", "aria-labelledby": "standings-title" }, el("h2", { id: "standings-title" }, t("Standings")));
  const caption = tournament.status === "finished" ? t("Final standings") : t("Standings: the games counted so far");
  const head = [t("Rank"), t("Player"), t("Points"), t("Buchholz"), t("Rating")];
  section.append(el("table", { class: "leaderboard standings", "data-testid": "standings" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ...head.map((words) => el("th", { scope: "col" }, words)))),
    el("tbody", {}, ...tournament.standings.map((row) => el("tr", { class: row.name === me() ? "you" : null, "data-testid": "standing" },
      el("td", {}, String(row.rank)), el("th", { scope: "row" }, row.name), el("td", {}, String(row.points)),
      el("td", {}, String(row.buchholz)), el("td", {}, ratingWords(row.rating)))))));
  return section;
}

function roundsPanel(tournament) {
  const section = el("section", { class: "panel rounds-panel", "aria-labelledby": "rounds-title" }, el("h2", { id: "rounds-title" }, t("Rounds")));
  const played = tournament.round_list;
  if (!played.length) {
    section.append(el("p", { class: "muted", "data-testid": "no-rounds" },
      tournament.status === "open" ? t("Round 1 is paired when the tournament starts.") : t("No round was played.")));
  }
  for (const round of [...played].reverse()) section.append(roundPart(round, tournament.players));  // the latest first
  return section;
}

function roundPart(round, players) {
  const when = round.finished_at ? t("ended {date}", { date: dateText(round.finished_at) })
                                 : t("deadline {date}", { date: dateText(round.deadline) });
  return el("section", { class: "tournament-round", "data-testid": "round", "data-round": round.round, "aria-labelledby": `round-${round.round}` },
    el("h3", { id: `round-${round.round}` }, t("Round {n}", { n: round.round }), " ", el("span", { class: "muted", "data-testid": "round-deadline" }, when)),
    el("ul", { class: "tournament-tables" }, ...round.tables.map((table) => tablePart(table, players))),
    round.byes.length ? el("p", { class: "muted", "data-testid": "byes" },
                           tn("Bye: {names}", "Byes: {names}", { n: round.byes.length, names: round.byes.join(", ") })) : "");
}

// A table: its seats in seat order (4 players: the teams, seats 1 and 3 against 2 and 4), their points once counted,
// and its game's link.
function tablePart(table, players) {
  const mine = table.seats.some((seat) => seat.name === me());
  const words = { running: t("playing"), finished: t("finished"), adjudicated: t("played out at the deadline") }[table.status];
  let link = el("span", { class: "muted" }, t("the game is being set up"));
  if (table.game) {
    const label = table.status === "running" ? (mine ? t("Play") : t("Watch")) : t("View");
    link = el("a", { class: mine && table.status === "running" ? "btn small" : "btn secondary small", href: `/game/${table.game}`,
                     "data-testid": "table-game", "aria-label": t("{action}: table {n}", { action: label, n: table.table }) }, label);
  }
  return el("li", { "data-testid": "table", "data-table": table.table, class: mine ? "yours" : null },
    el("strong", {}, t("Table {n}", { n: table.table })),
    el("span", { class: "seats" }, ...(players === 4 ? [[0, 2], [1, 3]].map((team) => el("span", { class: "team" },
      ...team.map((number) => seatPart(table.seats.find((seat) => seat.seat === number))))) : table.seats.map(seatPart))),
    el("span", { class: "tag" }, words),
    el("span", { class: "actions" }, link));
}

function seatPart(seat) {
  return el("span", { class: "seat", "data-testid": "table-seat" }, seat.name,
            seat.points === null ? "" : el("span", { class: "tag" }, tn("{n} point", "{n} points", { n: seat.points })));
}

function entrantsPanel(tournament) {
  const entrants = tournament.entrant_list;
  return el("section", { class: "panel", "aria-labelledby": "entrants-title" },
    el("h2", { id: "entrants-title" }, t("Entrants"), " ", el("span", { class: "muted" }, entrantWords(tournament))),
    entrants.length ? el("ul", { class: "entrant-list", "data-testid": "entrants" },
                         ...entrants.map((entrant) => el("li", { "data-testid": "entrant", class: entrant.withdrawn ? "withdrawn" : null },
                           entrant.name, entrant.rating ? el("span", { class: "muted" }, ` ${ratingWords(entrant.rating)}`) : "",
                           entrant.withdrawn ? el("span", { class: "muted" }, ` (${t("withdrawn")})`) : "")))
                    : el("p", { class: "muted" }, t("No one has entered yet.")));
}

const id = document.body.dataset.tournament;
if (id) showPage(id);
