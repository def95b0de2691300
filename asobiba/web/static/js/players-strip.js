// The players strip above the game at a table with people (templates/_table_room.html): one
// chip per seat with its name ("You" for the viewer), whether the person is here, the stand-in
// playing for someone away, and their turn clock (the reserve, and a live countdown while the
// room waits on them: `deadline_in`, counted from when the message came). It exists apart from
// the games because every game's table is drawn by the game itself, while who sits where and
// who is away belongs to the room (the socket's `players` entries, docs/ARCHITECTURE.md).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { levelName } from "./rules-name.js";

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
    const chips = (players ?? []).map((player, seat) => {
      if (player.clock?.deadline_in != null) this.deadlines.set(seat, now + player.clock.deadline_in * 1000);
      return this.chip(player, seat);
    });
    this.root.replaceChildren(...chips);
    this.tick();
    if (this.deadlines.size && !this.timer) this.timer = setInterval(() => this.tick(), 250);
    if (!this.deadlines.size) this.stop();
  }

  chip(player, seat) {
    const mine = seat === this.page.seat;
    const here = player.kind !== "human" || player.connected;
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
      },
      h("span", {
        class: "presence-dot",
        role: "img",
        "aria-label": t(here ? "table.here" : "table.gone"),
        title: t(here ? "table.here" : "table.gone"),
      }),
      h("span", { class: "player-chip-name" }, name),
      player.host ? h("span", { class: "player-chip-host", title: t("table.seat.host") }, "★") : null,
      player.standin
        ? h(
            "span",
            { class: "badge player-chip-standin" },
            t("table.standin", { level: levelName(player.standin, levels) }),
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
              `+${clockText(player.clock.reserve ?? 0)}`,
            ),
          )
        : null,
    );
  }

  /** The countdowns: what is left of each running clock, from the message's `deadline_in`. */
  tick() {
    const now = performance.now();
    for (const node of this.root.querySelectorAll("[data-clock]")) {
      const seat = Number(node.dataset.clock);
      const left = node.querySelector(".player-chip-left");
      const at = this.deadlines.get(seat);
      node.dataset.running = String(at !== undefined);
      left.textContent = at === undefined ? "" : clockText((at - now) / 1000);
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = 0;
  }
}
