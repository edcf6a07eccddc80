// Reading groups of okey tiles as runs and sets, with the stand-ins the API asks for.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isPair, readMeld, readRun, readSet } from "../../src/board/okey_melds";

const OKEY = "R6"; // indicator R5: R6 is wild, F plays as R6

test("a plain run, in any order, is listed low to high", () => {
  const m = readMeld(["B9", "B7", "B8"], OKEY);
  assert.equal(m?.kind, "run");
  assert.deepEqual(m?.tiles.map((t) => t.tile), ["B7", "B8", "B9"]);
  assert.equal(m?.value, 24);
});

test("an okey fills a gap and names what it stands for", () => {
  const m = readRun(["K4", "R6", "K6"], OKEY);
  assert.deepEqual(m?.tiles, [{ tile: "K4", standsFor: "" }, { tile: "R6", standsFor: "K5" }, { tile: "K6", standsFor: "" }]);
});

test("a spare okey extends the run upwards, or downwards at 13", () => {
  assert.deepEqual(readRun(["Y3", "Y4", "R6"], OKEY)?.tiles.map((t) => t.standsFor), ["", "", "Y5"]);
  assert.deepEqual(readRun(["Y12", "Y13", "R6"], OKEY)?.tiles.map((t) => t.standsFor || t.tile), ["Y11", "Y12", "Y13"]);
});

test("a high 1 follows 13, but 13-1-2 never is a run", () => {
  assert.deepEqual(readRun(["B12", "B1", "B13"], OKEY)?.tiles.map((t) => t.tile), ["B12", "B13", "B1"]);
  assert.equal(readRun(["B13", "B1", "B2"], OKEY), null);
});

test("a fake okey plays as the okey's face", () => {
  assert.equal(readRun(["R4", "R5", "F"], OKEY)?.value, 15);
  assert.equal(readSet(["B6", "K6", "F"], OKEY)?.kind, "set");
});

test("sets need one number in different colours, three or four tiles", () => {
  assert.equal(readSet(["B9", "R9", "K9"], OKEY)?.value, 27);
  assert.equal(readSet(["B9", "B9", "K9"], OKEY), null);
  assert.equal(readSet(["B9", "R9", "K9", "Y9", "R6"], OKEY), null);
  assert.equal(readMeld(["B9", "R9", "R6"], OKEY)?.kind, "set");
});

test("pairs: identical tiles, or an okey with anything", () => {
  assert.ok(isPair("K3", "K3", OKEY));
  assert.ok(isPair("K3", "R6", OKEY));
  assert.ok(!isPair("K3", "B3", OKEY));
});
