// What the profile and leaderboard pages share about ratings (docs/ARCHITECTURE.md, "Ratings"):
// a rule family's name, a rating as people read it ("1623?" while provisional), and the history
// chart, drawn in SVG by our own code.
import { svg } from "./dom.js";
import { LANG, t, tn } from "./i18n.js";

/** The family's name: the game's name alone where it has one family ("MOMOJAN"), else its own
 * word ("Kalah") or its number of players ("3 players"). */
export function familyName(game, family, families) {
  if ((families ?? []).length <= 1) return t(`game.${game}.name`);
  const key = `rating.family.${game}.${family}`;
  if (t(key) !== key) return t(key);
  const players = /^(\d+)p?$/.exec(family);
  return players ? t("records.players", { n: Number(players[1]) }) : family;
}

/** "Mancala · Kalah", or "MOMOJAN" for a game with one family. */
export function keyName(key, games) {
  const [game, family] = key.split("/");
  const info = (games ?? []).find((entry) => entry.game === game);
  const name = familyName(game, family, info?.families);
  return (info?.families ?? []).length <= 1 ? name : `${t(`game.${game}.name`)}${t("rule.sep")}${name}`;
}

/** A rating rounded as shown, with "?" while provisional (lichess's mark). */
export function ratingText(rating) {
  return `${Math.round(rating.rating)}${rating.provisional ? "?" : ""}`;
}

/** "±87 · 12 games". */
export function ratingDetail(rating) {
  return `±${Math.round(rating.rd)}${t("rule.sep")}${tn("rating.games", rating.games)}`;
}

export function when(value, style = "medium") {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(LANG, { dateStyle: style }).format(date);
}

const H = 190;
const PAD = { left: 48, right: 12, top: 14, bottom: 26 };
const PROVISIONAL_RD = 110;

/** Round numbers for the y axis: about three of them between `low` and `high`. */
function ticks(low, high) {
  const span = Math.max(high - low, 1);
  const step = [25, 50, 100, 200, 250, 500].find((s) => span / s <= 4) ?? 1000;
  const first = Math.ceil(low / step) * step;
  const marks = [];
  for (let v = first; v <= high; v += step) marks.push(v);
  return marks;
}

/**
 * The rating over its games: a point per game (the rating after it; the first point is where
 * the first game started), the band of ± one RD around it, hollow points while provisional, a
 * dashed line at 1500 where every player starts. `history` as GET /api/players/{id}/ratings/…
 * gives it, oldest first; null when there is none. `width`: the box's width in pixels, so the
 * labels keep their size on a phone (the drawing still scales with the box after).
 */
export function historyChart(history, width = 640) {
  if (!history.length) return null;
  const W = Math.max(280, Math.round(width));
  const points = [
    { rating: history[0].before, rd: 350, at: history[0].at },
    ...history.map((step) => ({ rating: step.after, rd: step.rd, at: step.at })),
  ];
  const values = points.flatMap((p, i) => (i === 0 ? [p.rating] : [p.rating - p.rd, p.rating + p.rd]));
  let low = Math.min(...values, ...points.map((p) => p.rating)) - 10;
  let high = Math.max(...values) + 10;
  // The band of the first games is wide: keep the line readable, the band clipped to the box.
  const line = points.map((p) => p.rating);
  low = Math.max(low, Math.min(...line) - 150);
  high = Math.min(high, Math.max(...line) + 150);
  const x = (i) => PAD.left + ((W - PAD.left - PAD.right) * i) / Math.max(points.length - 1, 1);
  const y = (v) => PAD.top + ((H - PAD.top - PAD.bottom) * (high - v)) / (high - low);
  const clamp = (v) => Math.min(Math.max(v, low), high);
  const upper = points.slice(1).map((p, i) => `${x(i + 1)},${y(clamp(p.rating + p.rd))}`);
  const lower = points
    .slice(1)
    .map((p, i) => `${x(i + 1)},${y(clamp(p.rating - p.rd))}`)
    .reverse();
  const band = [`${x(0)},${y(points[0].rating)}`, ...upper, ...lower].join(" ");
  const first = Math.round(points[0].rating);
  const last = Math.round(points[points.length - 1].rating);
  const label = t("rating.chart_label", { from: first, to: last, n: history.length });
  return svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "rating-chart-svg", role: "img", "aria-label": label },
    svg("title", {}, label),
    ticks(low, high).map((v) => [
      svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "rating-chart-grid" }),
      svg("text", { x: PAD.left - 6, y: y(v) + 4, class: "rating-chart-label" }, String(v)),
    ]),
    low < 1500 && 1500 < high
      ? svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(1500), y2: y(1500), class: "rating-chart-start" })
      : null,
    history.length > 0 ? svg("polygon", { points: band, class: "rating-chart-band" }) : null,
    svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "rating-chart-line" }),
    points.slice(1).map((p, i) =>
      svg("circle", {
        cx: x(i + 1),
        cy: y(p.rating),
        r: points.length > 40 ? 2.5 : points.length > 20 ? 3 : 4,
        class: p.rd >= PROVISIONAL_RD ? "rating-chart-dot rating-chart-dot--provisional" : "rating-chart-dot",
      }),
    ),
    svg("text", { x: PAD.left, y: H - 6, class: "rating-chart-date" }, when(points[1].at)),
    history.length > 1
      ? svg("text", { x: W - PAD.right, y: H - 6, class: "rating-chart-date rating-chart-date--end" }, when(points[points.length - 1].at))
      : null,
  );
}
