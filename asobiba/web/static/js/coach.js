// The coach of a newcomer's first games (docs/ARCHITECTURE.md, "Learning the games"): a line
// or two that points out each new thing the first time it turns up at the person's own seat
// (the first claim window, the first chance to call, the first riichi, the first win), in
// games against the computer only.
//
// A game lists its cues in /static/js/<game>/coach.js: `{id, when(view, legal)}`, where `view`
// and `legal` are exactly what the room sent this seat, so a cue can never tell of a hidden
// card. The words are the site's (`coach.<game>.<id>`). Which cues were shown, and whether the
// coach is on, are remembered in this browser: on by default until the person has finished a
// game of it (the page data's `played`), and switched on or off by the table bar's button.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { loadJSON, saveJSON } from "./storage.js";

export class Coach {
  /**
   * @param {import("./play-page.js").PlayPage} page
   * @param {{id: string, when: (view: object, legal: object[]) => boolean}[]} cues
   */
  constructor(page, cues) {
    this.page = page;
    this.cues = cues;
    this.key = `asobiba.${page.game}.coach`;
    const saved = loadJSON(this.key) ?? {};
    this.on = typeof saved.on === "boolean" ? saved.on : !page.data.played;
    this.seen = new Set(Array.isArray(saved.seen) ? saved.seen : []);
    this.current = null; // the cue on show
    // A live region of its own: the game's announcements (#announce) are never cut short.
    this.text = h("p", { class: "coach-text", id: "coach-text", role: "status" });
    this.panel = h(
      "aside",
      { class: "coach", id: "coach", "aria-labelledby": "coach-title", hidden: true },
      h("p", { class: "coach-title", id: "coach-title" }, t("coach.title")),
      this.text,
      h(
        "p",
        { class: "btn-row coach-buttons" },
        h("button", { class: "btn btn--small btn--primary", type: "button", id: "coach-ok", onclick: () => this.hide() }, t("coach.ok")),
        h("button", { class: "btn btn--small btn--ghost", type: "button", id: "coach-off", onclick: () => this.switch(false) }, t("coach.off")),
      ),
    );
    this.toggle = h("button", { class: "btn btn--small", type: "button", id: "coach-toggle", hidden: true, onclick: () => this.switch(!this.on) });
    document.getElementById("announce").after(this.panel);
    document.querySelector("#table .table-tools").prepend(this.toggle);
    this.drawToggle();
  }

  /** Whether the coach speaks in the room on show: a seat at a game against the computer. */
  get active() {
    return this.on && this.page.seat !== null && !this.page.peopleTable;
  }

  /** A room message was drawn: put away a cue whose moment has passed (the person called, or
   * the window closed), and show the first cue seen for the first time in it, if any. */
  see(msg) {
    this.toggle.hidden = this.page.seat === null || this.page.peopleTable;
    if (!this.active || !msg.obs || (msg.type !== "sync" && msg.type !== "event")) return;
    const legal = msg.legal ?? [];
    if (this.current && !this.current.when(msg.obs, legal)) this.hide();
    const cue = this.cues.find((entry) => !this.seen.has(entry.id) && entry.when(msg.obs, legal));
    if (!cue) return;
    this.seen.add(cue.id);
    this.save();
    this.current = cue;
    this.text.textContent = t(`coach.${this.page.game}.${cue.id}`);
    this.panel.dataset.cue = cue.id;
    // Sticky just below the site's sticky header: in sight wherever the page is scrolled (on a
    // phone the hand is), over the far side of the table rather than the person's own cards.
    this.panel.style.top = `${document.querySelector(".site-header")?.offsetHeight ?? 0}px`;
    this.panel.hidden = false;
  }

  hide() {
    this.current = null;
    this.panel.hidden = true;
  }

  switch(on) {
    this.on = on;
    this.save();
    this.drawToggle();
    if (!on) this.hide();
  }

  drawToggle() {
    this.toggle.textContent = t(this.on ? "coach.toggle_on" : "coach.toggle_off");
    this.toggle.setAttribute("aria-pressed", String(this.on));
  }

  save() {
    saveJSON(this.key, { on: this.on, seen: [...this.seen] });
  }
}
