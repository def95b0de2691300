// The review of a finished game on the replay page (/api/rooms/{id}/review): start it (or join
// the job already running), a progress bar while the server values every move, and for each
// move valued so far (they come from the start of the game on, while the rest is valued) its
// class, the best move drawn on the board, a chart of the expected final margin growing to the
// right, each player's summary and the key moments, each a button to the position where the
// better move was missed.
//
// It knows no game's rules: the game's board module draws the marks (`board.markReview`),
// names a move (`moveName`) and may name the review's unit (`reviewWords`: the i18n keys of the
// loss, the legend and its limits, a key moment, the chart's caption and the empty list; a card
// game counts points where Mancala counts stones); the classes and their thresholds come from the server, which takes
// them from the game. A review holds the decisions of the people who played; with more than two
// players each point of the chart is its decider's own expectation.
import { getJSON, postJSON } from "./api.js";
import { h, svg } from "./dom.js";
import { pick, t, tn } from "./i18n.js";

const POLL_MS = 400;
/** The classes listed as key moments and counted in a player's summary. */
const NOTABLE = ["inaccuracy", "mistake", "blunder"];

/** A value from `seat`'s side turned to the side of `viewer` (the seat drawn at the bottom): in a
 * two-player game one side's gain is the other's loss; with more players a value stays its
 * decider's. */
const towards = (value, seat, viewer, players) => (seat === viewer || players > 2 ? value : -value);

/** The review's sentences: Mancala's in stones unless the game's module names its own. */
const WORDS = {
  lost: "review.lost",
  legend: "review.legend",
  most: "review.legend.most",
  moment: "review.moment",
  none: "review.no_moments",
  caption: "review.chart_caption",
};

/** Stones with a sign ("+3", "−2.5", "0"). */
function signed(value) {
  const rounded = Math.round(value * 10) / 10;
  if (rounded === 0) return "0";
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded)}`;
}

export class Review {
  /**
   * @param {object} o
   * @param {string} o.url the game's review in the API (with the page's share token, if any)
   * @param {object} o.context the replay's context (`seat` at the bottom, `name(seat)`)
   * @param {number[]} o.frameEvents per frame, how many events had happened
   * @param {object} o.module the game's board module (`moveName`)
   * @param {object} o.board the mounted board (`markReview`)
   * @param {(frame: number) => void} o.go show a frame
   */
  constructor({ url, context, frameEvents, module, board, go }) {
    this.url = url;
    this.context = context;
    this.frameEvents = frameEvents;
    this.module = module;
    this.board = board;
    this.go = go;
    this.words = { ...WORDS, ...(module.reviewWords ?? {}) };
    this.data = null;
    this.frame = 0;
    this.section = document.getElementById("review");
    this.button = document.getElementById("review-start");
    this.progress = document.getElementById("review-progress");
    this.bar = document.getElementById("review-bar");
    this.count = document.getElementById("review-count");
    this.error = document.getElementById("review-error");
    this.result = document.getElementById("review-result");
    this.now = document.getElementById("review-now");
    this.button.addEventListener("click", () => this.start());
  }

  /** Show what the server has: a stored review at once, a running one's progress. */
  async load({ start = false } = {}) {
    this.button.hidden = false;
    const answer = await this.ask(() => getJSON(this.url));
    if (!answer) return;
    if (answer.state === "none" && start) await this.start();
    else this.take(answer);
  }

  async start() {
    this.button.disabled = true;
    const answer = await this.ask(() => postJSON(this.url));
    if (answer) this.take(answer);
  }

  async ask(call) {
    try {
      return await call();
    } catch (error) {
      this.fail(error.code === "busy" ? t("review.busy") : t("review.error"));
      return null;
    }
  }

  fail(message) {
    this.section.hidden = false;
    this.button.disabled = false;
    this.progress.hidden = true;
    this.error.textContent = message;
    this.error.hidden = false;
  }

  take(answer) {
    this.error.hidden = true;
    if (answer.state === "none") {
      this.button.disabled = false;
      return;
    }
    if (answer.state === "failed") {
      this.fail(t("review.error"));
      return;
    }
    if (answer.state === "running") {
      this.button.disabled = true;
      this.section.hidden = false;
      this.progress.hidden = false;
      this.bar.max = Math.max(1, answer.total);
      this.bar.value = answer.done;
      this.count.textContent = t("review.progress", { done: answer.done, total: answer.total });
      if (answer.moves?.length && answer.moves.length !== this.moves?.length) this.show(answer);
      setTimeout(async () => {
        const next = await this.ask(() => getJSON(this.url));
        if (next) this.take(next);
      }, POLL_MS);
      return;
    }
    this.button.hidden = true;
    this.progress.hidden = true;
    this.show(answer);
  }

  // --- the finished review ---------------------------------------------------------------

  /** The last frame showing the game after `events` events. */
  frameAfter(events) {
    let frame = 0;
    this.frameEvents.forEach((n, i) => {
      if (n <= events) frame = i;
    });
    return frame;
  }

  /** Draw the review, or while it runs (`data.state`) the moves valued so far, the chart
   * spread over room for them all (`data.total`). */
  show(data) {
    this.data = data;
    this.moves = data.moves.map((move) => ({
      ...move,
      before: this.frameAfter(move.event - 1),
      after: this.frameAfter(move.event),
    }));
    this.running = data.state === "running";
    this.span = Math.max(1, this.moves.length, this.running ? data.total : 0);
    this.section.hidden = false;
    this.result.hidden = false;
    this.section.dataset.state = data.state;
    document.getElementById("review-caption").textContent = t(this.words.caption);
    document.getElementById("review-none").textContent = t(this.words.none);
    this.drawPlayers();
    this.drawChart();
    this.drawMoments();
    this.drawLegend();
    this.update(this.frame);
  }

  /** "Blunder" as a coloured badge. */
  badge(grade) {
    const attrs = { class: `grade grade--${grade}`, "data-grade": grade };
    return h("span", attrs, t(`review.grade.${grade}`));
  }

  /** Called by the replay for every frame it shows: the line under the board and the marks. */
  update(frame) {
    this.frame = frame;
    if (!this.moves) return;
    const arrived = this.moves.find((move) => move.after === frame && move.before !== frame);
    const next = this.moves.find((move) => move.before === frame && move.after !== frame);
    const lines = [];
    if (arrived) {
      const what = t("review.played", {
        who: this.context.name(arrived.seat),
        move: this.module.moveName(arrived.played),
      });
      const lost = Math.round(arrived.loss * 10) / 10;
      const cost = lost > 0 ? tn(this.words.lost, lost) : "";
      lines.push(
        h(
          "p",
          { class: "review-line", "data-part": "arrived" },
          this.badge(arrived.grade),
          ` ${what}`,
          cost ? ` ${cost}` : "",
        ),
      );
    }
    if (next) {
      // Spoken to the viewer when it is their move: "Your best move here", not "Best for You".
      const yours = next.seat === this.context.viewer;
      const best = t(yours ? "review.best_here_you" : "review.best_here", {
        who: this.context.name(next.seat),
        move: this.module.moveName(next.best),
      });
      lines.push(
        h(
          "p",
          { class: "review-line", "data-part": "best" },
          h("span", { class: "review-star", "aria-hidden": "true" }, "★"),
          ` ${best} `,
          h("span", { class: "muted" }, pick(next.why)),
        ),
      );
    }
    this.now.hidden = lines.length === 0;
    this.now.replaceChildren(...lines);
    this.board.markReview?.(
      next ? { seat: next.seat, best: next.best, played: next.played, grade: next.grade } : null,
    );
    this.cursor?.setAttribute("transform", `translate(${this.x(this.pointOf(frame))} 0)`);
    for (const item of this.list?.children ?? []) {
      item.firstChild.setAttribute("aria-current", String(Number(item.dataset.frame) === frame));
    }
  }

  drawPlayers() {
    const seats = this.data.players.filter((player) => player.moves > 0);
    // The viewer first, then the others in seat order.
    const mine = (player) => Number(player.seat === this.context.viewer);
    seats.sort((a, b) => mine(b) - mine(a) || a.seat - b.seat);
    const cards = seats.map((player) => {
      const counts = NOTABLE.filter((grade) => player.grades[grade] > 0).map((grade) =>
        tn(`review.count.${grade}`, player.grades[grade]),
      );
      const accuracy = t("review.accuracy", { pct: Math.round(player.accuracy * 100) });
      return h(
        "div",
        { class: "review-player", "data-seat": player.seat },
        h("p", { class: "review-player-name" }, this.context.name(player.seat)),
        h("p", { class: "review-accuracy" }, accuracy),
        h(
          "p",
          { class: "review-counts muted" },
          counts.length ? counts.join(t("review.list_sep")) : t("review.clean"),
        ),
        this.costliest(player),
      );
    });
    document.getElementById("review-players").replaceChildren(...cards);
  }

  /** A player's costliest decisions (the server names up to three), each a button to the
   * position where it was made; null when none lost anything. */
  costliest(player) {
    const moves = (player.costliest ?? [])
      .map((event) => this.moves.find((move) => move.event === event))
      .filter(Boolean);
    if (!moves.length) return null;
    return h(
      "p",
      { class: "review-costliest" },
      h("span", { class: "muted" }, `${t("review.costliest")}: `),
      moves.map((move) =>
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--ghost review-costly",
            "data-event": String(move.event),
            onclick: () => this.go(move.before, { scroll: true }),
          },
          `${t("review.move_n", { n: move.after })} ${signed(-move.loss)}`,
        ),
      ),
    );
  }

  // The chart: point 0 is the first position (the best value there), point i + 1 the position
  // after move i (the value of the move played); each point is a frame of the replay.

  pointOf(frame) {
    let point = 0;
    this.moves.forEach((move, i) => {
      if (move.after <= frame) point = i + 1;
    });
    return point;
  }

  x(point) {
    return this.left + (point / this.span) * (this.width - this.left - 8);
  }

  drawChart() {
    const viewer = this.context.seat;
    const players = this.data.players.length;
    const values = [
      towards(this.moves[0]?.best_value ?? 0, this.moves[0]?.seat ?? viewer, viewer, players),
      ...this.moves.map((move) => towards(move.value, move.seat, viewer, players)),
    ];
    // One unit a pixel at the width it is drawn, so its labels stay readable on a phone.
    const holder = document.getElementById("review-chart");
    const W = Math.max(300, Math.min(720, holder.clientWidth || 640));
    const H = W < 480 ? 150 : 180;
    this.width = W;
    this.left = 34;
    const top = 12;
    const bottom = H - 14;
    const span = Math.max(4, ...values.map(Math.abs));
    const y = (v) => top + ((span - v) / (2 * span)) * (bottom - top);
    const points = values.map((v, i) => `${this.x(i).toFixed(1)},${y(v).toFixed(1)}`);
    const zero = y(0);
    const end = this.x(values.length - 1);
    const area = `M${this.x(0)},${zero} L${points.join(" L")} L${end},${zero} Z`;
    const dots = this.moves
      .map((move, i) => ({ move, i }))
      .filter(({ move }) => NOTABLE.includes(move.grade))
      .map(({ move, i }) =>
        svg("circle", {
          cx: this.x(i + 1),
          cy: y(values[i + 1]),
          r: 5,
          class: `chart-dot grade-fill--${move.grade}`,
        }),
      );
    this.cursor = svg("line", { x1: 0, x2: 0, y1: top - 6, y2: bottom + 6, class: "chart-cursor" });
    const label = (v, text) => {
      const node = svg("text", { x: this.left - 6, y: y(v) + 4, class: "chart-label" });
      node.textContent = text;
      return node;
    };
    const chart = svg(
      "svg",
      {
        viewBox: `0 0 ${W} ${H}`,
        class: "review-chart-svg",
        role: "img",
        "aria-label": t("review.chart_label"),
      },
      // Ahead above the zero line, behind below it: the same area clipped twice.
      svg("clipPath", { id: "chart-above" }, svg("rect", { width: W, height: zero })),
      svg("clipPath", { id: "chart-below" }, svg("rect", { y: zero, width: W, height: H - zero })),
      svg("path", { d: area, class: "chart-area--ahead", "clip-path": "url(#chart-above)" }),
      svg("path", { d: area, class: "chart-area--behind", "clip-path": "url(#chart-below)" }),
      svg("line", { x1: this.left, x2: W - 8, y1: zero, y2: zero, class: "chart-zero" }),
      label(span, signed(span)),
      label(0, "0"),
      label(-span, signed(-span)),
      svg("polyline", { points: points.join(" "), class: "chart-line" }),
      ...dots,
      this.cursor,
    );
    // A click picks the nearest point, and the replay shows its frame.
    chart.addEventListener("click", (event) => {
      const box = chart.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * W;
      const step = (W - this.left - 8) / this.span;
      const point = Math.max(0, Math.min(this.moves.length, Math.round((at - this.left) / step)));
      this.go(point === 0 ? (this.moves[0]?.before ?? 0) : this.moves[point - 1].after);
    });
    holder.replaceChildren(chart);
  }

  /** The classes and how much each may lose, as the game declares them. */
  drawLegend() {
    const parts = this.data.grades.map(({ key, most }) => {
      const grade = t(`review.grade.${key}`);
      if (most === 0) return t("review.legend.none", { grade });
      if (most === null) return t("review.legend.more", { grade });
      return t(this.words.most, { grade, n: most });
    });
    document.getElementById("review-legend").textContent = t(this.words.legend, {
      classes: parts.join(t("review.list_sep")),
    });
  }

  /** The moves that lost something worth a look, each a button to the position before it. */
  drawMoments() {
    const notable = this.moves.filter((move) => NOTABLE.includes(move.grade));
    this.list = document.getElementById("review-list");
    document.getElementById("review-none").hidden = notable.length > 0 || this.running;
    this.list.replaceChildren(
      ...notable.map((move) =>
        h(
          "li",
          { "data-frame": move.before, "data-grade": move.grade },
          h(
            "button",
            {
              type: "button",
              class: "review-moment",
              onclick: () => this.go(move.before, { scroll: true }),
            },
            h("span", { class: "review-moment-n" }, t("review.move_n", { n: move.after })),
            this.badge(move.grade),
            h(
              "span",
              { class: "review-moment-text" },
              t(this.words.moment, {
                who: this.context.name(move.seat),
                move: this.module.moveName(move.played),
                best: this.module.moveName(move.best),
                lost: signed(-move.loss),
              }),
            ),
          ),
        ),
      ),
    );
  }
}
