// The player's match history and ratings (RatingService): newest matches first, with ranks and
// rating changes, and the player's rating in each ruleset played.
import { MatchMode, type Clients } from "../api";
import { playerId } from "../auth";
import { rulesetById } from "../rulesets";
import { explainError } from "../session";
import { fill, h } from "../ui/dom";

export function openHistory(root: HTMLElement, clients: Clients): void {
  const me = playerId();
  const ratingsEl = h("section", { class: "card", "aria-label": "Your ratings" }, h("p", { class: "muted" }, "Loading ratings…"));
  const matchesEl = h("section", { class: "card", "aria-label": "Your matches" }, h("p", { class: "muted" }, "Loading matches…"));
  fill(root, h("div", { class: "history" }, h("h1", {}, "Your games"), ratingsEl, matchesEl));
  if (!me) {
    fill(matchesEl, h("p", {}, "Sign in in the lobby first."));
    ratingsEl.remove();
    return;
  }
  void clients.rating.getRatings({ playerIds: [me] }).then((r) => {
    fill(ratingsEl, h("h2", {}, "Ratings"), r.ratings.length
      ? h("table", { class: "ratings" }, h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Mode"), h("th", {}, "Rating"), h("th", {}, "Games"))),
        h("tbody", {}, ...r.ratings.map((x) => h("tr", {}, h("td", {}, rulesetById(x.ruleset)?.name ?? x.ruleset),
          h("td", {}, x.mode === MatchMode.TEAMS ? "2v2" : "solo"), h("td", {}, x.display.toFixed(1), x.provisional ? " (provisional)" : ""), h("td", {}, String(x.games))))))
      : h("p", {}, "No rated games yet."));
  }, (e) => fill(ratingsEl, h("p", {}, `Ratings: ${explainError(e)}`)));
  void clients.rating.listMatches({ playerId: me, pageSize: 20 }).then((r) => {
    fill(matchesEl, h("h2", {}, "Matches"), r.matches.length
      ? h("ul", { class: "matches", "aria-label": "Match history" }, ...r.matches.map((m) => {
        const mine = m.participants.find((p) => p.playerId === me);
        const change = m.changes.find((c) => c.playerId === me);
        const delta = change?.before && change.after ? change.after.display - change.before.display : null;
        const ended = m.endedAt ? new Date(Number(m.endedAt.seconds) * 1000).toLocaleString() : "";
        return h("li", { class: "match" }, h("strong", {}, rulesetById(m.ruleset)?.name ?? m.ruleset),
          ` · ${ended} · rank ${mine?.rank ?? "?"} of ${m.participants.length}`,
          delta !== null ? h("span", { class: delta >= 0 ? "up" : "down" }, ` · rating ${delta >= 0 ? "+" : ""}${delta.toFixed(1)}`) : m.rated ? "" : " · not rated");
      }))
      : h("p", {}, "No matches yet. Practice games are not recorded."));
  }, (e) => fill(matchesEl, h("p", {}, `Matches: ${explainError(e)}`)));
}
