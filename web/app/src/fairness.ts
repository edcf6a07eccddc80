// The fair-deal check, done in the browser with WebCrypto (docs/fairness.md): the revealed seed
// material must be laid out as section 2 says (label, source, salt, seed, preset hash), agree
// with the reveal's readable parts, and hash (SHA-256) to the commitment this page saw in its
// first snapshot. A replay, when given, must carry that same commitment and reveal.
import { DealSource, type DealCommitment, type DealReveal, type Replay } from "./api";

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

/** Checks a reveal against the commitment seen at the start, and optionally a replay. */
export async function checkDeal(commitment: DealCommitment | null, reveal: DealReveal | null, replay?: Replay): Promise<FairCheck> {
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
