// The table: shows one game as this browser's seat may see it, and builds moves by clicking.
// Moves are built step by step with the server's options (the engine's MoveBuilder), so only
// choices that can still complete a legal move are ever offered.
import { drawMap, cube, FACTION_COLOURS, PLAYER_COLOURS, SAXON_COLOUR } from "/static/map.js";
import { api, tokensFor, claimInvites, saveTokens, el, toast, cardText, seatLabel, resultTitle } from "/static/common.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);

let facts = null;          // the board's fixed data (GET /api/meta)
let view = null;           // the latest view shown (private when a seat is active)
let publicView = null;     // the latest spectator view (hot-seat mode follows this one)
const seatTokens = new Map();  // seat -> token held by this browser
let revealed = null;       // hot-seat: the seat whose hand is on screen
let build = { steps: [], options: null, number: -1 };
let replay = null;         // {n, frame} while stepping through a finished game
let hint = null;
let analysisSummary = null;  // per player: moves reviewed, lost, the three biggest mistakes
let analysis = null;       // move number -> annotation, once asked for after the game
let socket = null, backoff = 500;
let stepping = null;       // {entries, i, timer}: opponents' moves being shown one by one
let autoSteps = new Map(); // index of a build step taken automatically (one option only) -> why
const STEP_MS = 1200;

function hotseat() { return seatTokens.size > 1; }
function mySeatToMove(v) {
  const t = v && v.table.to_move;
  return t !== null && t !== undefined && seatTokens.has(t) ? t : null;
}

// ---------- start ----------
async function start() {
  facts = await api("GET", "/api/meta");
  for (const token of await claimInvites(gameId, tokensFor(gameId))) {
    try {
      const v = await api("GET", `/api/games/${gameId}`, null, token);
      seatTokens.set(v.you, token);
    } catch (err) { /* a token for another game or a seat taken over: ignore it */ }
  }
  if (!seatTokens.size) {  // no seat token in this browser: a seat the signed-in account holds (by its cookie)
    try {
      const mine = await api("GET", `/api/games/${gameId}`);
      if (mine.you !== null && mine.you !== undefined) seatTokens.set(mine.you, null);
    } catch (err) { /* the game's own errors are shown just below */ }
  }
  $("download").href = `/api/games/${gameId}/record`;
  try {
    publicView = await api("GET", `/api/games/${gameId}`);
  } catch (err) {
    document.body.dataset.turn = "error";
    $("turn").replaceChildren(el("div", { class: "who" }, err.message));
    return;
  }
  await onPublic(publicView, true);
  connect();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const token = !hotseat() && seatTokens.size === 1 ? [...seatTokens.values()][0] : null;
  socket = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws`);
  socket.onopen = () => {  // the token goes in the first message, never in the URL (logs and proxies keep URLs)
    backoff = 500; $("conn").className = "conn on";
    if (token) socket.send(JSON.stringify({ type: "auth", token }));
  };
  socket.onclose = () => {
    $("conn").className = "conn off";
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
  };
  socket.onmessage = async (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "state") return;
    if (message.game.you !== null && message.game.you !== undefined) show(message.game);
    else await onPublic(message.game, false);
  };
}

// A free seat: "open in the lobby", or for the creator (the first human seat) a button to open a private one.
function seatAccess(seat) {
  if (seat.public) return el("span", { class: "tag" }, "open in the lobby");
  const creator = view.seats.find((s) => s.kind === "human");
  if (view.status === "finished" || view.you === null || !creator || view.you !== creator.seat) return null;
  const button = el("button", { class: "btn secondary small", "data-testid": `open-seat-${seat.seat}`,
                                title: "let anyone in the lobby take this seat (its invite link still works until then)" },
                    "Open to anyone");
  button.addEventListener("click", async () => {
    try { show(await api("POST", `/api/games/${gameId}/seats/${seat.seat}/open`, null, seatTokens.get(view.you))); }
    catch (err) { toast(err.message); }
  });
  return button;
}

// A spectator's view arrived: in hot-seat mode, fetch the private view of the seat to move once revealed.
async function onPublic(v, first) {
  publicView = v;
  if (seatTokens.size === 1 && !hotseat()) {
    const [seat, token] = [...seatTokens.entries()][0];
    if (first || v.move_number !== (view && view.move_number)) {
      show(await api("GET", `/api/games/${gameId}`, null, token));
    }
    return;
  }
  const active = mySeatToMove(v);
  if (active !== null && active === revealed) {
    show(await api("GET", `/api/games/${gameId}`, null, seatTokens.get(active)));
  } else {
    show(v);
  }
}

async function refresh() {
  const seat = view && view.you !== null ? view.you : null;
  const token = seat !== null ? seatTokens.get(seat) : null;
  show(await api("GET", `/api/games/${gameId}`, null, token));
}

// ---------- rendering ----------
function show(v) {
  if (view && v.move_number < view.move_number && v.id === view.id) return;  // an older message
  const changed = !view || view.move_number !== v.move_number || view.you !== v.you;
  const seen = view && view.id === v.id ? view.move_number : null;
  view = v;
  if (seen !== null && v.move_number > seen) queueMoves(v.log.slice(seen));
  if (changed) { build = { steps: [], options: null, number: v.move_number }; hint = null; autoSteps = new Map(); }
  const myTurn = v.you !== null && v.table.to_move === v.you && v.status !== "finished";
  document.body.dataset.turn = v.status === "finished" ? "over" : myTurn ? "you" : "wait";
  document.body.dataset.move = v.move_number;
  renderVeil();
  render();
  if (myTurn && !build.options && !replay) loadOptions([]);
}

function render() {
  const table = replay ? replay.frame.table : view.table;
  const shown = !replay && build.options && build.options.preview ? build.options.preview : table;
  $("game-meta").textContent = `Game ${view.id} · ${view.players} players · ${view.variant === "mordred" ? "Mordred" : "Standard"}${view.memory ? " · memory mode" : ""} · move ${view.move_number}`;
  renderLegend();
  renderMap(shown);
  renderTrack(shown);
  $("preview-flag").classList.toggle("hidden", shown === table);
  renderTurn(table);
  renderAction();
  renderPlayers(table);
  renderLog();
  renderLastMoves();
  renderBanner();
  renderResult();
  renderReplayBar();
}

function interaction() {
  const ui = { selectable: new Set(), chosen: new Map(), onRegion: null, dim: false, marks: null };
  // The move being shown, else the latest one, stays marked until a choice of a new move is made.
  const shownEntry = stepping ? stepping.entries[stepping.i]
    : !replay && !build.steps.length && view.log.length ? view.log[view.log.length - 1] : null;
  if (shownEntry && shownEntry.changes) ui.marks = shownEntry.changes;
  if (replay || !build.options) return ui;
  const regionOptions = build.options.options.filter((o) => o.kind === "region");
  regionOptions.forEach((o) => ui.selectable.add(o.value));
  ui.dim = regionOptions.length > 0;
  let n = 0;
  for (const step of build.steps) {  // number each region step; a region chosen twice shows both numbers
    if (step.kind !== "region") continue;
    const before = ui.chosen.get(step.value);
    ui.chosen.set(step.value, before ? `${before},${++n}` : String(++n));
  }
  ui.onRegion = (region) => choose(regionOptions.find((o) => o.value === region));
  return ui;
}

function renderMap(table) { drawMap($("map"), facts, table, interaction()); }

function renderLegend() {
  const items = facts.factions.slice(0, view.variant === "mordred" ? 4 : 3).map((name, k) =>
    el("span", {}, el("i", { class: "swatch", style: `background:${FACTION_COLOURS[k]}` }), name));
  items.push(el("span", {}, el("i", { class: "swatch", style: `background:${SAXON_COLOUR}` }), "Saxons"));
  items.push(el("span", {}, el("i", { class: "swatch", style: "background:#f0c75a;border-radius:50%" }), "contested now"));
  if (view.variant === "mordred" && facts.mordred_flags) {
    const names = [...new Set(facts.mordred_flags)].map((t) => `⚑ ${facts.regions[t].code} = ${facts.regions[t].name}`);
    items.push(el("span", { "data-testid": "legend-loyalist", title: "Hover a flag on the map for its region" },
      `Loyalist flag: resolving the region adds a Loyalist to the region named (${names.join(", ")})`));
  }
  $("legend").replaceChildren(...items);
}

function renderTrack(table) {
  const ui = interaction();
  const cards = table.order.map((region, position) => {
    const control = table.control[region];
    const classes = ["rcard"];
    if (table.contested === region) classes.push("contested");
    if (control >= 0) classes.push("resolved");
    if (ui.selectable.has(region)) classes.push("selectable");
    else if (ui.dim) classes.push("dimmed");
    if (ui.chosen.has(region)) classes.push("chosen");
    if (ui.marks && ui.marks.touched.includes(region)) classes.push("touched");
    const card = el("div", { class: classes.join(" "), "data-testid": "region-card", "data-region": region },
      el("div", { class: "pos" }, `${position + 1}`),
      el("div", { class: "name" }, facts.regions[region].name));
    if (control >= 0) {
      const colour = control === 4 ? SAXON_COLOUR : FACTION_COLOURS[control];
      card.append(el("div", { class: "ctl", style: `background:${colour}`, title: facts.controls[control] }),
                  el("div", { class: "state" }, control === 4 ? "Saxons" : facts.controls[control]));
    } else {
      card.append(el("div", { class: "state" }, table.contested === region ? "contested" : ""));
    }
    if (table.crowns[region] >= 0) {
      const p = table.crowns[region];
      card.append(el("span", { class: "crown", title: `Crown token of player ${p + 1}` }, crownBadge(p)));
    }
    if (ui.selectable.has(region)) card.addEventListener("click", () => ui.onRegion(region));
    return card;
  });
  $("track").replaceChildren(...cards);
}

function crownBadge(p) {
  const span = el("span", { class: "dot", style: `background:${PLAYER_COLOURS[p]};width:18px;height:18px;display:inline-flex;align-items:center;justify-content:center;color:#ffe27a;font-size:11px;border:2px solid #fff` }, "♛");
  return span;
}

function cubeIcon(kind, size = 11) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("width", size + 2); svg.setAttribute("height", size + 2);
  svg.setAttribute("viewBox", `-1 -1 ${size + 2} ${size + 2}`);
  cube(svg, 0, 0, kind, size);
  return svg;
}

function renderTurn(table) {
  const turn = $("turn");
  if (view.status === "finished" && !replay) { turn.classList.add("hidden"); return; }
  turn.classList.remove("hidden");
  const toMove = table.to_move;
  const mine = !replay && view.you !== null && toMove === view.you;
  turn.className = "turn panel" + (mine ? " yours" : "");
  let who;
  if (replay) who = `Replay: after move ${replay.n} of ${replay.frame.total}`;
  else if (toMove === null) who = "Game over";
  else if (mine) who = "Your turn";
  else {
    const seat = view.seats[toMove];
    who = seat.kind === "bot" ? `${seatLabel(seat)} is thinking…`
      : seat.claimed ? `Waiting for ${seatLabel(seat)}` : `Waiting for ${seatLabel(seat)} to join (send the invite link)`;
  }
  const stock = el("span", { title: "common stock" }, "Stock ",
    ...table.stock.slice(0, view.variant === "mordred" ? 4 : 3).flatMap((n, k) => [cubeIcon(k), ` ${n} `]));
  turn.replaceChildren(
    toMove !== null ? el("span", { class: "dot", style: `background:${PLAYER_COLOURS[toMove]}` }) : "",
    el("span", { class: "who", "data-testid": "turn-text" }, who),
    el("div", { class: "stats" },
      stock,
      el("span", { title: "Saxon control tokens: four end the game" }, `Saxons ${table.saxons}/4`),
      el("span", {}, `Passes in a row ${table.passes}/${view.players}`),
      el("span", {}, `Struggle ${Math.min(table.resolved + 1, 8)} of 8`)));
}

function renderAction() {
  const box = $("action");
  if (replay || view.status === "finished") { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const table = view.table;
  const myTurn = view.you !== null && table.to_move === view.you && view.status !== "finished";
  const parts = [];
  if (view.you === null) {
    const active = mySeatToMove(view);
    if (view.status === "finished") parts.push(el("div", { class: "prompt" }, "The game is over."));
    else if (hotseat() && active === null) parts.push(el("div", { class: "prompt" }, "The bots are moving…"));
    else if (hotseat()) parts.push(el("div", { class: "prompt", "data-testid": "handover" }, `It is ${seatLabel(view.seats[active])}'s turn.`),
                                   el("p", { class: "muted" }, "Hand the screen over to them: their hand shows once they are ready."));
    else parts.push(el("div", { class: "prompt" }, "You are watching this game."),
                    el("p", { class: "muted" }, "Hands are hidden from spectators: only top cards and cards left are shown."));
    box.replaceChildren(...parts);
    return;
  }
  const options = build.options;
  if (myTurn && options) {
    if (build.steps.length) parts.push(el("div", { class: "crumbs" }, ...build.steps.map((st) => el("span", {}, st.label))));
    parts.push(el("div", { class: "prompt", "data-testid": "prompt" }, options.prompt));
    for (const note of autoSteps.values()) parts.push(el("div", { class: "auto-note", "data-testid": "auto-note" }, note));
    if (options.notes.length) parts.push(el("ul", { class: "notes", "data-testid": "notes" }, ...options.notes.map((n) => el("li", {}, n))));
    const choices = options.options.filter((o) => o.kind !== "pass" && o.kind !== "card");
    if (choices.length) {
      const regionStep = choices.some((o) => o.kind === "region");
      if (regionStep) parts.push(el("div", { class: "muted", style: "font-size:0.85rem" }, "Click a highlighted region on the map, or choose here:"));
      parts.push(el("div", { class: "choices" }, ...choices.map(choiceButton)));
    }
    if (options.complete) {
      parts.push(el("div", { class: "move-preview", "data-testid": "preview" },
        el("div", {}, options.description === "passes" ? "You pass." : options.description),
        el("div", { class: "mono" }, options.move)));
    }
    const buttons = [];
    if (options.complete) buttons.push(button("Confirm", confirmMove, "btn", "confirm"));
    if (build.steps.length) buttons.push(button("Back", back, "btn secondary", "back"));
    if (options.options.some((o) => o.kind === "pass")) buttons.push(button("Pass", () => choose({ kind: "pass", value: -1, label: "pass" }), "btn secondary", "pass"));
    if (view.hints && hintsOn() && !build.steps.length) buttons.push(button("Hint", askHint, "btn secondary", "hint"));
    if (view.hints) buttons.push(hintsToggle());
    parts.push(el("div", { class: "buttons" }, ...buttons));
    if (hint && hintsOn()) parts.push(renderHint());
  } else if (myTurn) {
    parts.push(el("div", { class: "prompt" }, "Working out your choices…"));
  } else if (view.status !== "finished") {
    // Not your turn: the hand folds away behind a one-line summary (folded by default on a phone).
    const total = (view.table.hand || []).reduce((a, b) => a + b, 0);
    const details = el("details", { class: "hand-fold", "data-testid": "hand-fold" },
      el("summary", { class: "muted", "data-testid": "hand-summary" },
        `Your hand (${total} card${total === 1 ? "" : "s"}) — wait for your turn`),
      renderHand([]));
    details.open = handOpen ?? !PHONE_QUERY.matches;
    details.addEventListener("toggle", () => { handOpen = details.open; });
    box.replaceChildren(details);
    return;
  }
  parts.push(renderHand(myTurn && options && !build.steps.length ? options.options : []));
  box.replaceChildren(...parts);
}

// Phone: the page's bottom padding follows the fixed bar's height, so everything scrolls above it.
const PHONE_QUERY = window.matchMedia("(max-width: 760px)");
let handOpen = null;  // the player's own choice to show or fold the hand while waiting; null: the default
function followBarHeight() {
  const update = () => {
    const height = ["action", "replay"].reduce((sum, id) => sum + ($(id) ? $(id).offsetHeight : 0), 0);
    document.body.style.setProperty("--bar-h", `${height}px`);
  };
  const observer = new ResizeObserver(update);
  for (const id of ["action", "replay"]) if ($(id)) observer.observe($(id));
  update();
}
followBarHeight();

function choiceButton(option) {
  const content = [];
  if (option.kind === "faction") content.push(cubeIcon(option.value, 12));
  content.push(option.kind === "none" ? "none (stock empty)" : option.label);
  const b = el("button", { class: `choice k-${option.kind}`, "data-testid": "choice", "data-kind": option.kind, "data-value": option.value }, ...content);
  b.addEventListener("click", () => choose(option));
  return b;
}

function button(label, onClick, cls, testid) {
  const b = el("button", { class: cls, "data-testid": testid }, label);
  b.addEventListener("click", onClick);
  return b;
}

function renderHand(offered) {
  const hand = view.table.hand;
  if (!hand) return el("div");
  const playable = new Set(offered.filter((o) => o.kind === "card").map((o) => o.value));
  const selected = build.steps.length && build.steps[0].kind === "card" ? build.steps[0].value : null;
  const cards = [];
  hand.forEach((count, card) => {
    if (!count) return;
    const classes = ["card", `k-${facts.cards[card]}`];
    if (playable.has(card)) classes.push("playable");
    else if (offered.length) classes.push("unplayable");
    if (selected === card) classes.push("selected");
    const tile = el("button", { class: classes.join(" "), "data-testid": "hand-card", "data-card": card,
                                 disabled: playable.has(card) ? null : "" },
      el("span", { class: "title" }, facts.cards[card]),
      el("span", { class: "text" }, cardText(card)),
      count > 1 ? el("span", { class: "count" }, `×${count}`) : "");
    if (playable.has(card)) tile.addEventListener("click", () => choose({ kind: "card", value: card, label: facts.cards[card] }));
    cards.push(tile);
  });
  const total = hand.reduce((a, b) => a + b, 0);
  return el("div", {}, el("h3", { style: "margin:12px 0 0" }, `Your hand (${total} card${total === 1 ? "" : "s"})`),
            total ? el("div", { class: "hand", "data-testid": "hand" }, ...cards)
                  : el("p", { class: "muted" }, "No cards left: you can only pass."));
}

function renderHint() {
  return el("div", { class: "move-preview", "data-testid": "hint-box" },
    el("div", { style: "font-weight:600" }, "Suggestions"),
    ...hint.moves.map((m) => el("div", { class: "hint-move" }, el("span", { class: "mono" }, m.move),
      el("span", { class: "chance" }, `${Math.round(m.win_chance * 100)}% to win`),
      el("div", { class: "muted", style: "font-size:0.8rem" }, m.description))),
    el("div", { class: "muted", style: "font-size:0.75rem" }, hint.method));
}

function renderPlayers(table) {
  const result = table.result;
  const cards = [];
  for (let p = 0; p < view.players; p++) {
    const seat = view.seats[p];
    const classes = ["player"];
    if (table.to_move === p) classes.push("to-move");
    if (result && result.winners.includes(p)) classes.push("winner");
    const tags = [];
    if (p === view.you || (hotseat() && seatTokens.has(p))) tags.push(el("span", { class: "tag" }, "you"));
    if (seat.kind === "bot") tags.push(el("span", { class: "tag" }, `bot: ${seat.bot}`));
    if (view.players === 4) tags.push(el("span", { class: "tag" }, p % 2 === 0 ? "team 1+3" : "team 2+4"));
    if (seat.kind === "human" && !seat.claimed) tags.push(el("span", { class: "tag" }, "seat free"), seatAccess(seat));
    if (result && result.winners.includes(p)) tags.push(el("span", { class: "tag", style: "background:#f0c75a" }, result.ruler === p ? "♛ ruler" : "wins"));
    const top = table.tops[p];
    const court = el("span", { class: "court", title: "followers at court" },
      ...table.courts[p].map((n, k) => el("span", {}, cubeIcon(k), `${n}`)));
    const topCard = top >= 0 ? el("span", { class: `card mini k-${facts.cards[top]}`, title: "top card of the played pile" }, el("span", { class: "title" }, facts.cards[top]))
                             : el("span", { class: "muted" }, "no card played");
    const rows = [el("div", { class: "row" }, el("span", { class: "muted" }, "Court"), court),
                  el("div", { class: "row" }, el("span", { class: "muted" }, "Top card"), topCard,
                     el("span", { class: "muted", "data-testid": "cards-left" }, `${table.cards_left[p]} card${table.cards_left[p] === 1 ? "" : "s"} left`))];
    if (table.hands) {
      const left = table.hands[p].flatMap((n, c) => Array(n).fill(facts.cards[c]));
      rows.push(el("div", { class: "row muted" }, `Hand: ${left.length ? left.join(", ") : "empty"}`));
    }
    cards.push(el("div", { class: classes.join(" "), "data-testid": "player", "data-seat": p },
      el("div", { class: "head" }, el("span", { class: "dot", style: `background:${PLAYER_COLOURS[p]}` }),
         el("span", { class: "name" }, seatLabel(seat)), ...tags),
      ...rows));
  }
  $("players").replaceChildren(el("h3", { class: "serif", style: "margin:0" }, "Players"), ...cards);
}

function renderLog() {
  const items = [];
  for (const entry of view.log) {
    const current = replay && replay.n === entry.number;
    items.push(el("li", { class: current ? "current" : "", "data-number": entry.number },
      el("span", { class: "n" }, `${entry.number}.`),
      el("span", { class: "dot", style: `background:${PLAYER_COLOURS[entry.seat]};width:10px;height:10px;margin-top:4px`, title: `player ${entry.seat + 1}` }),
      el("span", {}, el("span", { class: "mono" }, entry.notation), verdict(entry.number),
         el("div", { class: "desc" }, `P${entry.seat + 1} ${entry.text}`), betterMove(entry.number))));
    for (const text of bannerFor([entry]) || []) items.push(el("li", { class: "event" }, `⚑ ${text}`));
  }
  if (!items.length) items.push(el("li", { class: "event" }, "No moves yet."));
  const log = $("log");
  const atEnd = log.parentElement.scrollTop + log.parentElement.clientHeight >= log.parentElement.scrollHeight - 20;
  log.replaceChildren(...items);
  if (replay) {
    const current = log.querySelector("li.current");
    if (current) current.scrollIntoView({ block: "nearest" });
  } else if (atEnd || true) log.parentElement.scrollTop = log.parentElement.scrollHeight;
}

// The analysis verdict on a move: ?? for a blunder, ? for a mistake (win chance given away).
function verdict(number) {
  const note = analysis && analysis.get(number);
  if (!note || note.forced) return "";
  if (note.loss >= 0.25) return el("span", { class: "verdict bad", title: "blunder" }, " ??");
  if (note.loss >= 0.1) return el("span", { class: "verdict poor", title: "mistake" }, " ?");
  if (note.loss === 0) return el("span", { class: "verdict good", title: "the best move found" }, " ✓");
  return "";
}

function betterMove(number) {
  const note = analysis && analysis.get(number);
  if (!note || note.forced || note.loss < 0.1) return "";
  return el("div", { class: "desc better" },
    `Better: ${note.best} (${Math.round(note.best_chance * 100)}% against ${Math.round(note.played_chance * 100)}%)`);
}

async function analyse(buttonNode) {
  buttonNode.disabled = true;
  buttonNode.textContent = "Analysing…";
  try {
    const data = await api("GET", `/api/games/${gameId}/analysis`);
    analysis = new Map(data.moves.map((m) => [m.number, m]));
    analysisSummary = data.summary || [];
  } catch (err) { toast(err.message); buttonNode.disabled = false; buttonNode.textContent = "Analyse the moves"; return; }
  render();
}

function renderResult() {
  const box = $("result");
  const result = view.table.result;
  if (!result || replay) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const mine = view.you !== null && result.winners.includes(view.you);
  box.replaceChildren(
    el("h2", { "data-testid": "result-title" }, resultTitle(result, view)),
    el("div", { class: "muted" }, mine ? "You win!" : view.you !== null ? "You did not win this time." : ""),
    // The explanation's headline says what the reason says and more: show it once, here.
    el("p", { class: "reason", "data-testid": "result-reason" },
      view.table.explanation ? view.table.explanation.headline : result.reason),
    renderExplanation(view.table.explanation),
    renderAnalysisSummary(),
    el("div", { class: "buttons" },
      button("Replay the game", () => enterReplay(0), "btn", "replay"),
      analysis ? "" : (() => { const b = button("Analyse the moves", () => analyse(b), "btn secondary", "analyse"); return b; })(),
      el("a", { class: "btn secondary", href: `/api/games/${gameId}/record`, download: "", "data-testid": "download-record" }, "Download record"),
      el("a", { class: "btn secondary", href: "/" }, "New game")));
}

// The server's explanation of the result (views.explain_result): the faction
// ranking, every court, and each comparison that decided, in words and as tables.
function renderExplanation(ex) {
  if (!ex) return "";
  const name = (p) => seatLabel(view.seats[p]);
  const factionTable = ex.ending === "invasion" ? "" : el("table", { class: "explain", "data-testid": "faction-ranking" },
    el("caption", {}, "Factions by power (regions, then the most recent struggle won)"),
    el("tr", {}, el("th", {}, "Rank"), el("th", {}, "Faction"), el("th", {}, "Regions"), el("th", {}, "Last struggle won")),
    ...ex.factions.map((f) => el("tr", {}, el("td", {}, f.tied ? `${f.rank} (tied)` : String(f.rank)), el("td", {}, f.faction),
      el("td", {}, String(f.regions)), el("td", {}, f.latest_win === null ? "–" : `struggle ${f.latest_win}`))));
  const factions = ex.players.length ? Object.keys(ex.players[0].courts) : [];
  const courts = el("table", { class: "explain", "data-testid": "result-courts" },
    el("caption", {}, "Courts"),
    el("tr", {}, el("th", {}, "Player"), ...factions.map((f) => el("th", {}, f)), el("th", {}, "Total"),
      el("th", {}, "Complete sets"), el("th", {}, "Last card play")),
    ...ex.players.map((row) => el("tr", { class: ex.winners.includes(row.player) ? "winner" : "" },
      el("td", {}, name(row.player)), ...factions.map((f) => el("td", {}, String(row.courts[f]))),
      el("td", {}, String(row.total)), el("td", {}, String(row.sets)),
      el("td", {}, row.last_play ? `play ${row.last_play}` : "none"))));
  const steps = el("ol", { class: "steps", "data-testid": "result-steps" },
    ...ex.steps.map((st) => {
      const players = Object.keys(st.values).map(Number);
      const table = players.length ? el("table", { class: "explain small" },
        el("tr", {}, el("th", {}, st.label), ...players.map((p) => el("th", {}, ex.players.length === 4 && st.kind === "sets" ? `Team of ${p + 1} and ${p + 3}` : name(p)))),
        el("tr", {}, el("td", {}, ""), ...players.map((p) => el("td", { class: st.kept.includes(p) ? "kept" : "" }, String(st.values[p]))))) : "";
      return el("li", { "data-testid": "result-step", "data-kind": st.kind }, el("div", {}, st.text), table);
    }));
  return el("div", { class: "explanation", "data-testid": "result-explanation" },
    ex.ranking_text ? el("p", { "data-testid": "ranking-text" }, ex.ranking_text) : "",
    factionTable, steps,
    ex.team ? el("p", { class: "team", "data-testid": "team-result" }, ex.team.text) : "",
    courts);
}

// After "Analyse": a summary per player with links into the replay, and the legend of the log's marks.
function renderAnalysisSummary() {
  if (!analysisSummary) return "";
  const pct = (x) => `${Math.round(x * 100)}%`;
  const link = (m) => {
    const a = el("a", { href: `#move-${m.number}`, "data-testid": "mistake-link", "data-move": String(m.number) }, `move ${m.number}`);
    a.addEventListener("click", (event) => { event.preventDefault(); enterReplay(m.number - 1); });
    return a;
  };
  return el("div", { class: "analysis-summary", "data-testid": "analysis-summary" },
    el("h3", {}, "Analysis"),
    ...analysisSummary.map((row) => el("div", { class: "player-summary", "data-testid": "analysis-player" },
      el("b", {}, seatLabel(view.seats[row.player])),
      ` · ${row.reviewed} ${row.reviewed === 1 ? "move" : "moves"} reviewed, ${row.best} best found, `
        + `${row.lost} lost win chance${row.blunders ? ` (${row.blunders} ${row.blunders === 1 ? "blunder" : "blunders"})` : ""}`,
      row.mistakes.length ? el("ol", {}, ...row.mistakes.map((m) => el("li", {}, link(m),
        `: played ${m.played} (${pct(m.played_chance)}); better ${m.best_description} (${pct(m.best_chance)}), `
          + `${pct(m.loss)} win chance lost`))) : el("div", { class: "muted" }, "No win chance lost."))),
    el("p", { class: "muted legend", "data-testid": "analysis-legend" },
      "Marks in the log: ✓ the best move found · ? a mistake (gave away 10% win chance or more) · ?? a blunder (25% or more). "
      + "A move link opens the replay at the position before that move."));
}

// ---------- replay ----------
async function enterReplay(n) {
  const frame = await api("GET", `/api/games/${gameId}/replay/${n}`);
  replay = { n, frame };
  render();
}

function renderReplayBar() {
  const bar = $("replay");
  if (!replay) { bar.classList.add("hidden"); return; }
  bar.classList.remove("hidden");
  const total = replay.frame.total;
  const slider = el("input", { type: "range", min: 0, max: total, value: replay.n, "aria-label": "move" });
  slider.addEventListener("change", () => enterReplay(Number(slider.value)));
  const move = replay.frame.move;
  bar.replaceChildren(
    button("«", () => enterReplay(0), "btn secondary small", "replay-first"),
    button("◀", () => replay.n > 0 && enterReplay(replay.n - 1), "btn secondary small", "replay-prev"),
    el("span", { "data-testid": "replay-position" }, `Move ${replay.n} / ${total}`),
    button("▶", () => replay.n < total && enterReplay(replay.n + 1), "btn secondary small", "replay-next"),
    button("»", () => enterReplay(total), "btn secondary small", "replay-last"),
    slider,
    el("span", { class: "mono" }, move ? `P${move.seat + 1}: ${move.notation}` : "setup"),
    button("Close replay", () => { replay = null; render(); }, "btn small", "replay-close"));
}

// ---------- building a move ----------
async function loadOptions(steps) {
  const token = seatTokens.get(view.you);
  const number = view.move_number;
  try {
    const options = await api("POST", `/api/games/${gameId}/options`, { steps: steps.map(({ kind, value }) => ({ kind, value })) }, token);
    if (view.move_number !== number) return;  // the game moved on meanwhile
    build = { steps: options.steps, options, number };
    for (const k of [...autoSteps.keys()]) if (k >= options.steps.length) autoSteps.delete(k);
    const only = options.options.filter((o) => o.kind !== "pass");
    if (!options.complete && options.steps.length && only.length === 1) {
      // One option only: take it, and say why (the server's notes explain partial actions).
      autoSteps.set(options.steps.length,
        `Only one choice: ${only[0].kind === "none" ? "none" : only[0].label} (taken for you).` +
        (options.notes.length ? ` ${options.notes[options.notes.length - 1]}` : ""));
      return loadOptions([...options.steps, only[0]]);
    }
  } catch (err) {
    toast(err.message);
    if (err.status === 409) await refresh();
    return;
  }
  render();
}

function choose(option) { if (option) loadOptions([...build.steps, option]); }
function back() {  // steps taken automatically go back together with the choice before them
  hint = null;
  let n = build.steps.length - 1;
  while (n > 0 && autoSteps.has(n)) { autoSteps.delete(n); n--; }
  autoSteps.delete(n);
  loadOptions(build.steps.slice(0, n));
}

// ---------- other players' moves, one by one ----------
function queueMoves(entries) {
  const others = entries.filter((e) => !(view.you !== null && e.seat === view.you && entries.length === 1));
  if (!others.length) return;
  const pending = stepping ? stepping.entries.slice(stepping.i + 1) : [];
  if (stepping) clearTimeout(stepping.timer);
  stepping = { entries: [...pending, ...others], i: 0, timer: null };
  stepping.timer = setTimeout(nextStep, STEP_MS);
}

function nextStep() {
  if (!stepping) return;
  if (stepping.i + 1 >= stepping.entries.length) { stopStepping(); return; }
  stepping.i += 1;
  stepping.timer = setTimeout(nextStep, STEP_MS);
  render();
}

function stopStepping() {
  if (!stepping) return;
  clearTimeout(stepping.timer);
  stepping = null;
  render();
}

// The struggles a log entry resolved, with their tallies, and where a Loyalist arrived.
function bannerFor(entries) {
  const lines = [];
  for (const e of entries) for (const st of (e.changes ? e.changes.struggles : [])) {
    lines.push(st.text);
    if (st.loyalist !== null) lines.push(`A Mordred Loyalist arrives in ${facts.regions[st.loyalist].name}.`);
  }
  return lines.length ? lines : null;
}

function renderBanner() {
  const box = $("banner");
  const entry = stepping ? stepping.entries[stepping.i] : null;
  const latest = view.log.length ? bannerFor([view.log[view.log.length - 1]]) : null;
  const lines = entry ? bannerFor([entry]) : latest;
  box.classList.toggle("hidden", !lines || !!replay);
  if (lines) box.replaceChildren(el("span", { class: "flag" }, "⚑"), ...lines.map((t) => el("div", { "data-testid": "banner-line" }, t)));
}

function renderLastMoves() {
  const box = $("last-moves");
  const current = stepping ? stepping.entries[stepping.i] : null;
  const recent = view.log.slice(-3);
  const items = recent.map((e) => el("li", { class: current && current.number === e.number ? "current" : "", "data-number": e.number },
    el("span", { class: "dot", style: `background:${PLAYER_COLOURS[e.seat]};width:10px;height:10px` }),
    el("span", {}, `${e.number}. ${seatLabel(view.seats[e.seat])} ${e.text}`)));
  if (!items.length) items.push(el("li", { class: "muted" }, "No moves yet."));
  const parts = [el("h3", {}, "Last moves"), el("ol", { "data-testid": "last-moves-list" }, ...items)];
  if (stepping) parts.push(el("div", { class: "stepping" },
    el("span", { "data-testid": "stepping" }, `Showing move ${current.number} (${stepping.i + 1} of ${stepping.entries.length})`),
    button("Skip ▸▸", () => stopStepping(), "btn secondary small", "skip")));
  box.replaceChildren(...parts);
}

document.addEventListener("keydown", (event) => {
  if (stepping && (event.key === "Escape" || event.key === " ")) { event.preventDefault(); stopStepping(); }
});

async function confirmMove() {
  const options = build.options;
  if (!options || !options.complete) return;
  const token = seatTokens.get(view.you);
  const seat = view.you;
  try {
    const next = await api("POST", `/api/games/${gameId}/moves`, { move: options.move, move_number: view.move_number }, token);
    if (hotseat()) { revealed = seat; await onPublic(await api("GET", `/api/games/${gameId}`), false); }
    else show(next);
  } catch (err) {
    toast(err.message);
    await refresh();
  }
}

// Hints, where the game allows them, can be switched off and on; the choice is kept per game in this browser.
function hintsOn() { return localStorage.getItem(`kingisdead.hints.${gameId}`) !== "off"; }

function hintsToggle() {
  const on = hintsOn();
  const box = el("input", { type: "checkbox", "data-testid": "hints-toggle" });
  box.checked = on;
  box.addEventListener("change", () => {
    localStorage.setItem(`kingisdead.hints.${gameId}`, box.checked ? "on" : "off");
    if (!box.checked) hint = null;
    render();
  });
  return el("label", { class: "hints-toggle", title: "show the Hint button in this game" }, box, " hints");
}

async function askHint() {
  try {
    hint = await api("POST", `/api/games/${gameId}/hint`, null, seatTokens.get(view.you));
  } catch (err) { toast(err.message); return; }
  render();
}

// ---------- hot-seat veil ----------
function renderVeil() {
  const active = hotseat() && view.status !== "finished" ? mySeatToMove(publicView || view) : null;
  const veiled = active !== null && active !== revealed;
  $("veil").classList.toggle("hidden", !veiled);
  if (veiled) $("veil-title").textContent = `${seatLabel(view.seats[active])}, it is your turn`;
}

$("veil-button").addEventListener("click", async () => {
  revealed = mySeatToMove(publicView);
  $("veil").classList.add("hidden");
  if (revealed !== null) show(await api("GET", `/api/games/${gameId}`, null, seatTokens.get(revealed)));
});

start();
