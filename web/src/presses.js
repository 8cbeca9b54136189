// The page's presses: each gets the next id, and its control stays disabled until the bot answers
// that id. The wait is capped: an answer lost with a dropped socket must not leave a button dead.

import { pressKey, refreshControls } from "./controls.js";

const ANSWER_WAIT_MS = 5000;

export class Presses {
  /**
   * send(frame) → whether it went out; refused(text) shows the bot's refusal; notSent() says a
   * press could not be sent at all.
   */
  constructor({ send, refused, notSent }) {
    this.send = send;
    this.refused = refused;
    this.notSent = notSent;
    this.nextId = 1;
    this.pending = new Map(); // key → { id, timer }
    this.rev = null; // the board on show (its revision, from its frame)
  }

  isPending(key) {
    return this.pending.has(key);
  }

  press(name, arg, values, game) {
    const key = values === undefined ? pressKey(name, arg) : pressKey(name);
    if (this.pending.has(key)) return; // the second click of a double click
    const id = this.nextId++;
    // The game's mark (a control of an earlier game is refused as such) and the board on show when
    // it was pressed: the bot places the press no earlier than that board reached this page.
    const frame = { type: "press", id, name, arg, rev: this.rev };
    if (typeof game === "string") frame.game = game;
    if (values !== undefined) frame.values = values;
    frame.t = Date.now();
    if (!this.send(frame)) {
      this.notSent();
      return;
    }
    const timer = setTimeout(() => this.settle(key, id), ANSWER_WAIT_MS);
    this.pending.set(key, { id, timer });
    refreshControls(this);
  }

  /** The bot's answer to one press: the control is free again, and a refusal is shown. */
  answer(frame) {
    for (const [key, waiting] of this.pending) {
      if (waiting.id === frame.id) this.settle(key, frame.id);
    }
    if (frame.ok === false && typeof frame.text === "string" && frame.text) this.refused(frame.text);
  }

  settle(key, id) {
    const waiting = this.pending.get(key);
    if (waiting === undefined || waiting.id !== id) return;
    clearTimeout(waiting.timer);
    this.pending.delete(key);
    refreshControls(this);
  }

  /** A new socket: answers to the old one's presses will never come. */
  forget() {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    refreshControls(this);
  }
}
