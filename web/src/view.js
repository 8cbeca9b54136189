// The page's regions (index.html): the game's header, the board, the "for you only" messages, the
// toasts, the status bar and the full-screen message that ends the page.

import { renderCard } from "./card.js";
import { safeLocale } from "./times.js";
import { wordsFor } from "./words.js";

const KEEP_PRIVATE = 5; // messages for this member kept on the page, newest first
const TOAST_MS = 4000;

const byId = (id) => document.getElementById(id);

export class View {
  constructor(locale, presses) {
    this.presses = presses;
    this.names = new Map(); // user id → name, for <@id> mentions
    this.setLocale(locale);
  }

  setLocale(locale) {
    this.locale = safeLocale(locale);
    this.words = wordsFor(this.locale);
    document.documentElement.lang = this.locale;
    byId("private-heading").textContent = this.words.forYou;
  }

  /** What a card needs to draw itself. */
  context() {
    return {
      nameOf: (id) => this.names.get(id) ?? null,
      words: this.words,
      locale: this.locale,
      presses: this.presses,
    };
  }

  /** Who the page is and the channel's game as everyone at the table may know it. */
  hello(frame) {
    const you = frame.you ?? {};
    byId("status-you").textContent = you.name ? String(you.name) : "";
    this.you = you;
    this.game(frame.game);
  }

  /** The channel's lobby or game as everyone at the table may know it (after hello, and with every
   * board: a lobby that started, a seat taken). */
  game(game) {
    this.names = new Map();
    const you = this.you ?? {};
    if (you.id) this.names.set(String(you.id), String(you.name ?? ""));
    byId("game").hidden = !game;
    if (!game) return;
    for (const player of game.players ?? []) {
      // The summary names seats; a seat that also carries its member's id resolves their mentions.
      if (player.id) this.names.set(String(player.id), String(player.name));
    }
    byId("game-title").textContent = String(game.title ?? "");
    byId("game-status").textContent = game.status === "playing" ? this.words.playing : this.words.lobby;
    const list = byId("players");
    list.replaceChildren(
      ...(game.players ?? []).map((player) => {
        const item = document.createElement("li");
        item.className = player.seat === game.seat ? "player me" : "player";
        const notes = [];
        if (player.seat === game.seat) notes.push(this.words.you);
        if (player.computer) notes.push(this.words.computer);
        item.textContent = notes.length ? `${player.name} (${notes.join(", ")})` : String(player.name);
        return item;
      }),
    );
    if (game.seat === null || game.seat === undefined) {
      const item = document.createElement("li");
      item.className = "player watching";
      item.textContent = this.words.watching;
      list.append(item);
    }
  }

  /** The channel's board as it is now: replaces whatever was shown. */
  board(card) {
    const board = byId("board");
    if (card === null || typeof card !== "object") {
      const empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = this.words.noGame;
      board.replaceChildren(empty);
      return;
    }
    board.replaceChildren(renderCard(card, this.context()));
  }

  /** A message only this member sees, on top of the others; the oldest beyond five goes. */
  private(card) {
    if (card === null || typeof card !== "object") return;
    const list = byId("private-list");
    const article = renderCard(card, this.context());
    article.classList.add("private-card");
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "dismiss";
    dismiss.textContent = "✕";
    dismiss.title = this.words.dismiss;
    dismiss.setAttribute("aria-label", this.words.dismiss);
    dismiss.addEventListener("click", () => {
      article.remove();
      byId("private").hidden = list.childElementCount === 0;
    });
    article.prepend(dismiss);
    list.prepend(article);
    while (list.childElementCount > KEEP_PRIVATE) list.lastElementChild.remove();
    byId("private").hidden = false;
  }

  /** A short message near the controls that goes by itself. */
  toast(text) {
    const toast = document.createElement("div");
    toast.className = "toast";
    toast.textContent = text;
    byId("toasts").append(toast);
    setTimeout(() => toast.remove(), TOAST_MS);
  }

  /** The status bar's state: one of words' keys (connected, reconnecting, signingIn). */
  state(key) {
    const element = byId("status-state");
    element.textContent = this.words[key];
    element.dataset.state = key;
  }

  latency(ms) {
    byId("status-latency").textContent = `${Math.max(0, Math.round(ms))} ms`;
  }

  /** The end of the page: one sentence over everything, nothing running behind it. */
  fullScreen(text) {
    byId("screen-text").textContent = text;
    byId("screen").hidden = false;
    byId("table").hidden = true;
    byId("status").hidden = true;
  }
}
