// The board: Britain's real coastline cut into the game's eight regions, drawn as SVG.
//
// The outlines come from editions/first/board.json, built by tools/build_map.py from Natural Earth
// (public domain). Neighbouring regions share their border vertices, so two regions
// touch exactly where board.BORDERS says they do (checked by tests/web/test_views.py).
//
// drawMap(svg, facts, table, ui) redraws everything. `facts` is views.board_facts(),
// `table` a views.table_view(). The `ui` hooks, all optional:
//   ui.selectable  Set(region): regions the player may click now (class "selectable").
//   ui.chosen      Map(region -> label): regions already chosen in the move being built.
//   ui.onRegion    function(region): called when a selectable region is clicked.
//   ui.dim         bool: dim every region not in `selectable` (class "dimmed").
//   ui.marks       what the last move changed, drawn on top (views.move_changes):
//                  {touched: [region], arrived: {region: [n per faction]},
//                   left: {region: [n per faction]}, exchange: [from, to] | null,
//                   swap: [a, b] | null, court: {region, faction} | null}
//                  touched regions get class "touched"; +n / -n badges, an arrow for
//                  the exchange, a double arrow for the swap, a cube leaving for the court.
//   ui.lit         {regions: Set(region), followers: Map(region -> Set(kind))} | null: what a hand card
//                  can act on (explain.lightOf): those regions get class "lit" and an outline, those
//                  followers' cubes class "lit".
//   ui.loyalists   bool, default true: in a Mordred game, mark on each unresolved region
//                  where its resolution adds a Loyalist (facts.mordred_flags).
import { t } from "/static/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// {size: [w, h], regions: [[ring...] per region], anchors: [[x, y] per region]}
export const BRITAIN = await (await fetch("/static/editions/first/board.json")).json();

export const FACTION_COLOURS = ["#2f6fd0", "#c8362f", "#e3b21c", "#2b2b2b"];
export const FACTION_LIGHT = ["#cdddf2", "#f1cfc9", "#f4e6b4", "#c4c0b8"];
export const SAXON_COLOUR = "#7d776c";
export const PLAYER_COLOURS = ["#7b4bb7", "#1f8a5b", "#d9731f", "#1a8fb0"];
const LAND = "#eadcb4";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function pathOf(rings) {
  return rings.map((ring) => "M" + ring.map(([x, y]) => `${x},${y}`).join("L") + "Z").join("");
}

export function cube(parent, x, y, kind, size = 10) {
  const g = el("g", { class: `cube kind-${kind}`, transform: `translate(${x},${y})` }, parent);
  el("rect", { x: 0, y: 0, width: size, height: size, rx: 1.5, fill: FACTION_COLOURS[kind] }, g);
  el("rect", { x: 1.2, y: 1.2, width: size - 2.4, height: size * 0.36, rx: 1, fill: "#ffffff", opacity: 0.28 }, g);
  el("rect", { x: 0, y: 0, width: size, height: size, rx: 1.5, fill: "none", stroke: "#00000066",
               "stroke-width": 0.8 }, g);
  return g;
}

function crownIcon(parent, x, y, colour, scale = 1) {
  const g = el("g", { class: "crown-token", transform: `translate(${x},${y}) scale(${scale})` }, parent);
  el("circle", { cx: 0, cy: 0, r: 9, fill: colour, stroke: "#fff", "stroke-width": 1.5 }, g);
  el("path", { d: "M-5,3 L-5,-3 L-2.5,0 L0,-4.5 L2.5,0 L5,-3 L5,3 Z", fill: "#ffe27a" }, g);
  return g;
}

function controlToken(parent, x, y, control, name) {
  const g = el("g", { class: "control-token", "data-control": control, transform: `translate(${x},${y})` }, parent);
  const fill = control === 4 ? SAXON_COLOUR : FACTION_COLOURS[control];
  el("circle", { cx: 1.5, cy: 2, r: 15, fill: "#00000033" }, g);  // shadow: a token lying on the board
  el("circle", { cx: 0, cy: 0, r: 15, fill, stroke: "#fffbe9", "stroke-width": 2.5 }, g);
  if (control === 4) {  // Saxon token: crossed axes
    el("path", { d: "M-7,7 L7,-7 M-7,-7 L7,7", stroke: "#fffbe9", "stroke-width": 2.4, "stroke-linecap": "round" }, g);
  } else {
    el("path", { d: "M0,-8 L7,-4 L6,4 L0,9 L-6,4 L-7,-4 Z", fill: "#fffbe9", opacity: 0.9 }, g);
  }
  el("title", {}, g).textContent = t("Controlled by the {faction}", { faction: name });
  return g;
}

function defs(svg) {
  const d = el("defs", {}, svg);
  const sea = el("radialGradient", { id: "sea", cx: "45%", cy: "45%", r: "75%" }, d);
  el("stop", { offset: "0", "stop-color": "#b7d6e0" }, sea);
  el("stop", { offset: "1", "stop-color": "#6f9fb6" }, sea);
  // parchment grain on the land, so it reads as a printed board
  const grain = el("filter", { id: "grain", x: 0, y: 0, width: "100%", height: "100%" }, d);
  el("feTurbulence", { type: "fractalNoise", baseFrequency: 0.9, numOctaves: 2, seed: 7, result: "n" }, grain);
  el("feColorMatrix", { in: "n", type: "matrix",
                        values: "0 0 0 0 0.35  0 0 0 0 0.27  0 0 0 0 0.12  0 0 0 0.16 0", result: "t" }, grain);
  el("feComposite", { in: "t", in2: "SourceAlpha", operator: "in" }, grain);
  const coast = el("filter", { id: "coast", x: "-5%", y: "-5%", width: "110%", height: "110%" }, d);
  el("feMorphology", { in: "SourceAlpha", operator: "dilate", radius: 3, result: "d" }, coast);
  el("feFlood", { "flood-color": "#ffffff", "flood-opacity": 0.45 }, coast);
  el("feComposite", { in2: "d", operator: "in", result: "halo" }, coast);
  el("feGaussianBlur", { in: "halo", stdDeviation: 2, result: "halo2" }, coast);
  const mergeC = el("feMerge", {}, coast);
  el("feMergeNode", { in: "halo2" }, mergeC);
  el("feMergeNode", { in: "SourceGraphic" }, mergeC);
  const hatch = el("pattern", { id: "saxon-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse",
                                patternTransform: "rotate(45)" }, d);
  el("rect", { width: 8, height: 8, fill: "#d3ccbd" }, hatch);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#ada595", "stroke-width": 3 }, hatch);
  const glow = el("filter", { id: "glow", x: "-20%", y: "-20%", width: "140%", height: "140%" }, d);
  el("feGaussianBlur", { stdDeviation: 3.5, result: "b" }, glow);
  const merge = el("feMerge", {}, glow);
  el("feMergeNode", { in: "b" }, merge);
  el("feMergeNode", { in: "SourceGraphic" }, merge);
  for (const [id, colour] of [["arrow", "#b5312a"], ["arrow-court", "#3b2f1a"]]) {
    const m = el("marker", { id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
                             orient: "auto-start-reverse" }, d);
    el("path", { d: "M0,0 L10,5 L0,10 Z", fill: colour }, m);
  }
}

// Draw the board into `svg` for `table` (a view from the server); see the top of this file for `ui`.
export function drawMap(svg, facts, table, ui = {}) {
  const [w, h] = BRITAIN.size;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.classList.add("board-map");
  defs(svg);
  el("rect", { x: 0, y: 0, width: w, height: h, fill: "url(#sea)", class: "sea" }, svg);
  for (let i = 0; i < 8; i++) {  // a few engraved waves
    const y = 70 + i * 80, x = i % 2 ? w - 70 : 22;
    el("path", { d: `M${x},${y} q8,-6 16,0 t16,0 t16,0`, class: "wave" }, svg);
  }
  const seaLabel = (x, y, angle, text, anchor = "middle") => {
    el("text", { transform: `translate(${x},${y}) rotate(${angle})`, class: "map-sea-label", "text-anchor": anchor },
       svg).textContent = text;
  };
  seaLabel(w - 14, 300, 90, "Oceanus Germanicus");
  seaLabel(16, 470, -90, "Mare Hibernicum");
  seaLabel(w - 16, h - 14, 0, "Mare Britannicum", "end");

  const selectable = ui.selectable || new Set();
  const touched = new Set(ui.marks ? ui.marks.touched : []);
  const land = el("g", { class: "land", filter: "url(#coast)" }, svg);
  const tokens = el("g", { class: "tokens" }, svg);
  facts.regions.forEach((region, r) => {
    const control = table.control[r];
    let fill = LAND;
    if (control >= 0 && control < 4) fill = FACTION_LIGHT[control];
    if (control === 4) fill = "url(#saxon-hatch)";
    const classes = ["region"];
    if (table.contested === r) classes.push("contested");
    if (selectable.has(r)) classes.push("selectable");
    else if (ui.dim) classes.push("dimmed");
    if (ui.chosen && ui.chosen.has(r)) classes.push("chosen");
    if (touched.has(r)) classes.push("touched");
    if (ui.lit && ui.lit.regions.has(r)) classes.push("lit");
    if (control >= 0) classes.push("resolved");
    const shape = el("path", { d: pathOf(BRITAIN.regions[r]), fill, class: classes.join(" "), "data-region": r,
                               "data-name": region.name, tabindex: selectable.has(r) ? 0 : -1 }, land);
    el("title", {}, shape).textContent = region.name;
    if (selectable.has(r) && ui.onRegion) {
      shape.addEventListener("click", () => ui.onRegion(r));
      shape.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") ui.onRegion(r); });
    }
  });
  // grain over the land only: the filter draws the texture alone, clipped to the island
  el("path", { d: BRITAIN.regions.map(pathOf).join(""), class: "land-grain", fill: "#000",
               filter: "url(#grain)", "pointer-events": "none" }, svg);
  const overlay = el("g", { class: "overlay", "pointer-events": "none" }, svg);
  if (table.contested !== null && table.contested !== undefined) {
    el("path", { d: pathOf(BRITAIN.regions[table.contested]), class: "contested-outline", filter: "url(#glow)" }, overlay);
  }
  for (const r of touched) el("path", { d: pathOf(BRITAIN.regions[r]), class: "touched-outline", "data-region": r }, overlay);
  for (const r of ui.lit ? ui.lit.regions : []) el("path", { d: pathOf(BRITAIN.regions[r]), class: "lit-outline", "data-region": r }, overlay);
  svg.appendChild(tokens);

  const positionOf = new Map(table.order.map((region, i) => [region, i]));
  facts.regions.forEach((region, r) => {
    const [ax, ay] = BRITAIN.anchors[r];
    const g = el("g", { class: "region-info", "data-region": r, "pointer-events": "none" }, tokens);
    const half = region.name.length * 3.6;
    el("text", { x: ax, y: ay - 14, class: "region-name", "text-anchor": "middle" }, g).textContent = region.name;
    const badge = el("g", { transform: `translate(${ax - half - 12},${ay - 18})` }, g);
    el("circle", { r: 8, class: "position-badge" + (table.control[r] >= 0 ? " done" : "") }, badge);
    el("text", { y: 3.5, class: "position-number", "text-anchor": "middle" }, badge).textContent = positionOf.get(r) + 1;
    const home = facts.homes.indexOf(r);
    if (home >= 0) {
      const shield = el("path", { d: "M0,-7 L7,-4 L6,3.5 L0,8 L-6,3.5 L-7,-4 Z", fill: FACTION_COLOURS[home],
                                  stroke: "#fffbe9", "stroke-width": 1.4, class: "home-symbol", "data-faction": home,
                                  transform: `translate(${ax + half + 11},${ay - 18})` }, g);
      el("title", {}, shield).textContent = t("Home of the {faction}", { faction: facts.factions[home] });
    }
    if (table.crowns[r] >= 0) crownIcon(g, ax + half + 11, ay - 36, PLAYER_COLOURS[table.crowns[r]], 0.9);
    if (table.control[r] >= 0) controlToken(g, ax, ay + 8, table.control[r], facts.controls[table.control[r]]);
    else drawFollowers(g, ax, ay, table.followers[r], facts, ui.lit ? ui.lit.followers.get(r) : null);
    if (ui.chosen && ui.chosen.has(r)) {
      const label = ui.chosen.get(r);
      const mark = el("g", { transform: `translate(${ax - half - 12},${ay + 6})`, class: "chosen-mark" }, g);
      el("rect", { x: -9 - (label.length - 1) * 3, y: -9, width: 18 + (label.length - 1) * 6, height: 18, rx: 9 }, mark);
      el("text", { y: 4, "text-anchor": "middle" }, mark).textContent = label;
    }
  });
  if (ui.loyalists !== false && table.variant === "mordred" && facts.mordred_flags) drawLoyalistFlags(tokens, facts, table);
  if (ui.marks) drawMarks(svg, facts, ui.marks);
}

// Followers grouped per faction: one cube each with its count, readable up to 16 and beyond.
function drawFollowers(parent, ax, ay, counts, facts, lit = null) {
  const present = counts.map((n, kind) => [n, kind]).filter(([n]) => n > 0);
  if (!present.length) {
    el("text", { x: ax, y: ay + 8, class: "empty-region", "text-anchor": "middle" }, parent).textContent = t("empty");
    return;
  }
  const size = 14, step = 19;
  let x = ax - (present.length * step - (step - size)) / 2;
  for (const [n, kind] of present) {
    const c = cube(parent, x, ay - 5, kind, size);
    c.setAttribute("data-kind", kind);
    c.setAttribute("data-count", n);
    if (lit && lit.has(kind)) c.classList.add("lit");
    el("text", { x: size / 2, y: size / 2 + 4, class: "cube-number" + (kind === 2 ? " dark" : ""),
                 "text-anchor": "middle" }, c).textContent = n;
    el("title", {}, c).textContent = `${n} ${facts.factions[kind]}`;
    x += step;
  }
}

// Mordred: where the next Loyalist arrives when each unresolved region is resolved.
function drawLoyalistFlags(parent, facts, table) {
  facts.regions.forEach((region, r) => {
    if (table.control[r] >= 0) return;
    const to = facts.mordred_flags[r];
    const [ax, ay] = BRITAIN.anchors[r];
    const g = el("g", { class: "loyalist-flag", "data-region": r, "data-to": to,
                        transform: `translate(${ax},${ay + 24})` }, parent);
    const text = `⚑ ${facts.regions[to].code}`;
    el("rect", { x: -18, y: -8, width: 36, height: 14, rx: 7 }, g);
    el("text", { y: 3, "text-anchor": "middle" }, g).textContent = text;
    el("title", {}, g).textContent = t("Resolving {region} adds a Loyalist to {target}", { region: region.name, target: facts.regions[to].name });
  });
  const [w] = BRITAIN.size;
  // The key spells out each flag's region in full: "⚑ Aqu = Aquae Sulis".
  const targets = [...new Set(facts.mordred_flags)];
  const lines = [t("⚑ on a region: resolving it adds"), t("a Loyalist to the region named:"),
                 ...targets.map((r) => `⚑ ${facts.regions[r].code} = ${facts.regions[r].name}`)];
  const width = Math.max(190, 16 + 5.4 * Math.max(...lines.map((line) => line.length)));  // 9.5px text, in any language
  const key = el("g", { class: "loyalist-key", transform: `translate(${w - width - 8},22)` }, parent);
  el("rect", { x: 0, y: 0, width, height: 10 + lines.length * 15, rx: 6 }, key);
  lines.forEach((line, i) => { el("text", { x: 8, y: 16 + i * 15 }, key).textContent = line; });
  el("title", {}, key).textContent = t("Mordred: the Loyalists' flags.") + " " +
    targets.map((r) => t("⚑ {code} means a Loyalist is added to {region}", { code: facts.regions[r].code, region: facts.regions[r].name })).join("; ");
}

function badge(parent, x, y, text, colour, cls) {
  const g = el("g", { class: cls, transform: `translate(${x},${y})` }, parent);
  el("rect", { x: -12, y: -8, width: 24, height: 15, rx: 7.5, fill: colour, stroke: "#fffbe9", "stroke-width": 1.2 }, g);
  el("text", { y: 3.5, "text-anchor": "middle" }, g).textContent = text;
  return g;
}

// A curved arrow between two regions' anchors, stopping short of the cubes drawn there.
function arrowPath(a, b, bend) {
  const [ax, ay] = BRITAIN.anchors[a], [bx, by] = BRITAIN.anchors[b];
  const length = Math.hypot(bx - ax, by - ay) || 1, gap = Math.min(24, length / 3);
  const ux = (bx - ax) / length, uy = (by - ay) / length;
  const [x1, y1, x2, y2] = [ax + ux * gap, ay + uy * gap + 4, bx - ux * gap, by - uy * gap + 4];
  const mx = (x1 + x2) / 2 - (y2 - y1) * bend, my = (y1 + y2) / 2 + (x2 - x1) * bend;
  return `M${x1},${y1} Q${mx},${my} ${x2},${y2}`;
}

// What the last move changed: +n / -n per faction, exchange and swap arrows, the court call.
function drawMarks(svg, facts, marks) {
  const g = el("g", { class: "marks", "pointer-events": "none" }, svg);
  if (marks.exchange) {
    el("path", { d: arrowPath(marks.exchange[0], marks.exchange[1], 0.25), class: "mark-exchange",
                 "marker-end": "url(#arrow)", "marker-start": "url(#arrow)" }, g);
  }
  if (marks.swap) {
    el("path", { d: arrowPath(marks.swap[0], marks.swap[1], 0.3), class: "mark-swap",
                 "marker-end": "url(#arrow)", "marker-start": "url(#arrow)" }, g);
  }
  for (const [key, sign, dy] of [["arrived", "+", 14], ["left", "−", 30]]) {
    for (const [region, counts] of Object.entries(marks[key] || {})) {
      const [ax, ay] = BRITAIN.anchors[Number(region)];
      const shown = counts.map((n, kind) => [n, kind]).filter(([n]) => n > 0);
      shown.forEach(([n, kind], i) => {
        const b = badge(g, ax + 40 + i * 26, ay + dy - 24, `${sign}${n}`, FACTION_COLOURS[kind], `mark-${key}`);
        b.setAttribute("data-region", region);
        b.setAttribute("data-kind", kind);
      });
    }
  }
  if (marks.court) {
    const [ax, ay] = BRITAIN.anchors[marks.court.region];
    const c = el("g", { class: "mark-court", "data-region": marks.court.region }, g);
    el("path", { d: `M${ax - 30},${ay} q-14,-6 -26,-24`, class: "court-arrow", "marker-end": "url(#arrow-court)" }, c);
    cube(c, ax - 64, ay - 40, marks.court.faction, 12);
    el("text", { x: ax - 58, y: ay - 44, "text-anchor": "middle", class: "court-label" }, c).textContent = t("to court");
  }
}
