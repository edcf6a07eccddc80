// The end of a table: ranks and scores, the rating change and the match in the player's history
// (matchmade tables; the result reaches the rating service shortly after the end), and the
// fair-deal check run here in the browser, with the replay to download and a replay file to check.
import { Code, ConnectError, ReplaySchema, TableClosed_Reason, fromJson, toJson, type Clients, type Replay } from "../api";
import { playerId } from "../auth";
import { checkDeal, type FairCheck } from "../fairness";
import type { HeldSeat } from "../seats_store";
import type { TableSession } from "../session";
import { button, fill, h } from "../ui/dom";

const CLOSED_REASONS: Record<number, string> = {
  [TableClosed_Reason.PRACTICE_RESIGNED]: "you left the practice table",
  [TableClosed_Reason.PRACTICE_EXPIRED]: "nothing happened at it for too long",
  [TableClosed_Reason.PRACTICE_EVICTED]: "the server needed room for another player's practice table",
};

export function renderResult(root: HTMLElement, clients: Clients, session: TableSession, held: HeldSeat, names: string[]): void {
  const s = session.state;
  const rating = h("div", { class: "rating-change" });
  const fair = h("section", { class: "fair", "aria-label": "Fair-deal check" });
  let content: HTMLElement;
  if (s.closed) {
    content = h("div", {}, h("h2", {}, "The table closed"),
      h("p", {}, `Closed before the game ended: ${CLOSED_REASONS[s.closed.reason] ?? "closed"}. Nothing is rated.`));
  } else {
    const rows = [...(s.result?.seats ?? [])].sort((a, b) => a.rank - b.rank).map((r) =>
      h("tr", { class: r.seat === held.seat ? "is-me" : "" }, h("td", {}, String(r.rank)), h("td", {}, names[r.seat] ?? `Seat ${r.seat + 1}`), h("td", {}, fmt(r.score))));
    const mine = s.result?.seats.find((r) => r.seat === held.seat);
    // Pass and play: several people share "you"; name the winner instead.
    const first = s.result?.seats.find((r) => r.rank === 1);
    const title = held.passAndPlay ? (first ? `${names[first.seat] ?? `Seat ${first.seat + 1}`} won!` : "Game over")
      : mine ? (mine.rank === 1 ? "You won!" : `You finished ${ordinal(mine.rank)}`) : "Game over";
    content = h("div", {},
      h("h2", {}, title),
      h("table", { class: "result-table", "aria-label": "Result" },
        h("thead", {}, h("tr", {}, h("th", {}, "Rank"), h("th", {}, "Seat"), h("th", {}, "Score"))), h("tbody", {}, ...rows)),
      s.result?.ending ? h("p", { class: "muted" }, `Ending: ${s.result.ending.replace(/_/g, " ")}`) : null);
  }
  fill(root, h("div", { class: "result", role: "region", "aria-label": "Game result" }, content, rating, fair,
    h("p", {}, h("a", { href: "#/lobby", class: "button" }, "Back to the lobby"), " ", h("a", { href: "#/history", class: "button" }, "Match history"))));
  if (held.matchId && !held.practice && !s.closed) void showRating(rating, clients, held.matchId);
  void showFairCheck(fair, session);
}

async function showRating(el: HTMLElement, clients: Clients, matchId: string): Promise<void> {
  fill(el, h("p", { class: "muted" }, "Waiting for the rating service…"));
  const me = playerId();
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      const m = await clients.rating.getMatch({ matchId });
      const change = m.changes.find((c) => c.playerId === me);
      if (!m.rated) {
        fill(el, h("p", {}, "This match is recorded in your history but not rated (a bot held a seat from the start)."));
      } else if (change?.before && change.after) {
        const d = change.after.display - change.before.display;
        fill(el, h("p", { class: "rating" }, "Rating ", h("strong", {}, fmt(change.after.display)),
          h("span", { class: d >= 0 ? "up" : "down" }, ` (${d >= 0 ? "+" : ""}${fmt(d)})`),
          change.after.provisional ? h("span", { class: "muted" }, " · provisional") : null));
      } else {
        fill(el, h("p", {}, "Recorded in your history."));
      }
      return;
    } catch (e) {
      if (ConnectError.from(e).code !== Code.NotFound) {
        fill(el, h("p", { class: "muted" }, `Rating: ${ConnectError.from(e).rawMessage}`));
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  fill(el, h("p", { class: "muted" }, "The rating service has not recorded the match yet; see your history later."));
}

async function showFairCheck(el: HTMLElement, session: TableSession): Promise<void> {
  const s = session.state;
  const verdict = h("div", { class: "verdict", role: "status" });
  const details = h("ul", { class: "check-lines" });
  const input = h("textarea", { rows: 4, "aria-label": "Replay JSON to check", placeholder: "Paste a replay (GetReplay's answer as JSON)" });
  let replay: Replay | null = null;
  const download = button("Download the replay", () => {
    if (!replay) return;
    const blob = new Blob([JSON.stringify(toJson(ReplaySchema, replay), null, 2)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `kahve-${session.ref.tableId}.json` });
    a.click();
  }, { disabled: true });
  const checkFile = button("Check this replay", () => {
    let parsed: Replay;
    try {
      parsed = fromJson(ReplaySchema, JSON.parse(input.value));
    } catch (e) {
      show({ ok: false, lines: [{ ok: false, text: `Not a replay: ${(e as Error).message}` }] });
      return;
    }
    void checkDeal(s.commitment, parsed.reveal ?? null, parsed, s.firstView).then(show);
  });
  const show = (c: FairCheck) => {
    verdict.className = `verdict ${c.ok ? "is-ok" : "is-bad"}`;
    fill(verdict, c.ok ? "✔ Verified: the deal is the one committed to at the start." : "✘ Mismatch: the deal does not match the commitment.");
    fill(details, ...c.lines.map((l) => h("li", { class: l.ok ? "ok" : "bad" }, `${l.ok ? "✔" : "✘"} ${l.text}`)));
  };
  fill(el, h("h3", {}, "Fair deal"),
    h("p", { class: "muted" }, `Commitment shown at the start: ${s.commitment?.sha256 ?? "none"}`),
    verdict, details,
    h("details", {}, h("summary", {}, "Replay"), h("p", {}, download), input, h("p", {}, checkFile)));
  fill(verdict, "Checking…");
  show(await checkDeal(s.commitment, s.reveal, undefined, s.firstView));
  try {
    replay = await session.replay();
    download.disabled = false;
    input.value = JSON.stringify(toJson(ReplaySchema, replay));
  } catch {
    // The replay is a convenience; the check above needs only what the stream revealed.
  }
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

function ordinal(n: number): string {
  return `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;
}
