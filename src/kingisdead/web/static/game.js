// The table: shows one game as this browser's seat may see it, and builds moves by clicking.
// Moves are built step by step from every choice of the move, sent with the seat's view (choices.js):
// only choices that can still complete a legal move are offered, and no click waits for the server.
import { drawBoard, useBoard, cube, PLAYER_COLOURS } from "/static/board.js";
import { api, tokensFor, claimInvites, saveTokens, el, toast, seatLabel, shownName, resultTitle, knowLevels, levelLabel, redraw,
         TUTORIAL_KEY } from "/static/common.js";
import { t, tn } from "/static/i18n.js";
import { ratingsPanel, rematchButtons } from "/static/rematch.js";
import { clockNode, seatTools, signalTurn } from "/static/clock.js";
import { struggleLine, explainHand, lightOf, hintList, learnPanel } from "/static/explain.js";
import { Choices } from "/static/choices.js";
import { tableInvite } from "/static/invites.js";
import { cardFace } from "/static/cards.js";
import { loadEdition } from "/static/edition.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
// This browser's tutorial game (learn.js saved it): its layer, tutorial.js, is loaded over this table alone (other
// tables never fetch it), and the controls a lesson has no use for are hidden from the start (style.css).
const lesson = JSON.parse(localStorage.getItem(TUTORIAL_KEY) || "null");
if (lesson && lesson.id === gameId) {
  document.body.classList.add("tutorial-game");
  import("/static/tutorial.js").then(() => { if (view) announceTable(); });  // it listens from now on
}

let facts = null;          // the board's fixed data in the game's edition (GET /api/meta?edition=)
let board = null;          // the drawing of the edition's board (its board.json)
// cunning.js's, in a second-edition game: the Cunning cards' moves, a Spy's choices' cards, the backs of a secret
// hand, Plot at the end ("": none)
let CunningChoices = null, choiceCard = () => "", secretHand = choiceCard, plotRevealed = choiceCard;
let cardFaces = null;      // the edition's card faces (its cards.json), drawn by cards.js
let view = null;           // the latest view shown (private when a seat is active)
let publicView = null;     // the latest spectator view (hot-seat mode follows this one)
const seatTokens = new Map();  // seat -> token held by this browser
let revealed = null;       // hot-seat: the seat whose hand is on screen
let build = { steps: [], options: null, number: -1 };
let choices = null;        // the choices of the move to make (a Choices of the view's `choices`)
let passing = null;        // a pass clicked and about to be sent: {until, timer, tick} (Undo cancels it)
let sending = false;       // a confirmed move on its way to the server
const PASS_UNDO_MS = 2000;
let replay = null;         // {n, frame} while stepping through a finished game
let hint = null;
let analysisSummary = null;  // per player: moves reviewed, lost, the three biggest mistakes
let analysis = null;       // move number -> annotation, once asked for after the game
let socket = null, backoff = 500;
let chat = null, unread = 0;  // chat.js once opened; lines heard while it is closed
let stepping = null;       // {entries, i, timer}: opponents' moves being shown one by one
let autoSteps = new Map(); // index of a build step taken automatically (one option only) -> why
let lit = null;            // the targets of the hand card pointed at (explain.lightOf), lit on the map
let mapTable = null;       // the table the map shows now, to redraw it when a card is pointed at
const STEP_MS = 1200;

function hotseat() { return seatTokens.size > 1; }
// This browser's seat in the view plays for itself (not away or gone: then the stand-in bot plays it).
function playing(v) { return v.you !== null && v.you !== undefined && !v.seats[v.you].away && !v.seats[v.you].left; }
function mySeatToMove(v) {
  const toMove = v && v.table.to_move;
  return toMove !== null && toMove !== undefined && seatTokens.has(toMove) ? toMove : null;
}

// ---------- start ----------
async function start() {
  // The table is drawn in the game's own edition, which the server wrote into the page (routes/pages.py).
  const edition = document.body.dataset.edition === "second" ? "second" : "first";
  facts = await api("GET", `/api/meta?edition=${edition}`);
  board = (await loadEdition(facts.edition)).board;
  useBoard(board);
  cardFaces = (await loadEdition(facts.edition)).cards;
  // the advanced game's Cunning cards in a move built by clicks: the second edition's only, loaded for it alone
  if ((facts.cunning_cards || []).length) ({ CunningChoices, choiceCard, secretHand, plotRevealed } = await import("/static/cunning.js"));
  document.body.dataset.edition = facts.edition;
  if (facts.edition === "second") $("rules").href = "/rules#second-edition";  // the differences, with the rest
  knowLevels(facts.levels);
  const [width, height] = board.size;
  document.body.style.setProperty("--board-aspect", String(width / height));  // the layout sizes the board by it
  let first = null;  // a view already fetched: with one seat here it is that seat's own, shown as it is
  for (const token of await claimInvites(gameId, tokensFor(gameId))) {
    try {
      first = await api("GET", `/api/games/${gameId}`, null, token);
      seatTokens.set(first.you, token);
    } catch (err) { /* a token for another game or a seat taken over: ignore it */ }
  }
  if (!seatTokens.size) {  // no seat token in this browser: a seat the signed-in account holds (by its cookie)
    try {
      first = await api("GET", `/api/games/${gameId}`);
      if (first.you !== null && first.you !== undefined) seatTokens.set(first.you, null);
    } catch (err) { /* the game's own errors are shown just below */ }
  }
  $("download").href = `/api/games/${gameId}/record`;
  if (first === null || hotseat()) {
    try {
      first = await api("GET", `/api/games/${gameId}`);
    } catch (err) {
      document.body.dataset.turn = "error";
      $("turn").replaceChildren(el("div", { class: "who" }, err.message));
      return;
    }
  }
  if (seatTokens.size === 1) show(first, true); else await onPublic(first, true);
  connect();
  keepPresent();
}

// A person thinking at a visible table makes no request: every PRESENCE_MS its socket says it is here, which keeps
// a signed-in account "online" to its friends (the server notes it at most once a minute; nothing for a guest).
// "Online" is seen in the last 5 minutes (web/friends.py), so two pings fall within it. A hidden tab sends
// nothing, and pings once it shows again.
const PRESENCE_MS = 120000;
function keepPresent() {
  const ping = () => { if (!document.hidden && socket?.readyState === 1) socket.send(JSON.stringify({ type: "ping" })); };
  setInterval(ping, PRESENCE_MS);
  document.addEventListener("visibilitychange", ping);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const token = !hotseat() && seatTokens.size === 1 ? [...seatTokens.values()][0] : null;
  // The page's language goes in the URL: a browser's handshake may carry another Accept-Language.
  socket = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws?lang=${document.documentElement.lang}`);
  socket.onopen = () => {  // the token goes in the first message, never in the URL (logs and proxies keep URLs)
    backoff = 500; $("conn").className = "conn on";
    if (token) socket.send(JSON.stringify({ type: "auth", token }));
    chat?.reconnected();
  };
  socket.onclose = () => {
    $("conn").className = "conn off";
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
  };
  socket.onmessage = async (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "rematch") { toast(t("A rematch is ready: join it from the result.")); return; }
    if (message.type === "chat") { heardChat(message); return; }
    if (message.type !== "state") return;
    if (message.game.you !== null && message.game.you !== undefined) show(message.game, true);
    else await onPublic(message.game, false);
  };
}

// A free seat: "open in the lobby", or for the creator (the first human seat) a button to open a private one.
function seatAccess(seat) {
  if (seat.public) return el("span", { class: "tag" }, t("open in the lobby"));
  const creator = view.seats.find((s) => s.kind === "human");
  if (view.status === "finished" || view.you === null || !creator || view.you !== creator.seat) return null;
  const button = el("button", { class: "btn secondary small", "data-testid": `open-seat-${seat.seat}`,
                                title: t("let anyone in the lobby take this seat (its invite link still works until then)") },
                    t("Open to anyone"));
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
    if (first || v.move_number !== (view && view.move_number) || JSON.stringify(v.seats) !== JSON.stringify(view.seats)
        || v.deadline !== view.deadline) {
      show(await api("GET", `/api/games/${gameId}`, null, token), true);
    }
    return;
  }
  const active = mySeatToMove(v);
  if (active !== null && active === revealed) {
    show(await api("GET", `/api/games/${gameId}`, null, seatTokens.get(active)), true);
  } else {
    show(v, true);
  }
}

async function refresh() {
  const seat = view && view.you !== null ? view.you : null;
  const token = seat !== null ? seatTokens.get(seat) : null;
  show(await api("GET", `/api/games/${gameId}`, null, token));
}

// ---------- rendering ----------
// `fresh`: a view just sent by the server over the socket (or fetched because of it), or the answer to a
// take-back: it may have fewer moves than the one on screen (moves taken back). Other answers may be older.
function show(v, fresh = false) {
  if (!fresh && view && v.move_number < view.move_number && v.id === view.id) return;  // an older message
  if (view && v.move_number < view.move_number) stopStepping();
  const changed = !view || view.move_number !== v.move_number || view.you !== v.you;
  const seen = view && view.id === v.id ? view.move_number : null;
  view = v;
  if (seen !== null && v.move_number > seen) queueMoves(v.log.slice(seen));
  if (changed) { build = { steps: [], options: null, number: v.move_number }; hint = null; autoSteps = new Map(); lit = null; cancelPass(); }
  if (changed || !choices) {
    const Builder = v.choices && (v.choices.cunning || []).length && CunningChoices ? CunningChoices : Choices;
    choices = v.choices ? new Builder(v.choices, facts) : null;
    if (choices) choices.playerLabel = (p) => seatLabel(view.seats[p]);  // the pile a Spy copies
  }
  const myTurn = playing(v) && v.table.to_move === v.you && v.status !== "finished";
  document.body.dataset.turn = v.status === "finished" ? "over" : myTurn ? "you" : "wait";
  document.body.dataset.move = v.move_number;
  document.body.dataset.players = v.players;  // three or four: the players stand in two columns (style.css)
  const active = v.status === "finished" ? null : mySeatToMove(v);  // a seat of this browser is to move
  signalTurn(active !== null && !v.seats[active].away && !v.seats[active].left, gameId);
  renderVeil();
  render();
  if (myTurn && !build.options && !replay) loadOptions([]);
}

// Every redraw waits for a pointer held down to be released (common.js redraw): a click is never lost to it.
function render() { redraw(drawTable); }

// The game's rule options other than the edition's defaults, as the API names them ("reversal: exact").
function ruleOptionsText() {
  const set = Object.entries(view.options || {});
  return set.length ? t("rule options: {options}", { options: set.map(([name, value]) => `${name}: ${value}`).join(", ") }) : null;
}

function drawTable() {
  const table = replay ? replay.frame.table : view.table;
  const shown = !replay && build.options && build.options.preview ? build.options.preview : table;
  $("game-meta").textContent = [t("Game {id}", { id: view.id }), tn("{n} player", "{n} players", { n: view.players }),
    view.mode === "advanced" ? t("Advanced game") : view.variant === "mordred" ? t("Mordred") : t("Standard"), view.edition === "second" ? t("2nd edition") : null, ruleOptionsText(), view.memory ? t("memory mode") : null, view.rated ? t("rated") : null,
    replay ? t("Replay: move {n} of {total}", { n: replay.n, total: replay.frame.total }) : t("move {n}", { n: view.move_number })]
    .filter(Boolean).join(" · ");
  document.body.dataset.replay = replay ? "on" : "off";
  renderLegend();
  renderMap(shown);
  $("preview-flag").classList.toggle("hidden", shown === table);
  renderTurn(table);
  renderAction();
  renderPlayers(table);
  renderLog();
  renderLastMoves();
  renderBanner();
  renderResult();
  renderReplayBar();
  announceTable();
}

// For layers over the table (the tutorial): what is shown and the choices of the move being built.
function announceTable() {
  document.dispatchEvent(new CustomEvent("kid:table", { detail: { view, steps: build.steps.map(({ kind, value }) => ({ kind, value })) } }));
}

// A step of building a move changes only the board's preview, the region cards and the action bar: redrawing
// just these keeps a click well under a frame's budget (the log and the players force a layout of the page).
function renderBuild() { redraw(drawBuild); }

function drawBuild() {
  const shown = build.options && build.options.preview ? build.options.preview : view.table;
  renderMap(shown);
  $("preview-flag").classList.toggle("hidden", shown === view.table);
  renderAction();
  announceTable();
  if (build.steps.length === 1) requestAnimationFrame(keepMapInView);
}

function interaction() {
  const ui = { selectable: new Set(), chosen: new Map(), onRegion: null, dim: false, marks: null };
  // The move being shown, else the latest one, stays marked until a choice of a new move is made.
  const shownEntry = replay ? replay.frame.move : stepping ? stepping.entries[stepping.i]
    : !build.steps.length && view.log.length ? view.log[view.log.length - 1] : null;
  if (shownEntry && shownEntry.changes) ui.marks = shownEntry.changes;
  if (!replay && !build.steps.length) ui.lit = lit;
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
  // a follower to choose is one of the pieces standing in the region chosen just before (every faction step follows one)
  const factionOptions = build.options.options.filter((o) => o.kind === "faction");
  const lastRegion = [...build.steps].reverse().find((step) => step.kind === "region");
  if (factionOptions.length && lastRegion) {
    ui.pieces = { region: lastRegion.value, kinds: new Set(factionOptions.map((o) => o.value)) };
    ui.onPiece = (kind) => choose(factionOptions.find((o) => o.value === kind));
  }
  return ui;
}

function renderMap(table) { mapTable = table; drawBoard($("map"), facts, board, table, interaction()); }

// Under the board, what its own key does not say (the key on the board names the factions by colour and mark).
function renderLegend() {
  const items = [];
  items.push(el("span", {}, el("i", { class: "swatch", style: "background:#f0c75a;border-radius:50%" }), t("contested now")));
  if (view.variant === "mordred" && facts.mordred_flags) {
    const names = [...new Set(facts.mordred_flags)].map((r) => `⚑ ${facts.regions[r].code} = ${facts.regions[r].name}`);
    items.push(el("span", { "data-testid": "legend-loyalist", title: t("Hover a flag on the map for its region") },
      t("Loyalist flag: resolving the region adds a Loyalist to the region named ({names})", { names: names.join(", ") })));
  }
  $("legend").replaceChildren(...items);
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
  const mine = !replay && playing(view) && toMove === view.you;
  turn.className = "turn panel" + (mine ? " yours" : "");
  let who;
  if (replay) who = t("Replay: after move {n} of {total}", { n: replay.n, total: replay.frame.total });
  else if (toMove === null) who = t("Game over");
  else if (mine) who = t("Your turn");
  else {
    const seat = view.seats[toMove];
    const player = seatLabel(seat);
    who = seat.kind === "bot" ? t("{player} is thinking…", { player })
      : seat.away || seat.left ? t("The stand-in bot plays for {player}…", { player })
      : seat.claimed ? t("Waiting for {player}", { player }) : t("Waiting for {player} to join (send the invite link)", { player });
  }
  turn.replaceChildren(
    toMove !== null ? el("span", { class: "dot", style: `background:${PLAYER_COLOURS[toMove]}` }) : "",
    el("span", { class: "who", "data-testid": "turn-text" }, who),
    view.rated ? el("span", { class: "tag rated-tag", "data-testid": "rated-tag", title: t("the result changes the players' ratings") },
      t("rated game")) : "",
    replay ? "" : clockNode(view),
    replay ? "" : seatTools(view, gameId, seatTokens.get(view.you), (v) => show(v, true), render),
    el("div", { class: "stats" },
      el("span", {}, t("Passes in a row {n}/{players}", { n: table.passes, players: view.players })),
      el("span", {}, t("Struggle {n} of 8", { n: Math.min(table.resolved + 1, 8) }))),
    struggleLine(table));
}

function renderAction() {
  const box = $("action");
  if (replay || view.status === "finished") { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const table = view.table;
  const myTurn = playing(view) && table.to_move === view.you && view.status !== "finished";
  const parts = [];
  if (view.you === null) {
    const active = mySeatToMove(view);
    if (view.status === "finished") parts.push(el("div", { class: "prompt" }, t("The game is over.")));
    else if (hotseat() && active === null) parts.push(el("div", { class: "prompt" }, t("The bots are moving…")));
    else if (hotseat()) parts.push(el("div", { class: "prompt", "data-testid": "handover" }, t("It is {player}'s turn.", { player: seatLabel(view.seats[active]) })),
                                   el("p", { class: "muted" }, t("Hand the screen over to them: their hand shows once they are ready.")));
    else parts.push(el("div", { class: "prompt" }, t("You are watching this game.")),
                    el("p", { class: "muted" }, t("Hands are hidden from spectators: only top cards and cards left are shown.")));
    box.replaceChildren(...parts);
    return;
  }
  const options = build.options;
  // The hand comes first in both states, your turn and waiting, so that Confirm takes nothing from above it: no
  // card slides under the pointer when the move's controls below it go.
  if (myTurn) parts.push(renderHand(options && !build.steps.length ? options.options : []));
  if (myTurn && options) {
    if (build.steps.length) parts.push(el("div", { class: "crumbs" }, ...build.steps.map((st) => el("span", {}, stepLabel(st)))));
    parts.push(el("div", { class: "prompt", "data-testid": "prompt" },
      passing !== null ? tn("You pass in {n} second: Undo takes it back.", "You pass in {n} seconds: Undo takes it back.",
                            { n: Math.max(1, Math.ceil((passing.until - Date.now()) / 1000)) }) : options.prompt));
    const autoNotes = new Set(autoSteps.values());
    for (const note of autoNotes) parts.push(el("div", { class: "auto-note", "data-testid": "auto-note" }, note));
    // a note an automatic step already gave as its reason is not printed again
    const notes = options.notes.filter((n) => ![...autoNotes].some((auto) => auto.endsWith(` ${n}`)));
    if (notes.length) parts.push(el("ul", { class: "notes", "data-testid": "notes" }, ...notes.map((n) => el("li", {}, n))));
    const choices = options.options.filter((o) => o.kind !== "pass" && o.kind !== "card");
    if (choices.length) {
      const regionStep = choices.some((o) => o.kind === "region");
      const pieceStep = choices.some((o) => o.kind === "faction") && build.steps.some((step) => step.kind === "region");
      if (regionStep) parts.push(el("div", { class: "muted", style: "font-size:0.85rem" }, t("Click a highlighted region on the map, or choose here:")));
      else if (pieceStep) parts.push(el("div", { class: "muted", style: "font-size:0.85rem" }, t("Click a highlighted follower on the map, or choose here:")));
      parts.push(el("div", { class: "choices" }, ...choices.map(choiceButton)));
    }
    if (options.complete) {
      parts.push(el("div", { class: "move-preview", "data-testid": "preview" },
        el("div", {}, options.move === "pass" ? t("You pass.") : options.description),
        el("div", { class: "mono", "data-testid": "preview-notation", title: recordTitle(options.move) }, options.shown)));
    }
    const buttons = [];
    if (options.complete) buttons.push(button(t("Confirm"), confirmMove, "btn", "confirm"));
    if (passing !== null) buttons.push(button(t("Undo"), back, "btn secondary", "undo-pass"));
    else if (build.steps.length) buttons.push(button(t("Back"), back, "btn secondary", "back"));
    if (options.options.some((o) => o.kind === "pass")) buttons.push(button(t("Pass"), pass, options.options.length === 1 ? "btn" : "btn secondary", "pass"));
    if (view.hints && hintsOn() && !build.steps.length) buttons.push(button(t("Hint"), askHint, "btn secondary", "hint"));
    if (view.hints) buttons.push(hintsToggle());
    parts.push(el("div", { class: "buttons" }, ...buttons));
    if (hint && hintsOn()) parts.push(renderHint());
  } else if (myTurn) {
    parts.push(el("div", { class: "prompt" }, t("Working out your choices…")));
  } else if (view.status !== "finished") {
    // Not your turn: the hand folds away behind a one-line summary (folded by default on a phone).
    const total = handSize(view.table);
    const details = el("details", { class: "hand-fold", "data-testid": "hand-fold" },
      el("summary", { class: "muted", "data-testid": "hand-summary" },
        tn("Your hand ({n} card) — wait for your turn", "Your hand ({n} cards) — wait for your turn", { n: total })),
      renderHand([]));
    details.open = handOpen ?? !PHONE_QUERY.matches;
    details.addEventListener("toggle", () => { handOpen = details.open; });
    box.replaceChildren(details);
    return;
  }
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

// `node`, a colon and `text` as the page's language writes them ("Move 12: …", in French "Coup 12 : …").
function labelled(node, text) {
  const [before, after] = t("{label}: {text}", { label: "\u0001", text }).split("\u0001");
  return [before, node, after];
}

// The tooltip of a move's notation shown in the page's words: the notation the records write, which every
// language shares (texts.NotationText).
function recordTitle(notation) { return t("in the record: {notation}", { notation }); }

// A step's words on its button and its breadcrumb: "none" says why there is nothing to choose.
function stepLabel(step) { return step.kind === "none" ? t("none (stock empty)") : step.label; }

function choiceButton(option) {
  const content = [];
  if (option.kind === "faction") content.push(cubeIcon(option.value, 12));
  content.push(choiceCard(option, view.table, facts, cardFaces), stepLabel(option));
  const b = el("button", { class: `choice k-${option.kind}`, "data-testid": "choice", "data-kind": option.kind, "data-value": option.value }, ...content);
  b.addEventListener("click", () => choose(option));
  return b;
}

function button(label, onClick, cls, testid) {
  const b = el("button", { class: cls, "data-testid": testid }, label);
  b.addEventListener("click", onClick);
  return b;
}

// The cards in the seat's hand: the standard cards' counts and, in the advanced game, its Cunning cards.
function handSize(table) { return (table.hand || []).reduce((a, b) => a + b, 0) + (table.cunning || []).length; }

const dealt = new Set();  // the kinds of card this page has seen in the hand: an empty place stays for each
function renderHand(offered) {
  const hand = view.table.hand;
  if (!hand) return el("div");
  const playable = new Set(offered.filter((o) => o.kind === "card").map((o) => o.value));
  const selected = build.steps.length && build.steps[0].kind === "card" ? build.steps[0].value : null;
  const cards = [];
  hand.forEach((count, card) => {
    // a card played out leaves its place empty: the cards after it stay where the pointer last saw them
    if (!count) { if (dealt.has(card)) cards.push(el("div", { class: "card-slot", "data-testid": "card-slot", "aria-hidden": "true" })); return; }
    dealt.add(card);
    const tile = cardFace(card, facts, cardFaces, {
      tag: "button", count, playable: playable.has(card), unplayable: !playable.has(card) && offered.length > 0,
      selected: selected === card, attrs: { "data-testid": "hand-card", "data-card": card, disabled: playable.has(card) ? null : "" },
      onPlay: playable.has(card) ? () => choose({ kind: "card", value: card, label: facts.cards[card] }) : null });
    cards.push(tile);
  });
  // the advanced game's Cunning cards (numbers 7 to 18), the seat's own only, after the others
  const cunning = view.table.cunning || [];
  for (const card of cunning) dealt.add(card);
  for (const card of [...dealt].filter((c) => c >= hand.length).sort((a, b) => a - b)) {
    if (!cunning.includes(card)) { cards.push(el("div", { class: "card-slot", "data-testid": "card-slot", "aria-hidden": "true" })); continue; }
    const name = facts.cunning_cards[card - hand.length];
    cards.push(cardFace(card, facts, cardFaces, {
      tag: "button", playable: playable.has(card), unplayable: !playable.has(card) && offered.length > 0,
      selected: selected === card, attrs: { "data-testid": "hand-card", "data-card": card, disabled: playable.has(card) ? null : "" },
      onPlay: playable.has(card) ? () => choose({ kind: "card", value: card, label: name }) : null }));
  }
  const total = handSize(view.table);
  return explainHand(el("div", { class: "hand-block" }, el("h3", { class: "hand-title" }, tn("Your hand ({n} card)", "Your hand ({n} cards)", { n: total })),
            total ? el("div", { class: "hand", "data-testid": "hand" }, ...cards)
                  : el("p", { class: "muted", "data-testid": "no-cards" }, t("No cards left: your turns pass by themselves."))),
    view.table, (effect) => { lit = lightOf(effect); renderMap(mapTable); });
}

function renderHint() { return hintList(hint, sendMove, (card) => cardFace(card, facts, cardFaces,
  { size: "small", attrs: { "data-testid": "hint-card", "data-card": card } })); }

function renderPlayers(table) {
  const result = table.result;
  const cards = [];
  for (let p = 0; p < view.players; p++) {
    const seat = view.seats[p];
    const classes = ["player"];
    if (table.to_move === p) classes.push("to-move");
    if (result && result.winners.includes(p)) classes.push("winner");
    const tags = [];
    if (p === view.you || (hotseat() && seatTokens.has(p))) tags.push(el("span", { class: "tag" }, t("you")));
    // a bot's level, unless its name already says it ("Player 2 · intermediate bot")
    if (seat.kind === "bot" && shownName(seat) !== t("{level} bot", { level: levelLabel(seat.bot) })) {
      tags.push(el("span", { class: "tag" }, t("bot: {level}", { level: levelLabel(seat.bot) })));
    }
    if (view.players === 4) tags.push(el("span", { class: "tag" }, p % 2 === 0 ? t("team 1+3") : t("team 2+4")));
    if (seat.kind === "human" && !seat.claimed) tags.push(el("span", { class: "tag" }, t("seat free")), seatAccess(seat));
    if (seat.left) tags.push(el("span", { class: "tag", "data-testid": "left-tag" }, t("left: the {level} bot plays", { level: levelLabel(view.stand_in) })));
    else if (seat.away) tags.push(el("span", { class: "tag", "data-testid": "away-tag" }, t("away: the {level} bot plays", { level: levelLabel(view.stand_in) })));
    if (result && result.winners.includes(p)) tags.push(el("span", { class: "tag", style: "background:#f0c75a" }, result.ruler === p ? t("♛ ruler") : t("wins")));
    const top = table.tops[p];
    const court = el("span", { class: "court", title: t("followers at court") },
      ...table.courts[p].map((n, k) => el("span", {}, cubeIcon(k), `${n}`)));
    const topCard = top >= 0 ? cardFace(top, facts, cardFaces, { size: "small", attrs: { "data-testid": "top-card", "data-card": top } })
                             : el("span", { class: "muted" }, t("no card played"));
    const rows = [el("div", { class: "row" }, el("span", { class: "muted" }, t("Court")), court),
                  el("div", { class: "row top-card" }, el("span", { class: "muted" }, t("Top card")), topCard,
                     secretHand(table, p, view.you),
                     el("span", { class: "muted", "data-testid": "cards-left" }, tn("{n} card left", "{n} cards left", { n: table.cards_left[p] })))];
    if (table.hands) {
      const left = table.hands[p].flatMap((n, c) => Array(n).fill(facts.cards[c]))
        .concat(((table.cunning_hands || [])[p] || []).map((c) => facts.cunning_cards[c - facts.card_keys.length]));
      rows.push(el("div", { class: "row muted" }, left.length ? t("Hand: {cards}", { cards: left.join(", ") }) : t("Hand: empty")));
      rows.push(plotRevealed(table, p, facts, cardFaces));
    }
    const invite = seat.kind === "human" && !seat.claimed ? tableInvite(view, seat) : null;  // the creator's link
    cards.push(el("div", { class: classes.join(" "), "data-testid": "player", "data-seat": p },
      el("div", { class: "head" }, el("span", { class: "dot", style: `background:${PLAYER_COLOURS[p]}` }),
         el("span", { class: "name" }, seatLabel(seat)), ...tags),
      invite || "", ...rows));
  }
  $("players").replaceChildren(el("h3", { class: "serif", style: "margin:0" }, t("Players")), ...cards);
}

// Each move's lines in the log, kept while the move and its annotation stay the same: a new view then only
// adds its new moves, and an unchanged log is not touched (rebuilding it forces a layout of the whole page).
const logLines = { analysis: null, byNumber: new Map(), none: null };
function logLinesOf(entry) {
  if (logLines.analysis !== analysis) logLines.byNumber.clear();
  logLines.analysis = analysis;
  const current = replay && replay.n === entry.number;
  const key = `${entry.seat} ${entry.notation} ${current}`;
  const kept = logLines.byNumber.get(entry.number);
  if (kept && kept.key === key) return kept.lines;
  const lines = [el("li", { class: current ? "current" : "", "data-number": entry.number },
    el("span", { class: "n" }, `${entry.number}.`),
    el("span", { class: "dot", style: `background:${PLAYER_COLOURS[entry.seat]};width:10px;height:10px;margin-top:4px`, title: t("Player {n}", { n: entry.seat + 1 }) }),
    el("span", {}, entry.card !== null && entry.card !== undefined
      ? cardFace(entry.card, facts, cardFaces, { size: "icon", attrs: { "data-testid": "log-card", "data-card": entry.card } }) : "",
      el("span", { class: "mono", "data-testid": "log-notation", title: recordTitle(entry.notation) }, entry.shown_notation),
       verdict(entry.number),
       el("div", { class: "desc" }, t("P{n} {move}", { n: entry.seat + 1, move: entry.text })), betterMove(entry.number)))];
  for (const text of bannerFor([entry]) || []) lines.push(el("li", { class: "event" }, `⚑ ${text}`));
  logLines.byNumber.set(entry.number, { key, lines });
  return lines;
}

function renderLog() {
  const items = view.log.flatMap(logLinesOf);
  if (!items.length) items.push(logLines.none ||= el("li", { class: "event" }, t("No moves yet.")));
  const log = $("log");
  const shown = log.children;
  if (items.length === shown.length && items.every((item, i) => item === shown[i])) return;
  log.replaceChildren(...items);
  if (replay) {  // scroll the log alone to the move shown (scrollIntoView would scroll the page off the map too)
    const current = log.querySelector("li.current");
    const box = log.parentElement;
    if (current) {
      const item = current.getBoundingClientRect(), frame = box.getBoundingClientRect();
      if (item.top < frame.top || item.bottom > frame.bottom) box.scrollTop += item.top - frame.top - frame.height / 2;
    }
  } else {  // the latest move in view, once the frame's layout is done (reading it now would force one more)
    requestAnimationFrame(() => { log.parentElement.scrollTop = log.parentElement.scrollHeight; });
  }
}

// The analysis verdict on a move: ?? for a blunder, ? for a mistake (win chance given away).
function verdict(number) {
  const note = analysis && analysis.get(number);
  if (!note || note.forced) return "";
  if (note.loss >= 0.25) return el("span", { class: "verdict bad", title: t("blunder") }, " ??");
  if (note.loss >= 0.1) return el("span", { class: "verdict poor", title: t("mistake") }, " ?");
  if (note.loss === 0) return el("span", { class: "verdict good", title: t("the best move found") }, " ✓");
  return "";
}

function betterMove(number) {
  const note = analysis && analysis.get(number);
  if (!note || note.forced || note.loss < 0.1) return "";
  return el("div", { class: "desc better" },
    t("Better: {move} ({best}% against {played}%)", { move: note.best_shown, best: Math.round(note.best_chance * 100), played: Math.round(note.played_chance * 100) }));
}

async function analyse(buttonNode) {
  buttonNode.disabled = true;
  buttonNode.textContent = t("Analysing…");
  try {
    const data = await api("GET", `/api/games/${gameId}/analysis`);
    analysis = new Map(data.moves.map((m) => [m.number, m]));
    analysisSummary = data.summary || [];
  } catch (err) { toast(err.message); buttonNode.disabled = false; buttonNode.textContent = t("Analyse the moves"); return; }
  render();
}

function renderResult() {
  const box = $("result");
  const result = view.table.result;
  if (!result || replay) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const mine = view.you !== null && result.winners.includes(view.you);
  box.replaceChildren(
    el("h2", { "data-testid": "result-title" }, resultTitle(result, view, facts)),
    el("div", { class: "muted" }, mine ? t("You win!") : view.you !== null ? t("You did not win this time.") : ""),
    // The explanation's headline says what the reason says and more: show it once, here.
    el("p", { class: "reason", "data-testid": "result-reason" },
      view.table.explanation ? view.table.explanation.headline : result.reason),
    ratingsPanel(view),
    renderExplanation(view.table.explanation),
    renderAnalysisSummary(),
    el("div", { class: "buttons" },
      ...rematchButtons(view, [...seatTokens.values()]),
      button(t("Replay the game"), () => enterReplay(0), "btn", "replay"),
      analysis ? "" : (() => { const b = button(t("Analyse the moves"), () => analyse(b), "btn secondary", "analyse"); return b; })(),
      el("a", { class: "btn secondary", href: `/api/games/${gameId}/record`, download: "", "data-testid": "download-record" }, t("Download record")),
      el("a", { class: "btn secondary", href: "/" }, t("New game"))));
}

// The server's explanation of the result (views.explain_result): the faction
// ranking, every court, and each comparison that decided, in words and as tables.
function renderExplanation(ex) {
  if (!ex) return "";
  const name = (p) => seatLabel(view.seats[p]);
  const factionTable = ex.ending === "invasion" ? "" : el("table", { class: "explain", "data-testid": "faction-ranking" },
    el("caption", {}, t("Factions by power (regions, then the most recent struggle won)")),
    el("tr", {}, el("th", {}, t("Rank")), el("th", {}, t("Faction")), el("th", {}, t("Regions")), el("th", {}, t("Last struggle won"))),
    ...ex.factions.map((f) => el("tr", {}, el("td", {}, f.tied ? t("{rank} (tied)", { rank: f.rank }) : String(f.rank)), el("td", {}, f.faction),
      el("td", {}, String(f.regions)), el("td", {}, f.latest_win === null ? "–" : t("struggle {n}", { n: f.latest_win })))));
  const factions = ex.players.length ? Object.keys(ex.players[0].courts) : [];  // keyed by the engine's faction names
  const courts = el("table", { class: "explain", "data-testid": "result-courts" },
    el("caption", {}, t("Courts")),
    el("tr", {}, el("th", {}, t("Player")), ...factions.map((f, k) => el("th", {}, facts.factions[k])), el("th", {}, t("Total")),
      el("th", {}, t("Complete sets")), el("th", {}, t("Last card played"))),
    ...ex.players.map((row) => el("tr", { class: ex.winners.includes(row.player) ? "winner" : "" },
      el("td", {}, name(row.player)), ...factions.map((f) => el("td", {}, String(row.courts[f]))),
      el("td", {}, String(row.total)), el("td", {}, String(row.sets)),
      el("td", {}, row.last_card))));
  const steps = el("ol", { class: "steps", "data-testid": "result-steps" },
    ...ex.steps.map((st) => {
      const players = Object.keys(st.values).map(Number);
      const table = players.length ? el("table", { class: "explain small" },
        el("tr", {}, el("th", {}, st.label), ...players.map((p) => el("th", {}, ex.players.length === 4 && st.kind === "sets" ? t("Team of {a} and {b}", { a: p + 1, b: p + 3 }) : name(p)))),
        el("tr", {}, el("td", {}, ""), ...players.map((p) => el("td", { class: st.kept.includes(p) ? "kept" : "" }, st.cells ? st.cells[p] : String(st.values[p]))))) : "";
      return el("li", { "data-testid": "result-step", "data-kind": st.kind }, el("div", {}, st.text), table);
    }));
  // tabindex: the tables scroll sideways on a phone, and keyboard users must reach them too
  return el("div", { class: "explanation", "data-testid": "result-explanation", tabindex: "0" },
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
    const a = el("a", { href: `#move-${m.number}`, "data-testid": "mistake-link", "data-move": String(m.number) }, t("move {n}", { n: m.number }));
    a.addEventListener("click", (event) => { event.preventDefault(); enterReplay(m.number - 1); });
    return a;
  };
  return el("div", { class: "analysis-summary", "data-testid": "analysis-summary" },
    el("h3", {}, t("Analysis")),
    ...analysisSummary.map((row) => el("div", { class: "player-summary", "data-testid": "analysis-player" },
      el("b", {}, seatLabel(view.seats[row.player])),
      " · " + tn("{n} move reviewed", "{n} moves reviewed", { n: row.reviewed })
        + ", " + t("{n} best found", { n: row.best }) + ", " + tn("{n} move lost at least a tenth of the win chance", "{n} moves lost at least a tenth of the win chance", { n: row.lost })
        + (row.blunders ? " (" + tn("{n} blunder", "{n} blunders", { n: row.blunders }) + ")" : ""),
      row.mistakes.length ? el("ol", {}, ...row.mistakes.map((m) => el("li", {}, ...labelled(link(m),
        t("played {played} ({played_chance}); better {best} ({best_chance}), {loss} win chance lost",
          { played: m.played_shown, played_chance: pct(m.played_chance), best: m.best_description,
            best_chance: pct(m.best_chance), loss: pct(m.loss) }))))) : el("div", { class: "muted" }, t("No win chance lost.")))),
    el("p", { class: "muted legend", "data-testid": "analysis-legend" },
      t("Marks in the log: ✓ the best move found · ? a mistake (gave away 10% win chance or more) · ?? a blunder (25% or more).")
      + " " + t("A move link opens the replay at the position before that move.")),
    learnPanel({ gameId, facts, board, summary: analysisSummary, seat: view.you !== null ? view.you : [...seatTokens.keys()][0] }));
}

// ---------- replay ----------
async function enterReplay(n) {
  const frame = await api("GET", `/api/games/${gameId}/replay/${n}`);
  const entering = !replay;
  replay = { n, frame };
  render();
  if (entering) requestAnimationFrame(keepMapInView);
}

// A phone stacks the table: on entering the replay, or at the first choice of a move (the map is where the
// next ones are clicked), scroll the map between the top bar and the bar at the bottom.
function keepMapInView() {
  if (!PHONE_QUERY.matches || (!replay && !build.steps.length)) return;
  const map = $("map").getBoundingClientRect();
  const tutorial = document.getElementById("tutorial");  // a tutorial's step and the turn line stay on top too (style.css)
  const top = Math.max(document.querySelector(".topbar").getBoundingClientRect().bottom,
                       tutorial ? tutorial.getBoundingClientRect().bottom : 0, $("turn").getBoundingClientRect().bottom);
  const bottom = $(replay ? "replay" : "action").getBoundingClientRect().top;
  if (map.top < top || map.bottom > bottom) window.scrollBy(0, map.top - top - 4);
}

// Zoom on the board: 1 shows it whole; larger zooms keep the point at the centre of the view where it was,
// and the view scrolls (a finger drags it on a phone).
const ZOOMS = [1, 1.6, 2.4];
let zoom = 0;
function setZoom(level) {
  const box = $("board-view");
  const centre = [(box.scrollLeft + box.clientWidth / 2) / box.scrollWidth, (box.scrollTop + box.clientHeight / 2) / box.scrollHeight];
  zoom = Math.max(0, Math.min(ZOOMS.length - 1, level));
  box.style.setProperty("--zoom", String(ZOOMS[zoom]));
  box.dataset.zoom = String(ZOOMS[zoom]);
  $("zoom-out").disabled = zoom === 0;
  $("zoom-in").disabled = zoom === ZOOMS.length - 1;
  box.scrollLeft = centre[0] * box.scrollWidth - box.clientWidth / 2;
  box.scrollTop = centre[1] * box.scrollHeight - box.clientHeight / 2;
}
$("zoom-in").addEventListener("click", () => setZoom(zoom + 1));
$("zoom-out").addEventListener("click", () => setZoom(zoom - 1));

function renderReplayBar() {
  const bar = $("replay");
  if (!replay) { bar.classList.add("hidden"); return; }
  bar.classList.remove("hidden");
  const total = replay.frame.total;
  const slider = el("input", { type: "range", min: 0, max: total, value: replay.n, "aria-label": t("move") });
  slider.addEventListener("change", () => enterReplay(Number(slider.value)));
  const move = replay.frame.move;
  bar.replaceChildren(
    button("«", () => enterReplay(0), "btn secondary small", "replay-first"),
    button("◀", () => replay.n > 0 && enterReplay(replay.n - 1), "btn secondary small", "replay-prev"),
    el("span", { "data-testid": "replay-position" }, t("Move {n} / {total}", { n: replay.n, total })),
    button("▶", () => replay.n < total && enterReplay(replay.n + 1), "btn secondary small", "replay-next"),
    button("»", () => enterReplay(total), "btn secondary small", "replay-last"),
    slider,
    // the move in words, in the page's language (the record's notation, in English, as its tooltip)
    el("span", { "data-testid": "replay-move", title: move ? move.notation : null },
      move ? `${move.number}. ${seatLabel(view.seats[move.seat])} ${move.text}` : t("setup")),
    button(t("Close replay"), () => { replay = null; render(); }, "btn small", "replay-close"));
}

// ---------- building a move ----------
// Every step is answered at once from `choices`; the server hears only the confirmed move.
function loadOptions(steps) {
  if (!choices) return;
  let options;
  try {
    options = choices.options(steps, view.table, view.you);
  } catch (err) { toast(err.message); return; }
  build = { steps: options.steps, options, number: view.move_number };
  for (const k of [...autoSteps.keys()]) if (k >= options.steps.length) autoSteps.delete(k);
  const only = options.options.filter((o) => o.kind !== "pass");
  // One option only: take it, and say why (the notes explain partial actions). Not "none" (a follower the stock
  // lacks): skipping its step would give the click meant for it to the next step, so the player clicks it.
  if (!options.complete && options.steps.length && only.length === 1 && only[0].kind !== "none") {
    autoSteps.set(options.steps.length,
      t("Only one choice: {choice} (taken for you).", { choice: only[0].label }) +
      (options.notes.length ? ` ${options.notes[options.notes.length - 1]}` : ""));
    return loadOptions([...options.steps, only[0]]);
  }
  renderBuild();
}

function choose(option) { if (option) loadOptions([...build.steps, option]); }
function back() {  // steps taken automatically go back together with the choice before them
  hint = null;
  cancelPass();
  let n = build.steps.length - 1;
  while (n > 0 && autoSteps.has(n)) { autoSteps.delete(n); n--; }
  autoSteps.delete(n);
  loadOptions(build.steps.slice(0, n));
}

// A pass is one click: it is sent after PASS_UNDO_MS unless Undo takes it back first (Confirm sends it at once).
function pass() {
  loadOptions([{ kind: "pass", value: -1 }]);
  cancelPass();
  // the prompt counts the seconds down, so that the pass going by itself comes as no surprise
  passing = { until: Date.now() + PASS_UNDO_MS, timer: setTimeout(confirmMove, PASS_UNDO_MS),
              tick: setInterval(renderBuild, 1000) };
  renderBuild();
}

function cancelPass() {
  if (passing !== null) { clearTimeout(passing.timer); clearInterval(passing.tick); }
  passing = null;
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
    if (st.loyalist !== null) lines.push(t("A Mordred Loyalist arrives in {region}.", { region: facts.regions[st.loyalist].name }));
  }
  return lines.length ? lines : null;
}

function renderBanner() {
  const box = $("banner");
  const entry = replay ? replay.frame.move : stepping ? stepping.entries[stepping.i] : null;
  const latest = !replay && view.log.length ? bannerFor([view.log[view.log.length - 1]]) : null;
  const lines = entry ? bannerFor([entry]) : latest;
  box.classList.toggle("hidden", !lines);
  if (lines) box.replaceChildren(el("span", { class: "flag" }, "⚑"), ...lines.map((line) => el("div", { "data-testid": "banner-line" }, line)));
}

function renderLastMoves() {
  const box = $("last-moves");
  // in the replay: the moves up to the one shown, that one marked
  const current = replay ? replay.frame.move : stepping ? stepping.entries[stepping.i] : null;
  const recent = (replay ? view.log.slice(0, replay.n) : view.log).slice(-3);
  const items = recent.map((e) => el("li", { class: current && current.number === e.number ? "current" : "", "data-number": e.number },
    el("span", { class: "dot", style: `background:${PLAYER_COLOURS[e.seat]};width:10px;height:10px` }),
    e.card !== null && e.card !== undefined
      ? cardFace(e.card, facts, cardFaces, { size: "icon", attrs: { "data-testid": "last-move-card", "data-card": e.card } }) : "",
    el("span", {}, `${e.number}. ${seatLabel(view.seats[e.seat])} ${e.text}`)));
  if (!items.length) items.push(el("li", { class: "muted" }, t("No moves yet.")));
  const parts = [el("h3", {}, t("Last moves")), el("ol", { "data-testid": "last-moves-list" }, ...items)];
  if (stepping && !replay) parts.push(el("div", { class: "stepping" },  // (the replay's move may be the setup: none)
    el("span", { "data-testid": "stepping" }, t("Showing move {n} ({i} of {total})", { n: stepping.entries[stepping.i].number, i: stepping.i + 1, total: stepping.entries.length })),
    button(t("Skip ▸▸"), () => stopStepping(), "btn secondary small", "skip")));
  box.replaceChildren(...parts);
}

document.addEventListener("keydown", (event) => {
  if (stepping && (event.key === "Escape" || event.key === " ")) { event.preventDefault(); stopStepping(); }
});

async function confirmMove() {
  cancelPass();
  const options = build.options;
  if (options && options.complete) await sendMove(options.move);
}

async function sendMove(notation) {  // a move built here or a hint's "Play this"
  if (sending) return;
  const token = seatTokens.get(view.you);
  const seat = view.you;
  sending = true;
  try {
    const next = await api("POST", `/api/games/${gameId}/moves`, { move: notation, move_number: view.move_number }, token);
    if (hotseat()) { revealed = seat; await onPublic(await api("GET", `/api/games/${gameId}`), false); }
    else show(next);
  } catch (err) {
    toast(err.message);
    await refresh();
  } finally {
    sending = false;
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
  return el("label", { class: "hints-toggle", title: t("show the Hint button in this game") }, box, " " + t("hints"));
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
  if (veiled) $("veil-title").textContent = t("{player}, it is your turn", { player: seatLabel(view.seats[active]) });
}

$("veil-button").addEventListener("click", async () => {
  revealed = mySeatToMove(publicView);
  $("veil").classList.add("hidden");
  if (revealed !== null) show(await api("GET", `/api/games/${gameId}`, null, seatTokens.get(revealed)));
});

// The chat (chat.js) is loaded when first opened; until then a line heard counts on its button.
function heardChat(message) {
  if (chat?.receive(message)) return;
  $("chat-unread").textContent = ++unread;
  $("chat-unread").classList.remove("hidden");
}
$("chat-toggle").onclick = async () => {
  chat = chat || await import("/static/chat.js");
  unread = 0;
  chat.toggle(gameId, view?.you ?? null, seatTokens, (message) => socket?.readyState === 1 && socket.send(JSON.stringify(message)));
};

start();
