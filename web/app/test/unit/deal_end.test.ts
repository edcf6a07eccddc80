// The end of a deal from events alone: which event ends it, and the wild tile its hands show.
import assert from "node:assert/strict";
import { test } from "node:test";
import { create, EventSchema, ViewSchema } from "@kahve/client";
import { dealEnd, endedDealOkey } from "../../src/deal_end";

function started(deal: number, okey: string) {
  return create(EventSchema, { ruleset: { case: "okey101", value: { event: { case: "dealStarted", value: { deal, okey } } } } });
}
function ended(deal: number) {
  return create(EventSchema, { ruleset: { case: "okey101", value: { event: { case: "dealEnded", value: { deal, finisher: 2 } } } } });
}
function view(deal: number, okey: string) {
  return create(ViewSchema, { ruleset: { case: "okey101", value: { deal, okey } } });
}

test("dealEnd finds the event that ended a deal or round, and nothing else", () => {
  assert.equal(dealEnd([started(1, "R5")]), null);
  const end = ended(1);
  assert.equal(dealEnd([started(1, "R5"), end]), end);
  const round = create(EventSchema, { ruleset: { case: "mexicanTrain", value: { event: { case: "roundEnded", value: { round: 3 } } } } });
  assert.equal(dealEnd([round]), round);
});

test("the ended deal's okey comes from its own start, not from the deal begun in the same move", () => {
  // Deal 1 ends and deal 2 starts in one move: the view already shows deal 2's okey.
  const log = [[started(1, "R5")], [], [ended(1), started(2, "K9")]];
  assert.equal(endedDealOkey(ended(1), log, view(2, "K9")), "R5");
});

test("without the deal's start in the log, the view's okey serves only while it shows that deal", () => {
  assert.equal(endedDealOkey(ended(4), [[ended(4)]], view(4, "B13")), "B13");
  assert.equal(endedDealOkey(ended(4), [[ended(4)]], view(5, "B13")), "");
  assert.equal(endedDealOkey(ended(4), [], null), "");
});

test("an event that ends no okey deal has no okey", () => {
  const round = create(EventSchema, { ruleset: { case: "mexicanTrain", value: { event: { case: "roundEnded", value: { round: 1 } } } } });
  assert.equal(endedDealOkey(round, [[started(1, "R5")]], view(1, "R5")), "");
});
