// "Play someone now" on every play page (docs/ARCHITECTURE.md, "Play someone now";
// templates/_seek.html). The button posts a seek for the form's rules (POST /api/pairing) and
// shows the wait in the settings card instead of the form: how long, the person's rating, how
// far apart in rating the search accepts now (the designed widening, page data `pairing`), how
// many others wait for these rules, and once the wait is long enough the choice between waiting
// on and starting at once with computers. The seek's socket (/ws/pairing) says all of this and
// finally the table made, which the page enters as it enters any table. Closing the page (or
// its socket) leaves the pool; "Stop looking" leaves it in every tab.
import { ApiError, deleteJSON, postJSON } from "./api.js";
import { t, tn } from "./i18n.js";
import { socketURL } from "./room-socket.js";
import { levelName, ruleName } from "./rules-name.js";
import { toast } from "./toast.js";

const RETRIES = 3; // a dropped socket seeks again this many times (the wait is kept) before giving up

/** "1:05" for 65 seconds. */
function clock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The string for an error code: the seek's own, else the server's sentence. */
function seekErrorText(error) {
  if (error instanceof ApiError && error.code === "network") return t("error.network");
  const key = `seek.error.${error.code}`;
  return t(key) === key ? error.message : t(key);
}

export class Seek {
  /** @param {import("./play-page.js").PlayPage} page */
  constructor(page) {
    this.page = page;
    this.button = document.getElementById("seek");
    this.panel = document.getElementById("seek-panel");
    if (!this.button || !this.panel) return;
    this.card = document.getElementById("setup");
    this.schedule = page.data.pairing ?? { steps: [], offer_seconds: 0 };
    this.seek = null; // the server's answer to POST /api/pairing while looking
    this.body = null; // what was posted (posted again after a dropped socket)
    this.ws = null;
    this.timer = null;
    this.startedAt = 0; // performance.now() at which the wait was 0
    this.retries = 0;
    this.button.addEventListener("click", () => this.start());
    const on = (id, handler) => document.getElementById(id).addEventListener("click", handler);
    on("seek-cancel", () => this.cancel());
    on("seek-bots", () => this.bots());
    on("seek-bots-later", () => this.bots());
    on("seek-keep", () => this.keepWaiting());
  }

  get active() {
    return this.seek !== null;
  }

  /** Look for someone to play the form's rules with. */
  async start() {
    if (!this.panel || this.active) return;
    const settings = this.page.readSettings();
    const body = { game: this.page.game, options: settings.options };
    if (settings.players !== undefined) body.players = settings.players;
    const label = this.button.textContent;
    this.button.disabled = true;
    this.button.textContent = t("seek.starting");
    try {
      this.seek = await postJSON("/api/pairing", body);
    } catch (error) {
      toast(t("seek.error", { message: seekErrorText(error) }), { kind: "error" });
      return;
    } finally {
      this.button.disabled = false;
      this.button.textContent = label;
    }
    this.page.saveSettings(settings);
    this.body = body;
    this.retries = 0;
    this.startedAt = performance.now();
    this.show(true);
    this.describe();
    this.connect();
    this.timer = setInterval(() => this.tick(), 1000);
    this.tick();
  }

  connect() {
    const ws = new WebSocket(socketURL(this.seek.ws));
    this.ws = ws;
    ws.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    ws.addEventListener("close", () => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (this.active) this.lost();
    });
  }

  /** The socket dropped while looking (a server restarting): seek again, which keeps the wait
   * while the seek still stands, and watch it on a new socket. */
  async lost() {
    if (this.retries >= RETRIES) {
      toast(t("error.network"), { kind: "error" });
      this.finish();
      return;
    }
    this.retries += 1;
    await new Promise((resolve) => setTimeout(resolve, 400 * 2 ** this.retries));
    if (!this.active) return;
    try {
      this.seek = await postJSON("/api/pairing", this.body);
      this.connect();
    } catch {
      this.lost();
    }
  }

  receive(msg) {
    if (!this.active) return;
    if (msg.type === "seeking") {
      this.retries = 0;
      this.startedAt = performance.now() - msg.waited * 1000;
      this.seek = { ...this.seek, rating: msg.rating, bots: msg.bots };
      this.describe();
      this.tick();
    } else if (msg.type === "others") {
      this.others(msg.others);
    } else if (msg.type === "offer") {
      this.offer(msg.bots);
    } else if (msg.type === "paired") {
      this.enter(msg);
    } else if (msg.type === "ended") {
      toast(t(`seek.ended.${msg.reason}`));
      this.finish();
    } else if (msg.type === "error") {
      toast(t("seek.error", { message: seekErrorText(msg) }), { kind: "error" });
    }
  }

  /** What the wait is for and the person's rating. */
  describe() {
    const rules = this.seek.rules;
    const named = ruleName(rules.options, this.page.data.options ?? []);
    const seats = this.page.data.seats ?? { min: 2, max: 2 };
    let text = named ? t("seek.rules", { rules: named }) : "";
    if (seats.max > seats.min) {
      text = named ? t("seek.rules.players", { rules: named, n: rules.players }) : t("seek.rules.players_only", { n: rules.players });
    }
    document.getElementById("seek-rules").textContent = text;
    document.getElementById("seek-rating").textContent = String(this.seek.rating);
    document.getElementById("seek-bots").textContent = t("seek.offer.bots");
    document.getElementById("seek-bots-later").textContent = t("seek.offer.later", { level: this.level() });
  }

  /** The offered computers' level, named. */
  level() {
    return levelName(this.seek?.bots, this.page.data.levels);
  }

  /** The wait so far, the range it accepts now and the step of the schedule it is at. */
  tick() {
    if (!this.active) return;
    const waited = (performance.now() - this.startedAt) / 1000;
    document.getElementById("seek-waited").textContent = clock(waited);
    const steps = this.schedule.steps ?? [];
    let current = 0;
    steps.forEach((step, k) => {
      if (waited >= step.after) current = k;
    });
    const gap = steps[current]?.gap;
    document.getElementById("seek-range").textContent =
      gap === null || gap === undefined ? t("seek.range.anyone") : t("seek.range.gap", { gap });
    document.querySelectorAll("#seek-steps li").forEach((item, k) => {
      if (k === current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    });
  }

  others(n) {
    document.getElementById("seek-others").textContent = n === 0 ? t("seek.others.none") : tn("seek.others", n);
  }

  /** The wait is long enough: the person may start now with computers, or wait on. */
  offer(level) {
    this.seek = { ...this.seek, bots: level };
    this.describe();
    document.getElementById("seek-offer-text").textContent = t("seek.offer.text", { level: this.level() });
    document.getElementById("seek-offer").hidden = false;
    document.getElementById("seek-bots-later").hidden = true;
    this.page.say(t("seek.offer.said"));
  }

  /** Wait on: the offer folds into one button under the facts, still there to press. */
  keepWaiting() {
    document.getElementById("seek-offer").hidden = true;
    const later = document.getElementById("seek-bots-later");
    later.hidden = false;
    later.focus({ preventScroll: true });
  }

  bots() {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "bots" }));
    else toast(t("play.reconnecting"));
  }

  /** Stop looking, in every tab. */
  async cancel() {
    const ws = this.ws;
    this.ws = null;
    this.finish();
    if (ws?.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ type: "cancel" }));
      ws.close();
    } else {
      ws?.close();
      try {
        await deleteJSON("/api/pairing");
      } catch {
        // The seek lapses by itself once no page watches it.
      }
    }
    this.button.focus({ preventScroll: true });
  }

  /** A table was made: enter it at its own address, as a table between people. */
  enter(placement) {
    const rules = this.seek.rules;
    this.finish();
    toast(t(placement.people > 1 ? "seek.found" : "seek.found.bots"));
    const settings = {
      ...this.page.readSettings(),
      options: rules.options,
      players: rules.players,
      level: placement.bots,
      paired: true,
    };
    this.page.lastSettings = settings;
    history.pushState(null, "", this.page.address(placement.room_id));
    this.page.enterRoom({ room_id: placement.room_id, seat: placement.seat, ws: placement.ws, players: null, settings });
  }

  /** Not looking any more: the form again. */
  finish() {
    this.seek = null;
    clearInterval(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.show(false);
  }

  show(on) {
    this.panel.hidden = !on;
    if (on) this.card.dataset.mode = "seek";
    else if (this.card.dataset.mode === "seek") delete this.card.dataset.mode;
    this.button.setAttribute("aria-expanded", String(on));
    if (on) {
      document.getElementById("seek-offer").hidden = true;
      document.getElementById("seek-bots-later").hidden = true;
      document.getElementById("seek-others").textContent = "";
      this.panel.scrollIntoView({ block: "nearest" });
      document.getElementById("seek-cancel").focus({ preventScroll: true });
    }
  }
}
