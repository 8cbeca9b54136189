// One card (the board, or a message for this member only) drawn as Discord draws a message with an
// embed: the content above, then the embed with its accent colour down the left, then the controls.

import { renderControls } from "./controls.js";
import { inline, markdown } from "./markdown.js";

const DEFAULT_ACCENT = "#1e1f22"; // Discord's own border for an embed without a colour

function accent(color) {
  if (!Number.isInteger(color) || color < 0 || color > 0xffffff) return DEFAULT_ACCENT;
  return `#${color.toString(16).padStart(6, "0")}`;
}

/** Only pictures the page may load: its own server's, or an http(s) address (never javascript:). */
function pictureUrl(url) {
  if (typeof url !== "string" || !url) return null;
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

function block(tag, className, content) {
  const element = document.createElement(tag);
  element.className = className;
  element.append(content);
  return element;
}

function field(entry, context) {
  const element = document.createElement("div");
  element.className = entry.inline ? "field inline" : "field";
  element.append(
    block("div", "field-name", inline(String(entry.name ?? ""), context)),
    block("div", "field-value", markdown(String(entry.value ?? ""), context)),
  );
  return element;
}

/**
 * The card as an <article>. context: { nameOf, words, locale, presses }.
 */
export function renderCard(card, context) {
  const article = document.createElement("article");
  article.className = "card";
  if (card.content) article.append(block("div", "content", markdown(card.content, context)));
  const fields = Array.isArray(card.fields) ? card.fields : [];
  const picture = pictureUrl(card.image);
  if (card.title || card.description || fields.length || picture || card.footer) {
    const embed = document.createElement("div");
    embed.className = "embed";
    embed.style.setProperty("--accent", accent(card.color));
    if (card.title) embed.append(block("h2", "title", inline(card.title, context)));
    if (card.description) embed.append(block("div", "description", markdown(card.description, context)));
    if (fields.length) {
      const grid = document.createElement("div");
      grid.className = "fields";
      grid.append(...fields.map((entry) => field(entry, context)));
      embed.append(grid);
    }
    if (picture) {
      const image = document.createElement("img");
      image.className = "picture";
      image.src = picture;
      image.alt = "";
      image.decoding = "async";
      embed.append(image);
    }
    if (card.footer) embed.append(block("div", "footer", inline(card.footer, context)));
    article.append(embed);
  }
  const controls = renderControls(card.controls, context.presses, context.words);
  if (controls) article.append(controls);
  return article;
}
