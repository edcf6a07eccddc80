// What the end of a deal says, from the events alone (no page): which event ended a deal or round,
// and the wild tile of the deal it ended, so the hands it shows can mark it.
import type { Event, View } from "./api";

/** The okey games' own event (classic or laying), else null. */
function okeyEventOf(e: Event) {
  const r = e.ruleset;
  return r.case === "okey51" || r.case === "okey101" || r.case === "okey" ? r.value.event : null;
}

/** The deal-end event among these, if any. */
export function dealEnd(events: readonly Event[]): Event | null {
  return events.find((e) => {
    const okey = okeyEventOf(e);
    if (okey) return okey.case === "dealEnded";
    const r = e.ruleset;
    return r.case === "mexicanTrain" && r.value.event.case === "roundEnded";
  }) ?? null;
}

/**
 * The okey (the wild tile) of the deal `ev` ended, so the hands left show it marked: from that
 * deal's start among `earlier` (the log up to the end), else from the view while it still shows
 * that deal. The next deal may already have started in the same move, with another okey, so the
 * view's own okey is not enough. "" when neither says (the tiles then show unmarked).
 */
export function endedDealOkey(ev: Event, earlier: readonly (readonly Event[])[], view: View | null): string {
  const ended = okeyEventOf(ev);
  if (ended?.case !== "dealEnded") return "";
  const deal = ended.value.deal;
  for (let i = earlier.length - 1; i >= 0; i--) {
    for (const e of earlier[i]!) {
      const started = okeyEventOf(e);
      if (started?.case === "dealStarted" && started.value.deal === deal) return started.value.okey;
    }
  }
  const v = view?.ruleset;
  if ((v?.case === "okey51" || v?.case === "okey101" || v?.case === "okey") && v.value.deal === deal) return v.value.okey;
  return "";
}
