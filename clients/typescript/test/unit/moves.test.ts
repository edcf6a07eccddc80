// The legal-move helpers on hand-made lists in each ruleset's shape.
import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import {
  MoveSchema,
  OkeyPlace,
  additionsFor,
  classifyMoves,
  findAddTile,
  findBid,
  findChallenge,
  findEndFirstTurn,
  findLayMeld,
  findLayingDiscard,
  findOkeyDiscard,
  findShowIndicator,
  findTrainPlay,
  isListed,
  kMexicanTrain,
  layMoves,
  legalBids,
  liarsDiceBidMove,
  meldsMove,
  moveKind,
  okeyWins,
  pairsMove,
  playableTiles,
  takeDiscardMove,
  trainsFor,
  type Move,
} from "@kahve/client";

const m = (init: Parameters<typeof create<typeof MoveSchema>>[1]): Move => create(MoveSchema, init);

test("Liar's dice: bids and the challenge are found in the list, others are not", () => {
  const legal = [liarsDiceBidMove(3, 4), liarsDiceBidMove(3, 5), m({ ruleset: { case: "liarsDice", value: { action: { case: "challenge", value: {} } } } })];
  assert.deepEqual(legalBids(legal).map((b) => [b.quantity, b.face]), [[3, 4], [3, 5]]);
  assert.equal(findBid(legal, 3, 5), legal[1]);
  assert.equal(findBid(legal, 2, 5), undefined);
  assert.equal(findChallenge(legal), legal[2]);
  assert.deepEqual([...classifyMoves(legal).keys()], ["liarsDice.bid", "liarsDice.challenge"]);
  assert.ok(isListed(legal, liarsDiceBidMove(3, 4)), "equal field by field");
});

test("classic okey: a discard by tile, gösterme, wins with or without the taken discard", () => {
  const legal = [
    m({ ruleset: { case: "okey", value: { action: { case: "discard", value: { tile: "R5" } } } } }),
    m({ ruleset: { case: "okey", value: { action: { case: "showIndicator", value: {} } } } }),
    m({ ruleset: { case: "okey", value: { action: { case: "win", value: { discard: "K2" } } } } }),
    m({ ruleset: { case: "okey", value: { action: { case: "takeDiscard", value: { win: { discard: "B9" } } } } } }),
    m({ ruleset: { case: "okey", value: { action: { case: "takeDiscard", value: {} } } } }),
  ];
  assert.equal(findOkeyDiscard(legal, "R5"), legal[0]);
  assert.equal(findOkeyDiscard(legal, "R6"), undefined);
  assert.equal(findShowIndicator(legal), legal[1]);
  assert.deepEqual(okeyWins(legal), [legal[2], legal[3]]);
});

test("okey51/okey101: additions by tile and place, a single meld by its tiles, openings listed and built", () => {
  const add = (tile: string, meld: number, place: OkeyPlace) =>
    m({ ruleset: { case: "okey51", value: { action: { case: "addTile", value: { tile, meld, place } } } } });
  const legal = [
    add("R4", 0, OkeyPlace.RUN_LOW),
    add("R4", 2, OkeyPlace.SET_COLOUR),
    add("K9", 1, OkeyPlace.RUN_LOW),
    add("K9", 1, OkeyPlace.RUN_HIGH),
    meldsMove("okey51", [["B3", "B4", "B5"]]),
    meldsMove("okey51", [["Y7", "Y8", "Y9"], ["K7", "R7", "B7"]]),
    pairsMove("okey51", [["R1", "R1"], ["B2", "B2"]]),
    m({ ruleset: { case: "okey51", value: { action: { case: "discard", value: { tile: "Y1" } } } } }),
  ];
  assert.deepEqual(additionsFor(legal, "R4").map((a) => a.meld), [0, 2]);
  assert.equal(findAddTile(legal, "R4", 2), legal[1]);
  assert.equal(findAddTile(legal, "K9", 1), undefined, "a run that takes it at both ends: ask which");
  assert.equal(findAddTile(legal, "K9", 1, OkeyPlace.RUN_HIGH), legal[3]);
  assert.equal(findLayMeld(legal, ["B5", "B3", "B4"]), legal[4]);
  assert.equal(findLayMeld(legal, ["Y7", "Y8", "Y9"]), undefined, "part of a two-meld lay, not a lay of its own");
  assert.deepEqual(layMoves(legal), [legal[4], legal[5], legal[6]]);
  assert.equal(findLayingDiscard(legal, "Y1"), legal[7]);
  assert.equal(moveKind(legal[5]!), "okey51.layMelds");

  const opening = meldsMove("okey101", [[{ tile: "R6", standsFor: "K7" }, "K8", "K9"], ["Y10", "R10", "B10"]]);
  assert.equal(opening.ruleset.case, "okey101");
  const lay = opening.ruleset.value!.action;
  assert.equal(lay.case, "layMelds");
  assert.equal(lay.case === "layMelds" && lay.value.melds[0]!.tiles[0]!.standsFor, "K7");
  const take = takeDiscardMove("okey101", { case: "addTile", value: { tile: "R9", meld: 0, place: OkeyPlace.RUN_LOW, $typeName: "kahve.v1.OkeyAddition" } });
  assert.equal(moveKind(take), "okey101.takeDiscard");
});

test("Mexican Train: plays by tile and train, the trains a tile fits, the playable tiles", () => {
  const play = (tile: string, train: number) =>
    m({ ruleset: { case: "mexicanTrain", value: { action: { case: "play", value: { tile, train } } } } });
  const legal = [play("3-12", 0), play("3-12", kMexicanTrain), play("5-12", 2),
    m({ ruleset: { case: "mexicanTrain", value: { action: { case: "endFirstTurn", value: {} } } } })];
  assert.equal(findTrainPlay(legal, "3-12", kMexicanTrain), legal[1]);
  assert.equal(findTrainPlay(legal, "3-12", 2), undefined);
  assert.deepEqual(trainsFor(legal, "3-12"), [0, -1]);
  assert.deepEqual(playableTiles(legal), ["3-12", "5-12"]);
  assert.equal(findEndFirstTurn(legal), legal[3]);
});
