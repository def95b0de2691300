// What every game's play page shares: the settings form (option rules, players, strength, who
// starts; remembered in localStorage), POST /api/rooms, the game's own address
// (/games/<game>/<room>, pushed into the address bar; back and forward reload it), the room's
// WebSocket and its failures, the end-of-game dialog's rematch / change-settings / close buttons
// and "New game" (asking first when a game is unfinished).
//
// A game's play.js makes one `PlayPage` with its hooks and draws its own table; the page owns
// the room (`page.room`, `page.seat`) and the socket (`page.send(action)`). See
// asobiba/web/README.md, "Adding a game's pages".
import { ApiError, postJSON } from "./api.js";
import { confirmDialog } from "./dialog.js";
import { pageData, t } from "./i18n.js";
import { RoomSocket } from "./room-socket.js";
import { levelName, valueKey } from "./rules-name.js";
import { toast } from "./toast.js";

export class PlayPage {
  /**
   * @param {{
   *   preview: () => void,
   *   enter?: (room: object) => void,
   *   leave?: () => void,
   *   message: (msg: object) => (void | Promise<void>),
   *   failed: () => boolean,
   *   unfinished: () => boolean,
   *   idle?: () => void,
   *   serial?: boolean,
   * }} hooks
   *   `preview` draws the table for the form's settings; `enter` resets the game's own state for
   *   a new room, `leave` when one is left; `message` handles each socket message (`sync`,
   *   `event`, `error`; with `serial` one at a time, each awaited, `idle` called when the queue
   *   empties); `failed` after the socket gave up (true: a game is on the table, keep it there, else back to
   *   the settings); `unfinished` tells whether leaving asks first.
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.data = pageData();
    this.game = this.data.game;
    this.storageKey = `asobiba.${this.game}.settings`;
    this.play = document.getElementById("play");
    this.form = document.getElementById("settings");
    this.startButton = document.getElementById("start");
    this.turn = document.getElementById("turn");
    this.turnText = document.getElementById("turn-text");
    this.dialog = document.getElementById("result");
    this.room = null; // {room_id, seat (null: watching), ws, players, settings}
    this.socket = null;
    this.lastSettings = null;
    this.queue = [];
    this.pumping = false;
    this.bind();
  }

  /** The viewer's seat; null for a spectator or before a room. */
  get seat() {
    return this.room ? this.room.seat : null;
  }

  get playing() {
    return this.play.dataset.state === "playing";
  }

  // --- the settings form -----------------------------------------------------------------

  radios(name) {
    return [...this.form.querySelectorAll(`input[name="${name}"]`)];
  }

  checked(name) {
    return this.radios(name).find((input) => input.checked && !input.disabled)?.value ?? null;
  }

  setChecked(name, value) {
    const input = this.radios(name).find((node) => node.value === String(value));
    if (input) input.checked = true;
  }

  /** Show an option only while the option it depends on has the wanted value (only_when). */
  applyOnlyWhen() {
    for (const fieldset of this.form.querySelectorAll("fieldset[data-only-when]")) {
      const [key, wanted] = JSON.parse(fieldset.dataset.onlyWhen);
      const active = this.checked(key) === valueKey(wanted);
      fieldset.hidden = !active;
      fieldset.disabled = !active;
    }
  }

  /** The form's settings: offered options, strength, who starts (two seats; else the seat is
   * drawn) and the number of players (when the game takes several). */
  readSettings() {
    const options = {};
    for (const spec of this.data.options ?? []) {
      const fieldset = this.form.querySelector(`fieldset[data-option="${spec.key}"]`);
      if (!fieldset || fieldset.disabled) continue;
      const raw = this.checked(spec.key);
      const value = spec.values.find((v) => valueKey(v) === raw);
      if (value !== undefined) options[spec.key] = value;
    }
    const settings = { options, level: this.checked("level"), order: this.checked("order") ?? "random" };
    const players = this.checked("players");
    if (players !== null) settings.players = Number(players);
    return settings;
  }

  restoreSettings() {
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(this.storageKey) ?? "null");
    } catch {
      saved = null;
    }
    if (!saved) return;
    for (const [key, value] of Object.entries(saved.options ?? {})) this.setChecked(key, valueKey(value));
    for (const key of ["players", "level", "order"]) if (saved[key]) this.setChecked(key, saved[key]);
  }

  saveSettings(settings) {
    try {
      localStorage.setItem(this.storageKey, JSON.stringify(settings));
    } catch {
      /* not remembered */
    }
  }

  // --- the room --------------------------------------------------------------------------

  setTurn(kind, text) {
    this.turn.dataset.turn = kind;
    this.turnText.textContent = text;
    this.play.dataset.turn = kind;
  }

  async start(settings) {
    const button = this.startButton;
    button.disabled = true;
    const label = button.textContent;
    button.textContent = t("play.starting");
    if (this.dialog.open) this.dialog.close();
    try {
      const created = await postJSON("/api/rooms", {
        game: this.game,
        options: settings.options,
        level: settings.level,
        order: settings.order,
        players: settings.players,
      });
      this.lastSettings = settings;
      history.pushState(null, "", this.address(created.room_id));
      this.enterRoom({ ...created, players: null, settings });
    } catch (error) {
      const message =
        error instanceof ApiError && error.code === "network" ? t("error.network") : error.message;
      toast(t("error.start", { message }), { kind: "error" });
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  }

  /** The address of a game, or of the settings (no room); `?speed=` and the like stay. */
  address(roomId = null) {
    const path = roomId ? `/games/${this.game}/${encodeURIComponent(roomId)}` : `/games/${this.game}`;
    return path + window.location.search;
  }

  enterRoom(created) {
    this.leaveRoom();
    this.room = created;
    this.queue = [];
    this.hooks.enter?.(created);
    this.play.dataset.state = "playing";
    this.setTurn("wait", t("play.connecting"));
    document.getElementById("table").scrollIntoView({ block: "nearest" });
    this.socket = new RoomSocket(created.ws, {
      onMessage: (msg) => this.receive(msg),
      onStatus: (kind, event) => this.status(kind, event),
    });
  }

  leaveRoom() {
    this.socket?.close();
    this.socket = null;
    this.room = null;
    this.queue = [];
    this.hooks.leave?.();
  }

  /** Back to the settings, at the settings' address. */
  toSettings() {
    this.leaveRoom();
    if (window.location.pathname !== `/games/${this.game}`) history.pushState(null, "", this.address());
    this.play.dataset.state = "setup";
    this.hooks.preview();
  }

  status(kind, event) {
    if (kind === "reconnecting") this.setTurn("wait", t("play.reconnecting"));
    else if (kind === "failed") {
      const hadGame = this.hooks.failed();
      this.leaveRoom();
      if (!hadGame) this.toSettings();
      // A 4xxx close follows the server's own error message, already shown.
      if (!(event?.code >= 4000 && event.code < 5000)) toast(t("error.network"), { kind: "error" });
    }
  }

  receive(msg) {
    if (msg.type === "sync" && this.room) {
      this.room.seat = msg.seat ?? null;
      this.room.players = msg.players ?? this.room.players;
    }
    if (!this.hooks.serial) {
      this.hooks.message(msg);
      return;
    }
    this.queue.push(msg);
    this.pump();
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) await this.hooks.message(this.queue.shift());
    } finally {
      this.pumping = false;
      this.hooks.idle?.();
    }
  }

  /** Send an action; false (and a notice) when the socket is down. */
  send(action) {
    if (this.socket?.act(action)) return true;
    toast(t("play.reconnecting"));
    return false;
  }

  /** A seat in words: "You", "Player" (a person, to a spectator) or "Computer (level)". */
  seatName(seat) {
    if (this.room && seat === this.room.seat) return t("play.you");
    const player = this.room?.players?.[seat];
    if (player && player.kind !== "bot") return t("play.player");
    return t("play.bot", { level: levelName(this.room?.settings?.level, this.data.levels) });
  }

  /** An error message from the server in words (`key` overrides the code's own string). */
  errorText(msg, key = `error.${msg.code}`) {
    return t(key) === key ? t("error.generic", { message: msg.message ?? msg.code }) : t(key);
  }

  // --- the end of a game -----------------------------------------------------------------

  /** Open the result dialog after `delay` ms, the rematch button (or close) focused. */
  openResult(delay = 0) {
    const open = () => {
      if (!this.dialog.open) this.dialog.showModal();
      // A long result opens at its top, not scrolled to the focused button at its foot.
      (document.getElementById("rematch") ?? document.getElementById("close-result")).focus({
        preventScroll: true,
      });
      this.dialog.scrollTop = 0;
    };
    if (delay) setTimeout(open, delay);
    else open();
  }

  rematch() {
    if (this.dialog.open) this.dialog.close();
    this.start(this.lastSettings ?? this.readSettings());
  }

  changeSettings() {
    if (this.dialog.open) this.dialog.close();
    this.toSettings();
    this.form.querySelector("input:checked")?.focus();
  }

  bind() {
    this.form.addEventListener("change", () => {
      this.applyOnlyWhen();
      if (this.play.dataset.state === "setup") this.hooks.preview();
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const settings = this.readSettings();
      this.saveSettings(settings);
      this.start(settings);
    });
    // Back and forward move between a game's address and the settings': the server decides
    // what each address shows (a seat, a spectator's view, the settings), so load it afresh.
    window.addEventListener("popstate", () => window.location.reload());
    const on = (id, handler) => document.getElementById(id)?.addEventListener("click", handler);
    on("rematch", () => this.rematch());
    on("rematch-bar", () => this.rematch());
    on("change", () => this.changeSettings());
    on("change-bar", () => this.changeSettings());
    on("close-result", () => this.dialog.close());
    on("new-game", async () => {
      if (this.hooks.unfinished()) {
        const leave = await confirmDialog(t("play.abandon_confirm"), {
          yes: t("play.abandon_yes"),
          no: t("play.abandon_no"),
        });
        if (!leave) return;
      }
      this.toSettings();
      this.form.scrollIntoView({ block: "nearest" });
    });
  }

  /** Start-up: the remembered settings, then this address's game (played or watched from
   * where it stands) or the preview. */
  boot() {
    this.restoreSettings();
    this.applyOnlyWhen();
    if (this.data.room) {
      this.lastSettings = this.data.room.settings;
      this.enterRoom(this.data.room);
    } else this.hooks.preview();
  }
}
