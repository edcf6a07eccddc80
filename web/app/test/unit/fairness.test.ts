// The fair-deal check against docs/fairness.md's known answer, and its refusals.
import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { test } from "node:test";
import { create, DealCommitmentSchema, DealRevealSchema, DealSource } from "@kahve/client";
import { buildMaterial, bytesToHex, checkDeal, sha256Hex } from "../../src/fairness";

if (!globalThis.crypto) (globalThis as { crypto?: unknown }).crypto = webcrypto;

const salt = Uint8Array.from({ length: 32 }, (_, i) => i);
const seed = 0x0123456789abcdefn;
const KNOWN = "f6d51869814c624b8cacc868a84a7479fbf406efa21e4b2aeeb0f4d1aae282f1";

test("the seed material of docs/fairness.md hashes to its known answer", async () => {
  const material = buildMaterial(DealSource.SERVER_RANDOM, salt, seed, null);
  assert.equal(material.length, 97);
  assert.equal(await sha256Hex(material), KNOWN);
});

function reveal(material: Uint8Array, over: Partial<{ seed: bigint; salt: string }> = {}) {
  return create(DealRevealSchema, { seed: over.seed ?? seed, salt: over.salt ?? bytesToHex(salt), material: bytesToHex(material) });
}

const commitment = create(DealCommitmentSchema, { version: 1, source: DealSource.SERVER_RANDOM, sha256: KNOWN });

test("a faithful reveal is verified", async () => {
  const c = await checkDeal(commitment, reveal(buildMaterial(1, salt, seed, null)));
  assert.ok(c.ok, JSON.stringify(c.lines));
});

test("another seed, salt or source is a mismatch", async () => {
  assert.ok(!(await checkDeal(commitment, reveal(buildMaterial(1, salt, seed + 1n, null), { seed: seed + 1n }))).ok);
  const salt2 = salt.map((b) => b ^ 1);
  assert.ok(!(await checkDeal(commitment, reveal(buildMaterial(1, salt2, seed, null), { salt: bytesToHex(salt2) }))).ok);
  assert.ok(!(await checkDeal(commitment, reveal(buildMaterial(4, salt, seed, null)))).ok);
  assert.ok(!(await checkDeal(commitment, reveal(buildMaterial(1, salt, seed, null), { seed: 7n }))).ok);
});

test("nothing to check is said plainly", async () => {
  assert.ok(!(await checkDeal(null, null)).ok);
  assert.match((await checkDeal(commitment, null)).lines[0]!.text, /not been revealed/);
});

test("the engine's generator: Mix64 and xoshiro256** as docs/fairness.md section 3 defines them", async () => {
  const { mix64, Rng, dominoName, okeyTileName } = await import("../../src/deal_rng");
  // SplitMix64's finaliser of 0 (its first output from state 0) is a published constant.
  assert.equal(mix64(0n), 0xe220a8397b1dcdafn);
  const r = new Rng(1n);
  const xs = Array.from({ length: 1000 }, () => r.below(6));
  assert.ok(xs.every((x) => x >= 0 && x < 6));
  assert.equal(new Set(xs).size, 6);
  assert.equal(okeyTileName(0), "R1");
  assert.equal(okeyTileName(27), "B1");
  assert.equal(okeyTileName(103), "Y13");
  assert.equal(okeyTileName(105), "F");
  assert.equal(dominoName(0), "0-0");
  assert.equal(dominoName(12), "0-12");
  assert.equal(dominoName(13), "1-1");
  assert.equal(dominoName(90), "12-12");
});
