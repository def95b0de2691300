// MICHIKAKE's moves in words, for the review of a finished session and the replay (review.js
// names a move through the table module: `moveName`), and the review's words in points.
import { t } from "../i18n.js";
import { cardName } from "./cards.js";

/** A move in words: "throw Water 7", "steal", "pass". */
export function moveName(action) {
  if ("discard" in action) return t("michikake.move.discard", { card: cardName(action.discard) });
  return t(`michikake.move.${Object.keys(action)[0]}`);
}

/** The review's sentences for a game valued in points (review.js). */
export const reviewWords = {
  lost: "review.points.lost",
  legend: "review.points.legend",
  most: "review.points.most",
  moment: "review.points.moment",
  none: "review.points.none",
  caption: "michikake.review.caption",
};
