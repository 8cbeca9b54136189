// The page's start: the client id, Discord's SDK (or its mock), a sign-in code, the bot's ticket,
// then the socket, whose frames draw the table. See docs/activity.md for the frames.

import { authorize, openSdk } from "./discord.js";
import { Connection } from "./connection.js";
import { Presses } from "./presses.js";
import { exchangeCode, loadClientId, Refused } from "./signin.js";
import { syncClock, tickRelativeTimes } from "./times.js";
import { View } from "./view.js";

const query = new URLSearchParams(location.search);
// The bot's hint for the words of a sign-in refusal; after sign-in the member's Discord language.
const hint = query.get("locale") || navigator.language || "en-US";

let connection = null;
const presses = new Presses({
  send: (frame) => connection !== null && connection.send(frame),
  refused: (text) => view.toast(text),
  notSent: () => view.toast(view.words.notSent),
});
const view = new View(hint, presses);

function stop(error) {
  if (!(error instanceof Refused)) console.error(error);
  const words = view.words;
  view.fullScreen(error instanceof Refused ? (error.sentence ?? words.unreachable) : words.notAllowed);
}

async function signIn(discord, clientId) {
  const code = await authorize(discord.sdk, clientId);
  const answer = await exchangeCode(code, discord.instanceId(), hint);
  if (answer.you?.locale) view.setLocale(answer.you.locale);
  return answer;
}

function frame(message, again) {
  switch (message.type) {
    case "hello":
      again.allowed = true; // a later expiry (a page asleep for an hour) may sign in again
      presses.forget();
      syncClock(message.server_ms, Date.now());
      view.hello(message);
      view.state("connected");
      break;
    case "board":
      if (Number.isInteger(message.rev)) presses.rev = message.rev;
      if ("game" in message) view.game(message.game);
      view.board(message.board);
      break;
    case "private":
      view.private(message.message);
      break;
    case "answer":
      presses.answer(message);
      break;
    case "pong":
      if (typeof message.t === "number") {
        const now = Date.now();
        view.latency(now - message.t);
        syncClock(message.server_ms, (message.t + now) / 2);
      }
      // The bot times its own round trip to this page (it places a press on Discord's timeline by
      // it, docs/activity.md): its probe goes straight back.
      if (Number.isInteger(message.probe)) connection.send({ type: "probe", id: message.probe });
      break;
    case "probe":
      if (Number.isInteger(message.id)) connection.send({ type: "probe", id: message.id });
      break;
    case "error":
      // A refused ticket or the wrong process: the close that follows says what to do.
      if (!["expired", "forged", "elsewhere"].includes(message.code) && message.message) {
        view.toast(String(message.message));
      }
      break;
  }
}

async function start() {
  view.state("signingIn");
  const clientId = await loadClientId();
  const discord = openSdk(clientId, query);
  await discord.sdk.ready();
  const answer = await signIn(discord, clientId);
  const again = { allowed: true }; // one new sign-in per refused ticket, not a loop
  connection = new Connection({
    path: answer.socket,
    ticket: answer.ticket,
    onFrame: (message) => frame(message, again),
    onState: (state, message) => {
      if (state === "reconnecting") view.state("reconnecting");
      else if (state === "ticket" && again.allowed) {
        again.allowed = false;
        view.state("signingIn");
        signIn(discord, clientId).then((fresh) => connection.open(fresh.socket, fresh.ticket), stop);
      } else view.fullScreen(message ?? view.words.closed);
    },
  });
  connection.open();
  setInterval(tickRelativeTimes, 1000);
}

start().catch(stop);
