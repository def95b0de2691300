// The MOMOJAN table, drawn from one seat's observation (docs/ARCHITECTURE.md, "MOMOJAN
// specifics"): the opponent at the top (card backs, open sets, river), the middle (round and
// dealer, the dora indicator, the three piles, the middle stake), the viewer at the bottom (river,
// open sets, the hand in the player's own order (hand-order.js; sorted until they move a card)
// with the card just drawn set apart). A spectator sees both hands as backs; a finished game's
// replay may show them (`hands`). Also the replay viewer's board (`show`, `play`, `skip`, `busy`,
// `timing`, `describe`).
import { h } from "../dom.js";
import { TableView } from "../table-view.js";
import { t } from "../i18n.js";
import { cardName, cardSVG, doraName, pointsText, sticks } from "./cards.js";
import { arrange, enableReorder, loadOrder, saveOrder } from "./hand-order.js";

const PAUSE = { slow: 900, normal: 450, fast: 180, instant: 0 };

export class MomojanTable extends TableView {
  /**
   * @param {HTMLElement} root
   * @param {{seat?: number, onDiscard?: (card: string) => void, onDraw?: (pile: number) => void,
   *   names?: string[]}} options
   */
  constructor(root, { seat = 0, onDiscard = null, onDraw = null, names = null } = {}) {
    super(root, PAUSE);
    this.seat = seat;
    this.onDiscard = onDiscard;
    this.onDraw = onDraw;
    this.names = names ?? [t("momojan.seat", { n: 1 }), t("momojan.seat", { n: 2 })];
    this.riichiMode = false;
    this.queued = null;
    this.orderKey = null;
    this.order = null;
    this.reorder = null;
    this.heldBack = false;
    root.classList.add("mj");
  }

  /**
   * Let the viewer rearrange their hand, the order kept in sessionStorage under `key` (one per
   * room); null: the hand is shown sorted and cannot be dragged (the preview, a replay).
   */
  setOrderKey(key) {
    this.orderKey = key;
    this.order = loadOrder(key);
  }

  setNames(names) {
    this.names = names;
    if (this.obs) this.render();
  }

  /** Discards the viewer may make now, as {card: {plain, riichi}}. */
  discards() {
    const out = {};
    for (const action of this.legal) {
      if (action.type !== "discard") continue;
      out[action.card] ??= { plain: false, riichi: false };
      out[action.card][action.riichi ? "riichi" : "plain"] = true;
    }
    return out;
  }

  setRiichiMode(on) {
    this.riichiMode = on;
    if (this.obs) this.render();
  }

  /** Mark the pile a tap chose before the turn was shown (null: none). */
  setQueued(pile) {
    this.queued = pile;
    if (this.obs) this.render();
  }

  // --- rendering --------------------------------------------------------------------------

  render() {
    const obs = this.obs;
    if (!obs) return;
    if (this.reorder?.dragging()) {
      // Redrawing would drop the card in the player's fingers: draw when it is let go.
      this.heldBack = true;
      return;
    }
    this.heldBack = false;
    const bottom = this.seat;
    const top = 1 - bottom;
    this.root.replaceChildren(
      this.side(top, "them"),
      this.river(top, "them"),
      this.center(),
      this.river(bottom, "you"),
      this.side(bottom, "you"),
    );
  }

  player(seat, where) {
    const obs = this.obs;
    const points = obs.points[seat];
    const badges = [];
    if (obs.dealer === seat) {
      badges.push(h("span", { class: "badge badge--primary mj-dealer" }, t("momojan.dealer")));
    } else badges.push(h("span", { class: "badge mj-child" }, t("momojan.child")));
    if (obs.riichi[seat]) {
      badges.push(h("span", { class: "badge badge--accent mj-riichi" }, t("momojan.riichi_on")));
    }
    const moving = obs.to_move === seat && !obs.outcome;
    return h(
      "div",
      { class: `mj-player mj-player--${where}${moving ? " is-moving" : ""}` },
      h("span", { class: "player-name mj-name", id: `name-${where}` }, this.names[seat] ?? ""),
      ...badges,
      h(
        "span",
        { class: "mj-points", "data-points": points },
        h("span", { class: "mj-points-n" }, t("momojan.points", { n: pointsText(points) })),
        h(
          "span",
          { class: "mj-sticks", "aria-hidden": "true" },
          sticks(points).map((s) =>
            h("span", { class: "mj-stick-group" }, s.icon, h("span", {}, `×${s.count}`)),
          ),
        ),
      ),
    );
  }

  side(seat, where) {
    const obs = this.obs;
    const parts = [this.player(seat, where)];
    const melds = this.melds(seat);
    if (where === "them") parts.push(this.otherHand(seat), melds);
    else if (obs.hand && seat === obs.seat) {
      parts.push(melds, this.hand());
      if (this.orderKey) {
        parts.push(h("p", { class: "mj-hand-hint", id: "mj-hand-hint" }, t("momojan.reorder_hint")));
      }
    } else parts.push(melds, this.otherHand(seat));
    return h("div", { class: `mj-side mj-side--${where}` }, ...parts);
  }

  /** A hand the viewer does not hold: backs, or its cards in a finished game's replay with
   * every hand shown (the frame's `hands`, from the game's `reveal`). */
  otherHand(seat) {
    const cards = this.obs.hands?.[seat];
    if (!cards) return this.hiddenHand(seat);
    return h(
      "div",
      {
        class: "mj-hand mj-hand--revealed",
        role: "group",
        "aria-label": t("momojan.revealed_hand", { name: this.names[seat] ?? "" }),
        "data-count": cards.length,
      },
      cards.map((card) => cardSVG(card, { cls: "mj-card--small" })),
    );
  }

  hiddenHand(seat) {
    const n = this.obs.hand_sizes[seat];
    const backs = [];
    for (let i = 0; i < n; i += 1) backs.push(cardSVG(null, { cls: "mj-card--small", label: false }));
    return h(
      "div",
      {
        class: "mj-hand mj-hand--hidden",
        role: "img",
        "aria-label": t("momojan.hidden_hand", { n }),
        "data-count": n,
      },
      ...backs,
    );
  }

  /** The cards the viewer has just drawn (one, or three), set apart at the hand's right. */
  drawnCards() {
    const obs = this.obs;
    const last = obs.last;
    if (!last || last.seat !== obs.seat || !last.drew || last.round !== obs.round) return [];
    if (obs.to_move !== obs.seat || !["drawn", "drawn3"].includes(obs.phase)) return [];
    return last.drew;
  }

  hand() {
    const obs = this.obs;
    const drawn = [...this.drawnCards()];
    const rest = [...obs.hand];
    for (const card of drawn) {
      const i = rest.indexOf(card);
      if (i >= 0) rest.splice(i, 1);
    }
    const mine = this.orderKey ? arrange(this.order, rest) : rest;
    if (this.orderKey) {
      this.order = mine;
      saveOrder(this.orderKey, mine);
    }
    const can = this.discards();
    const myTurn = obs.to_move === obs.seat && !obs.outcome;
    // Never `disabled`: every card takes focus and pointer events, so it can be moved at any time.
    const button = (card, index, isDrawn) => {
      const allowed = can[card];
      const ok = myTurn && allowed && (this.riichiMode ? allowed.riichi : allowed.plain);
      return h(
        "button",
        {
          type: "button",
          class: `mj-hand-card${isDrawn ? " is-drawn" : ""}${ok ? " is-legal" : ""}`,
          "data-card": card,
          "data-index": index,
          "aria-disabled": ok ? null : "true",
          "aria-describedby": this.orderKey && !isDrawn ? "mj-hand-hint" : null,
          "aria-label": t(
            !ok ? "momojan.hand_card" : this.riichiMode ? "momojan.discard_riichi_card" : "momojan.discard_card",
            { card: cardName(card) },
          ),
          onclick: () => ok && this.onDiscard?.(card, this.riichiMode),
        },
        cardSVG(card, { label: false }),
      );
    };
    const row = h("div", { class: "mj-hand-main" }, ...mine.map((card, i) => button(card, i, false)));
    if (this.orderKey) {
      this.reorder = enableReorder(row, {
        onMove: (order, focus) => {
          this.order = order;
          saveOrder(this.orderKey, order);
          this.render();
          if (focus !== null) this.root.querySelectorAll(".mj-hand-main .mj-hand-card")[focus]?.focus();
        },
        onDragEnd: () => this.heldBack && this.render(),
      });
    }
    const apart = drawn.map((card, i) => button(card, mine.length + i, true));
    return h(
      "div",
      {
        class: `mj-hand mj-hand--mine${this.riichiMode ? " is-riichi-mode" : ""}`,
        "aria-label": t("momojan.your_hand"),
        role: "group",
      },
      row,
      apart.length
        ? h(
            "div",
            { class: "mj-hand-drawn", "aria-label": t("momojan.drawn"), role: "group" },
            ...apart,
          )
        : null,
    );
  }

  melds(seat) {
    const sets = this.obs.open_sets[seat];
    return h(
      "div",
      { class: "mj-melds", "aria-label": t("momojan.open_sets"), role: "group" },
      sets.map((set) => meldView(set)),
    );
  }

  river(seat, where) {
    const obs = this.obs;
    const river = obs.rivers[seat];
    const last = obs.last;
    const lastIndex =
      last && last.type === "discard" && last.seat === seat && last.round === obs.round
        ? river.length - 1
        : -1;
    return h(
      "div",
      {
        class: `mj-river mj-river--${where}`,
        role: "group",
        "aria-label":
          seat === obs.seat ? t("momojan.river.you") : t("momojan.river", { name: this.names[seat] ?? "" }),
      },
      river.map((d, i) =>
        h(
          "span",
          {
            class: `mj-discard${d.riichi ? " is-riichi" : ""}${d.called ? " is-called" : ""}${i === lastIndex ? " is-last" : ""}`,
            title: [
              cardName(d.card),
              d.riichi ? t("momojan.riichi") : "",
              d.called ? t("momojan.called") : "",
            ]
              .filter(Boolean)
              .join(" · "),
          },
          cardSVG(d.card, { sideways: d.riichi, cls: "mj-card--small" }),
        ),
      ),
    );
  }

  center() {
    const obs = this.obs;
    const canDraw = new Set(
      this.legal.filter((a) => a.type === "draw").map((action) => action.pile),
    );
    const myTurn = obs.seat !== null && obs.to_move === obs.seat && !obs.outcome;
    // A seated player's piles always take a tap, ready or not: the play page sends it, keeps
    // it for the turn it waits for, or says why not (play.js, `tapPile`), never drops it.
    const seated = Boolean(this.onDraw) && obs.seat !== null && !obs.outcome;
    const piles = obs.piles.map((count, pile) => {
      const ok = myTurn && canDraw.has(pile) && !this.riichiMode;
      const layers = Math.min(5, Math.ceil(count / 3));
      const stack = [];
      for (let i = 0; i < layers; i += 1) stack.push(h("span", { class: "mj-pile-layer" }));
      const queued = this.queued === pile ? " is-queued" : "";
      return h(
        "button",
        {
          type: "button",
          class: `mj-pile${ok ? " is-legal" : ""}${queued}${count === 0 ? " is-empty" : ""}`,
          "data-pile": pile,
          disabled: !seated,
          "aria-disabled": ok || !seated ? null : "true",
          "aria-label": t("momojan.pile", { n: pile + 1, count }),
          onclick: () => this.onDraw?.(pile),
        },
        h("span", { class: "mj-pile-stack", "aria-hidden": "true" }, ...stack),
        h("span", { class: "mj-pile-count" }, String(count)),
      );
    });
    const middle = obs.middle;
    return h(
      "div",
      { class: "mj-center" },
      h(
        "div",
        { class: "mj-round" },
        h("strong", {}, t("momojan.round", { n: obs.round })),
        h(
          "span",
          {},
          t("momojan.dealer_is", { name: this.names[obs.dealer] ?? "" }) +
            (obs.streak ? t("momojan.streak", { n: obs.streak }) : ""),
        ),
        h(
          "span",
          { class: "muted" },
          t("momojan.dealerships", {
            n: obs.dealerships,
            of: 2 * (obs.options?.dealerships ?? 2),
          }),
        ),
      ),
      h(
        "div",
        { class: "mj-dora" },
        h("span", { class: "mj-label" }, t("momojan.dora_indicator")),
        cardSVG(obs.dora_indicator, { cls: "mj-card--small" }),
        h("span", { class: "mj-dora-is" }, t("momojan.dora_is", { dora: doraName(obs.dora_indicator) })),
      ),
      h(
        "div",
        { class: "mj-piles", role: "group", "aria-label": t("momojan.piles") },
        h("span", { class: "mj-label" }, t("momojan.piles")),
        h("div", { class: "mj-piles-row" }, ...piles),
      ),
      h(
        "div",
        { class: "mj-middle", "data-middle": middle },
        h("span", { class: "mj-label" }, t("momojan.middle")),
        h("strong", {}, t("momojan.points", { n: middle })),
        h(
          "span",
          { class: "mj-sticks", "aria-hidden": "true" },
          sticks(middle).map((s) =>
            h("span", { class: "mj-stick-group" }, s.icon, h("span", {}, `×${s.count}`)),
          ),
        ),
      ),
      h("p", { class: "mj-last", id: "mj-last", "aria-live": "polite" }, this.describe(obs)),
    );
  }

  /** The last event in words, from the viewer's side. */
  describe(obs, who = null) {
    const last = obs?.last;
    const nameOf = (seat) => (seat === obs.seat ? t("play.you") : (this.names[seat] ?? ""));
    const ended = last && obs.results?.find((r) => r.round === last.round);
    if (ended && ["ron", "tsumo", "pass"].includes(last.type)) {
      // The event that ended a round stays `last` into the next deal.
      const said =
        ended.end === "exhausted"
          ? t("momojan.last.wall", { n: ended.round })
          : t("momojan.last.win", {
              n: ended.round,
              name: nameOf(ended.winner),
              how: t(`momojan.end.${ended.end}`),
              points: ended.score?.total ?? 0,
            });
      return obs.outcome ? said : `${said} ${t("momojan.last.deal", { n: obs.round })}`;
    }
    if (!last || last.round !== obs.round) {
      return obs?.round ? t("momojan.last.deal", { n: obs.round }) : "";
    }
    const name = who ?? nameOf(last.seat);
    const card = last.card ? cardName(last.card) : "";
    switch (last.type) {
      case "draw":
        return t("momojan.last.draw", { name, n: last.pile + 1 });
      case "draw3":
        return t("momojan.last.draw3", { name });
      case "discard":
        return t(last.riichi ? "momojan.last.riichi" : "momojan.last.discard", { name, card });
      case "pon":
      case "chi":
      case "kai":
        return t(`momojan.last.${last.type}`, { name });
      default:
        return "";
    }
  }
}

/** One open set: its three cards (a claimed card lies sideways) and its kind, 開 / ポン / チー. */
export function meldView(set, { points = null } = {}) {
  let claimedShown = false;
  const cards = set.cards.map((card) => {
    const sideways = !claimedShown && set.claimed === card;
    if (sideways) claimedShown = true;
    return cardSVG(card, { sideways, cls: "mj-card--small" });
  });
  return h(
    "div",
    { class: `mj-meld mj-meld--${set.kind}`, "data-kind": set.kind },
    h(
      "span",
      { class: "mj-meld-kind", title: t(`momojan.kind.${set.kind}.gloss`) },
      t(`momojan.kind.${set.kind}`),
      points === null ? null : h("span", { class: "mj-meld-points" }, `+${points}`),
    ),
    h("span", { class: "mj-meld-cards" }, ...cards),
  );
}

// --- the replay viewer's module contract (replay.js): mountReplay, describe, summary ---------

/** The table mounted for the replay (describe words frames from its side). */
let replayTable = null;

/** Draw the replay's table in `stage`, seats named from the viewer's side. */
export function mountReplay(stage, { seat, name }) {
  const root = h("div", { class: "momojan", id: "board" });
  stage.append(root);
  replayTable = new MomojanTable(root, { seat, names: [name(0), name(1)] });
  return replayTable;
}

/** What a replay frame shows: its last event in words. */
export function describe(frame) {
  return replayTable?.describe(frame) || t("replay.start");
}

/** The line under the replay's title: the opponent and who dealt first. The site offers no
 * option rules for MOMOJAN, so the rules are the rulebook's, as on the play page's chip. */
export function summary({ level, viewer }) {
  const vs = t("momojan.rule_chip", { level });
  const order = viewer === null ? null : t(`replay.order.${viewer === 0 ? "first" : "second"}`);
  return [vs, order].filter(Boolean).join(t("replay.sep"));
}

// Names of moves for the review of a finished game (review.js).
export { moveName, reviewWords } from "./moves.js";
