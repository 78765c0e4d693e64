// Explanations at the table: what a hand card does here, who leads the struggle, hints with their
// reasons, and "learn from your mistakes" after a game. The server words them (web/explain.py); this
// module only lays them out, so that game.js stays about the table and the building of moves.
import { drawBoard } from "/static/board.js";
import { addToTip } from "/static/cards.js";
import { api, el } from "/static/common.js";
import { t } from "/static/i18n.js";

const pct = (x) => Math.round(x * 100);  // a win chance (0-1) in percent; the texts carry the % sign

// The running struggle, in one line: who leads the contested region and what an all-pass gives.
export function struggleLine(table) {
  const now = table.struggle;
  if (!now) return "";
  return el("div", { class: "struggle-line", "data-testid": "struggle-line", "data-region": now.region, "data-leader": now.leader },
    el("span", { "data-testid": "struggle-lead" }, now.lead), " ",
    el("span", { class: "all-pass", "data-testid": "struggle-all-pass" }, capitalise(now.all_pass)),
    now.if_over ? el("div", { class: "if-over", "data-testid": "struggle-if-over" }, now.if_over) : "");
}

function capitalise(text) { return text ? text[0].toLocaleUpperCase() + text.slice(1) : text; }

// What the map lights for a card's effect (table.card_effects' entry): {regions: Set, followers: Map(region -> Set(kind))}.
export function lightOf(effect) {
  if (!effect) return null;
  return { regions: new Set(effect.regions),
           followers: new Map(Object.entries(effect.followers).map(([r, kinds]) => [Number(r), new Set(kinds)])) };
}

// Hovering or focusing a hand card shows its effect here under the hand and lights its targets on the map
// (`onLight(effect | null)`); `hand` is the element renderHand built, `table` the view's table.
export function explainHand(hand, table, onLight) {
  const effects = new Map((table.card_effects || []).map((e) => [e.card, e]));
  const line = el("p", { class: "card-effect muted", "data-testid": "card-effect", "aria-live": "polite" },
    effects.size ? t("Point at a card to see what it would do here.") : "");
  for (const tile of hand.querySelectorAll("[data-testid=hand-card]")) {
    const effect = effects.get(Number(tile.dataset.card));
    if (!effect) continue;
    const show = () => { line.textContent = effect.text; line.classList.remove("muted"); onLight(effect); };
    const hide = () => { line.textContent = t("Point at a card to see what it would do here."); line.classList.add("muted"); onLight(null); };
    // a mouse's pointer only: a tap's emulated mouse events would show the line just before its click,
    // and on a phone the bar's growth would move the card from under the finger
    tile.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") show(); });
    tile.addEventListener("focus", show);
    // a long press on a touch screen: the rule's tooltip says it and the targets light up as under a mouse (the line
    // stays folded: it would grow the phone's bar and move the card under the finger)
    tile.addEventListener("kid:long-press", () => { addToTip(tile, effect.text); onLight(effect); });
    tile.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") hide(); });
    tile.addEventListener("blur", hide);
  }
  hand.append(line);
  return hand;
}

// The hint's moves, best first, each with its reason in words and a button that plays it (`play(notation)`);
// `face(card)` draws the face of the card a move plays (cards.js), beside it.
export function hintList(hint, play, face) {
  return el("div", { class: "move-preview hint-box", "data-testid": "hint-box" },
    el("div", { style: "font-weight:600" }, t("Suggestions, best first")),
    el("ol", { class: "hint-list" }, ...hint.moves.map((m, i) => {
      const button = el("button", { class: "btn small", "data-testid": "play-hint", "data-move": m.move }, t("Play this"));
      button.addEventListener("click", () => { button.disabled = true; play(m.move); });
      return el("li", { class: "hint-move", "data-testid": "hint-move", "data-chance": m.win_chance },
        m.card !== null && m.card !== undefined ? face(m.card) : "",
        el("div", {}, el("span", { class: "mono" }, m.shown_notation),
          el("span", { class: "chance" }, t("{percent}% to win", { percent: pct(m.win_chance) })),
          i === 0 ? el("span", { class: "tag", "data-testid": "hint-tag" }, m.least_bad ? t("least bad") : t("best")) : ""),
        el("div", { class: "desc" }, m.description),
        el("div", { class: "reason", "data-testid": "hint-reason" }, capitalise(m.reason)),
        button);
    })),
    el("div", { class: "muted", style: "font-size:0.75rem" }, hint.method));
}

// ---------- learn from your mistakes ----------
// Per game: which of the player's costliest moves is on screen, what was picked, and its position's table.
const learning = new Map();

// The panel after the analysis: the costliest moves of `seat` one at a time, each on a board of the
// position before it; the player picks among the offered moves, and only then sees the better move and
// what the move played cost. `context`: {gameId, facts, board, seat, summary, name(seat)}.
export function learnPanel(context) {
  const { gameId, seat, summary } = context;
  const row = seat === null || seat === undefined ? null : summary.find((r) => r.player === seat);
  if (!row || !row.mistakes.length) return "";
  if (!learning.has(gameId)) learning.set(gameId, { started: false, i: 0, picked: null, frames: new Map() });
  const state = learning.get(gameId);
  const box = el("div", { class: "learn", "data-testid": "learn-panel" });
  const redraw = () => box.replaceChildren(...learnContent(context, row.mistakes, state, redraw));
  redraw();
  return box;
}

function learnContent(context, mistakes, state, redraw) {
  const title = el("h3", {}, t("Learn from your mistakes"));
  if (!state.started) {
    const start = el("button", { class: "btn", "data-testid": "learn-start" }, t("Find better moves"));
    start.addEventListener("click", () => { state.started = true; redraw(); });
    return [title, el("p", {}, t("The analysis found the moves that cost you the most win chance. Look at each position again and pick the move you would play now: the better move is shown after your choice.")), start];
  }
  const m = mistakes[state.i];
  const frame = state.frames.get(m.number);
  if (!frame) {
    api("GET", `/api/games/${context.gameId}/replay/${m.number - 1}`)
      .then((found) => { state.frames.set(m.number, found); redraw(); })
      .catch((err) => { state.frames.set(m.number, { error: err.message }); redraw(); });
    return [title, el("p", { class: "muted" }, t("Loading the position…"))];
  }
  const parts = [title,
    el("div", { class: "learn-head", "data-testid": "learn-head" },
      t("Mistake {i} of {n}: move {number}", { i: state.i + 1, n: mistakes.length, number: m.number }))];
  if (frame.error) return [...parts, el("p", {}, frame.error)];
  const board = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  board.setAttribute("class", "learn-board");
  board.setAttribute("data-testid", "learn-board");
  board.setAttribute("role", "img");
  board.setAttribute("aria-label", t("The board before move {n}", { n: m.number }));
  // The board marks what a choice would change while it is pointed at, and the better move once revealed.
  const best = m.choices.find((c) => c.move === m.best);
  const settled = state.picked !== null && best && best.changes ? best.changes : null;
  const mark = (changes) => drawBoard(board, context.facts, context.board, frame.table, changes ? { marks: changes } : {});
  mark(settled);
  parts.push(board, struggleLine(frame.table), el("p", { class: "prompt" }, t("What would you play here? Point at a move to see it on the board.")));
  const choices = el("div", { class: "learn-choices" }, ...m.choices.map((c) => {
    const classes = ["choice", "learn-choice"];
    if (state.picked !== null) {
      if (c.move === m.best) classes.push("best");
      if (c.move === state.picked) classes.push("picked");
    }
    const button = el("button", { class: classes.join(" "), "data-testid": "learn-choice", "data-move": c.move,
                                  disabled: state.picked !== null },
      el("span", {}, c.description), " ", el("span", { class: "mono" }, c.shown_notation),
      state.picked !== null ? el("span", { class: "chance" }, ` ${t("{percent}% to win", { percent: pct(c.win_chance) })}`) : "");
    button.addEventListener("click", () => { state.picked = c.move; redraw(); });
    for (const [on, changes] of [["mouseenter", c.changes], ["focus", c.changes], ["mouseleave", settled], ["blur", settled]]) {
      button.addEventListener(on, () => mark(changes));
    }
    return button;
  }));
  parts.push(choices);
  if (state.picked !== null) {
    const picked = m.choices.find((c) => c.move === state.picked);
    const verdict = state.picked === m.best
      ? t("Well found: that is the best move the analysis found ({best}% to win).", { best: pct(m.best_chance) })
      : t("The better move: {best} ({best_chance}% to win).", { best: m.best_description, best_chance: pct(m.best_chance) })
        + (state.picked === m.played ? "" : " " + t("Your pick here: {chance}% to win.", { chance: pct(picked.win_chance) }));
    parts.push(el("div", { class: "learn-reveal", "data-testid": "learn-reveal", role: "status" },
      el("p", {}, verdict),
      el("p", {}, t("In the game you played {played} ({played_chance}%): it cost {loss}% win chance.",
        { played: m.played_shown, played_chance: pct(m.played_chance), loss: pct(m.loss) })),
      m.why ? el("p", { "data-testid": "learn-why" }, m.why) : ""));
    const last = state.i + 1 >= mistakes.length;
    const next = el("button", { class: "btn secondary", "data-testid": "learn-next" }, last ? t("Start again") : t("Next mistake"));
    next.addEventListener("click", () => { state.i = last ? 0 : state.i + 1; state.picked = null; redraw(); });
    parts.push(next);
  }
  return parts;
}
