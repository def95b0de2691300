// What every game's play page shares: the settings form (option rules, players, strength, who
// starts; remembered in localStorage), POST /api/rooms, the game's own address
// (/games/<game>/<room>, pushed into the address bar; back and forward reload it), the room's
// WebSocket and its failures, the end-of-game dialog's rematch / change-settings / close buttons
// and "New game" (asking first when a game is unfinished). At a table for people
// (docs/ARCHITECTURE.md, "Tables between people") it also holds what belongs to the room rather
// than to a game: the table's set-up ("Play with friends", table-setup.js), "Play someone now"
// (seek.js: waiting for a stranger, then their table), the waiting room
// until the game starts (waiting-room.js; the game's hooks see no message meanwhile), the
// players strip (players-strip.js), the chat (chat.js) and the notices when someone is away or
// back. The games never receive `players` or `chat` messages.
//
// A game's play.js makes one `PlayPage` with its hooks and draws its own table; the page owns
// the room (`page.room`, `page.seat`) and the socket (`page.send(action)`). See
// asobiba/web/README.md, "Adding a game's pages".
import { ApiError, postJSON } from "./api.js";
import { ChatPanel } from "./chat.js";
import { Coach } from "./coach.js";
import { confirmDialog } from "./dialog.js";
import { pageData, t } from "./i18n.js";
import { PlayersStrip } from "./players-strip.js";
import { RoomSocket } from "./room-socket.js";
import { levelName, valueKey } from "./rules-name.js";
import { seatLabel, seatName } from "./seat-names.js";
import { Seek } from "./seek.js";
import { loadJSON, saveJSON } from "./storage.js";
import { TableSetup } from "./table-setup.js";
import { toast } from "./toast.js";
import { WaitingRoom } from "./waiting-room.js";

/** The string for a table's error code: its own, else the site's for the code. */
function tableKey(code) {
  const key = `table.error.${code}`;
  return t(key) === key ? `error.${code}` : key;
}

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
   *   reveal?: () => void,
   *   serial?: boolean,
   *   coach?: {id: string, when: (view: object, legal: object[]) => boolean}[],
   * }} hooks
   *   `preview` draws the table for the form's settings; `enter` resets the game's own state for
   *   a new room, `leave` when one is left; `message` handles each socket message (`sync`,
   *   `event`, `error`; with `serial` one at a time, each awaited, `idle` called when the queue
   *   empties); `failed` after the socket gave up (true: a game is on the table, keep it there, else back to
   *   the settings); `unfinished` tells whether leaving asks first; `reveal` brings the
   *   viewer's own hand into sight (below the site's header, above the game's sticky dock) once
   *   a table's game is first drawn on the page (it starts, or the page opens on it): on a phone
   *   the waiting room or the page's top left the hand under the dock. `coach` lists the
   *   game's cues for a newcomer's first games (coach.js), each checked once its message is drawn.
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
    this.room = null; // {room_id, seat (null: watching), ws, players, settings, table}
    this.socket = null;
    this.lastSettings = null;
    this.queue = [];
    this.pumping = false;
    this.waiting = false; // a table's waiting room is on show: the game sees nothing yet
    this.starting = false; // a table's game is shown for the first time: reveal the hand once drawn
    this.setup = new TableSetup(this);
    this.seek = new Seek(this);
    this.waitingRoom = new WaitingRoom(this);
    this.strip = new PlayersStrip(this);
    this.chat = new ChatPanel(this);
    this.coach = hooks.coach ? new Coach(this, hooks.coach) : null;
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
    const saved = loadJSON(this.storageKey);
    if (!saved) return;
    for (const [key, value] of Object.entries(saved.options ?? {})) this.setChecked(key, valueKey(value));
    for (const key of ["players", "level", "order"]) if (saved[key]) this.setChecked(key, saved[key]);
  }

  saveSettings(settings) {
    saveJSON(this.storageKey, settings);
  }

  // --- the room --------------------------------------------------------------------------

  /** Say `text` in the polite live region (#announce): another seat's move, a claim window,
   * the result. The same words twice are said twice: the region is emptied first. */
  say(text) {
    const region = document.getElementById("announce");
    if (!region || !text) return;
    region.textContent = "";
    requestAnimationFrame(() => {
      region.textContent = text;
    });
  }

  /** A claim window's choices in words ("Your call: Pon / Pass"), from its prompt buttons. */
  claimWords(prompts) {
    const choices = [...prompts.querySelectorAll("button")].map((b) => b.textContent.trim());
    return choices.length ? t("play.claim_window", { choices: choices.join(" / ") }) : "";
  }

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
    this.waiting = false;
    this.fresh = true; // no sync yet
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
    this.showWaiting(false);
    this.strip.show(false);
    this.chat.show(false);
    this.chat.clear();
    delete this.play.dataset.people;
    this.coach?.hide();
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
    if (!this.room) return;
    // What belongs to the table, not the game: never passed to the game's hooks.
    if (msg.type === "players") {
      this.updatePlayers(msg.players, msg.table);
      return;
    }
    if (msg.type === "chat") {
      this.chat.add(msg.entry);
      return;
    }
    if (msg.type === "error" && String(msg.code).startsWith("chat_")) {
      this.chat.refused(msg);
      return;
    }
    if (msg.type === "sync") {
      this.room.seat = msg.seat ?? null;
      if (msg.chat) this.chat.reset(msg.chat);
      this.updatePlayers(msg.players, msg.table);
      if (msg.table?.status === "waiting") {
        this.showWaiting(true);
        return;
      }
      if (this.waiting || (this.fresh && this.room.table)) {
        // The game starts (or a table's page gets its first sync): the game resets for the
        // seats as they are now (names, levels), then gets this sync and everything after it
        // exactly as at any other game. Once drawn, the viewer's hand is brought into sight.
        this.starting = true;
        this.showWaiting(false);
        this.queue = [];
        this.hooks.enter?.(this.room);
        this.showTable();
      }
      this.fresh = false;
    } else if (this.waiting) {
      if (msg.type === "error") toast(this.errorText(msg, tableKey(msg.code)), { kind: "error" });
      return;
    }
    if (!this.hooks.serial) {
      this.hooks.message(msg);
      this.coach?.see(msg);
      this.revealHand();
      return;
    }
    this.queue.push(msg);
    this.pump();
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const msg = this.queue.shift();
        await this.hooks.message(msg);
        this.coach?.see(msg);
      }
    } finally {
      this.pumping = false;
      this.hooks.idle?.();
      this.revealHand();
    }
  }

  /** Once a table's game is first drawn on the page: the viewer's hand in sight. */
  revealHand() {
    if (!this.starting) return;
    this.starting = false;
    this.hooks.reveal?.();
  }

  // --- a table for people ------------------------------------------------------------------

  /** Seats the room has for people (taken, open, or of a person who deleted their data). */
  get people() {
    const people = new Set(["human", "open", "deleted"]);
    return (this.room?.players ?? []).filter((player) => people.has(player.kind)).length;
  }

  /** A table set for people (more than one person's seat): its strip, chat and rematch. */
  get peopleTable() {
    return Boolean(this.room?.table) && this.people > 1;
  }

  /** The room's latest players entries and table info (a `sync` or a `players` message). */
  updatePlayers(players, table) {
    const room = this.room;
    const before = room.players;
    if (players) room.players = players;
    if (table !== undefined) room.table = table;
    // A room page's settings name no level when its seats are all people: the table's stand-in.
    if (room.settings && !room.settings.level) {
      room.settings.level = room.players?.find((player) => player.kind === "bot")?.level ?? room.table?.standin ?? null;
    }
    if (players && before) this.announce(before, players);
    this.showTable();
  }

  /** "<name> is away (or idle): a stand-in plays for them" / "<name> is back" / "<name> left
   * the site: the computer plays their seat", for other people's seats; for the viewer's own, that the stand-in now plays for them because they
   * were idle. A stand-in playing one move whose time ran out is shown on the strip only. */
  announce(before, after) {
    after.forEach((player, seat) => {
      const was = before[seat];
      if (was?.kind === "human" && player.kind === "deleted" && seat !== this.seat) {
        toast(t("table.deleted_notice", { name: was.name ?? t("seat.player", { n: seat + 1 }) }));
        return;
      }
      if (!was || player.kind !== "human" || was.kind !== "human") return;
      if (seat === this.seat) {
        if (was.away !== "idle" && player.away === "idle") toast(t("table.you_idle"));
        return;
      }
      const name = player.name ?? this.seatName(seat);
      const key = player.away === "idle" ? "table.idle_notice" : "table.away";
      if (!was.away && player.away) toast(t(key, { name }));
      else if (was.away && !player.away) toast(t("table.back", { name }));
    });
  }

  /** Whether the viewer's seat is marked idle: the stand-in plays all its moves. */
  get idle() {
    return this.room?.players?.[this.seat]?.away === "idle";
  }

  /** "Take my seat back": the stand-in stops playing for the viewer (`{"type": "back"}`). */
  takeBack() {
    if (!this.socket?.back()) toast(t("play.reconnecting"));
  }

  /** What the table adds around the game, from the room's latest entries. */
  showTable() {
    const room = this.room;
    const table = room?.table ?? null;
    this.play.dataset.people = String(this.people);
    this.strip.show(this.peopleTable && !this.waiting);
    if (this.peopleTable && !this.waiting) this.strip.render(room.players);
    // A host alone with computers who just muted spectators keeps the switch to undo it.
    const switched = Boolean(table?.you?.host) && this.chat.switched;
    const chatting = Boolean(table) && (this.people > 1 || Boolean(table.spectator_chat) || switched);
    this.chat.show(chatting);
    if (chatting) {
      this.chat.allow(table.you?.may_chat !== false);
      this.chat.hostControls(table);
    }
    if (this.waiting) this.waitingRoom.render();
    // After a game with people the rematch sets a new table (`rematch`).
    for (const id of ["rematch", "rematch-bar"]) {
      const button = document.getElementById(id);
      const key = this.pairedTable ? "seek.rematch" : this.peopleTable ? "table.rematch" : "result.rematch";
      if (button) button.textContent = t(key);
    }
  }

  /** The waiting room instead of the game's table (`true`), or the game's table again. */
  showWaiting(on) {
    this.waiting = on;
    if (on) this.play.dataset.table = "waiting";
    else delete this.play.dataset.table;
    this.waitingRoom.show(on);
    if (on) {
      this.setTurn("wait", t("table.waiting.title"));
      this.showTable();
    }
  }

  /** Send an action; false (and a notice) when the socket is down. Any control pressed while
   * the viewer is marked idle takes the seat back first, so the action is theirs even when it
   * is not their turn yet. */
  send(action) {
    if (this.idle) this.socket?.back();
    if (this.socket?.act(action)) return true;
    toast(t("play.reconnecting"));
    return false;
  }

  /** A seat in words: "You", a person's name at a table ("Player n" where none is known) or
   * "CPU n" (`seat-names.js`: one name per seat for every viewer). */
  seatName(seat) {
    return seatName(seat, this.room?.players, this.room ? this.room.seat : null);
  }

  /** A seat's name with a computer's level beside it: "CPU 2 (Beginner)". */
  seatLabel(seat) {
    const level = levelName(this.room?.players?.[seat]?.level ?? this.room?.settings?.level, this.data.levels);
    return seatLabel(seat, this.room?.players, this.room ? this.room.seat : null, level);
  }

  /** An error message from the server in words (`key` overrides the code's own string). */
  errorText(msg, key = `error.${msg.code}`) {
    return t(key) === key ? t("error.generic", { message: msg.message ?? msg.code }) : t(key);
  }

  // --- the end of a game -----------------------------------------------------------------

  /** Open the result dialog after `delay` ms, the rematch button (or close) focused. */
  openResult(delay = 0) {
    const words = ["result-title", "result-score"].map((id) => document.getElementById(id)?.textContent);
    this.say(words.filter(Boolean).join(" "));
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

  /** A table the site made for people who pressed "Play someone now". */
  get pairedTable() {
    return Boolean(this.room?.table?.paired);
  }

  rematch() {
    if (this.dialog.open) this.dialog.close();
    // After "Play someone now", look for someone again (the same rules).
    if (this.pairedTable || this.lastSettings?.paired) {
      this.toSettings();
      this.seek.start();
      return;
    }
    // A table for people sets a new table: the same friends are not waiting in a new room.
    if (this.peopleTable) {
      this.toSettings();
      this.setup.open();
      return;
    }
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
      if (this.waiting && this.seat !== null) {
        // Leaving a waiting room gives the seat back; the host's leaving closes the table.
        if (this.room.table?.you?.host) {
          if (await this.waitingRoom.close()) this.toSettings();
        } else await this.waitingRoom.leave();
        return;
      }
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
    } else {
      this.hooks.preview();
      // `/games/<game>#friends` opens the table's set-up at once (a link from the lobby).
      if (window.location.hash === "#friends") this.setup.open();
    }
  }
}
