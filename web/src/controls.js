// A card's rows of buttons and selects, as the bot describes them. Each control carries its press
// key (data-press-key) so that `Presses` can hold it disabled from its click until the bot's
// answer, even across a redraw of the board in between: a double click sends one press.

const STYLES = new Set(["primary", "secondary", "success", "danger"]);

/** The key of a press: a button's name and arg, a select's name alone. */
export function pressKey(name, arg = "") {
  return `${name}\u0000${arg}`;
}

function lock(element, key, serverDisabled, presses) {
  element.dataset.pressKey = key;
  if (serverDisabled) element.dataset.locked = "1";
  element.disabled = serverDisabled || presses.isPending(key);
}

function button(control, presses) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = `control ${STYLES.has(control.style) ? control.style : "secondary"}`;
  if (control.emoji) {
    const emoji = document.createElement("span");
    emoji.className = "emoji";
    emoji.textContent = control.emoji;
    element.append(emoji);
  }
  if (control.label) {
    const label = document.createElement("span");
    label.textContent = control.label;
    element.append(label);
  }
  const { name, arg = "", game } = control.press;
  lock(element, pressKey(name, arg), Boolean(control.disabled), presses);
  element.addEventListener("click", () => presses.press(name, arg, undefined, game));
  return element;
}

function option(choice) {
  const element = document.createElement("option");
  element.value = choice.value;
  element.textContent = [choice.emoji, choice.label].filter(Boolean).join(" ");
  if (choice.description) element.title = choice.description;
  element.selected = Boolean(choice.default);
  return element;
}

/** A pick of exactly one: a native select, which a phone shows as its own picker. */
function singleSelect(control, presses) {
  const element = document.createElement("select");
  element.className = "control select";
  const prompt = document.createElement("option");
  prompt.value = "";
  prompt.disabled = true;
  prompt.textContent = control.placeholder ?? "…";
  element.append(prompt, ...control.options.map(option));
  if (!control.options.some((choice) => choice.default)) prompt.selected = true;
  const { name, game } = control.press;
  lock(element, pressKey(name), Boolean(control.disabled), presses);
  element.addEventListener("change", () => presses.press(name, "", [element.value], game));
  return element;
}

/** A pick of several: checkboxes and a send button, sent once the count is within min..max. */
function multiSelect(control, presses, words) {
  const { name } = control.press;
  const key = pressKey(name);
  const disabled = Boolean(control.disabled);
  const element = document.createElement("fieldset");
  element.className = "select-many";
  if (control.placeholder) {
    const legend = document.createElement("legend");
    legend.textContent = control.placeholder;
    element.append(legend);
  }
  const boxes = control.options.map((choice) => {
    const label = document.createElement("label");
    label.className = "choice";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = choice.value;
    box.checked = Boolean(choice.default);
    lock(box, key, disabled, presses);
    const text = document.createElement("span");
    text.textContent = [choice.emoji, choice.label].filter(Boolean).join(" ");
    label.append(box, text);
    element.append(label);
    return box;
  });
  const send = document.createElement("button");
  send.type = "button";
  send.className = "control primary";
  send.textContent = words.send;
  lock(send, key, disabled, presses);
  const min = control.min ?? 1;
  const max = control.max ?? boxes.length;
  const counted = () => {
    const count = boxes.filter((box) => box.checked).length;
    send.dataset.outOfRange = count < min || count > max ? "1" : "";
    send.disabled = disabled || presses.isPending(key) || send.dataset.outOfRange === "1";
  };
  for (const box of boxes) box.addEventListener("change", counted);
  counted();
  send.addEventListener("click", () => {
    presses.press(
      name,
      "",
      boxes.filter((box) => box.checked).map((box) => box.value),
      control.press.game,
    );
  });
  element.append(send);
  return element;
}

/** The rows of a card's controls, or null when it has none. */
export function renderControls(rows, presses, words) {
  if (!Array.isArray(rows) || rows.length === 0) return null;
  const element = document.createElement("div");
  element.className = "controls";
  for (const row of rows) {
    const line = document.createElement("div");
    line.className = "row";
    for (const control of row) {
      if (control.kind === "button") line.append(button(control, presses));
      else if (control.kind === "select" && control.max > 1) line.append(multiSelect(control, presses, words));
      else if (control.kind === "select") line.append(singleSelect(control, presses));
    }
    element.append(line);
  }
  return element;
}

/** Every control's disabled state again, after a press was sent or answered. */
export function refreshControls(presses) {
  for (const element of document.querySelectorAll("[data-press-key]")) {
    element.disabled =
      element.dataset.locked === "1" ||
      element.dataset.outOfRange === "1" ||
      presses.isPending(element.dataset.pressKey);
  }
}
