// Mokochaka's cards and words: the SVG card face (drawn here, no image files), the card
// notation ("moko3" = three Moko) and the call words (romaji, as the engine spells them in
// `CALLS`, and how the page shows them: katakana in Japanese, capitalised romaji in English).
import { LANG, t } from "../i18n.js";
import { svg } from "../dom.js";

/** The animals in the order of the call pad (and their keys 1-4). */
export const ANIMALS = ["moko", "paka", "pome", "gabu"];

/** The special calls (each one a grab) in the order of the pad (keys 7-9). */
export const SPECIALS = ["mokochaka", "chakamoko", "chakamokochaka"];

const SYLLABLES = ["moko", "paka", "pome", "gabu", "chaka"];
const KANA = { moko: "モコ", paka: "パカ", pome: "ポメ", gabu: "ガブ", chaka: "チャカ" };

/** `"moko3"` → `{animal: "moko", count: 3}`; null for anything else. */
export function parseCard(text) {
  const match = /^(moko|paka|pome|gabu)([1-4])$/.exec(text ?? "");
  return match ? { animal: match[1], count: Number(match[2]) } : null;
}

/** A romaji word split into its syllables: "pakamoko" → ["paka", "moko"]. */
export function syllables(word) {
  const parts = [];
  let rest = word;
  while (rest) {
    const next = SYLLABLES.find((syllable) => rest.startsWith(syllable));
    if (!next) return [word];
    parts.push(next);
    rest = rest.slice(next.length);
  }
  return parts;
}

/** A call word as the page shows it: モコチャカ in Japanese, Mokochaka in English. */
export function wordText(word) {
  if (!word) return "";
  if (LANG === "ja") return syllables(word).map((syllable) => KANA[syllable] ?? syllable).join("");
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One animal's name ("モコ" / "Moko"). */
export function animalName(animal) {
  return wordText(animal);
}

/** A card in words, for screen readers and the log: "モコ3匹" / "3 Moko". */
export function cardText(card) {
  const parsed = typeof card === "string" ? parseCard(card) : card;
  if (!parsed) return "";
  return t("moko.card", { animal: animalName(parsed.animal), n: parsed.count });
}

// Where the animals sit on a card of 1-4 (centres in the 100 × 140 card, and their size).
const LAYOUTS = {
  1: { size: 1.45, at: [[50, 72]] },
  2: { size: 1.05, at: [[50, 50], [50, 98]] },
  3: { size: 0.95, at: [[30, 52], [70, 52], [50, 97]] },
  4: { size: 0.85, at: [[29, 55], [71, 55], [29, 98], [71, 98]] },
};

// Each animal has its own outline, so the cards differ by shape as well as colour:
// Moko a round fluffy cloud, Paka a tall alpaca head with long ears, Pome a many-pointed
// fluffy star, Gabu a pointed head with a jaw full of teeth.
function animalShape(animal) {
  const g = svg("g", { class: `mk-animal mk-animal--${animal}` });
  if (animal === "moko") {
    for (const [x, y, r] of [
      [-9, -6, 9],
      [9, -6, 9],
      [-12, 6, 8],
      [12, 6, 8],
      [0, 10, 10],
      [0, -10, 9],
      [0, 1, 12],
    ]) {
      g.append(svg("circle", { class: "mk-body", cx: x, cy: y, r }));
    }
    g.append(
      svg("circle", { class: "mk-eye", cx: -4.5, cy: 1, r: 2 }),
      svg("circle", { class: "mk-eye", cx: 4.5, cy: 1, r: 2 }),
    );
  } else if (animal === "paka") {
    g.append(
      svg("path", { class: "mk-body", d: "M-11 -20 l4 -10 l4 11 z M11 -20 l-4 -10 l-4 11 z" }),
      svg("rect", { class: "mk-body", x: -12, y: -20, width: 24, height: 40, rx: 11 }),
      svg("ellipse", { class: "mk-snout", cx: 0, cy: 11, rx: 8, ry: 6 }),
      svg("circle", { class: "mk-eye", cx: -5, cy: -5, r: 2 }),
      svg("circle", { class: "mk-eye", cx: 5, cy: -5, r: 2 }),
    );
  } else if (animal === "pome") {
    const points = [];
    for (let i = 0; i < 20; i += 1) {
      const angle = (Math.PI * i) / 10 - Math.PI / 2;
      const r = i % 2 ? 13 : 19;
      points.push(`${(r * Math.cos(angle)).toFixed(1)},${(r * Math.sin(angle)).toFixed(1)}`);
    }
    g.append(
      svg("polygon", { class: "mk-body", points: points.join(" ") }),
      svg("circle", { class: "mk-eye", cx: -5, cy: -2, r: 2 }),
      svg("circle", { class: "mk-eye", cx: 5, cy: -2, r: 2 }),
      svg("circle", { class: "mk-nose", cx: 0, cy: 4, r: 1.8 }),
    );
  } else {
    g.append(
      svg("path", { class: "mk-body", d: "M0 -21 L19 12 Q0 22 -19 12 Z" }),
      svg("path", {
        class: "mk-teeth",
        d: "M-12 8 L-8 14 L-4 8 L0 14 L4 8 L8 14 L12 8 Z",
      }),
      svg("path", { class: "mk-brow", d: "M-9 -4 l6 3 M9 -4 l-6 3" }),
      svg("circle", { class: "mk-eye", cx: -5, cy: 1, r: 2 }),
      svg("circle", { class: "mk-eye", cx: 5, cy: 1, r: 2 }),
    );
  }
  return g;
}

/**
 * The face of a card as an SVG (viewBox 100 × 140): the animals, as many as the card shows,
 * the number large in a corner and the name at the foot. `card` is notation ("moko3") or null
 * for an empty pile's outline.
 */
export function cardFace(card, { label = null } = {}) {
  const parsed = typeof card === "string" ? parseCard(card) : card;
  const root = svg("svg", {
    class: `mk-card${parsed ? ` mk-card--${parsed.animal}` : " mk-card--empty"}`,
    viewBox: "0 0 100 140",
    role: "img",
    "aria-label": label ?? (parsed ? cardText(parsed) : t("moko.empty_pile")),
  });
  if (!parsed) {
    root.append(svg("rect", { class: "mk-card-slot", x: 3, y: 3, width: 94, height: 134, rx: 10 }));
    return root;
  }
  root.append(svg("rect", { class: "mk-card-bg", x: 2, y: 2, width: 96, height: 136, rx: 10 }));
  const layout = LAYOUTS[parsed.count];
  for (const [x, y] of layout.at) {
    const shape = animalShape(parsed.animal);
    shape.setAttribute("transform", `translate(${x} ${y}) scale(${layout.size})`);
    root.append(shape);
  }
  root.append(
    svg("circle", { class: "mk-card-badge", cx: 18, cy: 18, r: 13 }),
    svg("text", { class: "mk-card-count", x: 18, y: 19 }, String(parsed.count)),
    svg("text", { class: "mk-card-name", x: 50, y: 131 }, animalName(parsed.animal)),
  );
  return root;
}
