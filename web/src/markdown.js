// Discord's markdown, drawn as DOM nodes. The bot's texts carry its players' names and whatever a
// member typed, so nothing here ever parses server text as HTML: every piece becomes a text node
// (createTextNode, textContent) inside elements this module makes itself. A name like
// "<img src=x onerror=…>" is therefore shown as those characters, never run.

import { timeElement } from "./times.js";

// Longest delimiters first, so "***" is bold italic rather than bold around a stray "*". Each
// alternative is one group (or two, for timestamps); `inline` reads which one matched.
const INLINE = new RegExp(
  [
    String.raw`\\([*_~\x60\\>|<])`, // 1: an escaped character, shown as itself
    String.raw`\x60([^\x60]+)\x60`, // 2: `code`
    String.raw`\*\*\*(?!\s)([^]+?)\*\*\*`, // 3: ***bold italic***
    String.raw`\*\*(?!\s)([^]+?)\*\*`, // 4: **bold**
    String.raw`__([^]+?)__`, // 5: __underline__
    String.raw`~~([^]+?)~~`, // 6: ~~strike~~
    String.raw`\*(?![\s*])([^]+?)\*`, // 7: *italic*
    String.raw`\b_([^]+?)_\b`, // 8: _italic_ (not inside snake_case words)
    String.raw`<@!?(\d+)>`, // 9: a member's mention
    String.raw`<@&\d+>`, // a role's mention (the bot never names one; shown as @…)
    String.raw`<#(\d+)>`, // 10: a channel's mention
    String.raw`<t:(-?\d{1,13})(?::([tTdDfFR]))?>`, // 11, 12: a timestamp
  ].join("|"),
  "g",
);

const MAX_UNIX_S = 8.64e12 / 1000; // the largest time a Date holds

function wrap(tag, inner, context) {
  const element = document.createElement(tag);
  element.append(inline(inner, context));
  return element;
}

function mention(text) {
  const element = document.createElement("span");
  element.className = "mention";
  element.textContent = text;
  return element;
}

/**
 * One line's inline markdown as a fragment.
 * context: { nameOf(id) → name or null, words, locale }
 */
export function inline(text, context) {
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > at) fragment.append(document.createTextNode(text.slice(at, match.index)));
    at = match.index + match[0].length;
    const [whole, escaped, code, boldItalic, bold, underline, strike, star, underscore, member] = match;
    const [channel, unix, style] = match.slice(10);
    if (escaped !== undefined) fragment.append(document.createTextNode(escaped));
    else if (code !== undefined) {
      const element = document.createElement("code");
      element.textContent = code;
      fragment.append(element);
    } else if (boldItalic !== undefined) {
      const strong = document.createElement("strong");
      strong.append(wrap("em", boldItalic, context));
      fragment.append(strong);
    } else if (bold !== undefined) fragment.append(wrap("strong", bold, context));
    else if (underline !== undefined) fragment.append(wrap("u", underline, context));
    else if (strike !== undefined) fragment.append(wrap("s", strike, context));
    else if (star !== undefined) fragment.append(wrap("em", star, context));
    else if (underscore !== undefined) fragment.append(wrap("em", underscore, context));
    else if (member !== undefined) fragment.append(mention(`@${context.nameOf(member) ?? context.words.member}`));
    else if (channel !== undefined) fragment.append(mention(`#${context.words.channel}`));
    else if (unix !== undefined && Math.abs(Number(unix)) <= MAX_UNIX_S) {
      fragment.append(timeElement(Number(unix), style ?? "f", context.locale));
    } else if (unix !== undefined) fragment.append(document.createTextNode(whole));
    else fragment.append(mention(`@${context.words.member}`)); // the role's mention
  }
  if (at < text.length) fragment.append(document.createTextNode(text.slice(at)));
  return fragment;
}

/**
 * A whole text: lines kept as lines, "> " lines and everything after ">>> " as quotes, the rest
 * inline. Lists and headings are not drawn: the bot's texts do not use them.
 */
export function markdown(text, context) {
  const fragment = document.createDocumentFragment();
  let quote = null; // the blockquote the current run of quoted lines goes into
  let restQuoted = false; // after ">>> " every line is quoted
  let container = null; // where the previous line went: a line break only between lines of one place
  for (const line of String(text).split("\n")) {
    let body = line;
    let quoted = restQuoted;
    if (!quoted) {
      const marker = /^>>> /.exec(line) ?? /^> /.exec(line);
      if (marker) {
        quoted = true;
        restQuoted = marker[0] === ">>> ";
        body = line.slice(marker[0].length);
      }
    }
    if (quoted && quote === null) {
      quote = document.createElement("blockquote");
      fragment.append(quote);
    } else if (!quoted) quote = null;
    const target = quoted ? quote : fragment;
    if (container === target) target.append(document.createElement("br"));
    target.append(inline(body, context));
    container = target;
  }
  return fragment;
}
