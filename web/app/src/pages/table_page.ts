// The table screen: the seat's board, whose turn it is and the turn clock, the connection (and
// what a bot did for the seat while it was away), the preview-and-confirm of moves the seeds ask
// to confirm, hints, practice pause/undo/redo, the log, and at the end the result, the rating
// change and the fair-deal check. Pass-and-play tables hold several seats: the page follows the
// table as a spectator (public information only) and opens a seat's own stream only after its
// player has taken the device and said so on the hand-over screen; it closes it at the next
// hand-over, so the page then holds no hand at all (docs/practice.md, Pass and play).
import { type Clients, type Hints, type Seat, type View } from "../api";
import { playerId } from "../auth";
import type { Board, Intent } from "../board/types";
import { die } from "../board/dice_board";
import { describeEvent } from "../describe";
import { rulesetById, type RulesetInfo } from "../rulesets";
import type { HeldSeat } from "../seats_store";
import { TableSession, explainError } from "../session";
import { button, fill, h } from "../ui/dom";
import { dealEnd, endedDealOkey } from "../deal_end";
import { dealSummary } from "./deal_summary";
import { renderResult } from "./result_panel";

export interface TablePageHandle {
  destroy(): void;
  sessions: TableSession[];
}

export function openTablePage(root: HTMLElement, clients: Clients, held: HeldSeat[]): TablePageHandle {
  const page = new TablePage(root, clients, held);
  return { destroy: () => page.destroy(), sessions: page.sessions };
}

class TablePage {
  /** The streams open now (the tests read what they received). */
  readonly sessions: TableSession[] = [];
  /** The session the screen follows: the seat's own, or at a pass-and-play hand-over the spectator's. */
  private active: TableSession;
  /** Pass and play: the table as a spectator sees it (whose turn, the log, deal ends, the result). */
  private readonly watcher: TableSession | null = null;
  /** Pass and play: the stream of the seat whose player holds the device, if any. */
  private shown: TableSession | null = null;
  /** Pass and play: a held seat's token for the table's own calls (pause, undo, leave). */
  private readonly control: Seat | null = null;
  private readonly humans: number[];
  private readonly info: RulesetInfo;
  private board: Board | null = null;
  private readonly boardEl = h("div", { class: "board-host" });
  private readonly headEl = h("header", { class: "table-head" });
  private readonly bannerEl = h("div", { class: "banners", "aria-live": "polite" });
  private readonly confirmEl = h("section", { class: "confirm", "aria-label": "Confirm your move", hidden: true });
  private readonly toolsEl = h("div", { class: "table-tools", role: "toolbar", "aria-label": "Table controls" });
  private readonly logEl = h("ol", { class: "log" });
  private readonly announceEl = h("div", { class: "sr-only", "aria-live": "polite" });
  private readonly resultEl = h("section", { class: "result-host" });
  private readonly handoverEl = h("section", { class: "handover", hidden: true, "aria-label": "Hand the device over" });
  private readonly summaryEl = h("div", { class: "summary-host" });
  /** The deal-end summary shown, or dismissed, last (by seq). */
  private summarySeq = -1n;
  private pending: Intent | null = null;
  private previewText = "";
  private hints: Hints | null = null;
  private hintsSeq = -1n;
  private busy = false;
  private error = "";
  private resultShown = false;
  private timer = 0;
  private lastAnnounced = -1n;

  constructor(root: HTMLElement, private readonly clients: Clients, private readonly held: HeldSeat[]) {
    this.info = rulesetById(held[0]!.ruleset)!;
    this.humans = held.map((s) => s.seat);
    const first = held[0]!;
    if (held.length > 1) {
      this.watcher = new TableSession(clients, { tableId: first.tableId, seatToken: "", seat: -1 }, this.humans);
      this.control = clients.seat({ tableId: first.tableId, seatToken: first.seatToken, seat: first.seat });
      this.active = this.watcher;
    } else {
      this.active = new TableSession(clients, { tableId: first.tableId, seatToken: first.seatToken, seat: first.seat }, this.humans);
    }
    fill(root, h("div", { class: `table-page ruleset-${this.info.id}` },
      this.headEl, this.bannerEl, this.handoverEl, this.boardEl, this.confirmEl, this.summaryEl, this.toolsEl, this.resultEl,
      h("details", { class: "log-box" }, h("summary", {}, "Table log"), this.logEl), this.announceEl));
    this.follow(this.active);
    this.timer = window.setInterval(() => this.renderHead(), 1000);
    this.render();
  }

  destroy(): void {
    clearInterval(this.timer);
    for (const s of this.sessions) s.stop();
    this.board?.destroy();
  }

  private get me(): string {
    return playerId();
  }

  private seatNames(view: View | null): string[] {
    const seats = this.active.state.seats;
    const n = view?.numSeats ?? seats.length;
    const heldSeats = new Set(this.held.map((x) => x.seat));
    return Array.from({ length: n }, (_, seat) => {
      const st = seats.find((x) => x.seat === seat);
      if (this.held.length > 1 && heldSeats.has(seat)) return `Player ${seat + 1}`;
      if (seat === this.active.ref.seat) return "You";
      if (!st) return `Seat ${seat + 1}`;
      if (st.botKind) return `Bot ${seat + 1}`;
      return st.playerId === this.me ? "You" : st.playerId;
    });
  }

  private follow(session: TableSession): void {
    this.sessions.push(session);
    session.onChange(() => this.render());
    session.start();
  }

  /** Pass and play: the held seat the table waits for, or -1 (bots to play, or the game over). */
  private nextHeldSeat(): number {
    const t = this.watcher?.state;
    if (!t?.view || t.over) return -1;
    return t.view.toAct.find((seat) => this.humans.includes(seat)) ?? -1;
  }

  /** Pass and play: the player at the device said who they are; open their seat's own stream. */
  private showSeat(seat: number): void {
    const held = this.held.find((x) => x.seat === seat);
    if (!held || this.shown) return;
    this.shown = new TableSession(this.clients, { tableId: held.tableId, seatToken: held.seatToken, seat }, this.humans);
    this.active = this.shown;
    this.follow(this.shown);
    this.render();
  }

  /** Pass and play: the hand-over. The seat's stream closes and all it held is dropped. */
  private closeShown(): void {
    if (!this.shown || !this.watcher) return;
    this.shown.stop();
    this.sessions.splice(this.sessions.indexOf(this.shown), 1);
    this.shown = null;
    this.active = this.watcher;
    this.pending = null;
    this.hints = null;
    this.board?.destroy();
    this.board = null;
    this.boardEl.replaceChildren();
  }

  /** Pass and play: another held seat's turn, or the game's end, ends the shown player's time. */
  private pickActive(): void {
    if (!this.watcher || !this.shown) return;
    const next = this.nextHeldSeat();
    if ((next >= 0 && next !== this.shown.ref.seat) || this.watcher.state.over) this.closeShown();
  }

  /** The table's own state: the spectator's at a pass-and-play table (it sees every move). */
  private get table(): TableSession {
    return this.watcher ?? this.active;
  }

  private render(): void {
    this.pickActive();
    const s = this.active.state;
    // The seq the screen shows, for tests to wait on.
    this.headEl.dataset.seq = String(this.table.state.seq);
    this.headEl.dataset.canAct = String(this.canAct());
    this.renderHead();
    this.renderBanners();
    const hidden = !!this.watcher && !this.shown && !this.watcher.state.over;
    this.renderHandover(hidden);
    if (this.watcher && !this.shown) {
      // No seat's stream is open: there is no hand to draw. At the end the public reveal shows.
      this.boardEl.replaceChildren(...(this.watcher.state.over ? [this.lastReveal()].filter((x) => x !== null) : []));
    } else if (s.view) {
      if (!this.board) this.board = this.info.board(this.boardEl, (i) => void this.onIntent(i));
      if (this.hints && this.hintsSeq !== s.seq) this.hints = null;
      this.board.update(s.view, s.legal, {
        seatNames: this.seatNames(s.view), active: this.canAct(), pending: this.pending, hints: this.hints, drawn: s.drawn,
      });
    }
    this.renderSummary();
    this.renderConfirm();
    this.renderTools();
    this.renderLog();
    const t = this.table.state;
    if (t.over && !this.resultShown && (t.result || t.closed)) {
      this.resultShown = true;
      renderResult(this.resultEl, this.clients, this.table, this.held[0]!, this.seatNames(t.view));
    }
  }

  /** The newest deal's end, until the player moves on (a later deal's end replaces it). */
  private renderSummary(): void {
    const log = this.table.state.log;
    for (let i = log.length - 1; i >= 0; i--) {
      const line = log[i]!;
      const ev = dealEnd(line.events);
      if (!ev) continue;
      if (line.seq <= this.summarySeq && this.summaryEl.childElementCount === 0) return;
      if (line.seq === this.summarySeq) return;
      const okey = endedDealOkey(ev, log.slice(0, i + 1).map((l) => l.events), this.table.state.view);
      const el = dealSummary(ev, this.seatNames(this.table.state.view), okey, () => {
        this.summaryEl.replaceChildren();
        this.render();
      }, line.events);
      this.summarySeq = line.seq;
      this.summaryEl.replaceChildren(...(el ? [el] : []));
      return;
    }
  }

  private canAct(): boolean {
    const s = this.active.state;
    return !!s.view && !s.over && s.legal.length > 0 && !s.practice?.paused && !this.busy && this.pending === null;
  }

  private renderHead(): void {
    const s = this.active.state;
    const view = s.view;
    const names = this.seatNames(view);
    const toAct = view?.toAct ?? [];
    let turn = "";
    if (s.closed) turn = "The table closed";
    else if (s.over) turn = "Game over";
    else if (toAct.includes(this.active.ref.seat)) turn = this.watcher ? `${names[this.active.ref.seat]} to play` : "Your turn";
    else if (toAct.length) turn = `${toAct.map((x) => names[x]).join(", ")} to play`;
    let clock: HTMLElement | null = null;
    const deadline = toAct.map((x) => s.deadlines.get(x)).find((d) => d !== undefined);
    if (deadline !== undefined && !s.over) {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      clock = h("span", { class: `clock${left <= 10 ? " is-low" : ""}`, role: "timer", "aria-label": `${left} seconds left` }, `${left} s left`);
    }
    const conn = s.connection === "live" || s.connection === "ended" ? null
      : h("span", { class: `conn conn--${s.connection}` }, s.connection === "reconnecting" ? "Reconnecting…" : s.connection === "connecting" ? "Connecting…" : s.connection === "failed" ? `Cannot connect: ${s.error}` : "");
    fill(this.headEl,
      h("h1", {}, this.info.name, s.practice ? h("span", { class: "badge" }, "practice") : null,
        this.watcher ? h("span", { class: "badge" }, "pass and play") : null),
      h("p", { class: `turn${toAct.includes(this.active.ref.seat) && !s.over ? " is-mine" : ""}`, role: "status" }, turn),
      clock, conn);
  }

  private renderBanners(): void {
    const s = this.active.state;
    const out: HTMLElement[] = [];
    if (s.botMovesWhileAway > 0) {
      out.push(h("div", { class: "banner banner--info", role: "status" },
        `While you were away, a bot played ${s.botMovesWhileAway} move${s.botMovesWhileAway === 1 ? "" : "s"} for you. You have your seat back.`,
        button("OK", () => this.active.acknowledgeAway(), { class: "chip" })));
    }
    if (s.practice?.paused) out.push(h("div", { class: "banner", role: "status" }, "Paused: the bots wait, and so do you."));
    if (s.commitmentChanged) out.push(h("div", { class: "banner banner--bad" }, "Warning: a later snapshot showed another deal commitment."));
    if (this.error) out.push(h("div", { class: "banner banner--bad", role: "alert" }, this.error, button("Dismiss", () => { this.error = ""; this.render(); }, { class: "chip" })));
    fill(this.bannerEl, ...out);
  }

  private renderHandover(hidden: boolean): void {
    this.handoverEl.hidden = !hidden;
    if (!hidden) return;
    const seat = this.nextHeldSeat();
    const ready = seat >= 0;
    const show = ready ? button(`I am Player ${seat + 1}: show my ${this.info.id === "liars_dice" ? "dice" : "tiles"}`, () => this.showSeat(seat), { class: "primary big" }) : null;
    fill(this.handoverEl,
      h("h2", {}, ready ? `Pass the device to Player ${seat + 1}` : "Waiting for the bots…"),
      h("p", {}, "Every hand is hidden. Only the player whose turn it is should look."),
      this.lastReveal(), show);
    // Keyboard players: Enter shows the hand (the board the focus was in is gone).
    if (show && !this.confirmEl.contains(document.activeElement)) show.focus();
  }

  /**
   * Liar's dice: the dice every cup showed at the last challenge (public: the round's end), so the
   * players see them between turns as at a real table. The okey and domino deals' ends are in the
   * deal summary, which stays up.
   */
  private lastReveal(): HTMLElement | null {
    const v = this.table.state.view?.ruleset;
    if (v?.case !== "liarsDice" || !v.value.lastReveal?.dice.length) return null;
    const r = v.value.lastReveal;
    const names = this.seatNames(this.table.state.view);
    return h("section", { class: "handover-reveal", "data-public": "reveal", "aria-label": "Dice shown at the last challenge" },
      h("h3", {}, `Last challenge: ${r.counted} counted, the bid ${r.bidStood ? "stood" : "failed"}`),
      h("ul", {}, ...r.dice.map((d, seat) => d.dice.length ? h("li", {}, h("span", { class: "seat__name" }, names[seat] ?? `Seat ${seat + 1}`), " ",
        ...d.dice.map((f) => die(f, undefined, "die--small"))) : null)));
  }

  private renderConfirm(): void {
    const p = this.pending;
    this.confirmEl.hidden = p === null;
    if (!p) return;
    const confirm = button(`Confirm: ${p.label}`, () => void this.commit(), { class: "primary" });
    fill(this.confirmEl, h("h2", {}, "Preview"), h("p", {}, p.label),
      this.previewText ? h("p", { class: "preview" }, this.previewText) : h("p", { class: "muted" }, "Checking…"),
      h("div", { class: "actions" }, confirm, button("Cancel", () => { this.pending = null; this.render(); })));
    if (this.previewText && !this.previewText.startsWith("Not allowed")) confirm.focus();
    else if (this.previewText.startsWith("Not allowed")) confirm.disabled = true;
  }

  private renderTools(): void {
    const s = this.table.state;
    const out: HTMLElement[] = [];
    const live = !s.over && !!s.view;
    if (live && s.practice) {
      const p = s.practice;
      out.push(p.paused ? button("Resume", () => void this.practice("resume")) : button("Pause", () => void this.practice("pause")));
      out.push(button(`Undo${p.undoable ? ` (${p.undoable})` : ""}`, () => void this.practice("undo"), { disabled: p.undoable === 0 || this.busy }));
      out.push(button(`Redo${p.redoable ? ` (${p.redoable})` : ""}`, () => void this.practice("redo"), { disabled: p.redoable === 0 || this.busy }));
    }
    if (live && this.hasHints() && (!this.watcher || this.shown)) {
      out.push(button(this.hints ? "Hide hints" : "Hints", () => void this.toggleHints()));
    }
    if (live) out.push(button(s.practice ? "Leave (close the table)" : "Resign", () => void this.resign(), { class: "danger" }));
    fill(this.toolsEl, ...out);
    if (this.hints) this.toolsEl.appendChild(this.hintsSummary(this.hints));
  }

  private hasHints(): boolean {
    const v = this.active.state.view?.ruleset;
    if (!v) return false;
    if (v.case === "mexicanTrain") return true;
    if (v.case === "okey51" || v.case === "okey101") return v.value.hints;
    return false;
  }

  private hintsSummary(hints: Hints): HTMLElement {
    const r = hints.ruleset;
    if (r.case === "okey51" || r.case === "okey101") {
      const v = r.value;
      return h("div", { class: "hints", role: "note", "aria-label": "Hints" },
        v.penaltyTiles.length ? h("p", {}, `Penalty tiles (do not discard): ${v.penaltyTiles.join(" ")}`) : h("p", {}, "No penalty tiles in your hand."),
        v.groups.length ? h("p", {}, `Groups: ${v.groups.map((g) => g.tiles.map((t) => t.tile).join("-")).join(" · ")}`) : null,
        v.loose.length ? h("p", {}, `Loose: ${v.loose.join(" ")}`) : null,
        v.targets.length ? h("p", {}, `Can be added: ${v.targets.map((t) => `${t.tile}→${t.additions.map((a) => a.meld + 1).join("/")}`).join(" ")}`) : null,
        v.pairs.length ? h("p", {}, `Pairs: ${v.pairs.length}`) : null);
    }
    if (r.case === "mexicanTrain") {
      const v = r.value;
      const s = v.suggested?.action;
      return h("div", { class: "hints", role: "note", "aria-label": "Hints" },
        h("p", {}, s?.case === "play" ? `Suggested: ${s.value.tile} on ${s.value.train === -1 ? "the Mexican train" : `train ${s.value.train + 1}`}` : s ? `Suggested: ${s.case}` : "No suggestion."),
        v.ownTrainPlan.length ? h("p", {}, `Your train's longest chain: ${v.ownTrainPlan.join(" ")}`) : null);
    }
    return h("div");
  }

  /** The log; at a pass-and-play table the spectator's (public lines only, never "You drew R5"). */
  private renderLog(): void {
    const s = this.table.state;
    const names = this.seatNames(s.view);
    const name = (seat: number) => names[seat] ?? `Seat ${seat + 1}`;
    const lines = s.log.slice(-40).map((l) => {
      const texts = l.events.map((e) => describeEvent(e, name)).filter(Boolean);
      if (l.note) texts.push(`${l.seat !== null ? name(l.seat) + " " : ""}${l.note}`);
      if (l.byBot && l.seat !== null && (l.botReason === "away" || l.botReason === "timeout")) texts.push(`(a bot moved for ${name(l.seat)}: ${l.botReason})`);
      return { seq: l.seq, text: texts.join("; ") };
    }).filter((l) => l.text);
    fill(this.logEl, ...lines.reverse().map((l) => h("li", {}, l.text)));
    const last = lines[0];
    if (last && last.seq !== this.lastAnnounced) {
      this.lastAnnounced = last.seq;
      this.announceEl.textContent = last.text;
    }
  }

  private async onIntent(intent: Intent): Promise<void> {
    if (!intent.preview) {
      await this.send(intent);
      return;
    }
    this.pending = intent;
    this.previewText = "";
    this.render();
    try {
      const r = await this.active.preview(intent.move);
      const names = this.seatNames(this.active.state.view);
      const texts = r.events.map((e) => describeEvent(e, (s) => names[s] ?? "")).filter(Boolean);
      this.previewText = (texts.length ? texts.join("; ") : "Allowed.") + (r.previewTruncated ? " (what comes next is hidden until you confirm)" : "");
    } catch (e) {
      this.previewText = `Not allowed: ${explainError(e)}`;
    }
    if (this.pending === intent) this.render();
  }

  private async commit(): Promise<void> {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    await this.send(p);
  }

  private async send(intent: Intent): Promise<void> {
    this.busy = true;
    this.render();
    try {
      await this.active.play(intent.move);
      this.error = "";
    } catch (e) {
      this.error = `${intent.label}: ${explainError(e)}`;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  private async practice(action: "pause" | "resume" | "undo" | "redo"): Promise<void> {
    this.busy = true;
    this.pending = null;
    try {
      const seq = this.table.state.seq;
      if (this.control) await this.control.practice(action, seq >= 0n ? seq : undefined);
      else await this.active.practice(action);
    } catch (e) {
      this.error = `${action}: ${explainError(e)}`;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  private async toggleHints(): Promise<void> {
    if (this.hints) {
      this.hints = null;
      this.render();
      return;
    }
    try {
      const seq = this.active.state.seq;
      this.hints = await this.active.hints();
      this.hintsSeq = seq;
    } catch (e) {
      this.error = `Hints: ${explainError(e)}`;
    }
    this.render();
  }

  private async resign(): Promise<void> {
    const practice = !!this.table.state.practice;
    if (!window.confirm(practice ? "Close this practice table?" : "Resign? A bot plays your seat to the end and you are rated last.")) return;
    try {
      // At a pass-and-play table a resignation from any seat closes it.
      if (this.control) await this.control.resign();
      else await this.active.resign();
    } catch (e) {
      this.error = `Resign: ${explainError(e)}`;
      this.render();
    }
  }
}
