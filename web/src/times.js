// Discord's timestamps (<t:1700000000:R>) as the member's clock and language show them. "In 3
// seconds" must mean the bot's 3 seconds: the page's clock is corrected by the server's (from hello
// and every pong), since a phone's clock can be off by more than a game's whole grace period.

let offsetMs = 0; // server clock minus page clock

/** The server said its clock read `serverMs` at about page time `atMs`. */
export function syncClock(serverMs, atMs) {
  if (Number.isFinite(serverMs) && Number.isFinite(atMs)) offsetMs = serverMs - atMs;
}

export function serverNow() {
  return Date.now() + offsetMs;
}

/** A tag Intl accepts: a malformed ?locale= must not break every timestamp on the page. */
export function safeLocale(locale) {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? "en";
  } catch {
    return "en";
  }
}

const UNITS = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Infinity],
];

function relative(unixMs, locale) {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  let amount = (unixMs - serverNow()) / 1000;
  for (const [unit, next] of UNITS) {
    if (Math.abs(amount) < next) return format.format(Math.round(amount), unit);
    amount /= next;
  }
  return format.format(Math.round(amount), "year");
}

const STYLES = {
  t: { timeStyle: "short" },
  T: { timeStyle: "medium" },
  d: { dateStyle: "short" },
  D: { dateStyle: "long" },
  f: { dateStyle: "long", timeStyle: "short" },
  F: { dateStyle: "full", timeStyle: "short" },
};

/** The text of <t:unix:style> (style f when absent, as in Discord). */
export function formatTimestamp(unix, style, locale) {
  const ms = unix * 1000;
  if (style === "R") return relative(ms, locale);
  return new Intl.DateTimeFormat(locale, STYLES[style] ?? STYLES.f).format(new Date(ms));
}

/** A <time> element for <t:unix:style>; relative ones are kept current by `tickRelativeTimes`. */
export function timeElement(unix, style, locale) {
  const element = document.createElement("time");
  element.dateTime = new Date(unix * 1000).toISOString();
  element.dataset.unix = String(unix);
  element.dataset.style = style;
  element.dataset.locale = locale;
  element.textContent = formatTimestamp(unix, style, locale);
  return element;
}

/** Every relative time on the page, redrawn each second: a countdown the bot wrote stays true. */
export function tickRelativeTimes() {
  for (const element of document.querySelectorAll('time[data-style="R"]')) {
    const text = formatTimestamp(Number(element.dataset.unix), "R", element.dataset.locale);
    if (element.textContent !== text) element.textContent = text;
  }
}
