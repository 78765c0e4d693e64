// The board: a stylised map of Britain's eight regions, drawn as SVG.
// Regions share their border vertices, so two regions touch exactly where the
// game's border list says they do (checked by the tests against board.BORDERS).

const SVG_NS = "http://www.w3.org/2000/svg";

// Region outlines, indexed like board.Region (Caledonia 0 ... Aquae Sulis 7).
export const OUTLINES = [
  // Caledonia
  [[95, 235], [70, 200], [58, 152], [84, 112], [72, 72], [118, 40], [168, 28], [230, 24], [276, 44],
   [252, 80], [300, 108], [312, 150], [286, 184], [290, 215], [190, 240]],
  // Din Eidyn
  [[95, 235], [190, 240], [290, 215], [302, 262], [295, 315], [205, 320], [110, 330], [112, 300], [84, 270]],
  // Eboracum
  [[205, 320], [295, 315], [322, 358], [346, 404], [335, 440], [265, 440], [210, 420], [216, 380]],
  // Deva
  [[110, 330], [205, 320], [216, 380], [210, 420], [190, 460], [140, 455], [100, 450], [80, 420],
   [116, 392], [94, 362]],
  // Caerleon
  [[100, 450], [140, 455], [190, 460], [185, 510], [140, 522], [92, 512], [58, 488], [80, 466]],
  // Ratae
  [[210, 420], [265, 440], [270, 500], [240, 524], [185, 510], [190, 460]],
  // Londinium
  [[265, 440], [335, 440], [362, 468], [388, 500], [372, 540], [322, 562], [280, 556], [270, 500]],
  // Aquae Sulis
  [[140, 522], [185, 510], [240, 524], [270, 500], [280, 556], [250, 578], [200, 592], [150, 612],
   [100, 640], [56, 650], [78, 620], [120, 592], [128, 552]],
];

// Where each region's name and followers go.
export const ANCHORS = [
  [180, 118], [196, 262], [276, 372], [152, 378], [128, 482], [230, 468], [322, 494], [196, 560],
];

export const FACTION_COLOURS = ["#2f6fd0", "#c8362f", "#e3b21c", "#2b2b2b"];
export const FACTION_LIGHT = ["#c9dbf5", "#f2c9c5", "#f6e6ad", "#bbbbbb"];
export const SAXON_COLOUR = "#7d776c";
export const PLAYER_COLOURS = ["#7b4bb7", "#1f8a5b", "#d9731f", "#1a8fb0"];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function points(outline) {
  return outline.map(([x, y]) => `${x},${y}`).join(" ");
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

function controlToken(parent, x, y, control) {
  const g = el("g", { class: "control-token", transform: `translate(${x},${y})` }, parent);
  const fill = control === 4 ? SAXON_COLOUR : FACTION_COLOURS[control];
  el("circle", { cx: 0, cy: 0, r: 15, fill, stroke: "#fffbe9", "stroke-width": 2.5 }, g);
  if (control === 4) {  // a Saxon axe, crossed
    el("path", { d: "M-7,7 L7,-7 M-7,-7 L7,7", stroke: "#fffbe9", "stroke-width": 2.4, "stroke-linecap": "round" }, g);
  } else {
    el("path", { d: "M0,-8 L7,-4 L6,4 L0,9 L-6,4 L-7,-4 Z", fill: "#fffbe9", opacity: 0.9 }, g);
  }
  return g;
}

// Draw the board into `svg` for `table` (a view from the server).
// `ui` holds the interaction: {selectable: Set(region), chosen: Map(region -> label), onRegion(region)}.
export function drawMap(svg, facts, table, ui = {}) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "30 14 380 650");
  const defs = el("defs", {}, svg);
  const sea = el("linearGradient", { id: "sea", x1: 0, y1: 0, x2: 0, y2: 1 }, defs);
  el("stop", { offset: "0", "stop-color": "#a9cfdd" }, sea);
  el("stop", { offset: "1", "stop-color": "#7eaec4" }, sea);
  const hatch = el("pattern", { id: "saxon-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse",
                                patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 8, height: 8, fill: "#cfc9bd" }, hatch);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#a9a294", "stroke-width": 3 }, hatch);
  const glow = el("filter", { id: "glow", x: "-20%", y: "-20%", width: "140%", height: "140%" }, defs);
  el("feGaussianBlur", { stdDeviation: 3.5, result: "b" }, glow);
  const merge = el("feMerge", {}, glow);
  el("feMergeNode", { in: "b" }, merge);
  el("feMergeNode", { in: "SourceGraphic" }, merge);

  el("rect", { x: 0, y: 0, width: 440, height: 700, fill: "url(#sea)" }, svg);
  for (let i = 0; i < 9; i++) {  // a few waves
    const y = 60 + i * 72, x = i % 2 ? 330 : 40;
    el("path", { d: `M${x},${y} q8,-6 16,0 t16,0`, stroke: "#ffffff66", fill: "none", "stroke-width": 1.5 }, svg);
  }
  el("text", { x: 392, y: 640, class: "map-sea-label", "text-anchor": "end" }, svg).textContent = "Mare Britannicum";

  const positionOf = new Map(table.order.map((region, i) => [region, i]));
  const land = el("g", { class: "land" }, svg);
  const tokens = el("g", { class: "tokens" }, svg);
  facts.regions.forEach((region, r) => {
    const control = table.control[r];
    let fill = "#efe2bf";
    if (control >= 0 && control < 4) fill = FACTION_LIGHT[control];
    if (control === 4) fill = "url(#saxon-hatch)";
    const classes = ["region"];
    if (table.contested === r) classes.push("contested");
    if (ui.selectable && ui.selectable.has(r)) classes.push("selectable");
    if (ui.chosen && ui.chosen.has(r)) classes.push("chosen");
    if (control >= 0) classes.push("resolved");
    const shape = el("polygon", { points: points(OUTLINES[r]), fill, class: classes.join(" "),
                                  "data-region": r, tabindex: ui.selectable && ui.selectable.has(r) ? 0 : -1 },
                     land);
    const title = el("title", {}, shape);
    title.textContent = region.name;
    if (ui.selectable && ui.selectable.has(r) && ui.onRegion) {
      shape.addEventListener("click", () => ui.onRegion(r));
      shape.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") ui.onRegion(r); });
    }
  });
  // the contested region glows on top of its neighbours' borders
  if (table.contested !== null && table.contested !== undefined) {
    el("polygon", { points: points(OUTLINES[table.contested]), class: "contested-outline", filter: "url(#glow)" },
       land);
  }

  facts.regions.forEach((region, r) => {
    const [ax, ay] = ANCHORS[r];
    const g = el("g", { class: "region-info", "pointer-events": "none" }, tokens);
    const home = facts.homes.indexOf(r);
    const label = el("text", { x: ax, y: ay - 14, class: "region-name", "text-anchor": "middle" }, g);
    label.textContent = region.name;
    const pos = positionOf.get(r);
    const badge = el("g", { transform: `translate(${ax - region.name.length * 3.6 - 14},${ay - 18})` }, g);
    el("circle", { r: 8, class: "position-badge" + (table.control[r] >= 0 ? " done" : "") }, badge);
    el("text", { y: 3.5, class: "position-number", "text-anchor": "middle" }, badge).textContent = pos + 1;
    if (home >= 0) {
      const shield = el("path", { d: "M0,-6 L6,-3.5 L5,3 L0,7 L-5,3 L-6,-3.5 Z", fill: FACTION_COLOURS[home],
                                  stroke: "#fff", "stroke-width": 1,
                                  transform: `translate(${ax + region.name.length * 3.6 + 12},${ay - 18})` }, g);
      el("title", {}, shield).textContent = `${facts.factions[home]} home`;
    }
    if (table.crowns[r] >= 0) crownIcon(g, ax + region.name.length * 3.6 + 12, ay - 36, PLAYER_COLOURS[table.crowns[r]], 0.9);
    if (table.control[r] >= 0) {
      controlToken(g, ax, ay + 10, table.control[r]);
      return;
    }
    drawFollowers(g, ax, ay, table.followers[r]);
    if (ui.chosen && ui.chosen.has(r)) {
      const mark = el("g", { transform: `translate(${ax - 40},${ay + 1})`, class: "chosen-mark" }, g);
      el("rect", { x: -9 - (ui.chosen.get(r).length - 1) * 3, y: -9, width: 18 + (ui.chosen.get(r).length - 1) * 6,
                   height: 18, rx: 9 }, mark);
      el("text", { y: 4, "text-anchor": "middle" }, mark).textContent = ui.chosen.get(r);
    }
  });
}

function drawFollowers(parent, ax, ay, counts) {
  const total = counts.reduce((a, b) => a + b, 0);
  const size = 10, gap = 2.5, perRow = 5;
  if (total === 0) {
    el("text", { x: ax, y: ay + 6, class: "empty-region", "text-anchor": "middle" }, parent).textContent = "empty";
    return;
  }
  if (total > 15) {  // compact: one cube per kind and a count
    let x = ax - (counts.filter(Boolean).length * 30) / 2;
    counts.forEach((n, kind) => {
      if (!n) return;
      cube(parent, x, ay - 4, kind, size);
      el("text", { x: x + 12, y: ay + 5, class: "cube-count" }, parent).textContent = `×${n}`;
      x += 30;
    });
    return;
  }
  const kinds = counts.flatMap((n, kind) => Array(n).fill(kind));
  const rows = Math.ceil(kinds.length / perRow);
  kinds.forEach((kind, i) => {
    const row = Math.floor(i / perRow), col = i % perRow;
    const inRow = row === rows - 1 ? kinds.length - row * perRow : perRow;
    const x = ax - (inRow * (size + gap) - gap) / 2 + col * (size + gap);
    cube(parent, x, ay - 4 + row * (size + gap), kind, size);
  });
}
