// The advanced game's Cunning cards (numbers 7 to 18) in a move built by clicks: choices.js's Choices with the
// view's `choices.cunning` (web/choices.py). Loaded by the table of a second-edition game only, so that a
// first-edition table's first load does not carry it.
import { Choices } from "/static/choices.js";
import { t } from "/static/i18n.js";

const NONE = -1, FIRST_CUNNING = 7, DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";  // values in base 36
// a step's kind: r a region, x a region or none, f a faction, y a faction or none, p a player (the pile a Spy
// copies), c a card (the card it copies)
const STEP_KIND = { r: "region", x: "region", f: "faction", y: "faction", p: "player", c: "copy" };
const starts = (m, a) => a.every((v, i) => m.action[i] === v);  // a move's action begins with `a`

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export class CunningChoices extends Choices {
  constructor(payload, facts) {
    super(payload, facts);
    // each card's moves, of every shape and length, each with its action in the notation (`words`)
    this.cunning = new Map();
    for (const entry of payload.cunning || []) {
      const moves = entry.shapes.flatMap((shape) => shape.moves.split(" ").map((word, i) => {
        const [spelling, court] = word.split(":");
        return { action: [...spelling].map((c) => (c === "-" ? NONE : DIGITS.indexOf(c))), court: Number(court),
                 kinds: shape.kinds, words: shape.words[i] };
      }));
      this.cunning.set(entry.card, { card: entry.card, moves });
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

  // A Cunning card's later steps: its action, whether it is over (a step "end", or no longer action begins with
  // it), the court call's values, and the moves of exactly that action.
  split(entry, steps) {
    const action = [], court = [];
    let ended = false;
    const longer = () => entry.moves.some((m) => m.action.length > action.length && starts(m, action));
    for (const step of steps) {
      if (ended) court.push(step.value);
      else if (step.kind === "end") ended = true;
      else if (!longer()) { ended = true; court.push(step.value); }
      else action.push(step.kind === "none" ? NONE : step.value);
    }
    if (!ended && !longer()) ended = true;
    const matching = entry.moves.filter((m) => m.action.length === action.length && starts(m, action));
    return { action, ended, court, matching };
  }

  next(steps) {
    if (!steps.length) return [...super.next(steps), ...[...this.cunning.keys()].map((card) => this.choice("card", card))];
    if (!this.played(steps)) return super.next(steps);
    const entry = this.cunning.get(steps[0].value);
    const { action, ended, court, matching } = this.split(entry, steps.slice(1));
    if (!ended) {
      const options = new Map();
      for (const m of entry.moves) {
        if (m.action.length <= action.length || !starts(m, action)) continue;
        const v = m.action[action.length], kind = v === NONE ? "none" : STEP_KIND[m.kinds[action.length]];
        options.set(`${kind}:${v}`, this.choice(kind, v));
      }
      const sorted = [...options.values()].sort((a, b) => a.value - b.value);
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
