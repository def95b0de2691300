// A table's chat under the game (templates/_table_chat.html): the lines and stamps people sent,
// newest at the bottom, a line to write and the stamps to send, over the room's socket
// (`{"type": "chat", "text"}` or `{"type": "chat", "stamp"}`; every watcher gets `{"type":
// "chat", "entry"}` and a sync the last 50). Shared by every game's play page: chat belongs to
// the table, not to a game. Names and lines are what people typed, so they are set as text only.
// The host also gets a switch that lets spectators write or mutes them
// (`PUT /api/rooms/{id}/spectator_chat`); every watcher then gets the table's new `may_chat`.
// A spectator who may write sees the name their lines carry and changes it with the name a seat
// is taken with (`GET`/`PUT /api/me`, checked by the server as at a seat); the server numbers
// it ("Aki 2") where someone at the table has it already.
import { ApiError, getJSON, putJSON } from "./api.js";
import { promptDialog } from "./dialog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { stampContent } from "./stamps.js";
import { toast } from "./toast.js";

export const STAMPS = ["hello", "nice", "thanks", "oops", "gg", "wait"];

export class ChatPanel {
  /** @param {import("./play-page.js").PlayPage} page */
  constructor(page) {
    this.page = page;
    this.root = document.getElementById("chat");
    if (!this.root) return;
    this.list = document.getElementById("chat-list");
    this.empty = document.getElementById("chat-empty");
    this.closedNote = document.getElementById("chat-closed");
    this.form = document.getElementById("chat-form");
    this.input = document.getElementById("chat-input");
    this.stamps = document.getElementById("chat-stamps");
    this.spectators = document.getElementById("chat-spectators");
    this.spectatorsOn = document.getElementById("chat-spectators-on");
    this.me = document.getElementById("chat-me");
    this.meName = document.getElementById("chat-me-name");
    this.meKnown = null; // {name, default} from GET /api/me, once asked
    document.getElementById("chat-me-change").addEventListener("click", () => this.rename());
    this.seen = new Set();
    this.switched = false; // the host has used the spectators' switch on this page
    this.spectatorsOn.addEventListener("change", () => this.letSpectators(this.spectatorsOn.checked));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text && this.send({ text })) this.input.value = "";
    });
    this.stamps.addEventListener("click", (event) => {
      const button = event.target.closest("[data-stamp]");
      if (button) this.send({ stamp: button.dataset.stamp });
    });
  }

  show(visible) {
    if (this.root) this.root.hidden = !visible;
  }

  /** Whether the viewer may write (a spectator only where the host allowed it). */
  allow(mayChat) {
    if (!this.root) return;
    this.closedNote.hidden = mayChat;
    for (const node of [this.input, ...this.form.querySelectorAll("button"), ...this.stamps.querySelectorAll("button")]) {
      node.disabled = !mayChat;
    }
    this.form.hidden = !mayChat;
    this.stamps.hidden = !mayChat;
    const spectator = mayChat && this.page.room?.seat === null;
    this.me.hidden = !spectator;
    if (spectator && this.meKnown === null) this.loadMe();
  }

  /** The spectator's own name (or the one the site gives them: "Guest 1306"), from the server. */
  async loadMe() {
    this.meKnown = { name: null, default: null };
    try {
      this.meKnown = await getJSON("/api/me");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
    this.showMe();
  }

  showMe() {
    const name = this.meKnown?.name ?? this.meKnown?.default ?? "";
    this.meName.textContent = t("chat.me", { name });
    this.me.dataset.name = name;
  }

  /** A spectator names themselves: the same name, and the same checks, as at a seat. */
  async rename() {
    const typed = await promptDialog(t("chat.me.title"), {
      label: t("table.join.name_label"),
      yes: t("chat.me.ok"),
      no: t("table.join.cancel"),
      value: this.meKnown?.name ?? "",
      maxlength: 16,
    });
    if (typed === null) return;
    try {
      const answer = await putJSON("/api/me", { name: typed });
      this.meKnown = { ...this.meKnown, name: answer.name };
      this.showMe();
      toast(t("chat.me.saved", { name: answer.name }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(this.page.errorText(error, `table.error.${error.code}`), { kind: "error" });
    }
  }

  /** The host's switch for spectators' chat, shown to the host of a table not yet over. */
  hostControls(table) {
    if (!this.root) return;
    const host = Boolean(table?.you?.host) && table.status !== "over";
    this.spectators.hidden = !host;
    if (host && !this.spectatorsOn.disabled) this.spectatorsOn.checked = Boolean(table.spectator_chat);
  }

  /** The host lets spectators write (`on`) or mutes them; the switch goes back if refused. */
  async letSpectators(on) {
    this.switched = true;
    this.spectatorsOn.disabled = true;
    try {
      await putJSON(`/api/rooms/${encodeURIComponent(this.page.room.room_id)}/spectator_chat`, { on });
      toast(t(on ? "chat.spectators.on" : "chat.spectators.off"));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.spectatorsOn.checked = !on;
      toast(this.page.errorText(error, `table.error.${error.code}`), { kind: "error" });
    } finally {
      this.spectatorsOn.disabled = false;
    }
  }

  /** Start again from a sync's lines (the last 50). */
  reset(entries) {
    if (!this.root) return;
    this.seen.clear();
    this.list.replaceChildren();
    for (const entry of entries ?? []) this.add(entry, { scroll: false });
    this.scroll();
  }

  clear() {
    this.reset([]);
  }

  add(entry, { scroll = true } = {}) {
    if (!this.root || !entry || this.seen.has(entry.n)) return;
    this.seen.add(entry.n);
    const near = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 48;
    const mine = entry.seat !== null && entry.seat !== undefined && entry.seat === this.page.seat;
    const said = entry.stamp
      ? h("span", { class: "chat-stamp", "data-stamp": entry.stamp }, stampContent(entry.stamp))
      : h("span", { class: "chat-text" }, entry.text ?? "");
    const node = h(
      "li",
      { class: `chat-line${mine ? " chat-line--mine" : ""}`, "data-n": entry.n, "data-seat": entry.seat ?? "" },
      h("span", { class: "chat-name" }, entry.name ?? "?"),
      said,
    );
    // In order of `n`, whatever order they came in.
    const after = [...this.list.children].find((child) => Number(child.dataset.n) > entry.n);
    this.list.insertBefore(node, after ?? null);
    this.empty.hidden = this.list.childElementCount > 0;
    if (scroll && (near || mine)) this.scroll();
  }

  scroll() {
    if (!this.root) return;
    this.empty.hidden = this.list.childElementCount > 0;
    this.list.scrollTop = this.list.scrollHeight;
  }

  send(line) {
    if (this.page.socket?.chat(line)) return true;
    toast(t("play.reconnecting"));
    return false;
  }

  /** A refused line (`chat_*` codes) in words. */
  refused(msg) {
    toast(this.page.errorText(msg, `chat.error.${msg.code}`), { kind: "error" });
  }
}
