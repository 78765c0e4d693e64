// The board, drawn as a printed board game is: Britain's coastline cut into the game's eight regions, each in
// its own ink, on an old map's sea in a frame, with the struggle order, the stock and the invaders' track in the sea
// (the first edition's Saxon track, the second's France with its instability discs).
//
// Everything that belongs to an edition comes from its board.json (built by tools/build_map.py, loaded by
// edition.js): the size, each region's rings, colour and the places of its banner, pieces and tokens, the
// places of the track, stock, invaders' track and keys, the sea's labels, the factions' and invaders' colours and
// marks, the glyph of the seats' tokens. This file holds no region, no name and no position of its own, so another
// edition brings its map without touching it.
//
// drawBoard(svg, facts, board, table, ui) redraws the board. `facts` is views.board_facts() for the game's
// edition (its names in the page's language), `board` the edition's board.json, `table` a views.table_view(). The `ui` hooks, all optional:
//   ui.selectable  Set(region): regions the player may click now (class "selectable"), on the map and on the
//                  struggle-order track (the Crown's or Negotiate's swap asks for region cards).
//   ui.chosen      Map(region -> label): regions already chosen in the move being built.
//   ui.onRegion    function(region): called when a selectable region or region card is clicked (or Enter/Space).
//   ui.dim         bool: dim every region not in `selectable` (class "dimmed").
//   ui.marks       what the last move changed, drawn on top (views.move_changes):
//                  {touched: [region], arrived: {region: [n per faction]},
//                   left: {region: [n per faction]}, exchange: [from, to] | null,
//                   swap: [a, b] | null, court: {region, faction} | null}
//                  touched regions get class "touched"; +n / -n badges beside the pieces (never on a banner),
//                  an arrow for the exchange, a double arrow for the swap, a piece leaving for the court.
//                  The pieces that arrived drop in once per move (not on the redraws while a move is built).
//   ui.pieces      {region, kinds: Set(kind)} | null: the followers a step asks for, standing in `region`: their
//                  pieces get class "selectable" and are clicked there (ui.onPiece(kind)), or Enter/Space.
//   ui.lit         {regions: Set(region), followers: Map(region -> Set(kind))} | null: what a hand card
//                  can act on (explain.lightOf): those regions get class "lit" and an outline, those
//                  followers' pieces class "lit".
//   ui.loyalists   bool, default true: in a Mordred game, mark on each unresolved region
//                  where its resolution adds a Loyalist (facts.mordred_flags).
import { clauses, lang, t } from "/static/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// Filled in place from the edition's board by useBoard() (drawBoard calls it): the factions' colours
// (by follower kind: the three factions, then the Loyalists), the colour of a number or mark drawn on them, their
// marks; INVADERS is the side that takes a region a struggle leaves without a ruler (control 4).
export const FACTION_COLOURS = [];
export const FACTION_INKS = [];
export const FACTION_MARKS = [];
export const INVADERS = { colour: "#7d776c", ink: "#fffbe9", mark: "axes" };
// The seats' colours are the app's, not an edition's.
export const PLAYER_COLOURS = ["#7b4bb7", "#1f8a5b", "#d9731f", "#1a8fb0"];

let current = null;  // the board whose colours are in the arrays above

// Take the factions' colours and marks from `board` (an edition's board.json); cheap when already taken.
export function useBoard(board) {
  if (current === board) return;
  current = board;
  FACTION_COLOURS.splice(0, Infinity, ...board.factions.map((f) => f.colour));
  FACTION_INKS.splice(0, Infinity, ...board.factions.map((f) => f.ink));
  FACTION_MARKS.splice(0, Infinity, ...board.factions.map((f) => f.mark));
  Object.assign(INVADERS, board.invaders);
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

const paths = new WeakMap();  // rings -> SVG path data, built once per board
function pathOf(rings) {
  if (!paths.has(rings)) paths.set(rings, rings.map((ring) => "M" + ring.map(([x, y]) => `${x},${y}`).join("L") + "Z").join(""));
  return paths.get(rings);
}

// A faction's mark centred on (x, y), `r` its half-size: drawn as lines so that it reads without colour.
export function factionMark(parent, mark, x, y, r, colour, width = 1.6) {
  const line = { fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round",
                 class: `mark mark-${mark}` };
  const at = (d) => el("path", { ...line, d, transform: `translate(${x},${y})` }, parent);
  if (mark === "saltire") return at(`M${-r},${-r}L${r},${r}M${-r},${r}L${r},${-r}`);
  if (mark === "triangle") return at(`M0,${-r}L${r},${r * 0.8}L${-r},${r * 0.8}Z`);
  if (mark === "circle") return el("circle", { ...line, cx: x, cy: y, r: r * 0.85 }, parent);
  if (mark === "diamond") return at(`M0,${-r}L${r},0L0,${r}L${-r},0Z`);
  if (mark === "cross") return at(`M0,${-r}L0,${r}M${-r},0L${r},0`);
  if (mark === "bolt") return at(`M${r * 0.35},${-r}L${-r * 0.45},${r * 0.1}L${r * 0.4},${r * 0.1}L${-r * 0.35},${r}`);
  // axes: two crossed hafts, each with its blade
  const g = at(`M${-r},${r}L${r * 0.7},${-r * 0.7}M${r},${r}L${-r * 0.7},${-r * 0.7}`);
  el("path", { d: `M${r * 0.2},${-r}Q${r * 1.2},${-r * 1.1} ${r},${-r * 0.1}Z M${-r * 0.2},${-r}Q${-r * 1.2},${-r * 1.1} ${-r},${-r * 0.1}Z`,
               fill: colour, class: "mark-blade", transform: `translate(${x},${y})` }, parent);
  return g;
}

// A follower: a cube seen from the front and above, filling (x, y)-(x + size, y + size), its faction's mark on
// the front face. Returns the group; its front face's centre is (frontCentre(size), frontCentre(size) + depth).
export function cube(parent, x, y, kind, size = 10) {
  const d = Math.round(size * 0.28 * 10) / 10, f = size - d, colour = FACTION_COLOURS[kind];
  const g = el("g", { class: `cube kind-${kind}`, transform: `translate(${x},${y})` }, parent);
  // self-contained (presentation attributes, no stylesheet needed): the cube also stands in courts and card pictograms
  el("path", { d: `M0,${d}L${d},0L${size},0L${size},${f}L${f},${size}L0,${size}Z`, fill: colour }, g);
  el("path", { d: `M0,${d}L${d},0L${size},0L${f},${d}Z`, fill: "#fff", "fill-opacity": 0.35, class: "cube-top" }, g);
  el("path", { d: `M${f},${d}L${size},0L${size},${f}L${f},${size}Z`, fill: "#000", "fill-opacity": 0.3, class: "cube-side" }, g);
  factionMark(g, FACTION_MARKS[kind], f / 2, d + f / 2, f * 0.42, FACTION_INKS[kind], Math.max(1, size * 0.06)).setAttribute("opacity", 0.8);
  el("path", { d: `M0,${d}L${d},0L${size},0L${size},${f}L${f},${size}L0,${size}Z M${f},${d}L${size},0 M0,${d}L${f},${d}L${f},${size}`,
               fill: "none", stroke: "#000", "stroke-opacity": 0.5, "stroke-width": 0.8, "stroke-linejoin": "round", class: "cube-edge" }, g);
  return g;
}

// A round token lying on the board: a control token (faction or invaders) or a seat's token.
function token(parent, x, y, r, fill, ink, mark, cls) {
  const g = el("g", { class: cls, transform: `translate(${x},${y})` }, parent);
  el("circle", { cx: 1.2, cy: 1.8, r, class: "token-shadow" }, g);
  el("circle", { cx: 0, cy: 0, r, fill, class: "token-face" }, g);
  if (mark) factionMark(g, mark, 0, 0, r * 0.5, ink, Math.max(1.2, r * 0.16));
  return g;
}

function controlToken(parent, x, y, control, facts, r = 13) {
  const side = control === 4 ? INVADERS : current.factions[control];
  const g = token(parent, x, y, r, side.colour, side.ink, side.mark, "control-token");
  g.setAttribute("data-control", control);
  el("title", {}, g).textContent = t("Controlled by the {faction}", { faction: facts.controls[control] });
  return g;
}

// A seat's token on a region card (the first edition's Crown token, the second's negotiation disc), in the seat's
// colour; board.seat_token is its glyph: "crown" (a crown on it) or "disc" (a plain disc with a rim).
function seatToken(parent, x, y, player, facts, r = 9) {
  const g = token(parent, x, y, r, PLAYER_COLOURS[player], null, null, "seat-token");
  g.setAttribute("data-player", player);
  g.setAttribute("data-glyph", current.seat_token);
  const s = r / 9;
  if (current.seat_token === "crown") {
    el("path", { d: `M${-5 * s},${3 * s}L${-5 * s},${-3 * s}L${-2.5 * s},0L0,${-4.5 * s}L${2.5 * s},0L${5 * s},${-3 * s}L${5 * s},${3 * s}Z`,
                 class: "crown-glyph" }, g);
  } else {
    el("circle", { r: r * 0.6, class: "disc-rim" }, g);
  }
  el("title", {}, g).textContent = t("{token} of player {n}", { token: facts.seat_token, n: player + 1 });
  return g;
}

function shield(parent, x, y, faction, facts) {
  const side = current.factions[faction];
  const g = el("g", { class: "home-shield", "data-faction": faction, transform: `translate(${x},${y})` }, parent);
  el("path", { d: "M0,-9 L8,-6 L7,4 L0,10 L-7,4 L-8,-6 Z", fill: side.colour, class: "home-symbol", "data-faction": faction }, g);
  factionMark(g, side.mark, 0, 0, 3.6, side.ink, 1.3);
  el("title", {}, g).textContent = t("Home of the {faction}", { faction: facts.factions[faction] });
  return g;
}

function defs(svg) {
  const d = el("defs", {}, svg);
  const sea = el("radialGradient", { id: "board-sea", cx: "50%", cy: "45%", r: "75%" }, d);
  el("stop", { offset: "0", "stop-color": "#d9e0cf" }, sea);
  el("stop", { offset: "1", "stop-color": "#aebfae" }, sea);
  const gilt = el("linearGradient", { id: "board-gilt", x1: 0, y1: 0, x2: 1, y2: 1 }, d);
  for (const [offset, colour] of [[0, "#7a5a1e"], [0.25, "#d9b860"], [0.5, "#8c6a26"], [0.75, "#e0c270"], [1, "#6e501a"]]) {
    el("stop", { offset, "stop-color": colour }, gilt);
  }
  // parchment grain over the land, so it reads as printed ink on paper
  const grain = el("filter", { id: "board-grain", x: 0, y: 0, width: "100%", height: "100%" }, d);
  el("feTurbulence", { type: "fractalNoise", baseFrequency: 0.9, numOctaves: 2, seed: 7, result: "n" }, grain);
  el("feColorMatrix", { in: "n", type: "matrix",
                        values: "0 0 0 0 0.35  0 0 0 0 0.27  0 0 0 0 0.12  0 0 0 0.2 0", result: "t" }, grain);
  el("feComposite", { in: "t", in2: "SourceAlpha", operator: "in" }, grain);
  const glow = el("filter", { id: "board-glow", x: "-20%", y: "-20%", width: "140%", height: "140%" }, d);
  el("feGaussianBlur", { stdDeviation: 3.5, result: "b" }, glow);
  const merge = el("feMerge", {}, glow);
  el("feMergeNode", { in: "b" }, merge);
  el("feMergeNode", { in: "SourceGraphic" }, merge);
  for (const [id, colour] of [["arrow", "#9b2620"], ["arrow-court", "#3b2f1a"]]) {
    const m = el("marker", { id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
                             orient: "auto-start-reverse" }, d);
    el("path", { d: "M0,0 L10,5 L0,10 Z", fill: colour }, m);
  }
}

// What never changes during a game: frame, sea, engraved coast lines, compass, labels, the regions' shapes.
function drawStatic(svg, facts, board) {
  const [w, h] = board.size, f = board.frame;
  const g = el("g", { class: "board-static" }, svg);
  defs(g);
  el("rect", { x: 0, y: 0, width: w, height: h, rx: 6, fill: "url(#board-gilt)", class: "frame" }, g);
  el("rect", { x: f - 2, y: f - 2, width: w - 2 * f + 4, height: h - 2 * f + 4, class: "frame-inner" }, g);
  el("rect", { x: f, y: f, width: w - 2 * f, height: h - 2 * f, fill: "url(#board-sea)", class: "sea" }, g);
  el("rect", { x: f + 3, y: f + 3, width: w - 2 * f - 6, height: h - 2 * f - 6, class: "frame-rule" }, g);
  // the old engravers' coast: lines that follow the shore out to sea, under the land
  const land = board.regions.map(pathOf).join("");
  for (const [width, cls] of [[26, "coast-line"], [22, "coast-sea"], [16, "coast-line"], [13, "coast-sea"], [7, "coast-line"], [5, "coast-sea"]]) {
    el("path", { d: land, class: cls, "stroke-width": width }, g);
  }
  for (const label of board.sea_labels) {
    el("text", { transform: `translate(${label.x},${label.y}) rotate(${label.angle})`, class: "sea-label map-sea-label",
                 "text-anchor": "middle" }, g).textContent = (label.texts && label.texts[lang]) || label.text;
  }
  const [cx, cy] = board.compass;
  const rose = el("g", { class: "compass", transform: `translate(${cx},${cy})` }, g);
  el("circle", { r: 20, class: "compass-ring" }, rose);
  el("path", { d: "M0,-30 L5,-5 L0,0 Z M0,30 L-5,5 L0,0 Z M-22,0 L-5,-4 L0,0 Z M22,0 L5,4 L0,0 Z", class: "compass-dark" }, rose);
  el("path", { d: "M0,-30 L-5,-5 L0,0 Z M0,30 L5,5 L0,0 Z M-22,0 L-5,4 L0,0 Z M22,0 L5,-4 L0,0 Z", class: "compass-light" }, rose);
  el("text", { y: -33, "text-anchor": "middle", class: "compass-n" }, rose).textContent = "N";
  const regions = el("g", { class: "land" }, g);
  facts.regions.forEach((region, r) => {
    const shape = el("path", { d: pathOf(board.regions[r]), fill: board.places[r].colour, class: "region",
                               "data-region": r, "data-name": region.name }, regions);
    el("title", {}, shape).textContent = region.name;
  });
  el("path", { d: land, class: "land-grain", fill: "#000", filter: "url(#board-grain)", "pointer-events": "none" }, g);
  return g;
}

// One listener per board for its clicks and keys: the current draw's ui.onRegion / ui.onPiece answers.
function listen(svg) {
  const act = (event) => {
    const target = event.target.closest && event.target.closest(".selectable[data-region], .selectable[data-piece]");
    const ui = svg.boardUi;
    if (!target || !ui) return;
    if (event.type === "keydown") {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
    }
    if (target.dataset.piece !== undefined) { if (ui.onPiece) ui.onPiece(Number(target.dataset.piece)); }
    else if (ui.onRegion) ui.onRegion(Number(target.dataset.region));
  };
  svg.addEventListener("click", act);
  svg.addEventListener("keydown", act);
}

// Draw the board into `svg` for `table` (a view from the server); see the top of this file for `ui`.
export function drawBoard(svg, facts, board, table, ui = {}) {
  useBoard(board);
  const [w, h] = board.size;
  if (!svg.boardStatic || svg.boardStatic.board !== board || svg.boardStatic.node.parentNode !== svg) {
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.classList.add("board-map");
    svg.boardStatic = { board, node: drawStatic(svg, facts, board) };
    // the layers over the static board, bottom to top; each is redrawn only when what it shows changes (below)
    svg.boardLayers = Object.fromEntries(["overlay", "pieces", "track", "marks"].map((name) => [name, el("g", { class: `layer-${name}` }, svg)]));
    listen(svg);
  }
  const layers = svg.boardLayers;
  svg.boardUi = ui;
  const selectable = ui.selectable || new Set();
  const touched = new Set(ui.marks ? ui.marks.touched : []);
  const litRegions = ui.lit ? ui.lit.regions : new Set();
  const chosen = ui.chosen ? [...ui.chosen] : null;
  svg.boardStatic.node.querySelectorAll("path.region").forEach((shape) => {
    const r = Number(shape.dataset.region);
    const classes = ["region"];
    if (table.contested === r) classes.push("contested");
    if (selectable.has(r)) classes.push("selectable");
    else if (ui.dim) classes.push("dimmed");
    if (ui.chosen && ui.chosen.has(r)) classes.push("chosen");
    if (touched.has(r)) classes.push("touched");
    if (litRegions.has(r)) classes.push("lit");
    if (table.control[r] >= 0) classes.push("resolved");
    if (shape.getAttribute("class") === classes.join(" ")) return;
    shape.setAttribute("class", classes.join(" "));
    if (selectable.has(r)) {
      shape.setAttribute("tabindex", 0);
      shape.setAttribute("role", "button");
      shape.setAttribute("aria-label", facts.regions[r].name);
    } else {
      shape.removeAttribute("tabindex");
      shape.removeAttribute("role");
      shape.removeAttribute("aria-label");
    }
  });

  redrawChanged(layers.overlay, [table.contested, [...touched], [...litRegions]], (layer) => {
    const overlay = el("g", { class: "overlay", "pointer-events": "none" }, layer);
    if (table.contested !== null && table.contested !== undefined) {
      el("path", { d: pathOf(board.regions[table.contested]), class: "contested-outline", filter: "url(#board-glow)" }, overlay);
    }
    for (const r of touched) el("path", { d: pathOf(board.regions[r]), class: "touched-outline", "data-region": r }, overlay);
    for (const r of litRegions) el("path", { d: pathOf(board.regions[r]), class: "lit-outline", "data-region": r }, overlay);
  });

  // The pieces of a move drop in on its first drawing only: the views that follow bring the same marks again.
  const marksKey = ui.marks ? JSON.stringify(ui.marks) : null;
  const fresh = marksKey !== null && marksKey !== svg.boardMarks && !matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (marksKey !== null) svg.boardMarks = marksKey;
  redrawChanged(layers.track, [table.order, table.control, table.contested, table.crowns, [...selectable], ui.dim, chosen, [...touched]],
                (layer) => drawTrack(layer, facts, board, table, ui, selectable, touched));
  redrawChanged(layers.marks, marksKey, (layer) => { if (ui.marks) drawMarks(layer, facts, board, ui.marks); });
  // The pieces: one part per region, then the Loyalists' flags, the stock, the invaders' track and the key, each
  // redrawn only when what it shows changes (a click or a pointed card changes a region or two, not the board).
  const pieces = layers.pieces;
  if (!pieces.parts) {
    pieces.parts = new Map();
    pieces.tokens = el("g", { class: "tokens", "pointer-events": "none" }, pieces);
  }
  const part = (name, parent, what, draw) => {
    if (!pieces.parts.has(name)) pieces.parts.set(name, el("g", { class: "part" }, parent));
    redrawChanged(pieces.parts.get(name), what, draw);
  };
  const positionOf = new Map(table.order.map((region, i) => [region, i]));
  facts.regions.forEach((region, r) => {
    const place = board.places[r];
    const litKinds = ui.lit ? ui.lit.followers.get(r) : null;
    const arrived = fresh && ui.marks.arrived ? ui.marks.arrived[r] : null;
    const choosable = ui.pieces && ui.pieces.region === r ? ui.pieces.kinds : null;
    const label = ui.chosen && ui.chosen.has(r) ? ui.chosen.get(r) : null;
    part(`region-${r}`, pieces.tokens, [table.followers[r], table.control[r], table.crowns[r], positionOf.get(r), table.contested === r,
                                        litKinds ? [...litKinds] : null, arrived, choosable ? [...choosable] : null, label], (node) => {
      const g = el("g", { class: "region-info", "data-region": r }, node);
      if (table.control[r] >= 0) controlToken(g, ...place.control, table.control[r], facts);
      else drawFollowers(g, place.pieces, table.followers[r], facts, litKinds, arrived, choosable);
      ribbon(g, place.banner, region.name, positionOf.get(r) + 1, table.contested === r, table.control[r] >= 0);
      const home = facts.homes.indexOf(r);
      if (home >= 0) shield(g, ...place.home, home, facts);
      if (table.crowns[r] >= 0) seatToken(g, ...place.crown, table.crowns[r], facts, 8);
      if (label) {
        // where the last move's badges go (they are not shown while a move is built): beside the pieces, off every banner
        const [mx, my] = place.marks;
        const mark = el("g", { transform: `translate(${mx + 15},${my + 10})`, class: "chosen-mark" }, g);
        el("rect", { x: -9 - (label.length - 1) * 3, y: -9, width: 18 + (label.length - 1) * 6, height: 18, rx: 9 }, mark);
        el("text", { y: 4, "text-anchor": "middle" }, mark).textContent = label;
      }
    });
  });
  const flags = ui.loyalists !== false && table.variant === "mordred" && facts.mordred_flags;
  part("flags", pieces.tokens, flags ? table.control : null,
       (node) => { if (flags) drawLoyalistFlags(node, facts, board, table); });
  part("stock", pieces, [table.stock, table.variant], (node) => drawStock(node, facts, board, table));
  part("invaders", pieces, table.saxons, (node) => drawInvaderTrack(node, facts, board, table));
  part("key", pieces, table.variant, (node) => drawKey(node, facts, board, table));
}

// Draw into `node` (emptied first) only when `what` differs from what it shows: an unchanged part of the board is
// not touched, so its area is not repainted.
function redrawChanged(node, what, draw) {
  const key = JSON.stringify(what);
  if (node.shown === key) return;
  node.shown = key;
  node.replaceChildren();
  draw(node);
}

// A region's name on a ribbon banner, its place in the struggle order in the seal at its left end.
function ribbon(parent, { x, y, width }, name, position, contested, resolved) {
  const x0 = x - width / 2, x1 = x + width / 2, hgt = 16;
  const g = el("g", { class: "ribbon" + (contested ? " contested" : "") + (resolved ? " resolved" : "") }, parent);
  el("path", { d: `M${x0 + 4},${y + 4}L${x0 - 7},${y + 4}L${x0 - 3},${y + 11}L${x0 - 7},${y + 19}L${x0 + 4},${y + 19}Z` +
                  `M${x1 - 4},${y + 4}L${x1 + 7},${y + 4}L${x1 + 3},${y + 11}L${x1 + 7},${y + 19}L${x1 - 4},${y + 19}Z`,
               class: "ribbon-tail" }, g);
  el("path", { d: `M${x0},${y}Q${x},${y - 4} ${x1},${y}L${x1},${y + hgt}Q${x},${y + hgt - 4} ${x0},${y + hgt}Z`, class: "ribbon-face" }, g);
  el("text", { x: x + 7, y: y + 12, class: "region-name", "text-anchor": "middle" }, g).textContent = name;
  const seal = el("g", { class: "position-seal" + (resolved ? " done" : ""), transform: `translate(${x0 + 3},${y + hgt / 2 - 1})` }, g);
  el("circle", { r: 8.5, class: "position-badge" + (resolved ? " done" : "") }, seal);
  el("text", { y: 3.8, class: "position-number", "text-anchor": "middle" }, seal).textContent = position;
  return g;
}

// Followers standing in their region: per faction one cube with its count on it, centred on `at`.
// `choosable`: the kinds whose piece the step being built asks for (clicked: ui.onPiece(kind)), or null.
function drawFollowers(parent, [ax, ay], counts, facts, lit, arrived, choosable) {
  const present = counts.map((n, kind) => [n, kind]).filter(([n]) => n > 0);
  if (!present.length) {
    el("text", { x: ax, y: ay + 12, class: "empty-region", "text-anchor": "middle" }, parent).textContent = t("empty");
    return;
  }
  const size = 22, step = 25, depth = Math.round(size * 0.28 * 10) / 10, front = size - depth;
  let x = ax - (present.length * step - (step - size)) / 2;
  for (const [n, kind] of present) {
    el("ellipse", { cx: x + size / 2, cy: ay + size - 2, rx: size * 0.6, ry: 3, class: "piece-shadow" }, parent);
    const c = cube(parent, x, ay - 4, kind, size);
    c.setAttribute("data-kind", kind);
    c.setAttribute("data-count", n);
    c.setAttribute("data-mark", FACTION_MARKS[kind]);
    if (lit && lit.has(kind)) c.classList.add("lit");
    if (arrived && arrived[kind] > 0) c.classList.add("arriving");
    if (choosable && choosable.has(kind)) {
      c.classList.add("selectable");
      for (const [name, value] of Object.entries({ "data-piece": kind, "pointer-events": "all", role: "button", tabindex: 0,
                                                    "aria-label": `${facts.factions[kind]} (${n})` })) c.setAttribute(name, value);
    }
    el("text", { x: front / 2, y: depth + front / 2 + 4.5, class: "cube-number", fill: FACTION_INKS[kind], stroke: FACTION_COLOURS[kind],
                 "text-anchor": "middle" }, c).textContent = n;
    el("title", {}, c).textContent = `${n} ${facts.factions[kind]}`;
    x += step;
  }
}

// The struggle order: a column of region cards in the sea, the contested one marked, each resolved one with
// its control token, Crown tokens on their cards; the cards a Crown's swap may take are clickable here.
function drawTrack(parent, facts, board, table, ui, selectable, touched) {
  const { title, card: [cw, ch], slots } = board.track;
  const g = el("g", { class: "track", id: "track", role: "group", "aria-label": t("Struggle order") }, parent);
  el("text", { x: title[0], y: title[1], class: "board-title", "text-anchor": "middle" }, g).textContent = t("Struggle order");
  table.order.forEach((region, position) => {
    const [x, y] = slots[position], control = table.control[region];
    const classes = ["region-card"];
    if (table.contested === region) classes.push("contested");
    if (control >= 0) classes.push("resolved");
    if (selectable.has(region)) classes.push("selectable");
    else if (ui.dim) classes.push("dimmed");
    if (ui.chosen && ui.chosen.has(region)) classes.push("chosen");
    if (touched.has(region)) classes.push("touched");
    if (table.crowns[region] >= 0) classes.push("crowned");
    const name = facts.regions[region].name;
    const words = [t("{n}. {region}", { n: position + 1, region: name })];
    if (table.contested === region) words.push(t("contested"));
    if (control >= 0) words.push(facts.controls[control]);
    const card = el("g", { class: classes.join(" "), "data-testid": "region-card", "data-region": region, "data-position": position,
                           transform: `translate(${x},${y})`, role: selectable.has(region) ? "button" : "img",
                           "aria-label": words.join(", ") }, g);
    if (selectable.has(region)) card.setAttribute("tabindex", 0);
    el("rect", { x: 0, y: 0, width: cw, height: ch, rx: 3, class: "region-card-face" }, card);
    el("rect", { x: 0, y: 0, width: 22, height: ch, rx: 3, fill: board.places[region].colour, class: "card-colour" }, card);
    el("text", { x: 11, y: ch / 2 + 4.5, class: "card-position", "text-anchor": "middle" }, card).textContent = position + 1;
    el("text", { x: 28, y: ch / 2 + 4, class: "card-name" }, card).textContent = name;
    el("rect", { x: 0, y: 0, width: cw, height: ch, rx: 3, class: "card-edge" }, card);
    if (control >= 0) controlToken(card, cw - 13, ch / 2, control, facts, 10);
    if (table.crowns[region] >= 0) seatToken(card, control >= 0 ? cw - 35 : cw - 13, ch / 2, table.crowns[region], facts, 9);
    if (table.contested === region) el("path", { d: `M-9,${ch / 2 - 6}L-2,${ch / 2}L-9,${ch / 2 + 6}Z`, class: "card-pointer" }, card);
  });
}

// The common stock: per faction a pile of pieces (up to three drawn) with its count.
function drawStock(parent, facts, board, table) {
  const { title, piles } = board.stock;
  const g = el("g", { class: "stock", "data-testid": "stock" }, parent);
  el("text", { x: title[0], y: title[1], class: "board-title", "text-anchor": "middle" }, g).textContent = t("Stock");
  const factions = table.variant === "mordred" ? 4 : 3;
  for (let k = 0; k < factions; k++) {
    const [x, y] = piles[k], n = table.stock[k];
    const pile = el("g", { class: "stock-pile", "data-testid": "stock-pile", "data-kind": k, "data-count": n }, g);
    el("ellipse", { cx: x + 8, cy: y, rx: 10, ry: 3, class: "piece-shadow" }, pile);
    for (let i = 0; i < Math.min(n, 3); i++) cube(pile, x + (i % 2) * 2, y - 16 - i * 12, k, 16);
    el("text", { x: x + 21, y: y - 3, class: "stock-count" }, pile).textContent = n;
    el("title", {}, pile).textContent = `${n} ${facts.factions[k]} · ${t("common stock")}`;
  }
}

// The invaders' track, one slot per token that ends the game (table.saxons counts those on the board). Its
// board.invader_track.fill says what a filled slot is: "taken", the first edition's Saxon tokens fill the slots as
// regions fall to them; "left", the second edition's instability discs start in France, one per slot, and leave it
// first slot first as regions become unstable. Its title and what it means are facts.invaders' (track, about).
function drawInvaderTrack(parent, facts, board, table) {
  const { title, slots, fill } = board.invader_track;
  const g = el("g", { class: "invader-track", "data-testid": "invader-track", "data-count": table.saxons, "data-fill": fill }, parent);
  el("title", {}, g).textContent = `${facts.invaders.about} (${table.saxons}/${slots.length})`;
  el("text", { x: title[0], y: title[1], class: "board-title", "text-anchor": "middle" }, g).textContent = facts.invaders.track;
  slots.forEach(([x, y], i) => {
    const filled = fill === "left" ? i >= table.saxons : i < table.saxons;
    const slot = el("g", { class: "invader-slot" + (filled ? " filled" : ""), "data-testid": "invader-slot" }, g);
    el("circle", { cx: x, cy: y, r: 14, class: "slot" }, slot);
    el("text", { x, y: y + 4, class: "slot-number", "text-anchor": "middle" }, slot).textContent = i + 1;
    if (filled) token(slot, x, y, 13, INVADERS.colour, INVADERS.ink, INVADERS.mark, "invader-token");
  });
}

// Which mark is which faction, so that no one needs the colours.
function drawKey(parent, facts, board, table) {
  const [x, y] = board.key;
  const sides = [...current.factions.slice(0, table.variant === "mordred" ? 4 : 3).map((side, k) => [side, facts.factions[k]]),
                 [INVADERS, facts.controls[4]]];
  const g = el("g", { class: "faction-key", "data-testid": "faction-key", transform: `translate(${x},${y})` }, parent);
  el("rect", { x: 0, y: 0, width: 110, height: 8 + sides.length * 17, rx: 3, class: "key-box" }, g);
  sides.forEach(([side, name], i) => {
    const row = el("g", { class: "key-row", "data-mark": side.mark, transform: `translate(12,${13 + i * 17})` }, g);
    el("rect", { x: -7, y: -7, width: 14, height: 14, rx: 2, fill: side.colour }, row);
    factionMark(row, side.mark, 0, 0, 4, side.ink, 1.4);
    el("text", { x: 12, y: 3.5, class: "key-name" }, row).textContent = name;
  });
}

// Mordred: where the next Loyalist arrives when each unresolved region is resolved.
function drawLoyalistFlags(parent, facts, board, table) {
  facts.regions.forEach((region, r) => {
    if (table.control[r] >= 0) return;
    const to = facts.mordred_flags[r];
    const [fx, fy] = board.places[r].flag;
    const g = el("g", { class: "loyalist-flag", "data-region": r, "data-to": to, transform: `translate(${fx},${fy})` }, parent);
    el("rect", { x: -18, y: -8, width: 36, height: 14, rx: 7 }, g);
    el("text", { y: 3, "text-anchor": "middle" }, g).textContent = `⚑ ${facts.regions[to].code}`;
    el("title", {}, g).textContent = t("Resolving {region} adds a Loyalist to {target}", { region: region.name, target: facts.regions[to].name });
  });
  // The key spells out each flag's region in full ("⚑ Aqu = Aquae Sulis"), small enough to stay on the sea north of
  // the Hebrides; its title, and the table's legend under the board, say what a flag means.
  const targets = [...new Set(facts.mordred_flags)];
  const lines = targets.map((r) => `⚑ ${facts.regions[r].code} = ${facts.regions[r].name}`);
  const width = 12 + 4.9 * Math.max(...lines.map((line) => line.length));  // 8.5px text, in any language
  const [x, y] = board.loyalist_key;
  const key = el("g", { class: "loyalist-key", transform: `translate(${x},${y})` }, parent);
  el("rect", { x: 0, y: 0, width, height: 6 + lines.length * 11.5, rx: 4 }, key);
  lines.forEach((line, i) => { el("text", { x: 6, y: 12 + i * 11.5 }, key).textContent = line; });
  el("title", {}, key).textContent = t("Mordred: the Loyalists' flags.") + " " +
    clauses(targets.map((r) => t("⚑ {code} means a Loyalist is added to {region}", { code: facts.regions[r].code, region: facts.regions[r].name })));
}

function badge(parent, x, y, text, kind, cls) {
  const g = el("g", { class: cls, transform: `translate(${x},${y})` }, parent);
  el("rect", { x: 0, y: 0, width: 32, height: 14, rx: 7, fill: FACTION_COLOURS[kind] }, g);
  factionMark(g, FACTION_MARKS[kind], 8, 7, 3.3, FACTION_INKS[kind], 1.3);
  el("text", { x: 22, y: 10.5, "text-anchor": "middle", fill: FACTION_INKS[kind] }, g).textContent = text;
  return g;
}

// A curved arrow between two regions' pieces, stopping short of them.
function arrowPath(board, a, b, bend) {
  const [ax, ay] = board.places[a].pieces, [bx, by] = board.places[b].pieces;
  const length = Math.hypot(bx - ax, by - ay) || 1, gap = Math.min(26, length / 3);
  const ux = (bx - ax) / length, uy = (by - ay) / length;
  const [x1, y1, x2, y2] = [ax + ux * gap, ay + uy * gap + 8, bx - ux * gap, by - uy * gap + 8];
  const mx = (x1 + x2) / 2 - (y2 - y1) * bend, my = (y1 + y2) / 2 + (x2 - x1) * bend;
  return `M${x1},${y1} Q${mx},${my} ${x2},${y2}`;
}

// What the last move changed: +n / -n per faction in a column beside each region's pieces (off its banner),
// exchange and swap arrows, the piece called to court.
function drawMarks(parent, facts, board, marks) {
  const g = el("g", { class: "marks", "pointer-events": "none" }, parent);
  if (marks.exchange) {
    el("path", { d: arrowPath(board, marks.exchange[0], marks.exchange[1], 0.25), class: "mark-exchange",
                 "marker-end": "url(#arrow)", "marker-start": "url(#arrow)" }, g);
  }
  if (marks.swap) {
    el("path", { d: arrowPath(board, marks.swap[0], marks.swap[1], 0.3), class: "mark-swap",
                 "marker-end": "url(#arrow)", "marker-start": "url(#arrow)" }, g);
  }
  const rows = new Map();  // region -> badges drawn in its column
  const next = (region) => { const i = rows.get(region) || 0; rows.set(region, i + 1); return i; };
  for (const [key, sign] of [["arrived", "+"], ["left", "−"]]) {
    for (const [region, counts] of Object.entries(marks[key] || {})) {
      const [x, y] = board.places[Number(region)].marks;
      counts.forEach((n, kind) => {
        if (!n) return;
        const b = badge(g, x, y + next(region) * 15, `${sign}${n}`, kind, `mark-${key}`);
        b.setAttribute("data-region", region);
        b.setAttribute("data-kind", kind);
      });
    }
  }
  if (marks.court) {  // the piece, an arrow, the court's crown: as wide as a badge
    const region = marks.court.region, [x, y] = board.places[region].marks, row = y + next(String(region)) * 15;
    const c = el("g", { class: "mark-court", "data-region": region }, g);
    cube(c, x, row, marks.court.faction, 13);
    el("path", { d: `M${x + 14},${row + 7}h6`, class: "court-arrow", "marker-end": "url(#arrow-court)" }, c);
    el("path", { d: `M${x + 23},${row + 11}v-7l3,3l2.5,-4l2.5,4l3,-3v7z`, class: "court-crown" }, c);
    el("title", {}, c).textContent = t("to court");
  }
}
