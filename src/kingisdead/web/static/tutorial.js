// Learn to play: the tutorial layer over the real table of a tutorial game (started at /learn).
// It shows one step at a time in a box above the table, outlines the part of the table the step speaks
// of, plays the tutor's scripted replies with the tutor's token, and refuses (before anything is sent)
// every click on the table's move controls that is not the one the step asks for, saying why.
// The script of moves comes from GET /api/learn; the table tells this layer what it shows through the
// "kid:table" event (game.js), so the learner's moves go through the table's own controls.
import { api, el, TUTORIAL_KEY } from "/static/common.js";
import { cardFace } from "/static/cards.js";
import { loadEdition } from "/static/edition.js";
import { t } from "/static/i18n.js";

// the tutor's reply comes a moment after the learner's move, as at a table; the browser tests set
// window.kidTutorDelayMs before the page's scripts run, to play the lessons faster
const TUTOR_DELAY_MS = window.kidTutorDelayMs ?? 700;

// Each step: `focus` the id of the table's part it outlines; `move` the index in the script of the
// learner's move it asks for (it ends once that move is made), else `after` the number of moves the game
// must have reached before it shows (the tutor's replies up to there are played first) and the learner
// goes on with Next. `regions`: the regions it speaks of, outlined on the map and the region-card track;
// `card`: the card it introduces, whose face it shows. `text` gets the board's names: region(r), faction(k), card(c).
// One list per edition (the tutorial's edition is saved with it by learn.js); each follows its edition's script.
const FIRST_STEPS = [
  { after: 0, focus: "map", text: (n) => t("Arthur is dead, and you are one of his court. You have no faction of your own: the Scots (blue), the Welsh (red) and the Romano-British (yellow) fight over the eight regions of Britain, one power struggle for each. When all eight are fought, the faction that holds the most regions rules, and the player with the most of its followers at court is crowned.") },
  { after: 0, focus: "players", text: (n) => t("This is your court: the followers in front of you. You start with two. Each card you play lets you call one more follower to your court, from any region not yet resolved. {tutor}, your tutor, plays the other seat.", { tutor: n.tutor }) },
  { after: 0, focus: "track", regions: [0], text: (n) => t("The region cards give the order of the struggles. {region} is contested now (it glows on the map): when its struggle ends, the faction with the most followers there takes it.", { region: n.region(0) }) },
  { move: 0, focus: "action", card: 6, text: (n) => t("Your turn. Each of your eight cards can be played once. The {card} card puts up to 2 {faction} followers from the stock into regions that border a region the {faction} hold; their home, {home}, counts as held until its own struggle. The Scots and Welsh cards work the same way. After every card you call one follower to your court.", { card: n.card(6), faction: n.faction(2), home: n.region(6) }) },
  { after: 2, focus: "last-moves", card: 2, text: (n) => t("{tutor} played the Ambassador: one follower of one region changes places with one follower of any other region (here a Scots follower of {a} and a Romano-British one of {b}). Then {tutor} called a follower to court. The latest moves are listed here, all of them in the log.", { tutor: n.tutor, a: n.region(2), b: n.region(4) }) },
  { move: 2, focus: "action", card: 1, text: (n) => t("The Garrison exchanges 2 followers of one region for 1 follower of a region that borders it. Send a Scots and a Romano-British follower from {a} to {b} for a Romano-British one, then call the Welsh follower of {c} to your court: {c} is left with 2 Scots against 1 Romano-British.", { a: n.region(7), b: n.region(6), c: n.region(0) }) },
  { move: 4, focus: "action", text: (n) => t("{tutor} passed. A pass keeps your cards for later, and it counts for this turn only. A power struggle ends when every player has passed, one after the other. Pass now to end the struggle for {region}.", { tutor: n.tutor, region: n.region(0) }) },
  { after: 5, focus: "track", regions: [0], text: (n) => t("The struggle is over. The Scots have the most followers in {region} (2 against 1), so they take it, and its followers go back to the stock. A tie for the most, or an empty region, would have fallen to the Saxons. The next struggle begins with the player after the one who passed last: {tutor}.", { region: n.region(0), tutor: n.tutor }) },
  { after: 6, focus: "track", regions: [2, 6], card: 0, text: (n) => t("{tutor} played the Crown: the region cards of {a} and {b} changed places, so {b} is now fought before {a}. {tutor}'s Crown token lies on the card of {a}: no one can move that card again.", { tutor: n.tutor, a: n.region(2), b: n.region(6) }) },
  { move: 6, focus: "action", card: 3, text: (n) => t("You hold two Settlements cards. Each brings one follower of every faction from the stock into regions not yet resolved, each where you like. Put the Scots and the Welsh follower into {a} and the Romano-British one into {b}, then call a Romano-British follower of {c} to your court.", { a: n.region(1), b: n.region(5), c: n.region(2) }) },
  { move: 8, focus: "map", regions: [7], text: (n) => t("{region} is contested now: one Welsh and one Romano-British follower, a tie. {tutor} passed; pass too.", { region: n.region(7), tutor: n.tutor }) },
  { after: 9, focus: "track", regions: [7], text: (n) => t("A tie: no faction takes {region}, and a Saxon token lies on it. As soon as four Saxon tokens are on the board, the game ends at once: the Saxons invade.", { region: n.region(7) }) },
  { move: 10, focus: "map", regions: [6], text: (n) => t("{region} is next: 2 Scots, 1 Welsh and 2 Romano-British, tied again. Pass.", { region: n.region(6) }) },
  { move: 12, focus: "map", regions: [2], text: (n) => t("{region}: 2 Welsh against 2 Romano-British. If no one plays a card, a third Saxon token lies there. Pass.", { region: n.region(2) }) },
  { move: 14, focus: "map", regions: [5], text: (n) => t("{region}: 2 Scots, 2 Welsh and 1 Romano-British. A fourth tie brings the Saxon invasion. Pass.", { region: n.region(5) }) },
  { after: 15, focus: "result", text: (n) => t("The Saxons invaded. After an invasion the winner is the player with the most complete sets (one follower of each faction): you have 1 and {tutor} has 1, a tie. A tie goes to the tied player who played a card most recently: your {card} came after {tutor}'s {other}, so you win. Ties decide many games; the end screen shows every comparison that decided. Had all eight struggles been fought, the game would have ended in a coronation: the faction that holds the most regions rules, and the player with the most of its followers is crowned. You know the game now: start a real one from the lobby.", { tutor: n.tutor, card: n.card(3), other: n.card(0) }) },
];

// The second edition's script (web/tutorial.py, SECOND_MOVES): the same lesson, three instability discs end it.
const SECOND_STEPS = [
  { after: 0, focus: "map", text: (n) => t("The king is dead, and you are one of the nobles around the empty throne. You have no faction of your own: the {a} (blue), the {b} (red) and the {c} (yellow) fight over the eight regions of Britain, one power struggle for each. When all eight are fought, the faction that holds the most regions rules, and the player with the most of its followers at court is crowned.", { a: n.faction(0), b: n.faction(1), c: n.faction(2) }) },
  FIRST_STEPS[1],
  FIRST_STEPS[2],
  { move: 0, focus: "action", card: 6, text: (n) => t("Your turn. Each of your eight cards can be played once. The {card} card puts 2 {faction} followers from the stock together into one region that borders a region the {faction} hold; while their home, {home}, has no disc on it, the regions that border it count too. Put both into {region}. The other Support cards work the same way. After every card you call one follower to your court.", { card: n.card(6), faction: n.faction(2), home: n.region(6), region: n.region(5) }) },
  { after: 2, focus: "last-moves", card: 2, text: (n) => t("{tutor} played {card}: one follower of one region changes places with one follower of any other region (here a {a} follower of {x} and a {b} one of {y}). Then {tutor} called a follower to court. The latest moves are listed here, all of them in the log.", { tutor: n.tutor, card: n.card(2), a: n.faction(2), x: n.region(3), b: n.faction(0), y: n.region(5) }) },
  { move: 2, focus: "action", card: 1, text: (n) => t("{card} exchanges 2 followers of one region for 1 follower of a region that borders it. Send two {a} followers from {x} to {y} for a {b} one, then call a {a} follower of {y} to your court: {y} is left with 3 {a} against 1 {c}.", { card: n.card(1), a: n.faction(0), b: n.faction(1), c: n.faction(2), x: n.region(1), y: n.region(0) }) },
  FIRST_STEPS[6],
  { after: 5, focus: "track", regions: [0], text: (n) => t("The struggle is over. The {faction} have the most followers in {region}, so they take it, and its followers go back to the stock. A tie for the most, or an empty region, would have made it unstable: an instability disc would have left France for it. The next struggle begins with the player after the one who passed last: {tutor}.", { faction: n.faction(0), region: n.region(0), tutor: n.tutor }) },
  { after: 6, focus: "track", regions: [6, 7], card: 0, text: (n) => t("{tutor} played {card}: the region cards of {a} and {b} changed places, so {a} is now fought before {b}. {tutor}'s negotiation disc lies on the card of {b}: no one can move that card again.", { tutor: n.tutor, card: n.card(0), a: n.region(6), b: n.region(7) }) },
  { move: 6, focus: "action", card: 3, text: (n) => t("You hold two {card} cards. Each brings one follower of every faction from the stock into regions not yet resolved, each where you like. Put the {a} follower into {x} and the {b} and {c} ones into {y}, then call a {a} follower of {y} to your court.", { card: n.card(3), a: n.faction(0), b: n.faction(1), c: n.faction(2), x: n.region(2), y: n.region(7) }) },
  { move: 8, focus: "map", regions: [6], text: (n) => t("{region} is contested now: one follower of each faction, a tie. {tutor} passed; pass too.", { region: n.region(6), tutor: n.tutor }) },
  { after: 9, focus: "track", regions: [6], text: (n) => t("A tie: no faction takes {region}. It becomes unstable, and an instability disc leaves France for it. When the third disc has left France, the game ends at once: the French invade.", { region: n.region(6) }) },
  { move: 10, focus: "map", regions: [2], text: (n) => t("{region} is next: 2 {a}, 2 {b} and 1 {c}, tied again. Pass.", { region: n.region(2), a: n.faction(0), b: n.faction(1), c: n.faction(2) }) },
  { move: 12, focus: "map", regions: [7], text: (n) => t("{region}: 1 {a}, 2 {b} and 2 {c}. A third tie brings the French invasion. Pass.", { region: n.region(7), a: n.faction(0), b: n.faction(1), c: n.faction(2) }) },
  { after: 13, focus: "result", text: (n) => t("The French invaded. After an invasion the winner is the player with the most complete sets (one follower of each faction): neither you nor {tutor} has one, a tie. A tie goes to the tied player who played a card most recently: your {card} came after {tutor}'s {other}, so you win. Ties decide many games; the end screen shows every comparison that decided. Had all eight struggles been fought, the game would have ended in a coronation: the faction that holds the most regions rules, and the player with the most of its followers is crowned. You know the game now: start a real one from the lobby.", { tutor: n.tutor, card: n.card(3), other: n.card(0) }) },
];

// The second edition's advanced game (web/tutorial.py, ADVANCED_MOVES), for those who know the standard game: the
// learner plays Influence and Spy, the tutor Ambush. The tutor's hand is secret: a step names a card of it only
// once played (tests/web/test_tutorial.py checks).
const ADVANCED_STEPS = [
  { after: 0, focus: "action", text: (n) => t("This is the second edition's advanced game, for those who know the standard game. Each player puts the three Support cards back in the box and is dealt three of the twelve Cunning cards in secret: yours are {a}, {b} and {c}, after your other cards. Hands are secret now: you see your own, every card played and how many cards {tutor} holds, never which; the Cunning cards no one was dealt go back to the box unseen. Point at a card to read what it does.", { a: n.card(7), b: n.card(11), c: n.card(18), tutor: n.tutor }) },
  { move: 0, focus: "action", card: 11, regions: [0], text: (n) => t("{card}: one {e} follower of one region changes places with two followers of the other factions from any other region. Send a {s} and a {w} follower from {x} to {y} for an {e} one, then call an {e} follower of {z} to your court: {x}, fought first, is left with 1 {s} against 2 {e}.", { card: n.card(11), s: n.faction(0), w: n.faction(1), e: n.faction(2), x: n.region(0), y: n.region(2), z: n.region(3) }) },
  { after: 2, focus: "last-moves", card: 2, text: (n) => t("{tutor} played {card}: a {w} follower of {x} and an {e} one of {y} changed places; then {tutor} called a follower to court. Every card played is seen by all: the latest moves are listed here, all of them in the log.", { tutor: n.tutor, card: n.card(2), w: n.faction(1), e: n.faction(2), x: n.region(2), y: n.region(6) }) },
  { move: 2, focus: "action", card: 7, regions: [0, 5], text: (n) => t("{card} carries out the card on top of another player's pile as if you had played it. {copied} lies on top of {tutor}'s pile: choose {tutor}'s pile, then {copied}, and swap an {e} follower of {x} for a {w} one of {y}; then call an {e} follower of {y} to your court. {x} is left with one follower of each faction.", { card: n.card(7), copied: n.card(2), tutor: n.tutor, w: n.faction(1), e: n.faction(2), x: n.region(0), y: n.region(5) }) },
  { move: 4, focus: "action", regions: [0], text: (n) => t("{tutor} passed. Pass too: {region} is tied, so it becomes unstable and the first instability disc leaves France. The third disc brings the French invasion.", { tutor: n.tutor, region: n.region(0) }) },
  { after: 6, focus: "last-moves", card: 9, regions: [3], text: (n) => t("{region} became unstable. {tutor} began the struggle for {next} with {card}, a Cunning card you could not see until now: 2 {s} followers from the stock into {x}, then one follower of {x} back to the stock (a {s} one). What {tutor} still holds stays secret: the card backs beside the name only count the cards left.", { region: n.region(0), next: n.region(4), tutor: n.tutor, card: n.card(9), s: n.faction(0), x: n.region(3) }) },
  { move: 6, focus: "action", card: 3, regions: [4], text: (n) => t("{card} works as in the standard game. Put the {s} and the {w} follower into {x} and the {e} one into {y}, then call a {w} follower of {z} to your court: {z}, fought now, is left with 1 {w} against 1 {e}, a tie.", { card: n.card(3), s: n.faction(0), w: n.faction(1), e: n.faction(2), x: n.region(1), y: n.region(3), z: n.region(4) }) },
  { after: 8, focus: "track", regions: [6, 7], card: 0, text: (n) => t("{tutor} played {card}: {a} is now fought before {b}, and {tutor}'s disc lies on the card of {b}. Then {tutor} called an {e} follower of {a}, which is left with 1 {w} against 1 {e}.", { tutor: n.tutor, card: n.card(0), a: n.region(6), b: n.region(7), w: n.faction(1), e: n.faction(2) }) },
  { move: 8, focus: "map", regions: [4], text: (n) => t("{region}: 1 {w} against 1 {e}. Pass; when {tutor} passes too, the second disc leaves France.", { region: n.region(4), w: n.faction(1), e: n.faction(2), tutor: n.tutor }) },
  { move: 10, focus: "map", regions: [6], text: (n) => t("{region} is next: 1 {w} against 1 {e}, tied again. The third disc brings the French invasion. Pass.", { region: n.region(6), w: n.faction(1), e: n.faction(2) }) },
  { after: 12, focus: "result", card: 18, text: (n) => t("The French invaded: the winner is the player with the most complete sets (one follower of each faction). Neither court holds a {s} follower, so neither has a set, and the tie would go to {tutor}, who played a card last. But you held {card}: it is never played; at the end it is revealed and counts as one follower of the faction best for its holder, here a {s} one. It completes your set: 1 against 0, you win. At a coronation it counts for the ruling faction. You know the advanced game now: start one from the lobby.", { s: n.faction(0), tutor: n.tutor, card: n.card(18) }) },
];

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const saved = JSON.parse(localStorage.getItem(TUTORIAL_KEY));  // game.js checked it is this game's
const edition = saved.edition === "second" ? "second" : "first";
const mode = edition === "second" && saved.mode === "advanced" ? "advanced" : "standard";
const lesson = mode === "advanced" ? "advanced" : edition;  // web/tutorial.py's TUTORIALS
const STEPS = { first: FIRST_STEPS, second: SECOND_STEPS, advanced: ADVANCED_STEPS }[lesson];
let table = null;      // the latest {view, steps} the table showed
let script = null;     // GET /api/learn's moves
let names = null;      // the board's names in the page's language
let sent = -1;         // the move number of the tutor's latest reply sent
let refusal = "";      // why the latest click was refused

function save() { localStorage.setItem(TUTORIAL_KEY, JSON.stringify(saved)); }
function step() { return saved.step < STEPS.length ? STEPS[saved.step] : null; }
function moved() { return table ? table.view.move_number : 0; }
function needed(s) { return s.move !== undefined ? s.move : s.after; }  // moves before the step can show
function same(a, b) { return a.kind === b.kind && Number(a.value) === Number(b.value); }

// The choice a click on the table would make, or null for a click on anything else.
function clickedChoice(target) {
  const node = target.closest("[data-testid=hand-card], [data-testid=choice], [data-testid=pass], [data-testid=confirm], [data-testid=hint], .region.selectable, .region-card.selectable");
  if (!node) return null;
  const id = node.dataset.testid;
  if (id === "hand-card") return { kind: "card", value: Number(node.dataset.card) };
  if (id === "choice") return { kind: node.dataset.kind, value: Number(node.dataset.value) };
  if (id === "pass") return { kind: "pass", value: -1 };
  if (id === "confirm") return { kind: "confirm", value: -1 };
  if (id === "hint") return { kind: "hint", value: -1 };
  return { kind: "region", value: Number(node.getAttribute("data-region")) };
}

// What the step wants clicked next: a choice, "confirm", "back" (a choice off the script was made), or null.
function wanted() {
  const s = step();
  if (!s || s.move === undefined || moved() !== s.move || !table) return null;
  const expected = script[s.move].steps;
  const done = table.steps;
  if (done.length > expected.length || done.some((c, k) => !same(c, expected[k]))) return { kind: "back", value: -1 };
  return done.length === expected.length ? { kind: "confirm", value: -1 } : expected[done.length];
}

function label(choice) {
  if (choice.kind === "card") return names.card(choice.value);
  if (choice.kind === "region") return names.region(choice.value);
  if (choice.kind === "faction") return names.faction(choice.value);
  if (choice.kind === "pass") return t("Pass");
  if (choice.kind === "confirm") return t("Confirm");
  if (choice.kind === "player") return t("{player}'s pile", { player: names.tutor });  // the only other pile
  if (choice.kind === "copy") return names.card(choice.value);
  if (choice.kind === "end") return t("nothing more");
  return t("none (stock empty)");
}

function reason(want, s = step()) {
  if (!s || s.move === undefined) return t("Not yet: read this step, then press Next.");
  if (!want) return t("Not yet: wait for {tutor} to play.", { tutor: names.tutor });
  if (want.kind === "back") return t("That choice is not the one this step asks for: press Back.");
  if (want.kind === "card") return t("Not that: this step asks you to play the {card} card.", { card: label(want) });
  if (want.kind === "pass") return t("Not that: this step asks you to pass.");
  if (want.kind === "confirm") return t("Not that: your move is complete; confirm it.");
  return t("Not that: this step asks you to choose {choice} now.", { choice: label(want) });
}

function guard(event) {
  if (!saved || !names) return;
  const choice = clickedChoice(event.target);
  if (!choice) return;
  const want = wanted();
  if (want && same(choice, want)) { refusal = ""; return; }
  event.preventDefault();
  event.stopImmediatePropagation();
  refusal = reason(want);
  render();
}

// The tutor's scripted replies: each as soon as the step in view needs it and the tutor is to move.
function reply() {
  const s = step();
  const n = moved();
  if (!s || !table || n >= needed(s) || n >= script.length || script[n].seat === 0) return;
  if (table.view.table.to_move !== script[n].seat || sent === n) return;
  sent = n;
  setTimeout(async () => {
    try {
      await api("POST", `/api/games/${gameId}/moves`, { move: script[n].move, move_number: n }, saved.tutor);
    } catch (err) {  // 409: already played (from another tab of this tutorial), which is as good
      if (err.status !== 409) { sent = -1; refusal = err.message; render(); }
    }
  }, TUTOR_DELAY_MS);
}

function advance() {
  let s = step();
  while (s && s.move !== undefined && moved() > s.move) {  // the move it asked for was made
    saved.step += 1;
    refusal = "";
    s = step();
  }
  save();
}

// The box's content for step `s`: its text once `ready`, the clicks of its move with the first `done` of them
// made, the refusal `refused` if any. Pure: render() shows it, reserveHeight() measures it.
function stepParts(s, ready, done, refused) {
  const parts = [el("h2", {}, t("Learn to play")), el("div", { class: "muted", "data-testid": "tutorial-count" },
    t("Step {n} of {total}", { n: STEPS.indexOf(s) + 1, total: STEPS.length }))];
  if (ready && s.card !== undefined) {
    parts.push(cardFace(s.card, names.facts, names.cards, { size: "small", attrs: { "data-testid": "tutorial-card", "data-card": s.card } }));
  }
  parts.push(el("p", { "data-testid": "tutorial-step" }, ready ? s.text(names)
    : table === null ? t("The table is being set…") : t("{tutor} is playing…", { tutor: names.tutor })));
  if (ready && s.move !== undefined) {
    const clicks = [...script[s.move].steps, { kind: "confirm", value: -1 }];
    parts.push(el("p", { class: "tutorial-clicks", "data-testid": "tutorial-clicks", "data-done": Math.max(done, 0) },
      t("Your move:") + " ",
      ...clicks.flatMap((c, k) => [k ? " → " : "", el("span", { class: k < done ? "done" : k === done ? "next" : "" }, label(c))])));
  }
  if (refused) parts.push(el("p", { class: "tutorial-refusal", role: "alert", "data-testid": "tutorial-refusal" }, refused));
  if (s.move === undefined) {
    parts.push(el("div", { class: "buttons" }, el("button", { class: "btn", "data-testid": "tutorial-next", disabled: ready ? null : "" },
      STEPS.indexOf(s) === STEPS.length - 1 ? t("Finish") : t("Next"))));
  }
  return parts;
}

// The box keeps the height of its tallest step (a refusal included), so the table below it never moves: a
// step's text or a refused click changing the box's height would move the board under the next click. The
// closing step, after the game's end, may be taller.
// Wider than a phone, the step stands at the head of the column beside the board, which keeps the window's
// whole height (above the table it took a fifth of it); on a phone it stays on top, under the top bar.
const WIDE = window.matchMedia("(min-width: 761px)");
function place(box) {
  if (WIDE.matches) document.querySelector(".table-layout > .side").prepend(box);
  else document.querySelector("header.topbar").after(box);
}

let reservedWidth = 0;  // the box's width its height was reserved at
function reserveHeight(box) {
  reservedWidth = box.offsetWidth;
  const probe = el("section", { class: "tutorial panel", "aria-hidden": "true",
                                style: `position:absolute; visibility:hidden; left:0; top:0; width:${box.offsetWidth}px` });
  box.after(probe);
  const refusals = STEPS.flatMap((s) => [reason(null, s), reason({ kind: "back" }, s), reason({ kind: "confirm" }, s),
    ...(s.move === undefined ? [] : script[s.move].steps.map((c) => reason(c, s)))]);
  const longest = refusals.reduce((a, b) => (b.length > a.length ? b : a), "");
  let tallest = 0;
  for (const s of STEPS.filter((step) => step.focus !== "result")) {  // the game's end: no click left to miss
    probe.replaceChildren(...stepParts(s, true, -1, longest));
    tallest = Math.max(tallest, probe.offsetHeight);
  }
  probe.remove();
  const cap = parseFloat(getComputedStyle(box).maxHeight);  // past its cap the box scrolls within itself
  box.style.minHeight = `${Number.isNaN(cap) ? tallest : Math.min(tallest, cap)}px`;
  // the box stays at the top of the window: what scrolls into view (a focused control) lands below it
  document.documentElement.style.scrollPaddingTop = `${box.offsetHeight + 8}px`;
}

function render() {
  const box = document.getElementById("tutorial");
  document.querySelectorAll(".tutorial-focus").forEach((node) => node.classList.remove("tutorial-focus"));
  const s = step();
  if (!s) {
    box.dataset.wait = "done";
    box.replaceChildren(el("h2", {}, t("Learn to play")), el("p", { "data-testid": "tutorial-step" }, mode === "advanced"
      ? t("Well done: you have played your first advanced game.") : t("Well done: you have played your first game of The King Is Dead.")),
      el("div", { class: "buttons", "data-testid": "tutorial-done" },
        el("a", { class: "btn", href: "/" }, t("Play a real game")),
        el("a", { class: "btn secondary", href: `/learn?${new URLSearchParams({ edition, mode, again: 1 })}` }, t("Start the tutorial again"))));
    return;
  }
  // A step that asks for a move waits for the table to show the game (the learner may press Next before it does).
  const ready = moved() >= needed(s) && (table !== null || s.move === undefined);
  box.dataset.step = String(saved.step);
  box.dataset.wait = !ready ? "tutor" : s.move !== undefined ? "move" : "next";
  const focus = document.getElementById(s.focus);
  if (ready && focus) focus.classList.add("tutorial-focus");
  if (ready) for (const r of s.regions || []) {
    document.querySelectorAll(`#map path.region[data-region="${r}"], #track .region-card[data-region="${r}"]`)
      .forEach((node) => node.classList.add("tutorial-focus"));
  }
  // the click reached is the one after those made: by place, not by label (a region may be asked for twice)
  const want = ready && s.move !== undefined ? wanted() : null;
  const done = want && want.kind !== "back" ? table.steps.length : -1;
  box.replaceChildren(...stepParts(s, ready, done, refusal));
  const next = box.querySelector("[data-testid=tutorial-next]");
  // advance: a step whose move was made already (the game went on in another tab) is passed over
  if (next) next.addEventListener("click", () => { saved.step += 1; refusal = ""; advance(); render(); reply(); });
  // a phone shows a few lines of the step at a time: the refusal is what the learner must read now
  if (refusal) box.querySelector("[data-testid=tutorial-refusal]").scrollIntoView({ block: "nearest" });
}

async function start() {
  const box = el("section", { class: "tutorial panel", id: "tutorial", "data-testid": "tutorial", "aria-live": "polite",
                              "aria-label": t("Learn to play") });
  place(box);
  const [learn, facts] = await Promise.all([api("GET", `/api/learn?lesson=${lesson}`),
                                            api("GET", `/api/meta?edition=${edition}`),
                                            // the Cunning cards' faces draw with cunning.js's primitives
                                            mode === "advanced" ? import("/static/cunning.js") : null]);
  script = learn.moves;
  const cards = (await loadEdition(facts.edition)).cards;
  const kinds = facts.card_keys.length;  // the Cunning cards come after the edition's other cards
  names = { facts, cards, tutor: learn.tutor_name, region: (r) => facts.regions[r].name, faction: (k) => facts.factions[k],
            card: (c) => (c < kinds ? facts.cards[c] : facts.cunning_cards[c - kinds]) };
  WIDE.addEventListener("change", () => place(box));
  // measured again whenever its width changes: the window's, or the column's once the board takes its own
  new ResizeObserver(() => { if (box.offsetWidth !== reservedWidth) reserveHeight(box); }).observe(box);
  document.addEventListener("click", guard, true);
  document.addEventListener("keydown", (event) => {  // the map's regions answer Enter and Space as well
    if ((event.key === "Enter" || event.key === " ") && event.target.closest && event.target.closest(".region.selectable, .region-card.selectable")) guard(event);
  }, true);
  if (table) update();
  else render();
}

function update() {
  if (!names) return;
  advance();
  render();
  reply();
}

// game.js loads this module over a tutorial game's table only
document.addEventListener("kid:table", (event) => { table = event.detail; update(); });
start();
