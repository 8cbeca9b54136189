// The page's one WebSocket to the bot: opened with a ticket, kept alive by a ping every 10 s, and
// reopened after a drop with the newest ticket the bot handed out (a pong carries a fresh one once
// the old is half spent), so a page away for a while resumes without signing in again.

const PING_MS = 10_000;
// No frame for this long (two pings unanswered, and then some) is a dead connection: a phone that
// changed networks often gets no close event at all.
const SILENCE_MS = 25_000;
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 10_000;
// Closes that mean "try again": going away (1001), none or abnormal (1005, 1006: the network),
// server error (1011), service restart (1012: the bot restarting), try again later (1013).
const RETRY_CODES = new Set([1001, 1005, 1006, 1011, 1012, 1013]);
const CLOSE_TICKET = 4001; // the ticket expired or was forged: sign in again
const CLOSE_ELSEWHERE = 4002; // the wrong process: the operator's proxy; retrying would not help

export class Connection {
  /**
   * onFrame(frame) gets every frame; onState(state, message) hears "reconnecting", "ticket" (signs
   * in again) and "stopped" (shows message, or its own words when null, and does nothing more).
   */
  constructor({ path, ticket, onFrame, onState }) {
    this.path = path;
    this.ticket = ticket;
    this.onFrame = onFrame;
    this.onState = onState;
    this.socket = null;
    this.failures = 0; // drops since the last hello: the backoff's exponent
    this.retryTimer = null;
    this.pinger = null;
    this.lastError = null;
    this.heardAt = 0;
    window.addEventListener("online", () => this.retryNow());
  }

  /** Opens the socket; again after a new sign-in, with its path and ticket. */
  open(path = this.path, ticket = this.ticket) {
    this.path = path;
    this.ticket = ticket;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.abandon();
    const url = new URL(this.path, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("ticket", this.ticket);
    const socket = new WebSocket(url.href);
    this.socket = socket;
    this.lastError = null;
    this.heardAt = Date.now();
    socket.addEventListener("open", () => {
      this.ping();
      this.pinger = setInterval(() => this.ping(), PING_MS);
    });
    socket.addEventListener("message", (event) => this.received(event.data));
    socket.addEventListener("close", (event) => {
      if (socket === this.socket) this.closed(event.code);
    });
  }

  send(frame) {
    if (this.socket === null || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  ping() {
    if (Date.now() - this.heardAt > SILENCE_MS) {
      this.abandon();
      this.retry();
      return;
    }
    this.send({ type: "ping", t: Date.now() });
  }

  received(data) {
    this.heardAt = Date.now();
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return; // the bot only sends JSON: anything else is not for us
    }
    if (frame === null || typeof frame !== "object" || typeof frame.type !== "string") return;
    if (frame.type === "pong" && typeof frame.ticket === "string") this.ticket = frame.ticket;
    if (frame.type === "hello") this.failures = 0;
    if (frame.type === "error") this.lastError = frame;
    this.onFrame(frame);
  }

  /** Forgets the current socket without waiting for its close (a dead network never sends one). */
  abandon() {
    clearInterval(this.pinger);
    this.pinger = null;
    const socket = this.socket;
    this.socket = null;
    if (socket !== null && socket.readyState <= WebSocket.OPEN) socket.close();
  }

  closed(code) {
    this.abandon();
    const message = this.lastError?.message ?? null;
    if (code === CLOSE_TICKET) this.onState("ticket", message);
    else if (code === CLOSE_ELSEWHERE) this.onState("stopped", message);
    else if (RETRY_CODES.has(code)) this.retry();
    else this.onState("stopped", message);
  }

  /** The next attempt after 0.5 s, 1 s, 2 s… at most 10 s; the count restarts at the next hello. */
  retry() {
    const delay = Math.min(FIRST_RETRY_MS * 2 ** this.failures, LAST_RETRY_MS);
    this.failures += 1;
    this.onState("reconnecting", null);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** The network is back: no need to sit out the rest of the backoff. */
  retryNow() {
    if (this.retryTimer !== null) this.open();
  }
}
