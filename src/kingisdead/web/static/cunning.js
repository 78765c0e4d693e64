// The advanced game's Cunning cards (numbers 7 to 18) at the table: a move built by clicks (choices.js's Choices
// with the view's `choices.cunning`, web/choices.py); the two pictogram primitives only their faces draw (card and
// eye, added to cards.js's, which documents them); the players' boxes' parts (a Spy's choices by their cards, the
// backs of a secret hand, Plot revealed at the end). Loaded by the table of a second-edition game only, so that a
// first-edition table's first load does not carry it.
import { addPrimitives, arrowAlong, blobPath, cardFace, INK, LAND, need, svgEl } from "/static/cards.js";
import { Choices } from "/static/choices.js";
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";

// A card's back: the Cunning cards' colour with gold (as .card-back in cards.css).
const BACK = "#3f2b55", GOLD = "#d9b45a";

function card(g, p) {
  need(p, "x", "y", "w", "h");
  const { w, h, side } = p, pile = p.pile || 0, back = side === "back", copy = side === "copy";
  if (!["front", "back", "copy"].includes(side)) throw new Error(`card face: card side ${JSON.stringify(side)} is not "front", "back" or "copy"`);
  if (!Number.isInteger(pile) || pile < 0 || pile > 5) throw new Error(`card face: primitive "card" needs "pile" as a whole number 0-5, got ${JSON.stringify(p.pile)}`);
  const c = svgEl("g", { class: `art-card ${side}`, transform: `translate(${p.x + w / 2},${p.y + h / 2}) rotate(${p.rotate || 0})` }, g);
  // the pile's cards under it, each a little lower and to the left; then the card
  const rect = (i, fill, inset = 0) => svgEl("rect", { x: inset - w / 2 - i * 2, y: inset - h / 2 + i * 2.5, width: w - 2 * inset, height: h - 2 * inset,
                                                     rx: 3, fill, stroke: inset ? GOLD : INK, "stroke-width": 1.2 }, c);
  for (let i = pile; i > 0; i--) rect(i, "#f3e7c6");
  const face = rect(0, back ? BACK : copy ? "#fbf3dc99" : "#fbf3dc");
  if (back) {  // a gold frame and lozenge, and a question mark: a card no one else may see
    rect(0, "none", 3);
    const r = Math.min(w, h) * 0.3;
    svgEl("path", { d: `M0,${-r * 1.3}L${r},0L0,${r * 1.3}L${-r},0Z`, fill: "none", stroke: GOLD, "stroke-width": 1.4 }, c);
    svgEl("text", { y: r * 0.42, "text-anchor": "middle", "font-size": r * 1.2, fill: GOLD, "font-family": "Georgia, serif" }, c).textContent = "?";
    return;
  }
  if (copy) face.setAttribute("stroke-dasharray", "4 2.5");
  // a small scene on its face: land, and an arrow for the action it carries out
  svgEl("path", { d: blobPath(-w * 0.32, -h * 0.05, w * 0.64, h * 0.4, 3), fill: LAND, stroke: INK }, c);
  arrowAlong(c, [-w * 0.22, -h * 0.22], [w * 0.16, h * 0.08], 0.3);
}

function eye(g, p) {
  need(p, "x", "y");
  const e = svgEl("g", { class: "art-eye", transform: `translate(${p.x},${p.y}) scale(${(p.size || 20) / 20})` }, g);
  svgEl("path", { d: "M-10,0Q0,-10 10,0Q0,10 -10,0Z", fill: "#fffaf0", stroke: INK, "stroke-width": 1.5 }, e);
  svgEl("circle", { r: 4, fill: "#4f7a3a", stroke: INK, "stroke-width": 1 }, e);
  svgEl("circle", { r: 1.8, fill: "#1b1b1b" }, e);
  svgEl("circle", { cx: -1.3, cy: -1.4, r: 0.9, fill: "#fff" }, e);
}

addPrimitives({ card, eye });

const NONE = -1, FIRST_CUNNING = 7, DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";  // values in base 36
// a step's kind: r a region, x a region or none, f a faction, y a faction or none, p a player (the pile a Spy
// copies), c a card (the card it copies)
const STEP_KIND = { r: "region", x: "region", f: "faction", y: "faction", p: "player", c: "copy" };

// A card's moves by each beginning of their actions (its values joined by commas): the steps that may follow it
// (by "kind:value", in the moves' order) and the moves whose action it is. A click asks one beginning; walking every
// path of a card (its test) asks thousands, each answered without going through all its moves again.
function byBeginning(moves) {
  const index = new Map();
  const node = (key) => index.get(key) || index.set(key, { next: new Map(), exact: [] }).get(key);
  for (const m of moves) {
    for (let i = 0; i <= m.action.length; i++) {
      const at = node(m.action.slice(0, i).join(","));
      if (i === m.action.length) { at.exact.push(m); continue; }
      const v = m.action[i], kind = v === NONE ? "none" : STEP_KIND[m.kinds[i]];
      if (!at.next.has(`${kind}:${v}`)) at.next.set(`${kind}:${v}`, { kind, value: v });
    }
  }
  return index;
}
const EMPTY = { next: new Map(), exact: [] };

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export class CunningChoices extends Choices {
  constructor(payload, facts) {
    super(payload, facts);
    // each card's moves, of every shape and length, each with its action in the notation (`words`), by the
    // beginnings of their actions
    this.cunning = new Map();
    for (const entry of payload.cunning || []) {
      const moves = entry.shapes.flatMap((shape) => shape.moves.split(" ").map((word, i) => {
        const [spelling, court] = word.split(":");
        return { action: [...spelling].map((c) => (c === "-" ? NONE : DIGITS.indexOf(c))), court: Number(court),
                 kinds: shape.kinds, words: shape.words[i] };
      }));
      this.cunning.set(entry.card, { card: entry.card, beginnings: byBeginning(moves) });
    }
    this.playerLabel = (p) => t("seat {n}", { n: p + 1 });  // the table names the seats
  }

  cardName(card) {
    return card >= FIRST_CUNNING ? (this.facts.cunning_cards || [])[card - FIRST_CUNNING] || "?" : this.facts.cards[card];
  }

  label(kind, value) {
    if (kind === "card" || kind === "copy") return this.cardName(value);
    if (kind === "player") return this.playerLabel(value);
    if (kind === "end") return t("nothing more");
    return super.label(kind, value);
  }

  played(steps) { return steps.length && steps[0].kind === "card" && this.cunning.has(steps[0].value); }

  // A Cunning card's later steps: whether its action is over (a step "end", or no longer action begins with it),
  // the court call's values, the moves of exactly that action and the steps that may follow it.
  split(entry, steps) {
    const action = [], court = [];
    let ended = false;
    const at = () => entry.beginnings.get(action.join(",")) || EMPTY;
    const longer = () => at().next.size > 0;
    for (const step of steps) {
      if (ended) court.push(step.value);
      else if (step.kind === "end") ended = true;
      else if (!longer()) { ended = true; court.push(step.value); }
      else action.push(step.kind === "none" ? NONE : step.value);
    }
    if (!ended && !longer()) ended = true;
    const reached = at();
    return { ended, court, matching: reached.exact, following: [...reached.next.values()] };
  }

  next(steps) {
    if (!steps.length) return [...super.next(steps), ...[...this.cunning.keys()].map((card) => this.choice("card", card))];
    if (!this.played(steps)) return super.next(steps);
    const entry = this.cunning.get(steps[0].value);
    const { ended, court, matching, following } = this.split(entry, steps.slice(1));
    if (!ended) {
      const sorted = following.map(({ kind, value }) => this.choice(kind, value)).sort((a, b) => a.value - b.value);
      return matching.length ? [...sorted, this.choice("end")] : sorted;  // the action may stop here, or go on
    }
    return matching.length ? this.courtChoices(matching[0].court, court) : [];
  }

  // The finished move, with its action's notation from the choices (one spelling per move).
  move(steps) {
    if (!this.played(steps)) return super.move(steps);
    const { court, matching } = this.split(this.cunning.get(steps[0].value), steps.slice(1));
    return { card: steps[0].value, action: matching[0].action, words: matching[0].words, court: court.length === 2 ? court : null };
  }

  // A Cunning card is written by its name in every language.
  notation(move, codes = this.codes) {
    if (move.card === null || move.card < FIRST_CUNNING) return super.notation(move, codes);
    const court = move.court && `+${codes.regions[move.court[0]]}:${codes.factions[move.court[1]]}`;
    return [this.cardName(move.card), move.words, court].filter(Boolean).join(" ");
  }

  describe(move) {
    if (move.card === null || move.card < FIRST_CUNNING) return super.describe(move);
    const x = this.texts, title = this.cardName(move.card);
    const text = move.words ? fill(x.cunning, { card: title, action: move.words }) : fill(x.no_action, { card: title });
    return move.court ? fill(x.court, { action: text, faction: this.facts.factions[move.court[1]],
                                        region: this.facts.regions[move.court[0]].name }) : text;
  }

  guide(steps, complete) {
    if (!this.played(steps)) return super.guide(steps, complete);
    const x = this.texts;
    const { ended, court } = this.split(this.cunning.get(steps[0].value), steps.slice(1));
    let prompt;
    if (complete) prompt = x.confirm;
    else if (!ended) prompt = fill(x.cunning_step, { card: this.cardName(steps[0].value) });
    else if (!court.length) prompt = x.court_region;
    else prompt = fill(x.court_faction, { region: steps[steps.length - 1].label });
    return { prompt, notes: [...this.notes] };
  }

  // no preview of a Cunning card's effect: the server alone carries it out
  preview(steps, table, seat) { return this.played(steps) ? null : super.preview(steps, table, seat); }
}

// A Spy's choice as the table shows it, beside its words: a pile by the card on its top, the card to copy by its face;
// "" for any other choice. `cards`: the edition's cards.json.
export function choiceCard(option, table, facts, cards) {
  const card = option.kind === "player" ? table.tops[option.value] : option.kind === "copy" ? option.value : -1;
  return card >= 0 ? cardFace(card, facts, cards, { size: "icon", attrs: { "data-testid": "choice-card", "data-card": card } }) : "";
}

// Seat `p`'s hand in the advanced game, where hands are secret, as the seat `you` (null: a watcher) sees it: the
// backs of its cards (their number stands beside, "n cards left"); "" for its own hand, the standard game and the end.
export function secretHand(table, p, you) {
  if (table.mode !== "advanced" || table.hands || p === you || !table.cards_left[p]) return "";
  return el("span", { class: "card-backs", "data-testid": "card-backs", "aria-hidden": "true" },
    ...Array.from({ length: table.cards_left[p] }, () => el("span", { class: "card-back" })));
}

// At the end of the advanced game: the Plot seat `p` held, face up, with the explanation's words on what it counted
// as (its "plot" step); "" if it held none. `cards`: the edition's cards.json.
export function plotRevealed(table, p, facts, cards) {
  const plot = facts.card_keys.length + facts.cunning_cards.indexOf("Plot");
  if (!((table.cunning_hands || [])[p] || []).includes(plot)) return "";
  const step = ((table.explanation || {}).steps || []).find((st) => st.kind === "plot" && String(p) in st.values);
  return el("div", { class: "row plot-revealed", "data-testid": "plot-revealed" },
    cardFace(plot, facts, cards, { size: "small", attrs: { "data-card": plot } }),
    step ? el("span", {}, step.text) : "");
}
