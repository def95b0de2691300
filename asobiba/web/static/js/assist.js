// The Hint button of a card game's play page (MOMOJAN, MICHIKAKE): {"type": "hint"} on the
// room's socket, and the answer — the move the engine would make from the person's seat, why,
// and the points it expects — shown under the table until the position changes.
//
// Offered only to a seated person in a game against the computer, as the server checks again
// (Room.hint refuses anyone else); usable while that person has a choice to make, one hint at a
// time. Games with hints are counted apart in the records, and the page says so. The page knows
// no game's rules: the game's play page says when its person decides (`update`) and names moves
// (`moveName`); the words come from the server.
import { LANG, pick, t } from "./i18n.js";

/** Points with a sign ("+1.2", "−3", "0"). */
function signed(value) {
  const rounded = Math.round(value * 10) / 10;
  if (rounded === 0) return "0";
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded)}`;
}

export class Assist {
  /**
   * @param {object} o
   * @param {object} o.page the PlayPage (its seat, room, socket and page data)
   * @param {string} o.expect the i18n key of the expected points' sentence (`{n}` points)
   * @param {(action: object) => string | null} o.mark the selector of what to ring on the
   *   table for a hinted action (a card of the hand, a prompt button), or null
   */
  constructor({ page, expect, mark }) {
    this.page = page;
    this.expect = expect;
    this.mark = mark;
    this.box = document.getElementById("assist");
    this.button = document.getElementById("hint-button");
    this.said = document.getElementById("hint-said");
    this.asked = false;
    this.used = 0;
    this.canAsk = false;
    this.button.addEventListener("click", () => this.ask());
  }

  /** A new game at this page. */
  reset() {
    this.asked = false;
    this.used = 0;
    this.said.textContent = "";
  }

  /** A new position: the hint on show was for the last one. */
  clear() {
    this.said.textContent = "";
    for (const node of document.querySelectorAll(".is-hint-mark")) node.classList.remove("is-hint-mark");
  }

  /** Show the button (to a seated person against the computer only), usable when `canAsk`
   * (the person has a choice now) and no hint is on its way. */
  update({ canAsk, over }) {
    const seat = this.page.seat;
    const players = this.page.room?.players ?? [];
    const againstBots = players.every((player, s) => s === seat || player.kind === "bot");
    this.canAsk = canAsk;
    this.box.hidden = !this.page.data.hints || seat === null || !againstBots || over;
    this.button.disabled = !canAsk || this.asked;
    this.button.textContent = this.asked ? t("assist.thinking") : t("assist.ask");
    this.box.dataset.used = String(this.used);
  }

  /** A message from the room: true when it was the hint, now shown. An error ends the wait. */
  take(msg) {
    if (msg.type === "hint") {
      this.asked = false;
      this.used += 1;
      // Japanese sentences follow each other without a space.
      const gap = LANG === "ja" ? "" : " ";
      const lines = [
        t("assist.said_why", { why: pick(msg.why) }),
        typeof msg.value === "number" ? t(this.expect, { n: signed(msg.value) }) : "",
        t("assist.apart"),
      ];
      this.said.textContent = lines.filter(Boolean).join(gap);
      this.box.dataset.action = JSON.stringify(msg.action);
      const where = this.mark(msg.action);
      if (where) document.querySelector(where)?.classList.add("is-hint-mark");
      this.update({ canAsk: this.canAsk, over: false });
      return true;
    }
    if (msg.type === "error") this.asked = false;
    return false;
  }

  ask() {
    if (this.button.disabled || !this.page.socket) return;
    this.asked = true;
    this.update({ canAsk: this.canAsk, over: false });
    if (!this.page.socket.send({ type: "hint" })) {
      this.asked = false;
      this.update({ canAsk: this.canAsk, over: false });
    }
  }
}
