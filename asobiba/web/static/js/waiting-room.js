// A table's waiting room (templates/_table_room.html), shown instead of the game's table while
// the socket's `sync` says `table.status` is "waiting": who sits where (a person's name, an open
// seat, a computer; the host; who is here), the link and the code to share, and what the viewer
// may do — a visitor joins a free seat, a seated guest leaves, the host starts at once with
// computers in the open seats or removes an open seat. Shared by every game; the game's own
// table sees nothing until the game starts (PlayPage holds its messages back meanwhile).
import { deleteJSON, getJSON, postJSON } from "./api.js";
import { confirmDialog, promptDialog } from "./dialog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { levelName } from "./rules-name.js";
import { cpuName, seatName } from "./seat-names.js";
import { tableErrorText } from "./table-setup.js";
import { toast } from "./toast.js";

/** Copy `text` to the clipboard; falls back to selecting `field` (an input) and the old way. */
export async function copyText(text, field = null) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back */
  }
  if (field) {
    field.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
  return false;
}

export class WaitingRoom {
  /** @param {import("./play-page.js").PlayPage} page */
  constructor(page) {
    this.page = page;
    this.root = document.getElementById("waiting-room");
    if (!this.root) return;
    this.seats = document.getElementById("waiting-seats");
    this.count = document.getElementById("waiting-count");
    this.rated = document.getElementById("waiting-rated");
    this.lead = document.getElementById("waiting-lead");
    this.link = document.getElementById("share-link");
    this.code = document.getElementById("table-code");
    this.joinButton = document.getElementById("join");
    this.leaveButton = document.getElementById("leave");
    this.hostStart = document.getElementById("host-start");
    this.startButton = document.getElementById("start-now");
    this.fill = document.getElementById("fill-level");
    this.busy = false;
    const on = (node, handler) => node.addEventListener("click", handler);
    on(this.joinButton, () => this.join());
    on(this.leaveButton, () => this.leave());
    on(this.startButton, () => this.start());
    on(document.getElementById("copy-link"), () => this.copy(this.link.value, this.link));
    on(document.getElementById("copy-code"), () => this.copy(this.code.textContent));
  }

  get roomURL() {
    return `/api/rooms/${encodeURIComponent(this.page.room.room_id)}`;
  }

  show(visible) {
    if (this.root) this.root.hidden = !visible;
  }

  /** Draw the room from the latest players and table info (PlayPage keeps them on `room`). */
  render() {
    const room = this.page.room;
    if (!this.root || !room) return;
    const players = room.players ?? [];
    const table = room.table ?? {};
    const seat = room.seat;
    const host = Boolean(table.you?.host);
    const open = players.filter((player) => player.kind === "open").length;
    const taken = players.length - open;
    this.count.textContent = t("table.waiting.count", { n: taken, total: players.length });
    // Rated or casual, as the host set it (the people know before they join).
    this.rated.textContent = t(table.rated === false ? "table.casual" : "table.rated");
    this.rated.dataset.rated = String(table.rated !== false);
    const removable = host && players.length > (table.min_seats ?? players.length);
    this.seats.replaceChildren(...players.map((player, k) => this.seatRow(player, k, { removable })));
    this.lead.textContent =
      seat === null
        ? t(open ? "table.waiting.lead_visitor" : "table.waiting.lead_full")
        : t(host ? "table.waiting.lead_host" : "table.waiting.lead_seated");
    // The address without the page's own query (?speed=…): what a friend should open.
    this.link.value = `${window.location.origin}${window.location.pathname}`;
    this.code.textContent = table.code ?? "";
    this.joinButton.hidden = !(seat === null && open > 0);
    this.leaveButton.hidden = !(seat !== null && !host);
    this.hostStart.hidden = !host;
  }

  seatRow(player, k, { removable }) {
    const room = this.page.room;
    const levels = this.page.data.levels;
    const mine = room.seat === k;
    let name;
    let state;
    if (player.kind === "open") {
      name = t("table.seat.open");
      state = "waiting";
    } else if (player.kind === "bot") {
      // The seat's one name ("CPU 2", seat-names.js) and its level beside it.
      name = t("seat.with_level", { name: cpuName(k), level: levelName(player.level, levels) });
      state = "ready";
    } else {
      name = seatName(k, room.players);
      state = player.connected ? "ready" : "away";
    }
    return h(
      "li",
      { class: `waiting-seat waiting-seat--${player.kind}`, "data-seat": k, "data-state": state },
      h("span", { class: "waiting-seat-n" }, t("table.setup.seat_n", { n: k + 1 })),
      h(
        "span",
        { class: "waiting-seat-who" },
        h("span", { class: "waiting-seat-name" }, name),
        mine ? h("span", { class: "badge badge--accent" }, t("table.seat.you")) : null,
        player.host ? h("span", { class: "badge badge--primary waiting-host" }, t("table.seat.host")) : null,
      ),
      h(
        "span",
        { class: "waiting-seat-state" },
        h("span", { class: "presence-dot", "aria-hidden": "true" }),
        t(`table.seat.${state}`),
      ),
      removable && player.kind === "open"
        ? h(
            "button",
            {
              class: "btn btn--ghost btn--small btn--icon waiting-remove",
              type: "button",
              "aria-label": t("table.seat.remove", { n: k + 1 }),
              title: t("table.seat.remove", { n: k + 1 }),
              onclick: () => this.remove(k),
            },
            "✕",
          )
        : null,
    );
  }

  async copy(text, field = null) {
    const done = await copyText(text, field);
    toast(t(done ? "table.share.copied" : "table.share.copy_failed"), { kind: done ? "info" : "error" });
  }

  /** Run one request with the room's buttons held; errors are toasts. */
  async request(run) {
    if (this.busy) return false;
    this.busy = true;
    const buttons = this.root.querySelectorAll("button:not([id^='copy'])");
    for (const button of buttons) button.disabled = true;
    try {
      await run();
      return true;
    } catch (error) {
      toast(tableErrorText(error), { kind: "error" });
      return false;
    } finally {
      this.busy = false;
      for (const button of buttons) button.disabled = false;
    }
  }

  /** A visitor takes a free seat, named first if the site does not know their name yet. */
  async join() {
    let name = null;
    try {
      name = (await getJSON("/api/me"))?.name ?? null;
    } catch {
      name = null;
    }
    let body = {};
    if (!name) {
      const typed = await promptDialog(t("table.join.name_title"), {
        label: t("table.join.name_label"),
        yes: t("table.join.ok"),
        no: t("table.join.cancel"),
        maxlength: 16,
      });
      if (typed === null) return;
      body = { name: typed };
    }
    this.joinButton.textContent = t("table.joining");
    const joined = await this.request(() => postJSON(`${this.roomURL}/join`, body));
    this.joinButton.textContent = t("table.join");
    // The page was drawn for a spectator (no pad, the watching notice): the server re-seats the
    // socket, but the page is drawn afresh for the seat it now holds.
    if (joined) window.location.reload();
  }

  async leave() {
    const yes = await confirmDialog(t("table.leave_confirm"), { yes: t("table.leave_yes"), no: t("table.stay") });
    if (!yes) return;
    if (await this.request(() => postJSON(`${this.roomURL}/leave`, {}))) this.page.toSettings();
  }

  /** The host closes a table nobody plays yet (their "New game" while waiting). */
  async close() {
    const yes = await confirmDialog(t("table.close_confirm"), { yes: t("table.leave_yes"), no: t("table.stay") });
    if (!yes) return false;
    return this.request(() => postJSON(`${this.roomURL}/leave`, {}));
  }

  start() {
    return this.request(() => postJSON(`${this.roomURL}/start`, { fill: this.fill.value }));
  }

  remove(k) {
    return this.request(() => deleteJSON(`${this.roomURL}/seats/${k}`));
  }
}
