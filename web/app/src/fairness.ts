// The fair-deal check, done in the browser with WebCrypto (docs/fairness.md): the revealed seed
// material must be laid out as section 2 says (label, source, salt, seed, preset hash), agree
// with the reveal's readable parts, and hash (SHA-256) to the commitment this page saw in its
// first snapshot. A replay, when given, must carry that same commitment and reveal.
import { DealSource, type DealCommitment, type DealReveal, type Replay, type View } from "./api";
import { liarsDiceFirstRoll, mexicanFirstHand, okeyFirstHand } from "./deal_rng";

export const LABEL = "kahve.deal-commitment.v1";
export const MATERIAL_BYTES = 97;

export interface CheckLine {
  ok: boolean;
  text: string;
}

export interface FairCheck {
  ok: boolean;
  lines: CheckLine[];
}

export function hexToBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new Uint8Array(bytes));
  return bytesToHex(new Uint8Array(digest));
}

/** The 97 bytes of seed material version 1, as a table builds them. */
export function buildMaterial(source: number, salt: Uint8Array, seed: bigint, presetSha256: Uint8Array | null): Uint8Array {
  const out = new Uint8Array(MATERIAL_BYTES);
  out.set(new TextEncoder().encode(LABEL), 0);
  out[24] = source;
  out.set(salt, 25);
  new DataView(out.buffer).setBigUint64(57, seed, false);
  if (presetSha256) out.set(presetSha256, 65);
  return out;
}

/**
 * Recomputes, from the revealed seed, what this seat was dealt first (docs/fairness.md section 4)
 * and compares it with the view the page was shown then; null when the page saw no first deal
 * (it joined later) or the deal was a preset.
 */
export function checkFirstDeal(first: View | null, seed: bigint): CheckLine | null {
  if (!first || first.seat < 0) return null;
  const same = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
    a.length === b.length && [...a].map(String).sort().join() === [...b].map(String).sort().join();
  const r = first.ruleset;
  let expected: (string | number)[] | null = null;
  let shown: readonly (string | number)[] = [];
  let what = "";
  if (r.case === "liarsDice" && r.value.round === 1) {
    expected = liarsDiceFirstRoll(seed, r.value.diceCounts, first.seat);
    shown = r.value.myDice;
    what = "dice of round 1";
  } else if (first.moveNumber === 0n && r.case === "okey") {
    expected = okeyFirstHand(seed, first.numSeats, r.value.starter, 15, first.seat);
    shown = r.value.myHand;
    what = "hand of the first deal";
  } else if (first.moveNumber === 0n && (r.case === "okey51" || r.case === "okey101")) {
    expected = okeyFirstHand(seed, first.numSeats, r.value.starter, r.case === "okey101" ? 22 : 15, first.seat);
    shown = r.value.myHand;
    what = "hand of the first deal";
  } else if (r.case === "mexicanTrain" && r.value.round === 1 && (r.value.trains[first.seat]?.tiles.length ?? 1) === 0 && !r.value.trains[first.seat]?.marked) {
    // Before its first turn a seat's train is empty and unmarked (a first turn lays on it or
    // passes and marks it), and only the seat's own turns change its hand.
    expected = mexicanFirstHand(seed, first.numSeats, first.seat);
    shown = r.value.myHand;
    what = "hand of round 1";
  }
  if (!expected) return null;
  const ok = same(expected, shown);
  return { ok, text: ok ? `Your ${what} (${shown.join(" ")}) is what the revealed seed deals.`
    : `Your ${what} was ${shown.join(" ")}, but the revealed seed deals ${expected.join(" ")}.` };
}

/** Checks a reveal against the commitment seen at the start, and optionally a replay. */
export async function checkDeal(commitment: DealCommitment | null, reveal: DealReveal | null, replay?: Replay, first?: View | null): Promise<FairCheck> {
  const lines: CheckLine[] = [];
  const say = (ok: boolean, text: string) => lines.push({ ok, text });
  if (!commitment) {
    say(false, "No commitment was shown at the start of this table.");
    return { ok: false, lines };
  }
  if (!reveal) {
    say(false, "The deal has not been revealed.");
    return { ok: false, lines };
  }
  say(commitment.version === 1, `Commitment version ${commitment.version} (this check knows version 1).`);
  const material = hexToBytes(reveal.material);
  if (!material || material.length !== MATERIAL_BYTES) {
    say(false, `The revealed material is not ${MATERIAL_BYTES} bytes of hex.`);
    return { ok: false, lines };
  }
  const label = new TextDecoder().decode(material.slice(0, 24));
  say(label === LABEL, label === LABEL ? "The material starts with the commitment label." : `The label is "${label}", not "${LABEL}".`);
  say(material[24] === commitment.source,
    `Who chose the deal: ${sourceName(material[24]!)}${material[24] === commitment.source ? "" : `, but the commitment says ${sourceName(commitment.source)}`}.`);
  const saltOk = bytesToHex(material.slice(25, 57)) === reveal.salt;
  say(saltOk, saltOk ? "The salt in the material is the revealed salt." : "The salt in the material is not the revealed salt.");
  const seed = new DataView(material.buffer, material.byteOffset).getBigUint64(57, false);
  say(seed === reveal.seed, seed === reveal.seed ? `The seed in the material is the revealed seed, ${seed}.` : `The material's seed ${seed} is not the revealed ${reveal.seed}.`);
  const preset = bytesToHex(material.slice(65, 97));
  const presetOk = commitment.source === DealSource.ADMIN_PRESET ? preset === reveal.presetSha256 : /^0+$/.test(preset) && reveal.presetSha256 === "";
  say(presetOk, presetOk ? "The preset hash agrees with who chose the deal." : "The preset hash does not agree with who chose the deal.");
  const digest = await sha256Hex(material);
  const hashOk = digest === commitment.sha256;
  say(hashOk, hashOk ? `SHA-256 of the material is the commitment ${short(commitment.sha256)}.`
    : `SHA-256 of the material is ${short(digest)}, but the commitment shown at the start was ${short(commitment.sha256)}.`);
  if (first && commitment.source !== DealSource.ADMIN_PRESET) {
    const dealt = checkFirstDeal(first, reveal.seed);
    if (dealt) lines.push(dealt);
  }
  if (replay) {
    const same = replay.commitment?.sha256 === commitment.sha256;
    say(same, same ? "The replay carries the commitment shown at the start." : "The replay's commitment is not the one shown at the start.");
    const rr = replay.reveal;
    const revealSame = rr?.material === reveal.material && rr?.salt === reveal.salt && rr?.seed === reveal.seed;
    say(revealSame, revealSame ? "The replay reveals the same seed material." : "The replay reveals other seed material.");
    const dealSeed = replay.deal?.seed === reveal.seed;
    say(dealSeed, dealSeed ? "The replay's deal uses the revealed seed." : "The replay's deal seed is not the revealed seed.");
  }
  return { ok: lines.every((l) => l.ok), lines };
}

function sourceName(source: number): string {
  switch (source) {
    case DealSource.SERVER_RANDOM: return "the server drew the seed at random";
    case DealSource.ADMIN_SEED: return "an admin set the seed";
    case DealSource.ADMIN_PRESET: return "an admin set a preset deal";
    case DealSource.PLAYER_SEED: return "the player chose the seed";
    default: return `unknown (${source})`;
  }
}

function short(hex: string): string {
  return `${hex.slice(0, 12)}…${hex.slice(-6)}`;
}
