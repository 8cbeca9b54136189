// The two HTTP calls before the socket: the app's client id, and the sign-in that turns Discord's
// code into a ticket for the socket.

/** A refusal to show full-screen: the bot's own sentence, or null for the page's words. */
export class Refused extends Error {
  constructor(sentence) {
    super(sentence ?? "refused");
    this.sentence = sentence;
  }
}

async function json(response) {
  try {
    return await response.json();
  } catch {
    return null; // a proxy's error page, say
  }
}

export async function loadClientId() {
  let response;
  try {
    response = await fetch("/api/config", { cache: "no-store" });
  } catch {
    throw new Refused(null);
  }
  const body = await json(response);
  if (!response.ok || typeof body?.client_id !== "string") throw new Refused(null);
  return body.client_id;
}

/**
 * { ticket, expires_in, socket, you, guild_id, channel_id } for a code and instance; the locale
 * is the bot's hint for the words of a refusal (nothing better is known before sign-in).
 */
export async function exchangeCode(code, instanceId, locale) {
  let response;
  try {
    response = await fetch(`/api/token?locale=${encodeURIComponent(locale)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance_id: instanceId }),
    });
  } catch {
    throw new Refused(null);
  }
  const body = await json(response);
  if (!response.ok) throw new Refused(typeof body?.error === "string" ? body.error : null);
  if (typeof body?.ticket !== "string" || typeof body?.socket !== "string") throw new Refused(null);
  return body;
}
