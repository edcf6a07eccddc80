// A small element builder: enough for a few screens without a framework (the whole client must
// stay small, and the boards redraw from a view anyway).
type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = String(value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

export function button(label: string, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  const b = h("button", { type: "button", ...attrs }, label);
  b.addEventListener("click", onClick);
  return b;
}

/** Roving focus for a row or grid of items: arrow keys move, Home/End jump; one tab stop. */
export function rovingFocus(container: HTMLElement, selector: string, columns = 0): void {
  container.addEventListener("keydown", (e) => {
    const items = Array.from(container.querySelectorAll<HTMLElement>(selector));
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (i < 0) return;
    let next = -1;
    const step = columns > 0 ? columns : 1;
    if (e.key === "ArrowRight") next = i + 1;
    else if (e.key === "ArrowLeft") next = i - 1;
    else if (e.key === "ArrowDown") next = columns > 0 ? i + step : i + 1;
    else if (e.key === "ArrowUp") next = columns > 0 ? i - step : i - 1;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = items.length - 1;
    else return;
    e.preventDefault();
    next = Math.max(0, Math.min(items.length - 1, next));
    focusItem(items, next);
  });
}

export function focusItem(items: HTMLElement[], index: number): void {
  items.forEach((it, k) => it.setAttribute("tabindex", k === index ? "0" : "-1"));
  items[index]?.focus();
}

/** Keeps exactly one tab stop among items, preferring the one that had it. */
export function keepTabStop(items: HTMLElement[], preferred: number): void {
  if (items.length === 0) return;
  const idx = Math.max(0, Math.min(items.length - 1, preferred));
  items.forEach((it, k) => it.setAttribute("tabindex", k === idx ? "0" : "-1"));
}
