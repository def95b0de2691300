// MICHIKAKE's cards in SVG (card notation: docs/ARCHITECTURE.md, "MICHIKAKE specifics").
//
// Each suit has its own outline, so the shape alone tells the suit (colour only helps, and the
// card still reads in greyscale): C a circle, W a drop, R a square, H a hexagon. The filled part
// of the outline is the stage, k/9 of its area, filling the suit's own way: C a moon lit from
// the left (a crescent that grows to full), W water rising from the bottom, R a bar from left to
// right, H a hexagon growing from the centre. The small number in the corner only confirms it.
// Stars and rings have no stage: a solid star, a thick ring.
import { svg } from "../dom.js";
import { t } from "../i18n.js";

export const SUITS = ["C", "W", "R", "H"];

const W = 60;
const H = 84;
const CX = 30;
const CY = 46;
const R = 21;

let clipIds = 0;

/** Suit letter and stage of a card ("W7" → ["W", 7]); specials give [null, null]. */
export function parse(card) {
  if (card === "star" || card === "ring") return [null, null];
  return [card[0], Number(card.slice(1))];
}

/** A card in words: "Water 7", "Star". */
export function cardName(card) {
  if (card === "star" || card === "ring") return t(`michikake.card.${card}`);
  const [suit, stage] = parse(card);
  return t("michikake.card.suited", { suit: t(`michikake.suit.${suit}`), n: stage });
}

function hexagon(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 6; i += 1) {
    const a = (Math.PI / 3) * i - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return points.join(" ");
}

const DROP = `M${CX} ${CY - 25} C${CX + 6} ${CY - 14} ${CX + 19} ${CY - 2} ${CX + 19} ${CY + 7}
  A19 19 0 0 1 ${CX - 19} ${CY + 7} C${CX - 19} ${CY - 2} ${CX - 6} ${CY - 14} ${CX} ${CY - 25}Z`;

/** The suit's outline as an SVG element with the given class. */
function outline(suit, cls) {
  if (suit === "C") return svg("circle", { cx: CX, cy: CY, r: R, class: cls });
  if (suit === "W") return svg("path", { d: DROP, class: cls });
  if (suit === "R") return svg("rect", { x: CX - 19, y: CY - 19, width: 38, height: 38, rx: 3, class: cls });
  return svg("polygon", { points: hexagon(CX, CY, 22), class: cls });
}

/** The lit part of a moon lit from the left: exactly `f` of the disc's area. */
function moon(f) {
  if (f >= 1) return svg("circle", { cx: CX, cy: CY, r: R, class: "mk-fill" });
  const rx = Math.abs(1 - 2 * f) * R;
  // The left half of the rim, then back up along the terminator (an ellipse).
  const sweep = f < 0.5 ? 1 : 0;
  const d = `M${CX} ${CY - R} A${R} ${R} 0 0 0 ${CX} ${CY + R} A${rx.toFixed(2)} ${R} 0 0 ${sweep} ${CX} ${CY - R}Z`;
  return svg("path", { d, class: "mk-fill" });
}

/** The filled area of a stage: k/9 of the outline, filling the suit's way. */
function fill(suit, stage) {
  const f = stage / 9;
  if (suit === "C") return moon(f);
  if (suit === "H") {
    // A concentric hexagon with √f of the radius has f of the area.
    return svg("polygon", { points: hexagon(CX, CY, 22 * Math.sqrt(f)), class: "mk-fill" });
  }
  const id = `mk-clip-${(clipIds += 1)}`;
  const clip = svg("clipPath", { id }, outline(suit, ""));
  // The drop's area is not linear in its height: fill to the height that holds f of it.
  const top = CY - 25;
  const bottom = CY + 26;
  const box =
    suit === "R"
      ? { x: CX - 19, y: CY - 19, width: 38 * f, height: 38 }
      : { x: CX - 20, y: bottom - (bottom - top) * dropHeight(f), width: 40, height: (bottom - top) * dropHeight(f) };
  return svg("g", {}, clip, svg("rect", { ...box, "clip-path": `url(#${id})`, class: "mk-fill" }));
}

/** The share of the drop's height, from the bottom, that holds `f` of its area (a circle of
 * radius 19 under a pointed top, tabulated once by slicing the outline). */
const DROP_AREA = (() => {
  const rows = [];
  const top = CY - 25;
  const bottom = CY + 26;
  const n = 200;
  let total = 0;
  for (let i = 0; i < n; i += 1) {
    const y = bottom - ((i + 0.5) / n) * (bottom - top);
    total += dropWidth(y);
    rows.push(total);
  }
  return rows.map((sum) => sum / total);
})();

function dropWidth(y) {
  // The round part: a circle of radius 19 centred at CY + 7; above it, the sides narrow linearly
  // to the point (close enough to the drawn curves to share out the area).
  const cy = CY + 7;
  if (y >= cy - 9) {
    const dy = y - cy;
    return 2 * Math.sqrt(Math.max(0, 19 * 19 - dy * dy));
  }
  const topY = CY - 25;
  const joinY = cy - 9;
  const joinW = 2 * Math.sqrt(19 * 19 - 81);
  return (joinW * (y - topY)) / (joinY - topY);
}

function dropHeight(f) {
  const i = DROP_AREA.findIndex((share) => share >= f - 1e-9);
  return i < 0 ? 1 : (i + 1) / DROP_AREA.length;
}

function star() {
  const points = [];
  for (let i = 0; i < 10; i += 1) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const r = i % 2 ? 9.5 : 23;
    points.push(`${(CX + r * Math.cos(a)).toFixed(2)},${(CY + r * Math.sin(a)).toFixed(2)}`);
  }
  return svg("polygon", { points: points.join(" "), class: "mk-fill mk-special" });
}

function ring() {
  return svg(
    "g",
    {},
    svg("circle", { cx: CX, cy: CY, r: 16.5, class: "mk-ring" }),
    svg("circle", { cx: CX, cy: CY, r: 16.5, class: "mk-ring-line" }),
  );
}

/**
 * A card as an SVG element: `card` in the notation, or null for a face-down card.
 * `cls` adds classes (`mk-card--small`, `mk-card--tiny`); `label` gives it an accessible name.
 */
export function cardSVG(card, { cls = "", label = true } = {}) {
  const [suit, stage] = card ? parse(card) : [null, null];
  const kind = card === null ? "back" : suit ? `suit-${suit}` : card;
  const node = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: `mk-card mk-card--${kind} ${cls}`.trim(),
    role: label ? "img" : null,
    "aria-label": label ? (card ? cardName(card) : t("michikake.card.back")) : null,
    "aria-hidden": label ? null : "true",
    "data-card": card ?? "back",
  });
  node.append(svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 6, class: "mk-face" }));
  if (card === null) {
    node.append(svg("rect", { x: 6, y: 6, width: W - 12, height: H - 12, rx: 4, class: "mk-back" }));
    node.append(svg("circle", { cx: CX, cy: H / 2, r: 13, class: "mk-back-moon" }));
    node.append(svg("circle", { cx: CX + 6, cy: H / 2 - 3, r: 11, class: "mk-back-shade" }));
    return node;
  }
  if (suit) {
    node.append(outline(suit, "mk-empty"), fill(suit, stage), outline(suit, "mk-outline"));
    node.append(svg("text", { x: 7, y: 17, class: "mk-corner" }, String(stage)));
  } else node.append(card === "star" ? star() : ring());
  return node;
}

/** The suit's outline alone, as a small icon (crests). */
export function suitIcon(suit, { cls = "" } = {}) {
  const node = svg("svg", {
    viewBox: `${CX - 26} ${CY - 27} 52 54`,
    class: `mk-suit mk-card--suit-${suit} ${cls}`.trim(),
    "aria-hidden": "true",
  });
  node.append(outline(suit, "mk-fill"));
  return node;
}
