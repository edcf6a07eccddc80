// The engine's random numbers, bit for bit as docs/fairness.md section 3 defines them (BigInt,
// modulo 2^64), and the first deal of each ruleset recomputed from a revealed seed (section 4),
// so the page can show that the hand or dice it was dealt follow from the committed seed.
const MASK = (1n << 64n) - 1n;
const u64 = (x: bigint) => x & MASK;
const rotl = (x: bigint, k: bigint) => u64((x << k) | (x >> (64n - k)));

export function mix64(x0: bigint): bigint {
  let x = u64(x0 + 0x9e3779b97f4a7c15n);
  x = u64((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n);
  x = u64((x ^ (x >> 27n)) * 0x94d049bb133111ebn);
  return x ^ (x >> 31n);
}

export function deriveSeed(seed: bigint, index: bigint): bigint {
  return mix64(seed ^ mix64(u64(index + 0x6a09e667f3bcc909n)));
}

export class Rng {
  private readonly s: bigint[];

  constructor(seed: bigint) {
    this.s = [0n, 1n, 2n, 3n].map((i) => mix64(u64(seed + i * 0x9e3779b97f4a7c15n)));
  }

  next(): bigint {
    const s = this.s as [bigint, bigint, bigint, bigint];
    const result = u64(rotl(u64(s[1] * 5n), 7n) * 9n);
    const t = u64(s[1] << 17n);
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45n);
    return result;
  }

  /** A uniform integer in [0, bound) by Lemire's method. */
  below(bound: number): number {
    const b = BigInt(bound);
    let p = (this.next() >> 32n) * b;
    let low = p & 0xffffffffn;
    if (low < b) {
      const threshold = ((1n << 32n) - b) % b;
      while (low < threshold) {
        p = (this.next() >> 32n) * b;
        low = p & 0xffffffffn;
      }
    }
    return Number(p >> 32n);
  }

  rollDie(): number {
    return this.below(6) + 1;
  }

  shuffle<T>(items: T[]): void {
    for (let i = items.length; i >= 2; i--) {
      const j = this.below(i);
      [items[i - 1], items[j]] = [items[j]!, items[i - 1]!];
    }
  }
}

const OKEY_COLOURS = "RBKY";

/** An okey tile's name from its id (docs/fairness.md: face * 2 + copy; 104 and 105 fake okeys). */
export function okeyTileName(id: number): string {
  if (id >= 104) return "F";
  const face = id >> 1;
  return `${OKEY_COLOURS[Math.floor(face / 13)]}${(face % 13) + 1}`;
}

/** A domino's name from its id (0-0, 0-1, ..., 0-12, 1-1, ..., 12-12). */
export function dominoName(id: number): string {
  let k = id;
  for (let a = 0; a <= 12; a++) {
    const n = 13 - a;
    if (k < n) return `${a}-${a + k}`;
    k -= n;
  }
  return "?";
}

/** The seat's hand of the first deal of an okey ruleset: `size` tiles for the starter, one fewer for the others. */
export function okeyFirstHand(seed: bigint, seats: number, starter: number, size: number, seat: number): string[] {
  const order = Array.from({ length: 106 }, (_, i) => i);
  new Rng(deriveSeed(seed, 0n)).shuffle(order);
  let at = 0;
  for (let k = 0; k < seats; k++) {
    const s = (starter + k) % seats;
    const n = k === 0 ? size : size - 1;
    if (s === seat) return order.slice(at, at + n).map(okeyTileName);
    at += n;
  }
  return [];
}

/** Round 1 of Liar's dice: the seat's dice, sorted, after the first bidder's lot. */
export function liarsDiceFirstRoll(seed: bigint, diceCounts: readonly number[], seat: number): number[] {
  const rng = new Rng(seed);
  rng.below(diceCounts.length);
  let mine: number[] = [];
  diceCounts.forEach((count, s) => {
    const dice = Array.from({ length: count }, () => rng.rollDie());
    if (s === seat) mine = dice.sort((a, b) => a - b);
  });
  return mine;
}

/** Round 1 of Mexican Train: the seat's hand after the engine search, the engine (12-12) placed. */
export function mexicanFirstHand(seed: bigint, seats: number, seat: number): string[] {
  const order = Array.from({ length: 91 }, (_, i) => i);
  new Rng(deriveSeed(seed, 0n)).shuffle(order);
  const size = seats <= 4 ? 15 : seats <= 6 ? 12 : seats <= 8 ? 10 : 8;
  const hands = Array.from({ length: seats }, (_, s) => order.slice(s * size, (s + 1) * size));
  const boneyard = order.slice(seats * size);
  const engine = 90;
  const held = () => hands.some((h) => h.includes(engine));
  while (!held() && boneyard.length > 0) {
    for (let s = 0; s < seats && boneyard.length > 0; s++) hands[s]!.push(boneyard.pop()!);
  }
  return hands[seat]!.filter((t) => t !== engine).map(dominoName);
}
