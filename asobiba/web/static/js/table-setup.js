// "Play with friends": the set-up of a table for people in the settings card of every play page
// (templates/_table_setup.html). It exists apart from the settings form because a table is set
// seat by seat (me, a person's open seat, a computer of a level) with settings a game against
// the computer has not (rated or casual, public, turn clock, stand-in, spectators' chat); the
// form's rule options still apply. Submitting names the guest (PUT /api/me), creates the table (POST /api/rooms with
// `seats`) and enters it at its own address, first as its waiting room (docs/ARCHITECTURE.md,
// "Tables between people").
import { ApiError, getJSON, postJSON, putJSON } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { levelName } from "./rules-name.js";
import { loadJSON, saveJSON } from "./storage.js";
import { toast } from "./toast.js";

/** A turn clock's choice ("30:120") as the API takes it ({move, reserve}), "" → null. */
export function clockOf(value) {
  if (!value) return null;
  const [move, reserve] = value.split(":").map(Number);
  return { move, reserve };
}

/** An API error in words: the table's own string for its code, else the server's sentence. */
export function tableErrorText(error) {
  if (error instanceof ApiError && error.code === "network") return t("error.network");
  const key = `table.error.${error.code}`;
  return t(key) === key ? error.message : t(key);
}

export class TableSetup {
  /** @param {import("./play-page.js").PlayPage} page */
  constructor(page) {
    this.page = page;
    this.form = document.getElementById("table-setup");
    this.opener = document.getElementById("friends");
    if (!this.form || !this.opener) return;
    this.card = document.getElementById("setup");
    this.name = document.getElementById("my-name");
    this.count = document.getElementById("seat-count");
    this.list = document.getElementById("seat-choices");
    this.submit = document.getElementById("create-table");
    this.storageKey = `asobiba.${page.game}.table`;
    this.choices = []; // per seat: "me" | "open" | "bot:<level>"
    this.nameAsked = false;
    this.opener.addEventListener("click", () => this.open());
    document.getElementById("table-back").addEventListener("click", () => this.close());
    this.count.addEventListener("change", () => {
      const n = Number(this.count.value);
      this.resize(n);
      // The table's preview follows the number of seats where the game takes several.
      if (this.page.checked("players") !== null) {
        this.page.setChecked("players", n);
        this.page.hooks.preview();
      }
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.create();
    });
    this.restore();
  }

  get isOpen() {
    return Boolean(this.form && !this.form.hidden);
  }

  /** Show the panel (the settings form keeps only its rule options meanwhile). */
  open() {
    if (!this.form) return;
    const players = this.page.checked("players");
    this.count.value = String(players ?? this.page.data.seats?.min ?? 2);
    this.resize(Number(this.count.value), { fresh: true });
    this.form.hidden = false;
    this.card.dataset.mode = "table";
    this.opener.setAttribute("aria-expanded", "true");
    this.fillName();
    this.form.scrollIntoView({ block: "nearest" });
    this.name.focus({ preventScroll: true });
  }

  close() {
    if (!this.form) return;
    this.form.hidden = true;
    delete this.card.dataset.mode;
    this.opener.setAttribute("aria-expanded", "false");
    this.opener.focus({ preventScroll: true });
  }

  /** The guest's name as the server keeps it, once (never over what they typed). */
  async fillName() {
    if (this.nameAsked) return;
    this.nameAsked = true;
    try {
      const me = await getJSON("/api/me");
      if (me?.name && !this.name.value) this.name.value = me.name;
    } catch {
      this.nameAsked = false; // asked again next time
    }
  }

  /** `n` seats: the viewer at seat 0 and the rest open unless chosen before (`fresh` resets). */
  resize(n, { fresh = false } = {}) {
    const kept = fresh ? [] : this.choices.slice(0, n);
    const choices = Array.from({ length: n }, (_, seat) => kept[seat] ?? (seat === 0 ? "me" : "open"));
    if (!choices.includes("me")) choices[0] = "me";
    this.choices = choices;
    this.renderSeats();
  }

  renderSeats() {
    const levels = this.page.data.levels ?? [];
    const rows = this.choices.map((choice, seat) => {
      const id = `seat-choice-${seat}`;
      const select = h(
        "select",
        { class: "select", id, "data-seat": seat, onchange: (event) => this.choose(seat, event.target.value) },
        h("option", { value: "me" }, t("table.setup.me")),
        h("option", { value: "open" }, t("table.setup.open")),
        levels.map((level) =>
          h("option", { value: `bot:${level.id}` }, t("table.setup.bot", { level: levelName(level.id, levels) })),
        ),
      );
      select.value = choice;
      return h(
        "li",
        { class: "seat-choice" },
        h("label", { class: "seat-choice-label", for: id }, t("table.setup.seat_n", { n: seat + 1 })),
        select,
      );
    });
    this.list.replaceChildren(...rows);
  }

  /** Exactly one seat is "me": choosing it for one seat opens the seat that had it. */
  choose(seat, value) {
    if (value === "me") {
      this.choices = this.choices.map((choice) => (choice === "me" ? "open" : choice));
    } else if (this.choices[seat] === "me") {
      // Someone must sit here as the host: the first other seat that is no computer takes "me".
      const other = this.choices.findIndex((choice, i) => i !== seat && choice === "open");
      this.choices[other === -1 ? (seat === 0 ? 1 : 0) : other] = "me";
    }
    this.choices[seat] = value;
    this.renderSeats();
    this.list.querySelector(`[data-seat="${seat}"]`)?.focus();
  }

  /** What POST /api/rooms takes for the table, rule options from the settings form. */
  read() {
    const seats = this.choices.map((choice) =>
      choice.startsWith("bot:") ? { kind: "bot", level: choice.slice(4) } : { kind: choice },
    );
    return {
      game: this.page.game,
      options: this.page.readSettings().options,
      seats,
      public: document.getElementById("table-public").checked,
      rated: document.getElementById("table-rated").checked,
      clock: clockOf(document.getElementById("table-clock").value),
      standin: document.getElementById("table-standin").value,
      spectator_chat: document.getElementById("spectator-chat").checked,
    };
  }

  restore() {
    const saved = loadJSON(this.storageKey);
    if (!saved) return;
    document.getElementById("table-public").checked = Boolean(saved.public);
    document.getElementById("table-rated").checked = saved.rated !== false; // rated unless chosen
    document.getElementById("spectator-chat").checked = Boolean(saved.spectator_chat);
    const clock = document.getElementById("table-clock");
    const value = saved.clock ? `${saved.clock.move}:${saved.clock.reserve}` : "";
    if ([...clock.options].some((option) => option.value === value)) clock.value = value;
    const standin = document.getElementById("table-standin");
    if ([...standin.options].some((option) => option.value === saved.standin)) standin.value = saved.standin;
  }

  save({ public: shown, rated, clock, standin, spectator_chat }) {
    saveJSON(this.storageKey, { public: shown, rated, clock, standin, spectator_chat });
  }

  async create() {
    const body = this.read();
    const name = this.name.value.trim();
    const label = this.submit.textContent;
    this.submit.disabled = true;
    this.submit.textContent = t("table.setup.creating");
    try {
      if (name) await putJSON("/api/me", { name });
      const created = await postJSON("/api/rooms", body);
      this.save(body);
      // The games name the computers' level from the settings: the table's first computer's,
      // else its stand-in's.
      const level = body.seats.find((seat) => seat.kind === "bot")?.level ?? body.standin;
      const settings = { ...this.page.readSettings(), level, players: body.seats.length, table: body };
      this.page.lastSettings = settings;
      this.close();
      history.pushState(null, "", this.page.address(created.room_id));
      this.page.enterRoom({ ...created, players: null, settings });
    } catch (error) {
      toast(t("table.error.create", { message: tableErrorText(error) }), { kind: "error" });
      if (error.code === "invalid_name") this.name.focus();
    } finally {
      this.submit.disabled = false;
      this.submit.textContent = label;
    }
  }
}
