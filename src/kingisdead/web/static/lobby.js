// The lobby: create a game, hand out invite links, list games to join, watch or replay.
import { api, el, myGames, saveTokens, toast, seatLabel, knowLevels, levelLabel, redraw } from "/static/common.js";
import { clauses, t, tn } from "/static/i18n.js";
import { mountAccount } from "/static/account.js";
import { levelRating, loadRatings, mountLeaderboard, mountRatedOption, ratedChosen } from "/static/leaderboard.js";
import { clockSettings, limitText } from "/static/clock.js";
import { inviteField, keepInvites } from "/static/invites.js";

const $ = (id) => document.getElementById(id);
let clock = null;  // the time limit and stand-in rows of the create form (clock.js)
let meta = null;
let players = 2, variant = "standard", edition = "first", tab = "mine";
let seatChoices = ["human", "bot:random", "bot:random", "bot:random"];
let seatAccess = ["private", "private", "private", "private"];  // per human seat but yours: invite only, or open
const seatNames = ["", "", "", ""];  // typed names survive a redraw (e.g. when the bots' ratings arrive)

async function start() {
  mountAccount();  // sign-in form or the signed-in player's games, beside the rest
  meta = await api("GET", "/api/meta");
  knowLevels(meta.levels);
  clock = clockSettings(meta.levels, meta.reminders);
  $("game-settings").prepend(...clock.rows);  // the form's second column (index.html): time, stand-in, options
  const defaultBot = defaultLevel();
  seatChoices = ["human", `bot:${defaultBot}`, `bot:${defaultBot}`, `bot:${defaultBot}`];
  $("advanced-bots").addEventListener("change", renderSeats);
  segmented("players", (b) => { players = Number(b.dataset.n); renderSeats(); });
  // the variant's help in the chosen edition's words (data-standard-second: the second edition's standard game)
  const variantHelp = () => {
    const help = $("variant-help").dataset;
    $("variant-help").textContent = (edition === "second" && help[`${variant}Second`]) || help[variant];
  };
  // the advanced game allows fewer bots, and has rule options of its own
  segmented("variant", (b) => { variant = b.dataset.v; variantHelp(); ruleOptionsState(); renderSeats(); });
  segmented("edition", (b) => {
    edition = b.dataset.e;
    $("edition-help").textContent = $("edition-help").dataset[edition];
    // the headline names the chosen edition's factions and invaders
    for (const e of ["first", "second"]) document.querySelector(`[data-testid=hero-${e}]`).hidden = e !== edition;
    $("rule-options").classList.toggle("hidden", edition !== "second");  // the first edition's rulebook and rulings settle every point
    // the advanced game (secret Cunning cards) is the second edition's only
    const advancedButton = $("variant").querySelector("[data-v=advanced]");
    advancedButton.hidden = edition !== "second";
    if (advancedButton.hidden && variant === "advanced") $("variant").querySelector("[data-v=standard]").click();
    // the second edition has no Mordred variant: its button is off, and the standard game is chosen
    const mordred = $("variant").querySelector("[data-v=mordred]");
    mordred.disabled = edition === "second";
    if (mordred.disabled && variant === "mordred") $("variant").querySelector("[data-v=standard]").click();
    variantHelp();
    ruleOptionsState();
    renderSeats();  // the levels offered depend on the edition
  });
  // the folded rule options say on their line whether any differs from the rules' defaults
  for (const select of document.querySelectorAll("[data-option]")) select.addEventListener("change", ruleOptionsState);
  ruleOptionsState();  // a reload may keep choices made before it
  segmented("tabs", (b) => { tab = b.dataset.s; loadGames(); });
  $("create").addEventListener("click", create);
  renderSeats();
  mountRatedOption(meta.provisional_games);
  $("rated").addEventListener("change", () => clock.rated(ratedChosen(), meta.rated_stand_ins));
  // memory mode has no hints (they would show the cards played): the server makes such a game without them
  $("memory").addEventListener("change", () => {
    $("hints").disabled = $("memory").checked;
    if ($("memory").checked) $("hints").checked = false;
  });
  mountLeaderboard();
  loadRatings().then(renderSeats);  // each bot level's rating shows once known
  loadGames();
  setInterval(loadGames, 5000);
}

function segmented(id, onPick) {
  const group = $(id);
  group.querySelectorAll("button").forEach((b) => b.addEventListener("click", () => {
    group.querySelectorAll("button").forEach((x) => x.classList.toggle("on", x === b));
    onPick(b);
  }));
}

function renderSeats() {
  // a redraw (the bots' ratings arriving) while a name is typed keeps the caret where it was
  const focused = $("seats").contains(document.activeElement) ? document.activeElement : null;
  const rows = [];
  for (let i = 0; i < players; i++) {
    const select = el("select", { "data-testid": `seat-${i}`, "aria-label": t("seat {n}", { n: i + 1 }) },
      el("option", { value: "human" }, t("Person")), ...botOptions());
    if (!select.querySelector(`option[value="${seatChoices[i]}"]`)) seatChoices[i] = `bot:${defaultLevel()}`;
    select.value = seatChoices[i];
    // what playing the chosen bot is like, under its seat (a closed select cuts its option's text short)
    const feel = el("div", { class: "help seat-help", "data-testid": `seat-help-${i}` });
    const describe = () => {
      const level = meta.levels.find((l) => `bot:${l.name}` === select.value);
      feel.textContent = level ? t("{level}: {about}", { level: level.label, about: level.feel }) : "";
      feel.hidden = !level;
    };
    describe();
    select.addEventListener("change", () => { seatChoices[i] = select.value; describe(); });
    const name = el("input", { type: "text", maxlength: 40, placeholder: t("Player {n}", { n: i + 1 }), "data-testid": `name-${i}`, "aria-label": t("name of seat {n}", { n: i + 1 }) });
    name.value = seatNames[i];
    name.addEventListener("input", () => { seatNames[i] = name.value; });
    const seatTitle = players === 4 ? (i % 2 ? t("seat {n} (team B)", { n: i + 1 }) : t("seat {n} (team A)", { n: i + 1 })) : t("seat {n}", { n: i + 1 });
    const access = el("select", { class: "access", "data-testid": `access-${i}`, "aria-label": t("who may take seat {n}", { n: i + 1 }) },
      el("option", { value: "private" }, t("invite a friend (private link)")),
      el("option", { value: "public" }, t("open to anyone")));
    access.value = seatAccess[i];
    access.addEventListener("change", () => { seatAccess[i] = access.value; });
    select.addEventListener("change", updateAccess);
    rows.push(el("div", { class: "seat-row" }, el("b", { title: seatTitle }, `${i + 1}`), select, name, access), feel);
  }
  levelsNote();
  $("seats").replaceChildren(el("div", { class: "muted", style: "font-size:0.85rem" },
    players === 4 ? t("Seats 1+3 and 2+4 play as teams. Seat 1 starts.") : t("Seat 1 starts.")), ...rows);
  const again = focused && $("seats").querySelector(`[data-testid="${focused.dataset.testid}"]`);
  if (again) {
    again.focus();
    if (again.tagName === "INPUT") again.setSelectionRange(focused.selectionStart, focused.selectionEnd);
  }
  updateAccess();
}

// The rule options that apply: the second edition's, and the advanced game's own when it is chosen.
function optionSelects() {
  if (edition !== "second") return [];
  return [...document.querySelectorAll("[data-option]")].filter((select) => advanced() || !("advanced" in select.dataset));
}

// The rule options changed from their defaults (the first value of each list), as the API takes them.
function ruleOptions() {
  const chosen = {};
  for (const select of optionSelects()) {
    if (select.selectedIndex === 0) continue;
    chosen[select.dataset.option] = select.value === "true" ? true : select.value === "false" ? false : select.value;
  }
  return chosen;
}

function ruleOptionsState() {
  $("advanced-options").classList.toggle("hidden", !advanced());
  const state = document.querySelector("[data-testid=rule-options-state]");
  const changed = optionSelects().filter((select) => select.selectedIndex !== 0).length;
  state.textContent = changed ? tn("{n} option changed from the defaults", "{n} options changed from the defaults", { n: changed })
                              : state.dataset.default;
}

// The second edition's advanced game (secret Cunning cards) chosen.
function advanced() { return edition === "second" && variant === "advanced"; }

// the bots guided by the learned network play only the editions it was trained on; the advanced game only the
// levels and bots that choose from their own seat's view (/api/meta's advanced_levels and advanced_bots)
function plays(name) {
  if (advanced()) return name in (meta.advanced_levels || {}) || (meta.advanced_bots || []).includes(name);
  return !meta.network_bots.includes(name) || meta.trained_editions.includes(edition);
}

// Why a level is missing from the lists: its network learnt other editions only.
function levelsNote() {
  const missing = advanced() ? [] : meta.levels.filter((l) => !plays(l.name)).map((l) => l.label);
  const note = $("levels-note");
  note.hidden = !missing.length;
  note.textContent = missing.length
    ? tn("Not offered with this edition: the {levels} bot, whose network has not learnt to play it.",
         "Not offered with this edition: the {levels} bots, whose network has not learnt to play it.",
         { n: missing.length, levels: missing.join(", ") })
    : "";
}

// Bots by level (the engine's ladder, one line each: what playing it is like; the engine's words as the
// tooltip); the raw engine bots only with "advanced" ticked.
function botOptions() {
  const levels = meta.levels.filter((l) => plays(l.name)).map((l) => el("option", { value: `bot:${l.name}`, "data-testid": "level-option",
                                                         title: l.thinks_in_description ? l.description : `${l.description}; ${l.thinks}` },
    t("Bot: {level} ({about})", { level: l.label, about: clauses([l.feel, l.thinks]) }) + levelRating(l.name, players)));
  if (!$("advanced-bots").checked) return levels;
  const named = new Set(meta.levels.map((l) => l.name));
  return [el("optgroup", { label: t("Levels") }, ...levels),
          el("optgroup", { label: t("Advanced: engine bots") },
            ...meta.bots.filter((b) => !named.has(b) && plays(b)).map((b) => el("option", { value: `bot:${b}`, "data-testid": "raw-bot-option" }, t("Engine bot: {name}", { name: b }))))];
}

function defaultLevel() {
  const names = meta.levels.map((l) => l.name);
  return names.includes("intermediate") ? "intermediate" : names[0];
}

// Who may take a seat is asked only for people's seats other than the creator's.
function updateAccess() {
  for (let i = 0; i < players; i++) {
    const access = document.querySelector(`[data-testid=access-${i}]`);
    if (access) access.hidden = i === firstHuman() || seatChoices[i] !== "human";
  }
}

// The creator plays the first human seat; the others are for invited friends or anyone in the lobby.
function firstHuman() { return seatChoices.slice(0, players).indexOf("human"); }

// The game chosen in the create form, as a challenge proposes it (challenges.js): the seats after the second are
// its bots (null for a person's seat there, which a challenge cannot have).
export function chosenGame() {
  const bots = seatChoices.slice(2, players).map((choice) => (choice.startsWith("bot:") ? choice.slice(4) : null));
  return { players, bots, variant: advanced() ? "standard" : variant, edition, mode: advanced() ? "advanced" : "standard",
           options: ruleOptions(), rated: advanced() ? false : ratedChosen(), hints: advanced() ? false : $("hints").checked,
           memory: $("memory").checked, ...clock.values() };
}

async function create() {
  $("create-error").classList.add("hidden");
  const seats = [];
  for (let i = 0; i < players; i++) {
    const choice = document.querySelector(`[data-testid=seat-${i}]`).value;
    const name = document.querySelector(`[data-testid=name-${i}]`).value.trim() || null;
    seats.push(choice === "human" ? { kind: "human", name, public: seatAccess[i] === "public" }
                                  : { kind: "bot", bot: choice.slice(4), name });
  }
  const seedText = $("seed").value.trim();
  // the advanced game is unrated and without hints (the server would refuse a rated one)
  const body = { players, variant: advanced() ? "standard" : variant, edition, ...(advanced() ? { mode: "advanced" } : {}), options: ruleOptions(), seats,
                 rated: advanced() ? false : ratedChosen(), hints: advanced() ? false : $("hints").checked, hotseat: $("hotseat").checked, memory: $("memory").checked,
                 seed: seedText === "" ? null : Number(seedText), ...clock.values() };
  let game;
  try {
    game = await api("POST", "/api/games", body);
  } catch (err) {
    $("create-error").textContent = err.message;
    $("create-error").classList.remove("hidden");
    return;
  }
  const mine = game.seats.filter((s) => s.token);  // the creator's seat (every human seat in hot-seat mode)
  const invited = game.seats.filter((s) => s.invite);
  if (mine.length) saveTokens(game.id, mine.map((s) => s.token));
  keepInvites(game.id, invited);  // the table shows them too, until their seats are taken
  if (!invited.length) { location.href = `/game/${game.id}`; return; }
  // several people on several screens: this browser holds the first seat, the others get links
  const box = $("created");
  box.classList.remove("hidden");
  box.replaceChildren(
    el("h3", { style: "margin-top:14px" }, t("Invite the other players")),
    el("p", { class: "muted" }, t("Each link is a seat's secret: send it only to that player.")),
    el("div", { class: "invites" }, ...invited.map((s) => {
      const row = inviteField(s.invite, `invite-row-${s.seat}`, el("b", {}, seatLabel(s)));
      row.querySelector("input").dataset.testid = `invite-${s.seat}`;
      if (s.public) row.append(el("span", { class: "muted" }, t("also open to anyone in the lobby")));
      return row;
    })),
    el("p", { class: "muted" }, t("The links stay at the table too, until their seats are taken.")),
    el("div", { class: "buttons" }, el("a", { class: "btn", href: `/game/${game.id}`, "data-testid": "open-game" }, t("Go to the table as {player}", { player: seatLabel(mine[0]) }))));
}

async function loadGames() {
  let games;
  if (tab === "mine") {
    const ids = new Set(myGames());
    games = (await api("GET", "/api/games")).games.filter((g) => ids.has(g.id));
  } else {
    games = (await api("GET", `/api/games?status=${tab}`)).games;
  }
  const items = games.map((g) => {
    const seats = g.seats.map((s) => s.kind === "bot" ? t("{level} bot", { level: levelLabel(s.bot) }) : (s.claimed ? s.name : t("free seat"))).join(" · ");
    const actions = [];
    if (g.open_seats.length && tab !== "mine") {
      const join = el("button", { class: "btn small", "data-testid": "join" }, t("Join"));
      join.addEventListener("click", () => joinGame(g.id));
      actions.push(join);
    }
    actions.push(el("a", { class: "btn secondary small", href: `/game/${g.id}` }, g.status === "finished" ? t("View") : (tab === "mine" ? t("Open") : t("Watch"))));
    return el("li", {},
      el("span", { class: "gid" }, g.id),
      el("span", {}, t("{n}p", { n: g.players }) + (g.variant === "mordred" ? " " + t("Mordred") : "") +
                     (g.edition === "second" ? " " + t("2nd edition") : "") + (g.mode === "advanced" ? " " + t("Advanced game") : "")),
      el("span", { class: "muted" }, g.status === "finished" ? t("finished") : t("move {n}", { n: g.move_number })),
      g.time_limit ? el("span", { class: "muted", "data-testid": "game-limit" }, limitText(g.time_limit)) : "",
      el("span", { style: "font-size:0.85rem" }, seats),
      el("span", { class: "actions" }, ...actions));
  });
  if (!items.length) items.push(el("li", { class: "muted" }, tab === "mine" ? t("No games yet: create one.") : t("None right now.")));
  redraw(() => $("games").replaceChildren(...items));  // refreshed every 5 s: a click on Join is kept
}

async function joinGame(id) {
  try {
    const seat = await api("POST", `/api/games/${id}/join`);
    saveTokens(id, [seat.token]);
    location.href = `/game/${id}`;
  } catch (err) { toast(err.message); }
}

// The tournaments panel (tournaments.js) is loaded when first opened; a player who left it open finds it open.
const TOURNAMENTS_KEY = "kid:tournaments-open";
$("tournaments-panel").addEventListener("toggle", async () => {
  const open = $("tournaments-panel").open;
  localStorage.setItem(TOURNAMENTS_KEY, open ? "yes" : "no");
  if (open) (await import("/static/tournaments.js")).mountPanel($("tournaments-body"));
});
if (localStorage.getItem(TOURNAMENTS_KEY) === "yes") $("tournaments-panel").open = true;

// The browser can install the site as an app (Chromium says so with beforeinstallprompt): a button under the
// lobby's welcome offers it (the header has no room on a phone), in place of the browser's own banner or nothing;
// it goes once used or the app is installed.
addEventListener("beforeinstallprompt", (offer) => {
  offer.preventDefault();
  const welcome = document.querySelector(".hero-learn");
  if (!welcome || document.querySelector("[data-testid=install-app]")) return;
  const install = el("button", { class: "btn secondary small", type: "button", "data-testid": "install-app" }, t("Install the app"));
  install.addEventListener("click", () => { line.remove(); offer.prompt(); });
  const line = el("p", { class: "hero-install" }, install, " ",
                  el("span", { class: "muted" }, t("Play from your home screen or desktop")));
  welcome.after(line);
});
addEventListener("appinstalled", () => document.querySelector(".hero-install")?.remove());

start();
