// The room's WebSocket: one per player, JSON text frames (docs/ARCHITECTURE.md, "HTTP and
// WebSocket"). Keeps the message order by `seq`: a gap asks the server for a `sync`; a dropped
// connection reconnects with backoff and starts with the server's `sync` again. Server pings are
// answered here, so games never see them.

/** The absolute ws:// or wss:// URL for a path the server gave (same origin). */
export function socketURL(path) {
  if (/^wss?:\/\//.test(path)) return path;
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

export class RoomSocket {
  /**
   * @param {string} path the `ws` the server returned for the room
   * @param {{onMessage: (msg: object) => void, onStatus?: (status: string) => void}} handlers
   *   onMessage gets `sync`, `event` (in seq order, none missing), `error` and any other
   *   message without a seq (a table's `players` and `chat`);
   *   onStatus gets "connecting", "open", "reconnecting", "closed" and "failed".
   */
  constructor(path, { onMessage, onStatus = () => {} }) {
    this.url = socketURL(path);
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.seq = null;
    this.waitingSync = true;
    this.attempts = 0;
    this.closed = false;
    this.everSynced = false;
    this.connect();
  }

  connect() {
    this.onStatus(this.attempts ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.onStatus("open");
      this.waitingSync = true;
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws || this.closed) return;
      // 4xxx and 1008 are the server saying no (unknown room, no seat): do not hammer it.
      const refused = event.code === 1008 || (event.code >= 4000 && event.code < 5000);
      if (refused || (!this.everSynced && this.attempts >= 3)) {
        this.onStatus("failed", event);
        return;
      }
      this.attempts += 1;
      this.onStatus("reconnecting");
      // 1012 (service restart): the server is handing its rooms over to another process, which
      // takes each at once: come back within 0.1 to 0.4 s, spread so the pages do not all land
      // together. Anything else backs off, from about 0.8 s to 8 s.
      const delay =
        event.code === 1012 && this.attempts === 1
          ? 100 + Math.random() * 300
          : Math.min(8000, 400 * 2 ** Math.min(this.attempts, 5)) * (0.75 + Math.random() / 2);
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "sync") {
      this.seq = msg.seq;
      this.waitingSync = false;
      this.everSynced = true;
      this.attempts = 0;
      this.onMessage(msg);
    } else if (msg.type === "event") {
      if (this.waitingSync || this.seq === null) return; // the coming sync covers it
      if (msg.seq <= this.seq) return; // already seen
      if (msg.seq !== this.seq + 1) {
        this.requestSync();
        return;
      }
      this.seq = msg.seq;
      this.onMessage(msg);
    } else if (msg.type === "ping") {
      // At once: the server times the line by these to date our actions back fairly.
      this.send({ type: "pong", id: msg.id });
    } else {
      this.onMessage(msg);
    }
  }

  requestSync() {
    this.waitingSync = true;
    this.send({ type: "sync" });
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  act(action) {
    return this.send({ type: "act", action });
  }

  /** "I am back": a person marked idle takes their seat back from the stand-in. */
  back() {
    return this.send({ type: "back" });
  }

  /** A table's chat line: `{text}` or `{stamp}` (docs/ARCHITECTURE.md, "Tables between people"). */
  chat(line) {
    return this.send({ type: "chat", ...line });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
    this.onStatus("closed");
  }
}
