// Pointer dragging for mouse and touch alike (HTML5 drag and drop does not work on touch screens).
// A press that moves more than a few pixels becomes a drag; releasing it over an element with a
// data-drop attribute, or over another draggable, reports that element. A plain press stays a
// click.
export interface DragHandlers {
  /** The dragged element was released over `target` (null: nowhere useful). */
  onDrop(source: HTMLElement, target: HTMLElement | null): void;
  /** Called when a drag starts, e.g. to highlight where it may go. */
  onStart?(source: HTMLElement): void;
  onEnd?(): void;
}

const THRESHOLD = 6;

export function enableDrag(container: HTMLElement, selector: string, handlers: DragHandlers): void {
  let source: HTMLElement | null = null;
  let ghost: HTMLElement | null = null;
  let startX = 0;
  let startY = 0;
  let dragging = false;
  let suppressClick = false;

  container.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const el = (e.target as HTMLElement).closest<HTMLElement>(selector);
    if (!el || !container.contains(el)) return;
    source = el;
    startX = e.clientX;
    startY = e.clientY;
    dragging = false;
  });

  window.addEventListener("pointermove", (e) => {
    if (!source) return;
    if (!dragging) {
      if (Math.hypot(e.clientX - startX, e.clientY - startY) < THRESHOLD) return;
      dragging = true;
      ghost = source.cloneNode(true) as HTMLElement;
      ghost.classList.add("drag-ghost");
      ghost.setAttribute("aria-hidden", "true");
      ghost.removeAttribute("id");
      document.body.appendChild(ghost);
      source.classList.add("is-dragging");
      handlers.onStart?.(source);
    }
    if (ghost) {
      ghost.style.left = `${e.clientX}px`;
      ghost.style.top = `${e.clientY}px`;
    }
    e.preventDefault();
  }, { passive: false });

  const finish = (e: PointerEvent) => {
    if (!source) return;
    const src = source;
    source = null;
    if (!dragging) return;
    dragging = false;
    ghost?.remove();
    ghost = null;
    src.classList.remove("is-dragging");
    suppressClick = true;
    const under = document.elementFromPoint(e.clientX, e.clientY) as HTMLElement | null;
    const target = under?.closest<HTMLElement>(`[data-drop], ${selector}`) ?? null;
    handlers.onEnd?.();
    handlers.onDrop(src, target === src ? null : target);
  };
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", () => {
    if (source) source.classList.remove("is-dragging");
    ghost?.remove();
    ghost = null;
    source = null;
    dragging = false;
    handlers.onEnd?.();
  });
  // A drag ends with a click on the source; swallow it so the drag does not also select.
  container.addEventListener("click", (e) => {
    if (suppressClick) {
      suppressClick = false;
      e.stopPropagation();
      e.preventDefault();
    }
  }, true);
}
