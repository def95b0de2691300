// MOMOJAN card art, drawn in SVG by our own code (docs/ARCHITECTURE.md, "MOMOJAN specifics"
// for the notation): fruit cards `M1`-`M9` モモ (wild), `L` レモン, `O` ミカン, `S` イチゴ show
// their number large and their fruit as a shape of its own (never colour alone); the モモ carry a
// star and a dashed rainbow frame, the wild mark. Picture cards `dog`, `monkey`, `pheasant`, `sun`,
// `moon` show their picture and its name in the page's language (犬 on a Japanese page, Dog on an
// English one: `momojan.card.face.*`). Sizes come from CSS (`.mj-card`), the art scales.
import { svg } from "../dom.js";
import { t } from "../i18n.js";

export const PICTURES = ["dog", "monkey", "pheasant", "sun", "moon"];
const W = 60;
const H = 84;

/** The card's readable name ("レモン 3", "犬"), for screen readers and titles. */
export function cardName(card) {
  if (!card) return t("momojan.card.back");
  if (PICTURES.includes(card)) return t(`momojan.card.${card}`);
  return t("momojan.card.fruit", { fruit: t(`momojan.card.${card[0]}`), n: card.slice(1) });
}

export function isPeach(card) {
  return typeof card === "string" && card[0] === "M" && card.length === 2;
}

/** The dora a given indicator points to, in words ("5", "猿"). */
export function doraName(indicator) {
  if (!indicator) return "";
  const next = { dog: "monkey", monkey: "pheasant", pheasant: "dog", sun: "moon", moon: "sun" };
  if (next[indicator]) return t(`momojan.card.${next[indicator]}`);
  const n = Number(indicator.slice(1));
  return t("momojan.dora_number", { n: n === 9 ? 1 : n + 1 });
}

// --- fruit shapes (centred on 0,0, about 34 units across) ------------------------------------

function peach() {
  return [
    svg("path", {
      class: "mj-fruit mj-fruit--peach",
      d: "M0 16 C-16 14 -18 -4 -8 -10 C-4 -12 -1 -11 0 -8 C1 -11 4 -12 8 -10 C18 -4 16 14 0 16Z",
    }),
    svg("path", { class: "mj-fruit-line", d: "M0 -8 C-3 0 -2 8 0 15" }),
    svg("path", { class: "mj-leaf", d: "M1 -10 C4 -18 12 -19 15 -15 C11 -11 5 -10 1 -10Z" }),
  ];
}

function lemon() {
  return [
    svg("path", {
      class: "mj-fruit mj-fruit--lemon",
      d: "M-18 2 C-14 -10 -4 -13 6 -11 C12 -10 17 -6 19 -1 C15 9 6 13 -4 12 C-10 11 -15 8 -18 2Z",
    }),
    svg("path", { class: "mj-fruit-line", d: "M-9 1 C-3 -4 4 -5 10 -2" }),
  ];
}

function orange() {
  return [
    svg("circle", { class: "mj-fruit mj-fruit--orange", cx: 0, cy: 3, r: 14 }),
    svg("circle", { class: "mj-fruit-dot", cx: -5, cy: 0, r: 1.3 }),
    svg("circle", { class: "mj-fruit-dot", cx: 4, cy: 6, r: 1.3 }),
    svg("circle", { class: "mj-fruit-dot", cx: 6, cy: -3, r: 1.3 }),
    svg("path", { class: "mj-leaf", d: "M0 -11 C-3 -17 -10 -18 -13 -15 C-9 -11 -4 -10 0 -11Z" }),
    svg("path", { class: "mj-leaf", d: "M0 -11 C3 -17 10 -18 13 -15 C9 -11 4 -10 0 -11Z" }),
  ];
}

function strawberry() {
  const seeds = [
    [-6, -3],
    [0, -4],
    [6, -3],
    [-4, 4],
    [4, 4],
    [0, 10],
  ].map(([x, y]) => svg("ellipse", { class: "mj-seed", cx: x, cy: y, rx: 1.1, ry: 1.6 }));
  return [
    svg("path", {
      class: "mj-fruit mj-fruit--strawberry",
      d: "M-14 -8 C-8 -12 8 -12 14 -8 C16 0 8 12 0 17 C-8 12 -16 0 -14 -8Z",
    }),
    ...seeds,
    svg("path", {
      class: "mj-leaf",
      d: "M-10 -10 L-4 -13 L0 -17 L4 -13 L10 -10 L4 -9 L0 -11 L-4 -9Z",
    }),
  ];
}

const FRUIT_ART = { M: peach, L: lemon, O: orange, S: strawberry };

// --- pictures (centred on 0,0, about 40 units across) -----------------------------------------

function dog() {
  return [
    svg("path", { class: "mj-pic-dark", d: "M-15 -10 C-22 -8 -22 8 -15 10 L-11 -4Z" }),
    svg("path", { class: "mj-pic-dark", d: "M15 -10 C22 -8 22 8 15 10 L11 -4Z" }),
    svg("circle", { class: "mj-pic mj-pic--dog", cx: 0, cy: 0, r: 13 }),
    svg("ellipse", { class: "mj-pic-light", cx: 0, cy: 6, rx: 7, ry: 5 }),
    svg("circle", { class: "mj-eye", cx: -5, cy: -3, r: 1.8 }),
    svg("circle", { class: "mj-eye", cx: 5, cy: -3, r: 1.8 }),
    svg("ellipse", { class: "mj-eye", cx: 0, cy: 3, rx: 2.6, ry: 1.8 }),
  ];
}

function monkey() {
  return [
    svg("circle", { class: "mj-pic mj-pic--monkey", cx: -14, cy: 0, r: 5 }),
    svg("circle", { class: "mj-pic mj-pic--monkey", cx: 14, cy: 0, r: 5 }),
    svg("circle", { class: "mj-pic mj-pic--monkey", cx: 0, cy: 0, r: 13 }),
    svg("path", {
      class: "mj-pic-face",
      d: "M0 -5 C3 -10 10 -9 9 -3 C11 3 7 10 0 10 C-7 10 -11 3 -9 -3 C-10 -9 -3 -10 0 -5Z",
    }),
    svg("circle", { class: "mj-eye", cx: -4, cy: -2, r: 1.6 }),
    svg("circle", { class: "mj-eye", cx: 4, cy: -2, r: 1.6 }),
    svg("path", { class: "mj-mouth", d: "M-3 5 Q0 7 3 5" }),
  ];
}

function pheasant() {
  return [
    svg("path", { class: "mj-pic-dark", d: "M-4 4 L-22 14 L-20 10 L-24 8 L-6 0Z" }),
    svg("ellipse", { class: "mj-pic mj-pic--pheasant", cx: 2, cy: 4, rx: 11, ry: 8 }),
    svg("path", { class: "mj-pic-neck", d: "M6 0 C6 -8 8 -14 12 -14 C16 -14 16 -9 13 -6 L11 2Z" }),
    svg("path", { class: "mj-pic-red", d: "M11 -15 C13 -18 16 -17 16 -14 C14 -13 12 -13 11 -15Z" }),
    svg("path", { class: "mj-beak", d: "M15 -12 L20 -11 L15 -9Z" }),
    svg("circle", { class: "mj-eye", cx: 12.5, cy: -11, r: 1.2 }),
    svg("path", { class: "mj-fruit-line", d: "M-2 12 L-3 17 M5 12 L5 17" }),
  ];
}

function sun() {
  const rays = [];
  for (let i = 0; i < 12; i += 1) {
    const a = (i * Math.PI) / 6;
    const x1 = Math.cos(a) * 13;
    const y1 = Math.sin(a) * 13;
    const x2 = Math.cos(a) * 19;
    const y2 = Math.sin(a) * 19;
    rays.push(
      svg("path", {
        class: "mj-ray",
        d: `M${x1.toFixed(1)} ${y1.toFixed(1)} L${x2.toFixed(1)} ${y2.toFixed(1)}`,
      }),
    );
  }
  return [...rays, svg("circle", { class: "mj-pic mj-pic--sun", cx: 0, cy: 0, r: 10.5 })];
}

function moon() {
  return [
    svg("path", {
      class: "mj-pic mj-pic--moon",
      d: "M4 -16 C-8 -16 -16 -7 -16 2 C-16 12 -7 18 4 16 C-4 12 -8 6 -8 0 C-8 -7 -4 -13 4 -16Z",
    }),
    svg("circle", { class: "mj-star", cx: 10, cy: -6, r: 1.8 }),
    svg("circle", { class: "mj-star", cx: 13, cy: 6, r: 1.2 }),
  ];
}

const PICTURE_ART = { dog, monkey, pheasant, sun, moon };

const STAR = "M0 -6 L1.8 -1.9 L6 -1.9 L2.6 0.8 L3.8 5 L0 2.5 L-3.8 5 L-2.6 0.8 L-6 -1.9 L-1.8 -1.9Z";

/**
 * On a card laid sideways its words and numbers are turned back upright about their centre
 * (`cx`, `cy` in the card's own units), so an 8 never reads as ∞ nor a 3 as ω.
 */
function upright(sideways, cx, cy) {
  return sideways ? { transform: `rotate(-90 ${cx} ${cy})` } : {};
}

function face(card, sideways = false) {
  const parts = [];
  if (!card) {
    parts.push(svg("rect", { class: "mj-back", x: 1, y: 1, width: W - 2, height: H - 2, rx: 6 }));
    parts.push(
      svg("rect", { class: "mj-back-inner", x: 6, y: 6, width: W - 12, height: H - 12, rx: 4 }),
    );
    parts.push(svg("g", { transform: `translate(${W / 2} ${H / 2}) scale(0.8)` }, peach()));
    return parts;
  }
  const peachCard = isPeach(card);
  parts.push(
    svg("rect", {
      class: `mj-face${peachCard ? " mj-face--wild" : ""}`,
      x: 1,
      y: 1,
      width: W - 2,
      height: H - 2,
      rx: 6,
    }),
  );
  if (PICTURES.includes(card)) {
    parts.push(svg("g", { transform: `translate(${W / 2} 34)` }, PICTURE_ART[card]()));
    const word = t(`momojan.card.face.${card}`);
    // One kanji large; longer names smaller, so "Pheasant" still fits the card's width.
    const size = word.length === 1 ? 17 : Math.min(15, Math.floor(88 / word.length));
    parts.push(
      svg(
        "text",
        {
          class: `mj-kanji mj-ink--${card}`,
          x: W / 2,
          y: 73,
          "text-anchor": "middle",
          "font-size": size,
          ...upright(sideways, W / 2, 73 - size * 0.35),
        },
        word,
      ),
    );
    return parts;
  }
  const fruit = card[0];
  const number = card.slice(1);
  if (peachCard) {
    parts.push(
      svg("rect", {
        class: "mj-wild-frame",
        x: 4,
        y: 4,
        width: W - 8,
        height: H - 8,
        rx: 4,
      }),
    );
    parts.push(svg("path", { class: "mj-wild-star", d: STAR, transform: "translate(47 14)" }));
  }
  parts.push(
    svg(
      "text",
      {
        class: `mj-num mj-ink--${fruit}`,
        x: 7,
        y: 30,
        "font-size": 28,
        ...upright(sideways, 15.5, 20),
      },
      number,
    ),
  );
  parts.push(svg("g", { transform: `translate(${W / 2 + 2} 58)` }, FRUIT_ART[fruit]()));
  return parts;
}

/**
 * One card as an <svg>: `card` null draws its back. `sideways` lays it on its side (the riichi
 * discard, a claimed card in an open set). Extra `cls` classes go on the <svg>.
 */
export function cardSVG(card, { sideways = false, cls = "", label = true } = {}) {
  const kind = !card ? "back" : PICTURES.includes(card) ? "picture" : "fruit";
  const node = svg(
    "svg",
    {
      class: `mj-card mj-card--${kind}${sideways ? " mj-card--sideways" : ""}${isPeach(card) ? " mj-card--wild" : ""} ${cls}`.trim(),
      viewBox: sideways ? `0 0 ${H} ${W}` : `0 0 ${W} ${H}`,
      "data-card": card ?? "",
      role: label ? "img" : null,
      "aria-label": label ? cardName(card) : null,
      "aria-hidden": label ? null : "true",
    },
    sideways ? svg("g", { transform: `translate(${H} 0) rotate(90)` }, face(card, true)) : face(card),
  );
  return node;
}

/** Points as text; below zero with a true minus sign (U+2212), never a hyphen. */
export function pointsText(points) {
  return points < 0 ? `\u2212${-points}` : String(points);
}

/** Point sticks for `points`: as many 10s, then 5s, then 1s as fit (the rulebook's red, blue
 * and white sticks), each kind drawn once with its count beside it. */
export function sticks(points) {
  const out = [];
  let left = Math.max(0, points);
  for (const [value, cls] of [
    [10, "ten"],
    [5, "five"],
    [1, "one"],
  ]) {
    const count = Math.floor(left / value);
    left -= count * value;
    if (!count) continue;
    const dots =
      value === 10
        ? [svg("circle", { class: "mj-stick-dot", cx: 20, cy: 4, r: 2.2 })]
        : value === 5
          ? [8, 14, 20, 26, 32].map((cx) => svg("circle", { class: "mj-stick-dot", cx, cy: 4, r: 1.1 }))
          : [svg("circle", { class: "mj-stick-dot", cx: 20, cy: 4, r: 1.3 })];
    out.push({
      value,
      count,
      icon: svg(
        "svg",
        { class: `mj-stick mj-stick--${cls}`, viewBox: "0 0 40 8", "aria-hidden": "true" },
        svg("rect", { class: "mj-stick-body", x: 0.5, y: 0.5, width: 39, height: 7, rx: 3.5 }),
        ...dots,
      ),
    });
  }
  return out;
}
