// The MICHIKAKE table, drawn from one seat's observation (docs/ARCHITECTURE.md, "MICHIKAKE
// specifics"): the other seats in turn order from the viewer's left (name, crest, points,
// dealer, steals, a hand of backs, cards shown by steals, the discard row with every card kept
// and the claimed ones marked), the middle (deal, pile, the discard under claim with its
// countdown), and the viewer (the same, then the hand as discard buttons with the drawn card set
// apart, and the own bonus card). Everything comes from the observation and the legal list:
// the table knows no rule of its own. Also the replay viewer's board (`mountReplay`, `describe`,
// `summary`).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { seatName } from "../seat-names.js";
import { TableView } from "../table-view.js";
import { cardName, cardSVG, suitIcon } from "./cards.js";

const PAUSE = { slow: 900, normal: 450, fast: 160, instant: 0 };

/** The seats in turn order starting at `seat` (play passes to the left, seat + 1). */
export function seatsFrom(seat, players) {
  return Array.from({ length: players }, (_, i) => (seat + i) % players);
}

/**
 * Seat names: "You" for the viewer, a person by the name they sat down with, a computer "CPU n"
 * (the seat's number from 1, the same for every viewer: seat-names.js). `players` is
 * `[{kind: "bot" | "human", name?}]` by seat (may be empty before the first sync).
 * The namer keeps `viewer`, so sentences about seats can speak to the viewer (`said`).
 */
export function seatNamer({ viewer, players }) {
  const name = (seat) => seatName(seat, players, viewer);
  name.viewer = viewer;
  return name;
}

/**
 * The sentence `key` about `seat` (and the seat it took from, `from`), in the second person
 * when one of them is the viewer: `key.you` when the viewer is `seat` ("You won on your own
 * draw"), `key.from_you` when it is `from` ("CPU 2 won on your discard"). `name` is a
 * `seatNamer`.
 */
export function said(key, name, { seat, from = null, ...params }) {
  const viewer = name.viewer ?? null;
  const words = { ...params, name: name(seat), from: from === null ? "" : name(from) };
  if (viewer !== null && seat === viewer) return t(`${key}.you`, words);
  if (viewer !== null && from === viewer) return t(`${key}.from_you`, words);
  return t(key, words);
}

/** The bonus card's name, "Odd Stages". */
export function bonusName(id) {
  return t(`michikake.bonus.${id}`);
}

export class MichikakeTable extends TableView {
  /**
   * @param {HTMLElement} root
   * @param {{name: (seat: number) => string, onDiscard?: (card: string) => void}} options
   */
  constructor(root, { name, onDiscard = null }) {
    super(root, PAUSE);
    this.name = name;
    this.onDiscard = onDiscard;
    root.classList.add("mk");
  }

  /** The claim window's remaining share (1 → 0), drawn as the countdown bar. */
  setCountdown(share, seconds) {
    const bar = this.root.querySelector(".mk-countdown-bar");
    const text = this.root.querySelector(".mk-countdown-text");
    if (bar) bar.style.transform = `scaleX(${Math.max(0, Math.min(1, share))})`;
    if (text) text.textContent = t("michikake.claim_seconds", { s: Math.max(0, Math.ceil(seconds)) });
  }

  // --- rendering --------------------------------------------------------------------------

  render() {
    const obs = this.obs;
    if (!obs) return;
    const order = seatsFrom(this.seat, obs.players);
    this.root.dataset.players = String(obs.players);
    this.root.dataset.phase = obs.phase;
    this.root.replaceChildren(
      h("div", { class: "mk-others" }, ...order.slice(1).map((seat) => this.seatBox(seat))),
      this.middle(),
      this.seatBox(order[0], { mine: true }),
    );
  }

  seatBox(seat, { mine = false } = {}) {
    const obs = this.obs;
    const moving = obs.phase === "discard" && obs.turn === seat;
    const discarding = obs.window?.discarder === seat;
    const parts = [this.seatHead(seat)];
    if (!mine || !obs.hand) parts.push(this.backs(seat));
    if (obs.shown[seat].length) {
      parts.push(
        h(
          "div",
          { class: "mk-shown", "aria-label": t("michikake.shown") },
          h("span", { class: "mk-row-label" }, t("michikake.shown")),
          h("span", { class: "mk-row-cards" }, obs.shown[seat].map((card) => cardSVG(card, { cls: "mk-card--small" }))),
        ),
      );
    }
    parts.push(this.discardRow(seat));
    if (mine && obs.hand) parts.push(this.hand());
    return h(
      "section",
      {
        class: `mk-seat${mine ? " mk-seat--mine" : ""}${moving ? " is-moving" : ""}${discarding ? " is-discarding" : ""}`,
        "data-seat": String(seat),
        "aria-label": this.name(seat),
      },
      ...parts,
    );
  }

  seatHead(seat) {
    const obs = this.obs;
    const crest = obs.crests[seat];
    const badges = [];
    if (obs.dealer === seat && obs.phase !== "over") {
      badges.push(h("span", { class: "badge badge--primary mk-dealer" }, t("michikake.dealer")));
    }
    if (obs.steals[seat]) {
      badges.push(h("span", { class: "badge mk-steals" }, t("michikake.steals", { n: obs.steals[seat] })));
    }
    return h(
      "div",
      { class: "mk-seat-head" },
      h("span", { class: "mk-name" }, this.name(seat)),
      crest
        ? h(
            "span",
            { class: "mk-crest", "data-crest": crest, title: t("michikake.crest") },
            suitIcon(crest),
            h("span", {}, t("michikake.crest_of", { suit: t(`michikake.suit.${crest}`) })),
          )
        : null,
      ...badges,
      h("span", { class: "mk-points", "data-points": obs.points[seat] }, t("michikake.points", { n: obs.points[seat] })),
    );
  }

  backs(seat) {
    const n = this.obs.hand_sizes[seat];
    // A finished session's replay may show every hand and bonus card (the game's `reveal`).
    const cards = this.obs.hands?.[seat];
    if (cards) {
      const bonus = this.obs.bonuses?.[seat];
      return h(
        "div",
        { class: "mk-backs mk-revealed", "data-count": cards.length },
        cards.map((card) => cardSVG(card, { cls: "mk-card--small" })),
        bonus
          ? h("span", { class: "badge mk-bonus-revealed", title: t(`michikake.bonus.${bonus}.text`) }, bonusName(bonus))
          : null,
      );
    }
    return h(
      "div",
      { class: "mk-backs", role: "img", "aria-label": t("michikake.hidden_hand", { n }), "data-count": n },
      Array.from({ length: n }, () => cardSVG(null, { cls: "mk-card--tiny", label: false })),
    );
  }

  discardRow(seat) {
    const obs = this.obs;
    const row = obs.discards[seat];
    const open = obs.window && obs.window.discarder === seat;
    const cards = row.map((entry, i) => {
      const taken = entry.taken_by !== null && entry.taken_by !== undefined;
      const claimed = open && i === row.length - 1;
      return h(
        "span",
        {
          class: `mk-discard${taken ? " is-taken" : ""}${claimed ? " is-open" : ""}`,
          "data-card": entry.card,
          title: taken ? said("michikake.taken_by", this.name, { seat: entry.taken_by, card: cardName(entry.card) }) : cardName(entry.card),
        },
        cardSVG(entry.card, { cls: "mk-card--small" }),
        taken ? h("span", { class: "mk-taken-mark" }, t("michikake.taken_mark", { name: this.name(entry.taken_by) })) : null,
      );
    });
    return h(
      "div",
      { class: "mk-discards", "aria-label": said("michikake.discards_of", this.name, { seat }) },
      cards.length ? cards : h("span", { class: "mk-empty-row muted" }, t("michikake.no_discards")),
    );
  }

  middle() {
    const obs = this.obs;
    const items = [
      h("span", { class: "mk-deal" }, t("michikake.deal", { n: obs.deal + 1, of: obs.players })),
      h("span", { class: "mk-pile", "data-pile": obs.pile }, t("michikake.pile", { n: obs.pile })),
    ];
    if (obs.bonus) {
      items.push(
        h(
          "span",
          { class: "mk-bonus", "data-bonus": obs.bonus, title: t(`michikake.bonus.${obs.bonus}.text`) },
          h("span", { class: "mk-bonus-label" }, t("michikake.your_bonus")),
          h("strong", {}, bonusName(obs.bonus)),
          h("span", { class: "mk-bonus-text" }, t(`michikake.bonus.${obs.bonus}.text`)),
        ),
      );
    }
    const window = obs.window;
    const claim = window
      ? h(
          "div",
          { class: "mk-claim", role: "status" },
          h("span", { class: "mk-claim-text" }, t("michikake.claim_open", { name: this.name(window.discarder) })),
          cardSVG(window.card),
          h(
            "span",
            { class: "mk-countdown" },
            h("span", { class: "mk-countdown-track" }, h("span", { class: "mk-countdown-bar" })),
            h("span", { class: "mk-countdown-text" }),
          ),
        )
      : null;
    return h("div", { class: "mk-middle" }, h("div", { class: "mk-info" }, ...items), claim);
  }

  hand() {
    const obs = this.obs;
    const rest = [...obs.hand];
    const drawn = obs.drawn;
    if (drawn) rest.splice(rest.indexOf(drawn), 1);
    const can = new Set(this.legal.filter((a) => "discard" in a).map((a) => a.discard));
    const shown = [...obs.shown[obs.seat]];
    const button = (card, index, isDrawn) => {
      const ok = can.has(card);
      const isShown = shown.includes(card);
      if (isShown) shown.splice(shown.indexOf(card), 1);
      return h(
        "button",
        {
          type: "button",
          class: `mk-hand-card${isDrawn ? " is-drawn" : ""}${ok ? " is-legal" : ""}${isShown ? " is-shown" : ""}`,
          "data-card": card,
          "data-index": String(index),
          disabled: !ok,
          "aria-label": ok ? t("michikake.discard_card", { card: cardName(card) }) : cardName(card),
          onclick: () => ok && this.onDiscard?.(card),
        },
        cardSVG(card, { label: false }),
        h("kbd", { class: "mk-key" }, String(index + 1)),
      );
    };
    const cards = rest.map((card, i) => button(card, i, false));
    if (drawn) cards.push(h("span", { class: "mk-gap", "aria-hidden": "true" }), button(drawn, rest.length, true));
    return h("div", { class: "mk-hand", role: "group", "aria-label": t("michikake.your_hand") }, ...cards);
  }

  // --- words ------------------------------------------------------------------------------

  /** What happened since `previous`, one line per public event; a frame that changed only
   * the viewer's own secret answer in a claim window (or readiness between deals) says so. */
  describe(obs, previous = null) {
    const answer = obs.window?.answer;
    if (previous && obs.ply === previous.ply && answer && answer !== previous.window?.answer) {
      return [t(`michikake.ev.answer_${answer}`)];
    }
    if (previous && obs.ply === previous.ply && obs.break?.ready && !previous.break?.ready) {
      return [t("michikake.ev.ready")];
    }
    return (obs.last ?? []).map((event) => eventLine(event, this.name)).filter(Boolean);
  }
}

/** One public event in words. */
export function eventLine(event, name) {
  switch (event.type) {
    case "deal":
      return said("michikake.ev.deal", name, { seat: event.dealer, n: event.deal + 1 });
    case "draw":
      return event.card
        ? t("michikake.ev.draw_own", { card: cardName(event.card) })
        : t("michikake.ev.draw", { name: name(event.seat) });
    case "discard":
      return t("michikake.ev.discard", { name: name(event.seat), card: cardName(event.card) });
    case "steal":
      return said("michikake.ev.steal", name, {
        seat: event.seat,
        from: event.from,
        card: cardName(event.card),
        cost: event.cost,
      });
    case "win":
      return event.from === null
        ? said("michikake.ev.win_draw", name, { seat: event.seat, total: event.total })
        : said("michikake.ev.win_discard", name, { seat: event.seat, from: event.from, total: event.total });
    case "exhausted":
      return t("michikake.ev.exhausted");
    case "end":
      return t(`michikake.ev.end_${event.end}`);
    default:
      return null;
  }
}

// --- the replay viewer's module contract (replay.js): mountReplay, describe, summary ---------

let replayTable = null;

/** Draw the replay's table in `stage`, seats named from the viewer's side. */
export function mountReplay(stage, { seat, viewer, players }) {
  const root = h("div", { class: "mk", id: "board" });
  stage.append(root);
  replayTable = new MichikakeTable(root, { name: seatNamer({ viewer, players }) });
  replayTable.setSeat(seat);
  return replayTable;
}

/** What a replay frame shows: its public events in words ("Starting position" first). */
export function describe(frame, { previous }) {
  return previous ? (replayTable?.describe(frame, previous) ?? []) : t("replay.start");
}

/** The line under the replay's title: the number of players and the bots' level. */
export function summary({ players, level }) {
  return t("michikake.summary", { n: players.length, level });
}

// Names of moves for the review of a finished game (review.js).
export { moveName, reviewWords } from "./moves.js";
