// Building a move in the browser: every choice of the move comes with the position (the view's
// `choices`, made by web/choices.py), so no click waits for the server; only the confirmed move is sent,
// and the server checks it in full. `options(steps)` answers what POST /api/games/{id}/options answers.
import { t } from "/static/i18n.js";

const CROWN = 0, GARRISON = 1, AMBASSADOR = 2, SETTLEMENTS = 3, SCOTS = 4;
const NONE = -1;

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

// The canonical spelling of an action whose parts are unordered (moves.normalise).
function normalise(card, a) {
  if (card === CROWN && a.length === 3 && a[0] > a[1]) return [a[1], a[0], a[2]];
  if ((card === GARRISON || card === AMBASSADOR) && a.length === 4 && a[0] > a[2]) return [a[2], a[3], a[0], a[1]];
  if (card === GARRISON && a.length === 5 && a[1] > a[2]) return [a[0], a[2], a[1], a[3], a[4]];
  if (card >= SCOTS && a.length === 2 && a[0] > a[1]) return [a[1], a[0]];
  return a;
}

// The advanced game's Cunning cards: CunningChoices (cunning.js) extends this class, loaded only where needed.
export class Choices {
  // payload: a view's `choices`; facts: GET /api/meta (names of cards, regions and factions in the page's language).
  constructor(payload, facts) {
    this.facts = facts;
    this.notes = payload.notes;
    this.texts = payload.texts;
    this.codes = payload.codes;
    // the notation as the page's language writes it, for the move shown (regions keep their codes)
    this.shownCodes = { ...payload.codes, ...payload.shown_codes };
    this.courts = payload.courts;
    this.cards = new Map();
    for (const entry of payload.cards) {
      const moves = entry.moves.split(" ").map((word) => {
        const [spelling, court] = word.split(":");
        return { action: [...spelling].map((c) => (c === "-" ? NONE : Number(c))), court: Number(court) };
      });
      this.cards.set(entry.card, { ...entry, length: moves[0].action.length, moves });
    }
  }

  label(kind, value) {
    if (kind === "card") return this.facts.cards[value];
    if (kind === "region") return this.facts.regions[value].name;
    if (kind === "faction") return this.facts.factions[value];
    return kind === "pass" ? t("pass") : t("none");
  }

  choice(kind, value = -1) { return { kind, value, label: this.label(kind, value) }; }

  // What may follow `steps` ([{kind, value}]), as the options route answers: {steps, options, complete, move
  // (the notation sent), shown (the notation in the page's words), description, preview, prompt, notes}. `table` and `seat`: the view's table and seat, for the preview.
  // A step that is not offered throws an Error naming it.
  options(steps, table, seat) {
    const done = [];
    for (const step of steps) {
      if (!this.next(done).some((o) => o.kind === step.kind && o.value === (step.value ?? -1))) {
        throw new Error(`step ${done.length + 1}: ${this.label(step.kind, step.value)} is not offered`);
      }
      done.push(this.choice(step.kind, step.value ?? -1));
    }
    const options = this.next(done);
    const complete = done.length > 0 && !options.length;
    const move = complete ? this.move(done) : null;
    return {
      steps: done, options, complete,
      move: move && this.notation(move),
      shown: move && this.notation(move, this.shownCodes),
      description: move && this.describe(move),
      preview: this.preview(done, table, seat),
      ...this.guide(done, complete),
    };
  }

  // The choices that can follow `steps` (none once the move is complete).
  next(steps) {
    if (!steps.length) return [this.choice("pass"), ...[...this.cards.keys()].map((card) => this.choice("card", card))];
    if (steps[0].kind === "pass") return [];
    const entry = this.cards.get(steps[0].value);
    const chosen = this.values(steps).slice(0, entry.length);
    const matching = entry.moves.filter((m) => chosen.every((v, i) => m.action[i] === v));
    if (chosen.length < entry.length) {
      const kind = entry.kinds[chosen.length];
      const values = [...new Set(matching.map((m) => m.action[chosen.length]))].sort((a, b) => a - b);
      return values.map((v) => this.choice(kind === "f" ? "faction" : v === NONE ? "none" : "region", v));
    }
    return this.courtChoices(matching[0].court, steps.slice(1 + entry.length).map((s) => s.value));
  }

  // The court call's choices after `called` (its values so far), from the courts' set `index`.
  courtChoices(index, called) {
    const calls = this.calls(this.courts[index]);
    if (!calls.length || called.length === 2) return [];
    if (!called.length) return [...new Set(calls.map(([r]) => r))].map((r) => this.choice("region", r));
    return calls.filter(([r]) => r === called[0]).map(([, f]) => this.choice("faction", f));
  }

  values(steps) { return steps.slice(1).map((s) => (s.kind === "none" ? NONE : s.value)); }

  // A court mask's calls as [region, faction], by region then faction.
  calls(mask) {
    const calls = [];
    for (let bit = 0; bit < 32; bit++) if ((mask >>> bit) & 1) calls.push([bit >> 2, bit & 3]);
    return calls;
  }

  // The finished move: {card (null: the pass), action (canonical), court ([region, faction] or null)}.
  move(steps) {
    if (steps[0].kind === "pass") return { card: null, action: [], court: null };
    const card = steps[0].value;
    const { length } = this.cards.get(card);
    const values = this.values(steps);
    return { card, action: normalise(card, values.slice(0, length)),
             court: values.length > length ? values.slice(length, length + 2) : null };
  }

  // The move in the notation the server reads (moves.format_move), or with `codes` the page's words for it.
  notation({ card, action: a, court }, codes = this.codes) {
    if (card === null) return "pass";
    const { cards, regions, factions } = codes;
    const follower = (r, f) => `${regions[r]}:${factions[f]}`;
    const parts = [cards[card]];
    if (card === CROWN && a.length) parts.push(`${regions[a[0]]}<>${regions[a[1]]}`, `*${regions[a[2]]}`);
    else if (card === GARRISON && a.length === 5) parts.push(`${regions[a[0]]}:${factions[a[1]]}${factions[a[2]]}>${follower(a[3], a[4])}`);
    else if ((card === GARRISON || card === AMBASSADOR) && a.length) parts.push(`${follower(a[0], a[1])}<>${follower(a[2], a[3])}`);
    else if (card === SETTLEMENTS) a.forEach((r, f) => { if (r !== NONE) parts.push(`${factions[f]}>${regions[r]}`); });
    else if (card >= SCOTS) parts.push(...a.map((r) => regions[r]));
    if (court) parts.push(`+${follower(...court)}`);
    return parts.join(" ");
  }

  // The move in words (views.describe_move), from the server's sentences.
  describe({ card, action: a, court }) {
    const x = this.texts;
    if (card === null) return x.pass;
    const title = this.facts.cards[card];
    const region = (r) => this.facts.regions[r].name;
    const faction = (f) => this.facts.factions[f];
    let text;
    if (!a.length) text = fill(x.no_action, { card: title });
    else if (card === CROWN) text = fill(x.crown, { card: title, first: region(a[0]), second: region(a[1]), crowned: region(a[2]) });
    else if (card === GARRISON && a.length === 5) {
      text = fill(x.garrison_two, { card: title, first: faction(a[1]), second: faction(a[2]), source: region(a[0]),
                                    target: region(a[3]), back: faction(a[4]) });
    } else if (card === GARRISON || card === AMBASSADOR) {
      text = fill(x.exchange, { card: title, faction: faction(a[1]), region: region(a[0]), other_faction: faction(a[3]),
                                other_region: region(a[2]) });
    } else if (card === SETTLEMENTS) {
      const placed = a.flatMap((r, f) => (r === NONE ? [] : [fill(x.placement, { faction: faction(f), region: region(r) })]));
      text = placed.length ? fill(x.settlements, { card: title, placements: placed.join(", ") }) : fill(x.nothing_to_place, { card: title });
    } else if (a.length === 2 && a[0] === a[1]) text = fill(x.two_in_one, { card: title, region: region(a[0]) });
    else {
      const names = a.map(region);
      const list = names.length < 2 ? names[0] : fill(x.and, { list: names.slice(0, -1).join(", "), last: names[names.length - 1] });
      text = fill(x.places, { card: title, regions: list });
    }
    if (court) text = fill(x.court, { action: text, faction: faction(court[1]), region: region(court[0]) });
    return text;
  }

  // The prompt for the next step and the notes (views.step_guide).
  guide(steps, complete) {
    const x = this.texts;
    const notes = [...this.notes];
    if (!steps.length) return { prompt: x.play, notes };
    if (steps[0].kind === "pass") return { prompt: x.confirm_pass, notes };
    const entry = this.cards.get(steps[0].value);
    notes.push(...entry.notes);
    const chosen = steps.slice(1, 1 + entry.length);
    const called = steps.slice(1 + entry.length);
    let prompt;
    if (complete) {
      if (chosen.length === entry.length && !called.length) notes.push(x.no_court);
      prompt = x.confirm;
    } else if (chosen.length < entry.length) {
      prompt = fill(entry.prompts[chosen.length], Object.fromEntries(chosen.map((c, i) => [i, c.label])));
    } else if (!called.length) prompt = x.court_region;
    else prompt = fill(x.court_faction, { region: called[0].label });
    return { prompt, notes };
  }

  // The table once the card's action (and the court call, once both parts are chosen) is carried out
  // (views.preview); null before every choice of the action is made.
  preview(steps, table, seat) {
    if (!steps.length || steps[0].kind !== "card") return null;
    const card = steps[0].value;
    const { length } = this.cards.get(card);
    const values = this.values(steps);
    if (values.length < length) return null;
    const a = values.slice(0, length);
    const after = structuredClone(table);
    const { followers, stock } = after;
    const add = (r, f, n) => { followers[r][f] += n; };
    if (card === CROWN) {
      if (a.length) {
        const i = after.order.indexOf(a[0]), j = after.order.indexOf(a[1]);
        [after.order[i], after.order[j]] = [a[1], a[0]];
        after.crowns[a[2]] = seat;
      }
    } else if (card === GARRISON || card === AMBASSADOR) {
      if (a.length === 5) {
        const [from, f1, f2, to, back] = a;
        add(from, f1, -1); add(from, f2, -1); add(to, f1, 1); add(to, f2, 1); add(to, back, -1); add(from, back, 1);
      } else if (a.length) {
        const [from, f, to, back] = a;
        add(from, f, -1); add(to, f, 1); add(to, back, -1); add(from, back, 1);
      }
    } else if (card === SETTLEMENTS) {
      a.forEach((r, f) => { if (r !== NONE) { stock[f] -= 1; add(r, f, 1); } });
    } else {
      for (const r of a) { stock[card - SCOTS] -= 1; add(r, card - SCOTS, 1); }
    }
    if (values.length >= length + 2) {
      const [r, f] = values.slice(length, length + 2);
      add(r, f, -1);
      after.courts[seat][f] += 1;
    }
    if (after.hand) after.hand[card] -= 1;
    after.tops[seat] = card;
    after.cards_left[seat] -= 1;
    after.passes = 0;
    after.contested = after.order[after.resolved];
    after.to_move = (seat + 1) % after.players;
    return after;
  }
}
