// A table's chat under the game (templates/_table_chat.html): the lines and stamps people sent,
// newest at the bottom, a line to write and the stamps to send, over the room's socket
// (`{"type": "chat", "text"}` or `{"type": "chat", "stamp"}`; every watcher gets `{"type":
// "chat", "entry"}` and a sync the last 50). Shared by every game's play page: chat belongs to
// the table, not to a game. Names and lines are what people typed, so they are set as text only.
import { h } from "./dom.js";
import { t } from "./i18n.js";
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
    this.seen = new Set();
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
      ? h("span", { class: "chat-stamp", "data-stamp": entry.stamp }, t(`chat.stamp.${entry.stamp}`))
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
