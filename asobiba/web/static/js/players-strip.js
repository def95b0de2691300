// The players strip above the game at a table with people (templates/_table_room.html): one
// chip per seat with its name ("You" for the viewer), whether the person is here, the stand-in
// playing for someone away, idle (`away`) or out of time for one move (`standin` alone), an
// absent person's "away" from the moment they left with the countdown to their stand-in
// (`standin_in`), the
// timeouts in a row, the viewer's "Take my seat back" while they are idle, and their turn clock
// (a live countdown of the move's own time while the room waits on them, then of the reserve:
// `deadline_in` counts both, from when the message came, and `reserve` says how much of it is
// reserve, so each is shown once). It exists apart from
// the games because every game's table is drawn by the game itself, while who sits where and
// who is away belongs to the room (the socket's `players` entries, docs/ARCHITECTURE.md).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { levelName } from "./rules-name.js";

/** The stand-in's badge for why it plays the seat (`away`; "time": this one move ran out). */
const STANDIN_KEYS = {
  disconnected: "table.standin",
  idle: "table.standin_idle",
  time: "table.standin_time",
};

/** Seconds as "m:ss". */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class PlayersStrip {
  /** @param {import("./play-page.js").PlayPage} page */
  constructor(page) {
    this.page = page;
    this.root = document.getElementById("players");
    this.deadlines = new Map(); // seat → performance.now() when its clock runs out
    this.reserves = new Map(); // seat → its reserve in seconds, as the message said
    this.graces = new Map(); // seat → performance.now() when the stand-in takes an absent seat
    this.timer = 0;
  }

  show(visible) {
    if (this.root) this.root.hidden = !visible;
    if (!visible) this.stop();
  }

  /** Draw every seat's chip from `players` (the room's latest entries). */
  render(players) {
    if (!this.root) return;
    const now = performance.now();
    this.deadlines.clear();
    this.reserves.clear();
    this.graces.clear();
    const chips = (players ?? []).map((player, seat) => {
      if (player.standin_in != null) this.graces.set(seat, now + player.standin_in * 1000);
      if (player.clock) this.reserves.set(seat, player.clock.reserve ?? 0);
      if (player.clock?.deadline_in != null) this.deadlines.set(seat, now + player.clock.deadline_in * 1000);
      return this.chip(player, seat);
    });
    this.root.replaceChildren(...chips);
    this.tick();
    const counting = this.deadlines.size + this.graces.size;
    if (counting && !this.timer) this.timer = setInterval(() => this.tick(), 250);
    if (!counting) this.stop();
  }

  chip(player, seat) {
    const mine = seat === this.page.seat;
    // A bot is always here; a person while a socket of theirs is open; a deleted player never.
    const here = player.kind === "deleted" ? false : player.kind !== "human" || player.connected;
    const levels = this.page.data.levels;
    const name = mine ? t("play.you") : this.page.seatName(seat);
    return h(
      "li",
      {
        class: `player-chip${mine ? " player-chip--you" : ""}`,
        "data-seat": seat,
        "data-kind": player.kind,
        "data-here": String(here),
        "data-standin": player.standin ?? null,
        "data-away": player.away ?? null,
      },
      h("span", {
        class: "presence-dot",
        role: "img",
        "aria-label": t(here ? "table.here" : "table.gone"),
        title: t(here ? "table.here" : "table.gone"),
      }),
      h("span", { class: "player-chip-name" }, name),
      // A computer's level beside its one name ("CPU 2", seat-names.js), never instead of it.
      player.kind === "bot" ? h("span", { class: "player-chip-level" }, levelName(player.level, levels)) : null,
      player.host ? h("span", { class: "player-chip-host", title: t("table.seat.host") }, "★") : null,
      player.standin
        ? h(
            "span",
            { class: "badge player-chip-standin" },
            // A deleted player's seat is the stand-in's to the end, whatever its clock says.
            t(player.kind === "deleted" ? STANDIN_KEYS.disconnected : STANDIN_KEYS[player.away ?? "time"], {
              level: levelName(player.standin, levels),
            }),
          )
        : null,
      player.kind === "human" && !player.connected && !player.standin
        ? h("span", { class: "badge player-chip-away", "data-grace": seat }, t("table.gone"))
        : null,
      !player.standin && player.clock?.timeouts
        ? h("span", { class: "player-chip-timeouts" }, t("table.timeouts", { n: player.clock.timeouts }))
        : null,
      mine && player.away === "idle"
        ? h(
            "button",
            {
              class: "btn btn--small btn--primary player-chip-back",
              type: "button",
              onclick: () => this.page.takeBack(),
            },
            t("table.take_back"),
          )
        : null,
      player.clock
        ? h(
            "span",
            { class: "player-chip-clock", "data-clock": seat },
            h("span", { class: "player-chip-left" }),
            h(
              "span",
              {
                class: "player-chip-reserve",
                title: t("table.clock.reserve", { time: clockText(player.clock.reserve ?? 0) }),
              },
              h("span", { class: "visually-hidden" }, t("table.clock.reserve", { time: "" })),
              "+",
              h("span", { class: "player-chip-reserve-left" }),
            ),
          )
        : null,
    );
  }

  /**
   * The countdowns, from the message's `deadline_in`: the move's own time first (what is left
   * beyond the reserve), then the reserve, each shown once ("0:29 +2:00", later "0:00 +1:42").
   */
  tick() {
    const now = performance.now();
    for (const node of this.root.querySelectorAll("[data-grace]")) {
      const at = this.graces.get(Number(node.dataset.grace));
      node.textContent =
        at === undefined ? t("table.gone") : t("table.away_grace", { time: clockText((at - now) / 1000) });
    }
    for (const node of this.root.querySelectorAll("[data-clock]")) {
      const seat = Number(node.dataset.clock);
      const reserve = this.reserves.get(seat) ?? 0;
      const at = this.deadlines.get(seat);
      node.dataset.running = String(at !== undefined);
      const total = at === undefined ? null : Math.max(0, (at - now) / 1000);
      node.querySelector(".player-chip-left").textContent =
        total === null ? "" : clockText(Math.max(0, total - reserve));
      node.querySelector(".player-chip-reserve-left").textContent = clockText(
        total === null ? reserve : Math.min(reserve, total),
      );
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = 0;
  }
}
