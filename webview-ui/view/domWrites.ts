// Writes that touch the DOM only when the value changes. A same-value write still invalidates
// style or layout, and the header, toolbar and rows are rewritten in every frame that draws an
// appended event.

/** A text node's data, or an element's whole text. */
export function setText(node: Text | HTMLElement, text: string): void {
  if (node instanceof Text) {
    if (node.data !== text) node.data = text;
  } else if (node.textContent !== text) node.textContent = text;
}

export function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export function setClassName(el: Element, value: string): void {
  if (el.className !== value) el.className = value;
}

export function setHidden(el: HTMLElement, hidden: boolean): void {
  if (el.hidden !== hidden) el.hidden = hidden;
}

export function setTitle(el: HTMLElement, title: string): void {
  if (el.title !== title) el.title = title;
}
