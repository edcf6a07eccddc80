// The player's rack (istaka) for every okey ruleset: the hand in the player's own order, tiles
// selected by click, tap or keyboard, reordered by dragging, dragged onto the table to act.
// It holds only the local arrangement; the hand itself comes from the view.
import { h, keepTabStop, rovingFocus } from "../ui/dom";
import { enableDrag } from "./drag";
import { tileElement, tileOrder, playsAs, parseTile } from "./okey_tiles";

export interface RackEvents {
  /** The selection changed. */
  onSelect(): void;
  /** Tiles (the dragged one, or the selection it belongs to) were dropped on a data-drop target. */
  onDrop(tiles: string[], target: HTMLElement): void;
}

export class OkeyRack {
  readonly el: HTMLElement;
  private readonly row: HTMLElement;
  private order: string[] = [];
  private selected = new Set<number>();
  private okey = "";
  private drawn: string | null = null;
  private focusIndex = 0;
  private enabled = true;
  /** Tiles a hint marks as penalty tiles (discarding them costs a penalty). */
  private penalty = new Set<string>();

  constructor(private readonly events: RackEvents, label = "Your rack") {
    this.row = h("div", { class: "rack__tiles", role: "group", "aria-label": label });
    const sortRuns = h("button", { type: "button", class: "chip" }, "Sort by colour");
    const sortSets = h("button", { type: "button", class: "chip" }, "Sort by number");
    sortRuns.addEventListener("click", () => this.sort("colour"));
    sortSets.addEventListener("click", () => this.sort("number"));
    this.el = h("section", { class: "rack", "aria-label": label },
      this.row, h("div", { class: "rack__tools" }, sortRuns, sortSets));
    rovingFocus(this.row, ".tile");
    this.row.addEventListener("click", (e) => {
      const t = (e.target as HTMLElement).closest<HTMLElement>(".tile");
      if (!t || !this.enabled) return;
      this.toggle(Number(t.dataset.index));
    });
    this.row.addEventListener("focusin", (e) => {
      const t = (e.target as HTMLElement).closest<HTMLElement>(".tile");
      if (t) this.focusIndex = Number(t.dataset.index);
    });
    enableDrag(this.row, ".tile", {
      onDrop: (src, target) => this.dropped(Number(src.dataset.index), target),
    });
  }

  /** Takes the hand from a view, keeping the player's arrangement of the tiles still held. */
  setHand(hand: readonly string[], okey: string, drawn: string | null, enabled: boolean, penalty: readonly string[] = []): void {
    this.enabled = enabled;
    this.penalty = new Set(penalty);
    const remaining = [...hand];
    const kept: string[] = [];
    for (const t of this.order) {
      const i = remaining.indexOf(t);
      if (i >= 0) {
        kept.push(t);
        remaining.splice(i, 1);
      }
    }
    const changed = okey !== this.okey || kept.length !== this.order.length || remaining.length > 0;
    this.okey = okey;
    if (this.order.length === 0) {
      this.order = [...hand].sort((a, b) => tileOrder(a, okey) - tileOrder(b, okey));
    } else {
      this.order = [...kept, ...remaining];
    }
    this.drawn = drawn;
    if (changed) this.selected.clear();
    this.render();
  }

  tiles(): readonly string[] {
    return this.order;
  }

  selectedTiles(): string[] {
    return [...this.selected].sort((a, b) => a - b).map((i) => this.order[i]!);
  }

  clearSelection(): void {
    this.selected.clear();
    this.render();
    this.events.onSelect();
  }

  /** Selects these tiles (by name, each once), e.g. a hinted group. */
  selectTiles(tiles: readonly string[]): void {
    this.selected.clear();
    const used = new Set<number>();
    for (const t of tiles) {
      const i = this.order.findIndex((x, k) => x === t && !used.has(k));
      if (i >= 0) used.add(i);
    }
    this.selected = used;
    this.render();
    this.events.onSelect();
  }

  /** Arranges the rack in this order (a hint's groups, then its loose tiles); unknown names are skipped. */
  arrange(order: readonly string[]): void {
    const left = [...this.order];
    const out: string[] = [];
    for (const t of order) {
      const i = left.indexOf(t);
      if (i >= 0) out.push(...left.splice(i, 1));
    }
    this.order = [...out, ...left];
    this.selected.clear();
    this.render();
    this.events.onSelect();
  }

  sort(by: "colour" | "number"): void {
    const okey = this.okey;
    const key = (t: string): number => {
      if (t === okey) return 10000;
      const f = parseTile(playsAs(t, okey));
      if (!f) return 9999;
      const c = "RBKY".indexOf(f.colour);
      return by === "colour" ? c * 100 + f.number : f.number * 10 + c;
    };
    this.order.sort((a, b) => key(a) - key(b));
    this.selected.clear();
    this.render();
    this.events.onSelect();
  }

  private toggle(i: number): void {
    if (this.selected.has(i)) this.selected.delete(i);
    else this.selected.add(i);
    this.focusIndex = i;
    this.render();
    this.events.onSelect();
  }

  private dropped(from: number, target: HTMLElement | null): void {
    if (!target) return;
    if (target.dataset.index !== undefined && this.row.contains(target)) {
      // Reorder within the rack: the tile goes where it was dropped.
      const to = Number(target.dataset.index);
      const [moved] = this.order.splice(from, 1);
      this.order.splice(to, 0, moved!);
      this.selected.clear();
      this.render();
      this.events.onSelect();
      return;
    }
    if (!this.enabled) return;
    const tiles = this.selected.has(from) ? this.selectedTiles() : [this.order[from]!];
    this.events.onDrop(tiles, target);
  }

  private render(): void {
    const hadFocus = this.row.contains(document.activeElement);
    const els = this.order.map((t, i) => {
      const drawn = this.drawn === t && i === this.lastIndexOf(t);
      const penalty = this.penalty.has(t);
      const el = tileElement(t, {
        okey: this.okey,
        interactive: true,
        selected: this.selected.has(i),
        extraLabel: [drawn ? "just drawn" : "", penalty ? "penalty tile" : ""].filter(Boolean).join(", ") || undefined,
        classes: [drawn ? "tile--drawn" : "", penalty ? "tile--penalty" : ""].filter(Boolean),
      });
      el.dataset.index = String(i);
      if (!this.enabled) el.setAttribute("aria-disabled", "true");
      return el;
    });
    this.row.replaceChildren(...els);
    this.focusIndex = Math.min(this.focusIndex, els.length - 1);
    keepTabStop(els, this.focusIndex);
    if (hadFocus) els[this.focusIndex]?.focus();
  }

  private lastIndexOf(t: string): number {
    return this.order.lastIndexOf(t);
  }
}
