// The Mancala board: wood, round pits, glassy stones, drawn in SVG by this module.
//
// The viewer's seat sits at the bottom with its store on the right; stones travel
// counter-clockwise. Each pit of the viewer is a real <button> laid over the SVG (aria-label with
// the count); the other side's pits and both stores are labelled images. Stones are objects with a
// stable identity, so a move animates stone by stone from the observation's `last.path`
// (see docs/ARCHITECTURE.md, "Mancala observation").
import { h, reducedMotion, svg } from "../dom.js";
import { t, tn } from "../i18n.js";
import { ruleName } from "../rules-name.js";
import { cpuName, seatName } from "../seat-names.js";

/**
 * The board's shapes, in SVG units. `wide` suits a desktop. On a phone the board is as wide as
 * the screen and the screen is tall, so `tall` spends the height: narrower stores, rows further
 * apart, bigger pits, counts and tap areas, and a wider band between the rows for call-outs.
 */
const SHAPES = {
  wide: {
    W: 1000,
    H: 460,
    x0: 160,
    x1: 840,
    rows: { top: 150, bottom: 310 },
    store: { w: 112, top: 62, bottom: 398, left: 84, right: 916 },
    maxPit: 54,
    count: 1,
  },
  tall: {
    W: 1000,
    H: 640,
    x0: 116,
    x1: 884,
    rows: { top: 200, bottom: 440 },
    store: { w: 80, top: 110, bottom: 530, left: 66, right: 934 },
    maxPit: 62,
    count: 1.45,
  },
};
const PHONE = "(max-width: 600px)";

/** Per speed: ms between stones, ms a stone takes to fly. */
export const SPEEDS = {
  slow: { step: 460, fly: 380 },
  normal: { step: 250, fly: 220 },
  fast: { step: 110, fly: 100 },
  instant: { step: 0, fly: 0 },
};

const STONE_COLOURS = [
  ["#ffb199", "#d2452a"],
  ["#8ee6da", "#168a7d"],
  ["#ffe39a", "#d99a12"],
  ["#c7bdfb", "#6a55cf"],
  ["#a9d4ff", "#2f79c4"],
  ["#c6eea5", "#4f9a2e"],
  ["#ffc4e1", "#c2457f"],
];

/** A small deterministic hash, so a stone's colour and wobble do not change between draws. */
function hash(n) {
  let x = (n + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

const pitKey = (side, i) => `p${side}.${i}`;
const storeKey = (side) => `s${side}`;

export class MancalaBoard {
  /**
   * @param {HTMLElement} root where to draw
   * @param {{seat?: number, pits?: number, onPit?: (pit: number) => void,
   *          names?: {you: string, them: string}}} options
   */
  constructor(root, { seat = 0, pits = 6, onPit = null, names = null } = {}) {
    this.root = root;
    this.seat = seat;
    this.n = pits;
    this.onPit = onPit;
    this.names = names ?? { you: t("play.you"), them: "" };
    this.speed = "normal";
    this.locs = new Map();
    this.stones = new Map();
    this.nextId = 0;
    this.legal = new Set();
    this.skipping = false;
    this.wakers = new Set();
    this.obs = null;
    this.legalNow = [];
    this.hinted = null;
    this.gen = 0;
    this.current = null;
    this.phone = window.matchMedia(PHONE);
    this.shape = this.phone.matches ? SHAPES.tall : SHAPES.wide;
    this.phone.addEventListener("change", () => this.reshape());
    this.build();
  }

  /** Switch between the wide and the tall board when the screen crosses the phone width. */
  reshape() {
    const shape = this.phone.matches ? SHAPES.tall : SHAPES.wide;
    if (shape === this.shape) return;
    this.skip();
    this.shape = shape;
    this.clearStones();
    this.build();
    if (this.obs) {
      this.reconcile(this.obs, 0);
      this.markLast(this.obs.last);
      this.setLegal(this.legalNow);
      this.markHint(this.hinted);
    }
  }

  // --- geometry ----------------------------------------------------------------------------

  colWidth() {
    return (this.shape.x1 - this.shape.x0) / this.n;
  }

  pitRadius() {
    return Math.min(this.shape.maxPit, this.colWidth() * 0.45);
  }

  stoneRadius() {
    return Math.max(9, Math.min(14.5, this.pitRadius() * 0.27));
  }

  /** Centre of pit `i` of `side`, as the viewer sees the board. */
  pitCentre(side, i) {
    const bottom = side === this.seat;
    const col = bottom ? i : this.n - 1 - i;
    return {
      x: this.shape.x0 + this.colWidth() * (col + 0.5),
      y: bottom ? this.shape.rows.bottom : this.shape.rows.top,
      bottom,
    };
  }

  storeCentre(side) {
    const STORE = this.shape.store;
    const right = side === this.seat;
    return { x: right ? STORE.right : STORE.left, y: (STORE.top + STORE.bottom) / 2, right };
  }

  /** Where the k-th stone of a location rests (a spiral in a pit, a packed pile in a store). */
  slot(key, k, stoneId) {
    const wobble = hash(stoneId * 31 + k);
    const jx = ((wobble & 0xff) / 255 - 0.5) * 4;
    const jy = (((wobble >>> 8) & 0xff) / 255 - 0.5) * 4;
    const sr = this.stoneRadius();
    if (key[0] === "p") {
      const [side, i] = key.slice(1).split(".").map(Number);
      const c = this.pitCentre(side, i);
      // A golden-angle spiral, spaced about one stone radius; further stones pile on top.
      const room = this.pitRadius() - sr - 2;
      const spacing = sr * 0.98;
      const perLayer = Math.max(5, Math.round((room / spacing) ** 2 + 0.5));
      const layer = Math.floor(k / perLayer);
      const j = k % perLayer;
      const r = Math.min(room, spacing * Math.sqrt(j + 0.5)) * (layer ? 0.72 : 1);
      const a = j * 2.39996 + layer * 1.3 + (side === this.seat ? 0.3 : 2.1);
      return { x: c.x + r * Math.cos(a) + jx, y: c.y + r * Math.sin(a) + jy - layer * 4 };
    }
    const side = Number(key.slice(1));
    const c = this.storeCentre(side);
    const STORE = this.shape.store;
    const cols = STORE.w < 100 ? 3 : 4;
    const dx = (STORE.w - 2 * sr - 16) / (cols - 1);
    const dy = sr * 1.55;
    const perLayer = cols * Math.floor((STORE.bottom - STORE.top - 40) / dy);
    const layer = Math.floor(k / perLayer);
    const j = k % perLayer;
    const row = Math.floor(j / cols);
    const col = j % cols;
    const shift = row % 2 ? dx / 2 : 0;
    const x = c.x - ((cols - 1) * dx) / 2 + col * dx + shift - (row % 2 ? dx / 4 : 0);
    // Fill from the end nearer the viewer's eye: the bottom for both stores.
    const y = STORE.bottom - sr - 20 - row * dy - layer * 4;
    return { x: x + jx + layer * 5, y: y + jy };
  }

  // --- drawing -----------------------------------------------------------------------------

  build() {
    const { W, H } = this.shape;
    this.root.replaceChildren();
    this.root.classList.add("mancala-board");
    this.root.classList.toggle("mb--tall", this.shape === SHAPES.tall);
    this.root.style.setProperty("--aspect", `${W} / ${H}`);
    const defs = svg("defs", {});
    defs.append(
      svg(
        "linearGradient",
        { id: "mb-wood", x1: 0, y1: 0, x2: 0, y2: 1 },
        svg("stop", { offset: 0, class: "wood-stop-light" }),
        svg("stop", { offset: 0.55, class: "wood-stop" }),
        svg("stop", { offset: 1, class: "wood-stop-dark" }),
      ),
      svg(
        "radialGradient",
        { id: "mb-pit", cx: 0.5, cy: 0.38, r: 0.7 },
        svg("stop", { offset: 0, class: "pit-stop-deep" }),
        svg("stop", { offset: 0.75, class: "pit-stop" }),
        svg("stop", { offset: 1, class: "pit-stop-rim" }),
      ),
      svg(
        "linearGradient",
        { id: "mb-store", x1: 0, y1: 0, x2: 1, y2: 0 },
        svg("stop", { offset: 0, class: "pit-stop" }),
        svg("stop", { offset: 0.5, class: "pit-stop-deep" }),
        svg("stop", { offset: 1, class: "pit-stop" }),
      ),
    );
    STONE_COLOURS.forEach(([light, dark], index) => {
      defs.append(
        svg(
          "radialGradient",
          { id: `mb-stone-${index}`, cx: 0.36, cy: 0.3, r: 0.78 },
          svg("stop", { offset: 0, "stop-color": "#ffffff", "stop-opacity": 0.95 }),
          svg("stop", { offset: 0.28, "stop-color": light }),
          svg("stop", { offset: 1, "stop-color": dark }),
        ),
      );
    });

    const board = svg("g", { class: "mb-frame" });
    board.append(
      svg("rect", { x: 10, y: 16, width: W - 20, height: H - 24, rx: 78, class: "mb-shadow" }),
      svg("rect", { x: 8, y: 8, width: W - 16, height: H - 24, rx: 78, class: "mb-wood" }),
      svg("rect", { x: 18, y: 18, width: W - 36, height: H - 44, rx: 68, class: "mb-bevel" }),
    );
    const grain = svg("g", { class: "mb-grain" });
    for (let k = 0; k < 7; k++) {
      const y = 40 + (k * (H - 112)) / 6 + (k % 2) * 9;
      const a = 10 + (k % 3) * 6;
      grain.append(
        svg("path", {
          d: `M40 ${y} C 220 ${y - a}, 330 ${y + a}, 500 ${y} S 800 ${y - a}, 960 ${y + a / 2}`,
        }),
      );
    }
    board.append(grain);

    this.pitLayer = svg("g", { class: "mb-pits" });
    this.countLayer = svg("g", { class: "mb-counts", "aria-hidden": "true" });
    this.stoneLayer = svg("g", { class: "mb-stones" });
    this.markLayer = svg("g", { class: "mb-marks" });

    this.svg = svg(
      "svg",
      {
        viewBox: `0 0 ${W} ${H}`,
        class: "mb-svg",
        "aria-hidden": "true",
        focusable: "false",
      },
      defs,
      board,
      this.pitLayer,
      this.markLayer,
      this.stoneLayer,
      this.countLayer,
    );
    this.hits = h("div", { class: "mb-hits" });
    this.callouts = h("div", { class: "mb-callouts", "aria-hidden": "true" });
    this.live = h("div", { class: "visually-hidden", "aria-live": "polite" });
    this.root.append(this.svg, this.hits, this.callouts, this.live);
    this.root.addEventListener("click", (event) => {
      if (this.busy && !event.target.closest("button[data-legal]")) this.skip();
    });
    this.layout();
  }

  /** (Re)draw the pits, stores, labels and hit areas for the current seat and pit count. */
  layout() {
    this.pitLayer.replaceChildren();
    this.countLayer.replaceChildren();
    this.markLayer.replaceChildren();
    this.hits.replaceChildren();
    this.pitNodes = new Map();
    this.countNodes = new Map();
    this.hitNodes = new Map();
    const { W, H, rows, store: STORE, count: scale } = this.shape;
    const r = this.pitRadius();
    const pct = (v, total) => `${(v / total) * 100}%`;
    // A hit area's CSS box, in percent of the board, from a rectangle in SVG units.
    const box = (x, y, w, h) =>
      `left:${pct(x, W)};top:${pct(y, H)};width:${pct(w, W)};height:${pct(h, H)}`;
    for (const side of [0, 1]) {
      for (let i = 0; i < this.n; i++) {
        const c = this.pitCentre(side, i);
        const key = pitKey(side, i);
        const group = svg(
          "g",
          { class: `mb-pit ${c.bottom ? "mb-pit--you" : "mb-pit--them"}`, "data-key": key },
          svg("circle", { cx: c.x, cy: c.y, r: r + 7, class: "mb-pit-glow" }),
          svg("circle", { cx: c.x, cy: c.y + 3, r: r + 1, class: "mb-pit-lip" }),
          svg("circle", { cx: c.x, cy: c.y, r, class: "mb-pit-hole" }),
        );
        this.pitLayer.append(group);
        this.pitNodes.set(key, group);
        const ly = c.bottom ? c.y + r + 30 * scale : c.y - r - 30 * scale;
        this.addCount(key, c.x, ly);
        const cw = this.colWidth();
        const top = c.bottom ? (rows.top + rows.bottom) / 2 : 20;
        const bottom = c.bottom ? H - 20 : (rows.top + rows.bottom) / 2;
        const style = box(c.x - cw / 2, top, cw, bottom - top);
        let hit;
        if (c.bottom) {
          hit = h("button", {
            type: "button",
            class: "mb-hit mb-hit--pit",
            style,
            "data-pit": i,
            "aria-disabled": "true",
            onclick: () => this.press(i),
          });
        } else {
          hit = h("div", { class: "mb-hit mb-hit--them", style, role: "img" });
        }
        this.hits.append(hit);
        this.hitNodes.set(key, hit);
      }
      const s = this.storeCentre(side);
      const key = storeKey(side);
      const group = svg(
        "g",
        { class: `mb-store ${s.right ? "mb-store--you" : "mb-store--them"}`, "data-key": key },
        svg("rect", {
          x: s.x - STORE.w / 2 - 6,
          y: STORE.top - 6,
          width: STORE.w + 12,
          height: STORE.bottom - STORE.top + 12,
          rx: STORE.w / 2 + 6,
          class: "mb-pit-glow",
        }),
        svg("rect", {
          x: s.x - STORE.w / 2,
          y: STORE.top + 3,
          width: STORE.w,
          height: STORE.bottom - STORE.top,
          rx: STORE.w / 2,
          class: "mb-pit-lip",
        }),
        svg("rect", {
          x: s.x - STORE.w / 2,
          y: STORE.top,
          width: STORE.w,
          height: STORE.bottom - STORE.top,
          rx: STORE.w / 2,
          class: "mb-store-hole",
        }),
      );
      this.pitLayer.append(group);
      this.pitNodes.set(key, group);
      const gap = 30 * scale;
      this.addCount(key, s.x, s.right ? STORE.bottom + gap : STORE.top - gap, true);
      const hit = h("div", {
        class: "mb-hit mb-hit--store",
        role: "img",
        style: box(s.x - STORE.w / 2, STORE.top, STORE.w, STORE.bottom - STORE.top),
      });
      this.hits.append(hit);
      this.hitNodes.set(key, hit);
    }
    // Stones keep their identity across a re-layout; put each at its slot.
    for (const [key, ids] of this.locs) {
      ids.forEach((id, k) => this.place(this.stones.get(id), this.slot(key, k, id), 0));
      this.updateCount(key);
    }
  }

  addCount(key, x, y, store = false) {
    const k = this.shape.count;
    const g = svg(
      "g",
      { class: `mb-count${store ? " mb-count--store" : ""}`, transform: `translate(${x} ${y})` },
      svg("rect", { x: -27 * k, y: -21 * k, width: 54 * k, height: 42 * k, rx: 21 * k }),
      svg("text", { x: 0, y: 1, "text-anchor": "middle", "dominant-baseline": "central" }, "0"),
    );
    this.countLayer.append(g);
    this.countNodes.set(key, g);
  }

  // --- stones ------------------------------------------------------------------------------

  newStone() {
    const id = this.nextId++;
    const mix = hash(id);
    const colour = mix % STONE_COLOURS.length;
    const scale = 0.93 + ((mix >>> 8) % 13) / 100;
    const sr = this.stoneRadius() * scale;
    const el = svg(
      "g",
      { class: "mb-stone" },
      svg("ellipse", {
        cx: 1.5,
        cy: sr * 0.55,
        rx: sr * 0.95,
        ry: sr * 0.55,
        class: "mb-stone-shadow",
      }),
      svg("circle", { r: sr, fill: `url(#mb-stone-${colour})`, class: "mb-stone-body" }),
      svg("ellipse", {
        cx: -sr * 0.32,
        cy: -sr * 0.38,
        rx: sr * 0.3,
        ry: sr * 0.18,
        class: "mb-stone-shine",
        transform: `rotate(-30 ${-sr * 0.32} ${-sr * 0.38})`,
      }),
    );
    const stone = { id, el, pos: null };
    this.stones.set(id, stone);
    this.stoneLayer.append(el);
    return stone;
  }

  place(stone, pos, duration, { lift = false, hop = false } = {}) {
    const from = stone.pos;
    stone.pos = pos;
    const to = `translate(${pos.x}px, ${pos.y}px)${lift ? " scale(1.14)" : ""}`;
    const wasLifted = stone.lifted;
    stone.lifted = lift;
    stone.el.style.transform = to;
    if (!duration || !from || this.skipping) return;
    const start = `translate(${from.x}px, ${from.y}px)${wasLifted ? " scale(1.14)" : ""}`;
    const frames = [{ transform: start }];
    if (hop) {
      const mx = (from.x + pos.x) / 2;
      const my = Math.min(from.y, pos.y) - 26;
      frames.push({ transform: `translate(${mx}px, ${my}px) scale(1.2)`, offset: 0.5 });
    }
    frames.push({ transform: to });
    stone.el.animate(frames, { duration, easing: "cubic-bezier(0.3, 0.7, 0.4, 1)" });
  }

  raise(stone) {
    this.stoneLayer.append(stone.el);
  }

  count(key) {
    return this.locs.get(key)?.length ?? 0;
  }

  /** Move stone `id` to the end of location `key`. */
  moveTo(id, key, duration, options = {}) {
    const ids = this.locs.get(key) ?? [];
    ids.push(id);
    this.locs.set(key, ids);
    this.place(this.stones.get(id), this.slot(key, ids.length - 1, id), duration, options);
  }

  keys() {
    const keys = [];
    for (const side of [0, 1]) {
      for (let i = 0; i < this.n; i++) keys.push(pitKey(side, i));
      keys.push(storeKey(side));
    }
    return keys;
  }

  target(obs) {
    const counts = new Map();
    for (const side of [0, 1]) {
      obs.pits[side].forEach((count, i) => counts.set(pitKey(side, i), count));
      counts.set(storeKey(side), obs.stores[side]);
    }
    return counts;
  }

  /**
   * Make the stones match `obs`'s counts, moving surplus stones to where stones are missing
   * (the same side first, so an end-of-game sweep flies into the owner's store).
   */
  reconcile(obs, duration = 0) {
    const want = this.target(obs);
    const surplus = [];
    for (const key of this.keys()) {
      const ids = this.locs.get(key) ?? [];
      const extra = ids.length - (want.get(key) ?? 0);
      if (extra > 0) {
        for (const id of ids.splice(ids.length - extra)) surplus.push({ id, from: key });
        this.updateCount(key);
      }
      this.locs.set(key, ids);
    }
    const sideOf = (key) => Number(key[1]);
    const deficits = this.keys()
      .map((key) => ({ key, need: (want.get(key) ?? 0) - this.count(key) }))
      .filter((d) => d.need > 0)
      .sort((a, b) => (a.key[0] === "s" ? -1 : 0) - (b.key[0] === "s" ? -1 : 0));
    for (const d of deficits) {
      for (let k = 0; k < d.need; k++) {
        let index = surplus.findIndex((s) => sideOf(s.from) === sideOf(d.key));
        if (index < 0) index = surplus.length ? 0 : -1;
        if (index >= 0) {
          const [s] = surplus.splice(index, 1);
          this.raise(this.stones.get(s.id));
          this.moveTo(s.id, d.key, duration, { hop: duration > 0 });
        } else {
          const stone = this.newStone();
          this.moveTo(stone.id, d.key, 0);
        }
      }
      this.updateCount(d.key);
    }
    for (const s of surplus) {
      this.stones.get(s.id).el.remove();
      this.stones.delete(s.id);
    }
    for (const key of this.keys()) this.updateCount(key);
  }

  updateCount(key) {
    const node = this.countNodes.get(key);
    const n = this.count(key);
    if (node) node.querySelector("text").textContent = String(n);
    const hit = this.hitNodes.get(key);
    if (!hit) return;
    const [kind, rest] = [key[0], key.slice(1)];
    const side = Number(rest.split(".")[0]);
    const mine = side === this.seat;
    let label;
    if (kind === "s") label = tn(mine ? "board.store_you" : "board.store_them", n);
    else {
      const i = Number(rest.split(".")[1]);
      label = tn(mine ? "board.pit_you" : "board.pit_them", n, { pit: i + 1 });
    }
    hit.setAttribute("aria-label", label);
  }

  // --- public API --------------------------------------------------------------------------

  setSeat(seat) {
    if (seat === this.seat) return;
    this.seat = seat;
    this.layout();
  }

  setSpeed(speed) {
    this.speed = speed in SPEEDS ? speed : "normal";
  }

  timing() {
    if (reducedMotion()) return SPEEDS.instant;
    return SPEEDS[this.speed] ?? SPEEDS.normal;
  }

  /** Draw `obs` at once (no animation): counts, last-move marks, the legal pits. */
  show(obs, { legal = [] } = {}) {
    this.gen += 1;
    if (this.busy) this.skip();
    this.clearCallout();
    this.markHint(null);
    // In Basic the stores only take stones out of play: their counts decide nothing.
    this.root.classList.toggle("mb--basic", obs.options?.variant === "basic");
    this.legalNow = legal;
    const pits = obs.pits[0].length;
    if (pits !== this.n) {
      this.n = pits;
      this.clearStones();
      this.layout();
    }
    this.obs = obs;
    this.reconcile(obs, 0);
    this.markLast(obs.last);
    this.setLegal(legal);
  }

  clearStones() {
    for (const stone of this.stones.values()) stone.el.remove();
    this.stones.clear();
    this.locs.clear();
  }

  /** Highlight the viewer's pits that may be sown now (a list of actions {"pit": i}). */
  setLegal(legal) {
    this.legal = new Set((legal ?? []).map((action) => action.pit));
    for (let i = 0; i < this.n; i++) {
      const key = pitKey(this.seat, i);
      const ok = this.legal.has(i);
      this.pitNodes.get(key)?.classList.toggle("is-legal", ok);
      const hit = this.hitNodes.get(key);
      if (!hit) continue;
      hit.setAttribute("aria-disabled", ok ? "false" : "true");
      if (ok) hit.dataset.legal = "";
      else delete hit.dataset.legal;
    }
    this.root.classList.toggle("is-your-turn", this.legal.size > 0);
  }

  press(i) {
    if (!this.legal.has(i) || this.busy) return;
    this.onPit?.(i);
  }

  /** Ring the viewer's pit `pit` as the hinted move (null: none). A new position clears it. */
  markHint(pit) {
    this.hinted = pit;
    for (let i = 0; i < this.n; i++) {
      this.pitNodes.get(pitKey(this.seat, i))?.classList.toggle("is-hinted", i === pit);
      const hit = this.hitNodes.get(pitKey(this.seat, i));
      if (hit) {
        if (i === pit) hit.dataset.hinted = "";
        else delete hit.dataset.hinted;
      }
    }
  }

  markLast(last) {
    for (const node of this.pitNodes.values()) node.classList.remove("is-last-from", "is-last-to");
    if (!last) return;
    this.pitNodes.get(pitKey(last.seat, last.pit))?.classList.add("is-last-from");
    const end = last.path?.[last.path.length - 1];
    if (end) {
      const key = end[1] === this.n ? storeKey(end[0]) : pitKey(end[0], end[1]);
      this.pitNodes.get(key)?.classList.add("is-last-to");
    }
  }

  /**
   * Say what a move did ("You go again!", "CPU 2 captures!") between the two rows of
   * pits, where it hides no count. It belongs to that move: the next move's start clears it
   * (`clearCallout`), or it fades after a few steps.
   */
  callout(kind, whose) {
    // `whose`: "you", or the seat's one name (seat-names.js).
    const text = whose === "you" ? t(`call.${kind}.you`) : t(`call.${kind}.seat`, { name: whose ?? "" });
    this.live.textContent = text;
    const node = h("div", { class: `mb-callout mb-callout--${kind}` }, text);
    this.callouts.replaceChildren(node);
    const ms = Math.max(900, this.timing().step * 5);
    setTimeout(() => node.remove(), this.skipping ? 700 : ms);
    return text;
  }

  clearCallout() {
    this.callouts.replaceChildren();
  }

  announce(text) {
    this.live.textContent = text;
  }

  /** Finish the running animation at once (a click on the board, or the next replay step). */
  skip() {
    if (!this.busy) return;
    this.skipping = true;
    for (const animation of this.svg.getAnimations({ subtree: true })) animation.finish();
    for (const wake of this.wakers) wake();
    this.wakers.clear();
  }

  wait(ms) {
    if (this.skipping || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /**
   * Animate the move that led to `obs` (its `last`), starting from what the board shows now, then
   * settle on `obs` exactly. Resolves when done; `skip()` hurries it.
   */
  async play(obs, options = {}) {
    while (this.current) {
      this.skip();
      await this.current;
    }
    const run = this.animate(obs, options);
    this.current = run;
    try {
      await run;
    } finally {
      if (this.current === run) this.current = null;
    }
  }

  async animate(obs, { legal = [], fast = false, whose = null }) {
    this.clearCallout();
    this.markHint(null);
    const last = obs.last;
    const who = whose ?? (last && last.seat === this.seat ? "you" : last ? cpuName(last.seat) : "");
    const { step, fly } = fast ? SPEEDS.instant : this.timing();
    if (!last || !this.obs || step === 0 || obs.pits[0].length !== this.n) {
      this.show(obs, { legal });
      this.sayCalls(last, who);
      return;
    }
    this.gen += 1;
    const gen = this.gen;
    const stale = () => gen !== this.gen;
    this.obs = obs;
    this.legalNow = legal;
    this.busy = true;
    this.skipping = false;
    this.root.classList.add("is-animating");
    this.setLegal([]);
    this.markLast(null);
    try {
      const mover = last.seat;
      const source = pitKey(mover, last.pit);
      const hand = (this.locs.get(source) ?? []).splice(0);
      this.updateCount(source);
      this.pitNodes.get(source)?.classList.add("is-last-from");
      const hover = (key) => {
        const base =
          key[0] === "s"
            ? this.storeCentre(Number(key[1]))
            : this.pitCentre(Number(key[1]), Number(key.slice(3)));
        hand.forEach((id, k) => {
          const stone = this.stones.get(id);
          const a = k * 2.39996;
          const r = 7 * Math.sqrt(k);
          this.place(
            stone,
            { x: base.x + r * Math.cos(a), y: base.y - 34 + r * Math.sin(a) * 0.6 },
            fly,
            { lift: true },
          );
        });
      };
      for (const id of hand) this.raise(this.stones.get(id));
      hover(source);
      await this.wait(step);
      let lastKey = source;
      for (const [side, pos] of last.path) {
        if (stale()) return;
        const key = pos === this.n ? storeKey(side) : pitKey(side, pos);
        const id = hand.shift();
        if (id === undefined) break;
        this.moveTo(id, key, fly, { hop: false });
        this.updateCount(key);
        lastKey = key;
        if (hand.length) hover(key);
        await this.wait(step);
      }
      if (stale()) return;
      if (last.captured > 0 && lastKey[0] === "p") {
        if (last.capture_from) {
          const said = this.callout("capture", who);
          this.announce(`${said} ${tn("call.captured", last.captured)}`);
          await this.wait(step * 2);
          if (stale()) return;
          const [cs, ci] = last.capture_from;
          for (const key of [pitKey(cs, ci), lastKey]) {
            const ids = (this.locs.get(key) ?? []).splice(0);
            this.updateCount(key);
            for (const id of ids) {
              this.raise(this.stones.get(id));
              this.moveTo(id, storeKey(mover), fly * 1.6, { hop: true });
            }
          }
        } else {
          const ids = (this.locs.get(lastKey) ?? []).splice(0);
          this.updateCount(lastKey);
          for (const id of ids) this.moveTo(id, storeKey(mover), fly * 1.6, { hop: true });
        }
        this.updateCount(storeKey(mover));
        await this.wait(step * 2);
      }
      if (stale()) return;
      if (last.extra_turn) this.callout("extra", who);
      this.reconcile(obs, this.skipping ? 0 : fly * 2);
      if (!this.skipping && obs.outcome) await this.wait(step * 2);
    } finally {
      // Settle on the newest state asked for: this move's, or a later show() that cut it short.
      this.busy = false;
      this.skipping = false;
      this.root.classList.remove("is-animating");
      this.reconcile(this.obs, 0);
      this.markLast(this.obs.last);
      this.setLegal(this.legalNow);
    }
  }

  /** Without animation, still say what happened (and who did it). */
  sayCalls(last, who) {
    if (!last) return;
    if (last.capture_from) this.callout("capture", who);
    else if (last.extra_turn) this.callout("extra", who);
  }
}

// --- the lessons (learn.js) -------------------------------------------------------------------

/**
 * The board of a lesson in `stage`: the learner at the bottom; a pressed pit calls
 * `onMove({pit})`. `show` sets a position at once, `play` animates the move that led to it.
 */
export function mountLesson(stage, { onMove }) {
  const root = h("div", { class: "mancala", id: "board" });
  stage.replaceChildren(root);
  const board = new MancalaBoard(root, { seat: 0, onPit: (pit) => onMove({ pit }) });
  return {
    show: (view, legal) => board.show(view, { legal }),
    play: (view, legal) => board.play(view, { legal, whose: "you" }),
    setLegal: (legal) => board.setLegal(legal),
    setSpeed: (speed) => board.setSpeed(speed),
  };
}

// --- the replay viewer (replay.js) ------------------------------------------------------------

/** The board in a replay: each step's call-outs say whose move it was. */
class ReplayBoard extends MancalaBoard {
  constructor(root, { seat, viewer, players }) {
    super(root, { seat });
    this.viewer = viewer;
    this.players = players;
  }

  /** "you", or the seat's one name: who made the move shown in `obs` (for the call-outs). */
  whose(obs) {
    const last = obs?.last;
    if (!last) return null;
    if (last.seat === this.viewer) return "you";
    return seatName(last.seat, this.players);
  }

  play(obs, options = {}) {
    return super.play(obs, { ...options, whose: this.whose(obs) });
  }

  reshape() {
    super.reshape();
    this.markReview(this.marks);
  }

  /**
   * A review's marks on the position a move was made in (replay.js): a solid ring and a star
   * on the best pit, a dashed ring in the move's class colour on the pit played instead (none
   * when the best was played). `marks`: {seat, best: {pit}, played: {pit}, grade}, or null.
   * The pits' hit areas carry `data-best` / `data-played` for tests.
   */
  markReview(marks) {
    this.marks = marks;
    for (const node of this.markLayer.querySelectorAll(".mb-review")) node.remove();
    for (const hit of this.hitNodes.values()) {
      delete hit.dataset.best;
      delete hit.dataset.played;
    }
    if (!marks) return;
    const r = this.pitRadius();
    const ring = (pit, kind) => {
      const c = this.pitCentre(marks.seat, pit);
      const group = svg(
        "g",
        { class: `mb-review mb-review--${kind}`, "data-grade": marks.grade },
        svg("circle", { cx: c.x, cy: c.y, r: r + 10, class: "mb-review-ring" }),
      );
      if (kind === "best") {
        const star = svg("text", { x: c.x + r * 0.78, y: c.y - r * 0.62, class: "mb-review-star" });
        star.textContent = "★";
        group.append(star);
      }
      this.markLayer.append(group);
      const hit = this.hitNodes.get(pitKey(marks.seat, pit));
      if (hit) hit.dataset[kind] = "";
    };
    if (marks.played && marks.played.pit !== marks.best.pit) ring(marks.played.pit, "played");
    ring(marks.best.pit, "best");
  }

  /** A hint the viewer took in this position: ring the pit it showed. */
  showHint(action) {
    this.markHint(action.pit);
  }
}

/** Draw the replay's board in `stage`: the opponent's name, the board, the viewer's name. */
export function mountReplay(stage, context) {
  const { seat, name } = context;
  const root = h("div", { class: "mancala", id: "board" });
  stage.append(
    h("div", { class: "player-row player-row--them" }, h("span", { class: "player-name", id: "name-them" }, name(1 - seat))),
    root,
    h("div", { class: "player-row player-row--you" }, h("span", { class: "player-name", id: "name-you" }, name(seat))),
  );
  return new ReplayBoard(root, context);
}

/** What a replay frame shows: the move that led to it ("You: pit 3 — capture!"). */
export function describe(frame, { name }) {
  const last = frame?.last;
  if (!last) return t("replay.start");
  let text = t("replay.move", { who: name(last.seat), n: last.pit + 1 });
  if (last.capture_from) text += ` — ${t("call.capture")}`;
  else if (last.extra_turn) text += ` — ${t("call.extra")}`;
  return text;
}

/** A move in words for the review ("pit 3"). */
export function moveName(action) {
  return t("review.pit", { n: action.pit + 1 });
}

/** The line under the replay's title: the rule set, the opponent and who moved first. */
export function summary({ options, optionSpecs, level, viewer }) {
  const vs = t("replay.vs", { rules: ruleName(options, optionSpecs), level });
  const order = viewer === null ? null : t(`replay.order.${viewer === 0 ? "first" : "second"}`);
  return [vs, order].filter(Boolean).join(t("replay.sep"));
}
