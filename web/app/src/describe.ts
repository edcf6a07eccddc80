// Words for what happened at the table, from the events a seat received (its own private events
// included, nobody else's), for the table's log and the screen reader's announcements.
import type { Event } from "./api";
import { bidText } from "./board/dice_board";

/** The verb for the subject: "Bot 2 draws", "You draw". */
function v(who: string, verb: string): string {
  if (who !== "You") return verb;
  if (verb === "is") return "are";
  if (verb.endsWith("sses")) return verb.slice(0, -2);
  return verb.endsWith("s") ? verb.slice(0, -1) : verb;
}

export function describeEvent(ev: Event, name: (seat: number) => string): string {
  const who = ev.seat !== undefined ? name(ev.seat) : "";
  const r = ev.ruleset;
  switch (r.case) {
    case "liarsDice": {
      const e = r.value.event;
      switch (e.case) {
        case "roundStarted": return `Round ${e.value.round}: ${name(e.value.starter)} starts`;
        case "diceRolled": return `You rolled ${e.value.dice.join(" ")}`;
        case "putanaDeclared": return `${who} ${v(who, "declares")} Путана`;
        case "bidMade": return `${who} ${v(who, "bids")} ${e.value.bid ? bidText(e.value.bid.quantity, e.value.bid.face) : ""}`;
        case "challenged": return `${who}: «Не верю!»`;
        case "diceRevealed": return `Dice shown: ${e.value.counted} count, the bid ${e.value.bidStood ? "stood" : "failed"}`;
        case "dieLost": return `${who} ${v(who, "loses")} a die (${e.value.diceLeft} left)`;
        case "seatEliminated": return `${who} ${v(who, "is")} out (rank ${e.value.rank})`;
        default: return "";
      }
    }
    case "okey": {
      const e = r.value.event;
      switch (e.case) {
        case "dealStarted": return `Deal ${e.value.deal}: indicator ${e.value.indicator}, okey ${e.value.okey}`;
        case "tilesDealt": return "";
        case "drewFromDeck": return `${who} ${v(who, "draws")} from the deck`;
        case "tileDrawn": return `You drew ${e.value.tile}`;
        case "discardTaken": return `${who} ${v(who, "takes")} ${e.value.tile}`;
        case "tileDiscarded": return `${who} ${v(who, "discards")} ${e.value.tile}`;
        case "indicatorShown": return `${who} ${v(who, "shows")} the indicator's twin`;
        case "won": return `${who} ${v(who, "wins")} (${e.value.points} points each)`;
        case "pointsLost": return `${who} ${v(who, "loses")} ${e.value.points} (${e.value.left} left)`;
        case "dealEnded": return e.value.winner < 0 ? "The deck ran out: no score" : "The deal ends";
        case "seatEliminated": return `${who} ${v(who, "leaves")} the game`;
        default: return "";
      }
    }
    case "okey51":
    case "okey101": {
      const e = r.value.event;
      switch (e.case) {
        case "dealStarted": return `Deal ${e.value.deal}: indicator ${e.value.indicator}, okey ${e.value.okey}`;
        case "tilesDealt": return "";
        case "drewFromDeck": return `${who} ${v(who, "draws")} from the deck`;
        case "tileDrawn": return `You drew ${e.value.tile}`;
        case "discardTaken": return `${who} ${v(who, "takes")} ${e.value.tile}`;
        case "meldsLaid": return `${who} ${e.value.opening ? `${v(who, "opens")} with ${e.value.openingSum || "pairs"}` : v(who, "lays")}: ${e.value.melds.map((m) => m.tiles.map((t) => t.tile).join("-")).join(", ")}`;
        case "tileAdded": return `${who} ${v(who, "adds")} ${e.value.addition?.tile ?? ""}${e.value.okeyTaken ? ` and takes the okey` : ""}`;
        case "tileDiscarded": return `${who} ${v(who, "discards")} ${e.value.tile}`;
        case "penalty": return `${who} +${e.value.points} penalty`;
        case "dealEnded": return `Deal ${e.value.deal} ends`;
        case "dealVoided": return `Deal ${e.value.deal} is void (everyone opened with pairs)`;
        default: return "";
      }
    }
    case "mexicanTrain": {
      const e = r.value.event;
      switch (e.case) {
        case "roundStarted": return `Round ${e.value.round}: engine ${e.value.engine} (${name(e.value.owner)})`;
        case "tilesDealt": return "";
        case "tilePlayed": return `${who} ${v(who, "plays")} ${e.value.tile} on ${e.value.train === -1 ? "the Mexican train" : `${name(e.value.train)}'s train`}`;
        case "drew": return `${who} ${v(who, "draws")}`;
        case "tileDrawn": return `You drew ${e.value.tile}`;
        case "passed": return `${who} ${v(who, "passes")}`;
        case "firstTurnEnded": return `${who} ${v(who, "ends")} the first turn`;
        case "roundEnded": return e.value.wentOut >= 0 ? `Round ${e.value.round}: ${name(e.value.wentOut)} went out` : `Round ${e.value.round} blocked`;
        default: return "";
      }
    }
    default:
      return "";
  }
}
