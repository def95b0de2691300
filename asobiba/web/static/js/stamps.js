// The chat stamps' pictures: drawn symbols of static/svg/stamps.svg (social/chat.py STAMPS),
// never emoji characters, which show as empty boxes where no emoji font is installed.
import { svg } from "./dom.js";
import { t } from "./i18n.js";

const SPRITE = "/static/svg/stamps.svg";

/** A stamp's picture (decorative: its words say it). */
export function stampIcon(stamp) {
  return svg(
    "svg",
    { class: "stamp-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    svg("use", { href: `${SPRITE}#${stamp}` }),
  );
}

/** A stamp's words ("Nice!"), or its key where the page has none. */
export function stampWords(stamp) {
  const key = `chat.stamp.${stamp}`;
  const said = t(key);
  return said === key ? stamp : said;
}

/** A stamp as a chat line shows it: its picture and its words. */
export function stampContent(stamp) {
  return [stampIcon(stamp), stampWords(stamp)];
}
