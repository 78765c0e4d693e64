// The action cards' faces: a pictogram of each card's action, drawn as SVG from its edition's data.
//
// editions/<name>/cards.json gives, per card key (facts.card_keys), the frame colour and the
// pictogram as a list of primitives, and under "cunning" the same for the advanced game's Cunning
// cards (keyed by their names, facts.cunning_cards); this module only interprets primitives, so that an edition
// adds its cards without touching the drawing code. Pictograms are drawn in a box of `art`
// units ([width, height], 100 x 100 for the first edition). The primitives and their parameters:
//   region     {x, y, w, h, seed?, held?}   a blob of land in the box x,y,w,h; `seed` varies its
//                                           outline; `held` (a faction) tints it and plants its flag
//   sea        {x, y, w, h}                 waves: the regions either side do not border
//   piece      {x, y, faction, size?}       a follower: faction 0-3 (board's cube, with its mark),
//                                           or "any" (a plain piece with a question mark)
//   arrow      {from: [x, y], to: [x, y], style, bend?}   style "straight", "curved" (bend: the
//                                           curve's depth as a share of its length, its sign the
//                                           side) or "swap" (two curved arrows, one each way)
//   regionCard {x, y, w, h, rotate?, position?}   a region card; `position` pips on its top
//   crown      {x, y, size?}                the Crown token, centred on x,y
//   disc       {x, y, r?}                   a player's disc (the second edition's negotiation disc)
//   stock      {x, y, factions?, scale?}    the stock: a tray of pieces of those factions
//   count      {x, y, n}                    a number badge centred on x,y
// and, added by cunning.js (addPrimitives: a second-edition table loads it before it draws a card):
//   card       {x, y, w, h, side, rotate?, pile?}   an action card in the box x,y,w,h: side "front" (a
//                                           card played, face up), "back" (a card held in secret) or
//                                           "copy" (a dashed outline: the card carried out again);
//                                           `pile` (0-5) cards drawn under it (a player's pile)
//   eye        {x, y, size?}                an open eye centred on x,y (a look at another's cards)
// An unknown primitive or a bad parameter throws an Error naming it: a mistake in the data shows at once.
import { cube, FACTION_COLOURS } from "/static/board.js";
import { el } from "/static/common.js";

const SVG_NS = "http://www.w3.org/2000/svg";
export const INK = "#5b4a2e";
const ARROW = "#9c2b22";
export const LAND = "#eadcb4";

// A faction's colour mixed 70% with white: the ground of a region it holds.
function tint(hex) {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${rgb.map((c) => Math.round(c + (255 - c) * 0.7)).join(",")})`;
}

export function svgEl(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function need(primitive, ...names) {
  for (const name of names) {
    if (typeof primitive[name] !== "number" || !Number.isFinite(primitive[name])) {
      throw new Error(`card face: primitive "${primitive.type}" needs a number "${name}", got ${JSON.stringify(primitive[name])}`);
    }
  }
}

function point(primitive, name) {
  const p = primitive[name];
  if (!Array.isArray(p) || p.length !== 2 || !p.every(Number.isFinite)) {
    throw new Error(`card face: primitive "${primitive.type}" needs "${name}" as [x, y], got ${JSON.stringify(p)}`);
  }
  return p;
}

function faction(primitive, value, allowAny = true) {
  if (allowAny && value === "any") return value;
  if (!Number.isInteger(value) || value < 0 || value >= FACTION_COLOURS.length) {
    throw new Error(`card face: primitive "${primitive.type}" has no faction ${JSON.stringify(value)} (0-${FACTION_COLOURS.length - 1}${allowAny ? " or \"any\"" : ""})`);
  }
  return value;
}

// A closed smooth outline through points around an ellipse, each pushed in or out by the seed:
// land, not a geometric shape.
export function blobPath(x, y, w, h, seed) {
  const n = 9, points = [];
  for (let i = 0; i < n; i++) {
    const angle = (i / n) * 2 * Math.PI;
    const wobble = 0.86 + 0.14 * Math.sin(seed * 12.9898 + i * 78.233) * Math.sin(seed * 3.1 + i * 1.7);
    points.push([x + w / 2 + Math.cos(angle) * w / 2 * wobble, y + h / 2 + Math.sin(angle) * h / 2 * wobble]);
  }
  // Catmull-Rom through the points, as cubic Béziers
  let d = `M${points[0][0].toFixed(1)},${points[0][1].toFixed(1)}`;
  for (let i = 0; i < n; i++) {
    const [p0, p1, p2, p3] = [points[(i + n - 1) % n], points[i], points[(i + 1) % n], points[(i + 2) % n]];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${c1.map((v) => v.toFixed(1))} ${c2.map((v) => v.toFixed(1))} ${p2.map((v) => v.toFixed(1))}`;
  }
  return d + "Z";
}

function region(g, p) {
  need(p, "x", "y", "w", "h");
  const held = p.held === undefined ? null : faction(p, p.held, false);
  svgEl("path", { d: blobPath(p.x, p.y, p.w, p.h, p.seed || 0), fill: held === null ? LAND : tint(FACTION_COLOURS[held]),
                  stroke: INK, "stroke-width": 1.4, class: "art-region" }, g);
  if (held !== null) {  // its flag: the faction holds this land
    const fx = p.x + p.w * 0.2, fy = p.y + p.h * 0.18;
    svgEl("path", { d: `M${fx},${fy + 14} L${fx},${fy - 4}`, stroke: INK, "stroke-width": 1.4, "stroke-linecap": "round" }, g);
    svgEl("path", { d: `M${fx},${fy - 4} L${fx + 12},${fy - 1} L${fx},${fy + 3} Z`, fill: FACTION_COLOURS[held],
                    stroke: INK, "stroke-width": 0.8, class: "art-flag", "data-faction": held }, g);
  }
}

function sea(g, p) {
  need(p, "x", "y", "w", "h");
  for (let row = 0; row < 3; row++) {
    const y = p.y + p.h * (row + 0.7) / 3.4, x = p.x + (row % 2 ? p.w * 0.18 : p.w * 0.08), step = p.w * 0.2;
    svgEl("path", { d: `M${x},${y} q${step / 2},-3 ${step},0 t${step},0 t${step},0`, fill: "none",
                    stroke: "#5f8fa6", "stroke-width": 1.3, "stroke-linecap": "round", class: "art-sea" }, g);
  }
}

function piece(g, p) {
  need(p, "x", "y");
  const kind = faction(p, p.faction), size = p.size || 10;
  if (kind !== "any") {
    const c = cube(g, p.x, p.y, kind, size);
    c.classList.add("art-piece");
    c.setAttribute("data-faction", kind);
    return;
  }
  const c = svgEl("g", { class: "art-piece any", "data-faction": "any", transform: `translate(${p.x},${p.y})` }, g);
  svgEl("rect", { width: size, height: size, rx: 1.5, fill: "#f7f2e4", stroke: INK, "stroke-width": 1 }, c);
  svgEl("text", { x: size / 2, y: size * 0.8, "text-anchor": "middle", "font-size": size * 0.82, "font-weight": 700,
                  fill: INK, "font-family": "Georgia, serif" }, c).textContent = "?";
}

// One arrow along a quadratic curve (bend 0: straight), its head a drawn triangle (no marker:
// markers are looked up by id across the page, and a page shows many cards).
export function arrowAlong(g, [x1, y1], [x2, y2], bend) {
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const cx = (x1 + x2) / 2 - (y2 - y1) * bend, cy = (y1 + y2) / 2 + (x2 - x1) * bend;
  const dx = x2 - cx, dy = y2 - cy, d = Math.hypot(dx, dy) || 1, ux = dx / d, uy = dy / d;
  const head = Math.min(10, length / 3);
  const [ex, ey] = [x2 - ux * head * 0.8, y2 - uy * head * 0.8];  // the line ends inside the head
  svgEl("path", { d: `M${x1},${y1} Q${cx},${cy} ${ex},${ey}`, fill: "none", stroke: ARROW, "stroke-width": 3.4,
                  "stroke-linecap": "round", class: "art-arrow" }, g);
  svgEl("path", { d: `M${x2},${y2} L${x2 - ux * head - uy * head * 0.55},${y2 - uy * head + ux * head * 0.55} ` +
                     `L${x2 - ux * head + uy * head * 0.55},${y2 - uy * head - ux * head * 0.55} Z`, fill: ARROW }, g);
}

function arrow(g, p) {
  const from = point(p, "from"), to = point(p, "to");
  const bend = p.bend === undefined ? 0.25 : p.bend;
  if (p.style === "straight") arrowAlong(g, from, to, 0);
  else if (p.style === "curved") arrowAlong(g, from, to, bend);
  else if (p.style === "swap") {
    arrowAlong(g, from, to, bend);  // a curve one way, and the same curve on the other side back
    arrowAlong(g, to, from, bend);
  } else {
    throw new Error(`card face: arrow style ${JSON.stringify(p.style)} is not "straight", "curved" or "swap"`);
  }
}

function regionCard(g, p) {
  need(p, "x", "y", "w", "h");
  const card = svgEl("g", { class: "art-region-card",
                            transform: `translate(${p.x + p.w / 2},${p.y + p.h / 2}) rotate(${p.rotate || 0})` }, g);
  svgEl("rect", { x: -p.w / 2 + 1, y: -p.h / 2 + 1.5, width: p.w, height: p.h, rx: 3, fill: "#00000030" }, card);
  svgEl("rect", { x: -p.w / 2, y: -p.h / 2, width: p.w, height: p.h, rx: 3, fill: "#fbf3dc", stroke: INK, "stroke-width": 1.3 }, card);
  svgEl("rect", { x: -p.w / 2 + 3, y: -p.h / 2 + 3, width: p.w - 6, height: p.h - 6, rx: 2, fill: "none",
                  stroke: "#b89a5a", "stroke-width": 0.8 }, card);
  svgEl("path", { d: blobPath(-p.w * 0.3, -p.h * 0.12, p.w * 0.6, p.h * 0.45, p.position || 1), fill: LAND,
                  stroke: INK, "stroke-width": 1 }, card);
  for (let i = 0; i < (p.position || 0); i++) {
    const n = p.position;
    svgEl("circle", { cx: (i - (n - 1) / 2) * 4.5, cy: -p.h / 2 + 7.5, r: 1.6, fill: INK }, card);
  }
}

function crown(g, p) {
  need(p, "x", "y");
  const s = (p.size || 16) / 16;
  const c = svgEl("g", { class: "art-crown", transform: `translate(${p.x},${p.y}) scale(${s})` }, g);
  svgEl("path", { d: "M-8,5 L-9,-5 L-4,0 L0,-8 L4,0 L9,-5 L8,5 Z", fill: "#f2c230", stroke: "#6e4f0c",
                  "stroke-width": 1.2, "stroke-linejoin": "round" }, c);
  svgEl("rect", { x: -8.5, y: 5, width: 17, height: 3.5, rx: 1, fill: "#e0ab1d", stroke: "#6e4f0c", "stroke-width": 1.1 }, c);
  for (const [x, y] of [[-9, -5], [0, -8], [9, -5]]) svgEl("circle", { cx: x, cy: y, r: 1.6, fill: "#c8362f" }, c);
}

function disc(g, p) {
  need(p, "x", "y");
  const r = p.r || 8;
  svgEl("circle", { cx: p.x + 0.8, cy: p.y + 1.2, r, fill: "#00000033" }, g);
  svgEl("circle", { cx: p.x, cy: p.y, r, fill: "#4a3b22", stroke: "#f3e7c4", "stroke-width": 1.4, class: "art-disc" }, g);
  svgEl("circle", { cx: p.x, cy: p.y, r: r * 0.45, fill: "none", stroke: "#f3e7c4", "stroke-width": 1 }, g);
}

// The stock: a wooden tray with a pile of pieces (rows of 3, 2 and 1), the factions taken in turn.
function stock(g, p) {
  need(p, "x", "y");
  const s = p.scale || 1, kinds = (p.factions || [0, 1, 2]).map((k) => faction(p, k, false));
  const tray = svgEl("g", { class: "art-stock", transform: `translate(${p.x},${p.y}) scale(${s})` }, g);
  let n = 0;
  for (const [row, count] of [[2, 3], [1, 2], [0, 1]]) {
    for (let i = 0; i < count; i++) {
      cube(tray, 1 + (3 - count) * 4.75 + i * 9.5, row * 8.5, kinds[n++ % kinds.length], 9);
    }
  }
  svgEl("path", { d: "M-1,24 L31,24 L27,32 L3,32 Z", fill: "#9a7444", stroke: INK, "stroke-width": 1.2,
                  "stroke-linejoin": "round" }, tray);
}

function count(g, p) {
  need(p, "x", "y", "n");
  const c = svgEl("g", { class: "art-count", transform: `translate(${p.x},${p.y})` }, g);
  svgEl("circle", { r: 8, fill: "#23303f", stroke: "#fbf3dc", "stroke-width": 1.4 }, c);
  svgEl("text", { y: 4.4, "text-anchor": "middle", "font-size": 12.5, "font-weight": 700, fill: "#fbf3dc",
                  "font-family": "system-ui, sans-serif" }, c).textContent = String(p.n);
}

const PRIMITIVES = { region, sea, piece, arrow, regionCard, crown, disc, stock, count };

// More primitives, by name: cunning.js's (card, eye), which only the Cunning cards draw, so that a first-edition
// table's first load does not carry them.
export function addPrimitives(more) { Object.assign(PRIMITIVES, more); }

// Draw `primitives` (a card's pictogram, from cards.json) into the SVG group `g`; throws on an unknown one.
export function drawPictogram(g, primitives) {
  if (!Array.isArray(primitives)) throw new Error("card face: a pictogram is a list of primitives");
  for (const p of primitives) {
    const draw = p && Object.hasOwn(PRIMITIVES, p.type) ? PRIMITIVES[p.type] : null;
    if (!draw) {
      throw new Error(`card face: unknown primitive ${JSON.stringify(p && p.type)} (known: ${Object.keys(PRIMITIVES).join(", ")})`);
    }
    draw(g, p);
  }
}

// The face data of `key` in an edition's cards.json ({edition, art, cards: [{key, frame, pictogram}], cunning: [the
// same for the Cunning cards]}); `list` "cards" or "cunning".
export function faceOf(cards, key, list = "cards") {
  const face = cards && cards[list] && cards[list].find((f) => f.key === key);
  if (!face) throw new Error(`card face: the ${cards && cards.edition} edition's cards.json has no ${list === "cunning" ? "Cunning card" : "card"} "${key}"`);
  return face;
}

// The <svg> of one card's pictogram (decorative: the card's name says the same in words). Drawn once per
// face and then copied: the hand is redrawn on every click while a move is built.
const drawn = new WeakMap();  // face -> its pictogram's <svg>
export function pictogram(face, art = [100, 100]) {
  if (!drawn.has(face)) {
    const svg = svgEl("svg", { viewBox: `0 0 ${art[0]} ${art[1]}`, class: "card-art", "aria-hidden": "true",
                               focusable: "false" });
    drawPictogram(svgEl("g", {}, svg), face.pictogram);
    drawn.set(face, svg);
  }
  return drawn.get(face).cloneNode(true);
}

// ---------- the rule's tooltip ----------
// One tooltip for the page, placed over the card it speaks of: a card inside a scrolling hand would
// clip a tooltip of its own.
let tip = null;
let tipOwner = null;
let tipWatch = null;
const LONG_PRESS_MS = 500;

function tipBox() {
  if (!tip) {
    tip = el("div", { class: "card-tip hidden", id: "card-tip", role: "tooltip", "data-testid": "card-tip" });
    document.body.append(tip);
  }
  return tip;
}

function showTip(owner, name, rule) {
  const box = tipBox();
  box.replaceChildren(el("b", {}, name), el("span", {}, rule));
  box.classList.remove("hidden");
  tipOwner = owner;
  owner.setAttribute("aria-describedby", "card-tip");
  placeTip();
  clearInterval(tipWatch);  // a redraw of the table may remove the card under the tooltip
  tipWatch = setInterval(() => { if (!tipOwner || !tipOwner.isConnected) hideTip(); }, 300);
}

// Over the card (under it when there is no room above), inside the window.
function placeTip() {
  const box = tipBox();
  const card = tipOwner.getBoundingClientRect(), own = box.getBoundingClientRect();
  const left = Math.max(4, Math.min(window.innerWidth - own.width - 4, card.left + card.width / 2 - own.width / 2));
  const top = card.top - own.height - 8 >= 4 ? card.top - own.height - 8 : card.bottom + 8;
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
}

// A line added under the rule in the tooltip `owner` shows (none if it shows another's): what the card would do here.
export function addToTip(owner, text) {
  if (!tip || tipOwner !== owner) return;
  tip.append(el("span", { class: "tip-effect", "data-testid": "tip-effect" }, text));
  placeTip();
}

function hideTip(owner = null) {
  if (owner && owner !== tipOwner) return;
  if (tipOwner) tipOwner.removeAttribute("aria-describedby");
  tipOwner = null;
  clearInterval(tipWatch);
  if (tip) tip.classList.add("hidden");
}

document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideTip(); });
document.addEventListener("scroll", () => hideTip(), true);

// The rule on hover and on keyboard focus, and on a long press on a touch screen: a press of
// LONG_PRESS_MS shows it and the click that ends the press plays nothing; a tap plays (`onPlay`).
function withRule(node, name, rule, onPlay) {
  let timer = null, pressed = false;
  node.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") showTip(node, name, rule); });
  node.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") hideTip(node); });
  node.addEventListener("focus", () => { if (node.matches(":focus-visible")) showTip(node, name, rule); });
  node.addEventListener("blur", () => hideTip(node));
  node.addEventListener("pointerdown", (e) => {
    if (tipOwner && tipOwner !== node) hideTip();
    pressed = false;
    clearTimeout(timer);
    if (e.pointerType === "mouse") return;
    timer = setTimeout(() => {
      timer = null; pressed = true; showTip(node, name, rule);
      node.dispatchEvent(new CustomEvent("kid:long-press"));  // the table adds what the card would do here (explain.js)
    }, LONG_PRESS_MS);
  });
  for (const end of ["pointerup", "pointercancel"]) node.addEventListener(end, () => { clearTimeout(timer); timer = null; });
  // a phone's own long-press menu would cover the rule
  node.addEventListener("contextmenu", (e) => { if (pressed || timer !== null) e.preventDefault(); });
  node.addEventListener("click", (e) => {
    if (pressed) {  // the end of a long press: the rule was read, nothing is played
      pressed = false;
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    if (onPlay) onPlay(e);
  });
}

// A card's face: its pictogram, its name (facts.cards) and the count badge, its rule (facts.card_rules) shown on hover,
// focus and long press. `card`: the card's index in facts.card_keys, or past them a Cunning card's (7 to 18:
// facts.cunning_cards, facts.cunning_rules, cards.json's "cunning"); `cards`: the edition's cards.json.
// options: size "hand" (default), "small" (a player's top card, hints, the tutorial) or "icon" (the log);
// tag (default "div"; the hand uses "button"); count (a badge ×n when above 1); playable, unplayable,
// selected (the hand's states, as classes); onPlay (called on a click or a tap); attrs (more attributes).
// Throws when the edition has no face for the card or its pictogram has a bad primitive.
export function cardFace(card, facts, cards, options = {}) {
  // a Cunning card (7 to 18, the advanced game's) is keyed and named by its name, in every language
  const cunning = card >= facts.card_keys.length;
  const i = card - facts.card_keys.length;
  const key = cunning ? facts.cunning_cards[i] : facts.card_keys[card];
  if (key === undefined) throw new Error(`card face: no card ${card} in this edition`);
  const face = faceOf(cards, key, cunning ? "cunning" : "cards");
  const size = options.size || "hand";
  const classes = ["card", "card-face", `size-${size}`, cunning ? "k-cunning" : `k-${key}`];
  for (const state of ["playable", "unplayable", "selected"]) if (options[state]) classes.push(state);
  const name = cunning ? key : facts.cards[card], rule = cunning ? facts.cunning_rules[i] : facts.card_rules[card];
  const node = el(options.tag || "div", { ...(options.attrs || {}), class: classes.join(" "),
                                         ...(cunning ? { "data-cunning": key } : { "data-card-key": key }),
                                         style: `--frame:${face.frame}` },
    pictogram(face, cards.art),
    el("span", { class: "title" }, name),
    el("span", { class: "rule" }, rule),  // read by screen readers; shown by the tooltip
    options.count > 1 ? el("span", { class: "count", "data-testid": "card-count" }, `×${options.count}`) : "");
  withRule(node, name, rule, options.onPlay || null);
  return node;
}
