// Pure helpers for laying okey melds: reading a group of tiles as a run or a set, with the okey's
// stand-ins that the API asks for (a run names what each okey stands for; a set may leave it
// open). RULES.md "Okey tiles": runs of one colour, 1 low (1-2-3) or high (12-13-1), never
// wrapping; sets of 3 or 4 numbers of different colours.
import { COLOURS, parseTile, playsAs, tileName, type Face } from "./okey_tiles";

export interface PlacedTile {
  tile: string;
  standsFor: string;
}

export interface MeldReading {
  kind: "run" | "set";
  tiles: PlacedTile[];
  /** Sum of the numbers the tiles stand for (a 1 is 1 wherever it stands). */
  value: number;
}

/** Reads a group as a run or a set, or null when it is neither. Prefers a run. */
export function readMeld(tiles: readonly string[], okey: string): MeldReading | null {
  return readRun(tiles, okey) ?? readSet(tiles, okey);
}

export function readRun(tiles: readonly string[], okey: string): MeldReading | null {
  if (tiles.length < 3 || tiles.length > 13) return null;
  const wild = tiles.filter((t) => t === okey);
  const real = tiles.filter((t) => t !== okey).map((t) => ({ tile: t, face: parseTile(playsAs(t, okey)) }));
  if (real.some((r) => r.face === null)) return null;
  const faces = real as { tile: string; face: Face }[];
  if (faces.length === 0) return null;
  const colour = faces[0]!.face.colour;
  if (faces.some((r) => r.face.colour !== colour)) return null;
  // Try a low 1 first, then a high 1 (position 14).
  for (const highOne of [false, true]) {
    const pos = faces.map((r) => ({ ...r, p: highOne && r.face.number === 1 ? 14 : r.face.number }));
    pos.sort((a, b) => a.p - b.p);
    if (new Set(pos.map((r) => r.p)).size !== pos.length) continue;
    const lo = pos[0]!.p;
    const hi = pos[pos.length - 1]!.p;
    const gaps = hi - lo + 1 - pos.length;
    if (gaps > wild.length) continue;
    let extra = wild.length - gaps;
    // Spare okeys extend the run upwards, then downwards.
    let top = hi;
    let bottom = lo;
    while (extra > 0 && top < (highOne ? 14 : 13)) { top++; extra--; }
    while (extra > 0 && bottom > (highOne ? 2 : 1)) { bottom--; extra--; }
    if (extra > 0) continue;
    if (top > 13 && bottom <= 1) continue;
    const out: PlacedTile[] = [];
    const spare = [...wild];
    let value = 0;
    for (let p = bottom; p <= top; p++) {
      const number = p === 14 ? 1 : p;
      const hit = pos.find((r) => r.p === p);
      value += number;
      if (hit) out.push({ tile: hit.tile, standsFor: "" });
      else out.push({ tile: spare.pop()!, standsFor: tileName({ colour, number }) });
    }
    return { kind: "run", tiles: out, value };
  }
  return null;
}

export function readSet(tiles: readonly string[], okey: string): MeldReading | null {
  if (tiles.length < 3 || tiles.length > 4) return null;
  const real = tiles.filter((t) => t !== okey).map((t) => parseTile(playsAs(t, okey)));
  if (real.some((f) => f === null)) return null;
  const faces = real as Face[];
  if (faces.length === 0) return null;
  const number = faces[0]!.number;
  if (faces.some((f) => f.number !== number)) return null;
  if (new Set(faces.map((f) => f.colour)).size !== faces.length) return null;
  const missing = COLOURS.filter((c) => !faces.some((f) => f.colour === c));
  if (tiles.length - faces.length > missing.length) return null;
  return {
    kind: "set",
    tiles: tiles.map((t) => ({ tile: t, standsFor: "" })),
    value: number * tiles.length,
  };
}

/** Two tiles pair when identical, or when either is an okey (RULES.md "Pair"). */
export function isPair(a: string, b: string, okey: string): boolean {
  return a === b || a === okey || b === okey;
}

export function describeGroup(tiles: readonly PlacedTile[]): string {
  return tiles.map((t) => (t.standsFor ? `${t.tile}(=${t.standsFor})` : t.tile)).join(" ");
}
