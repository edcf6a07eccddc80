// Guest tokens for a local stack (--guest_tokens, off by default): POST /auth/guest answers a new
// player identity's JWT, signed HS256 with the services' secret, as `kahve token` signs them. Every
// token is a fresh identity, and the services' budgets are per identity, so this is for local use
// only; even so each client address gets --guest_tokens_per_minute. In production tokens come from
// the deployment's identity provider and this stays off.
import { createHmac, randomBytes } from "node:crypto";

export interface GuestSettings {
  secret: string;
  ttlSeconds: number;
  issuer: string;
  audience: string;
  perMinute: number;
}

export interface GuestToken {
  token: string;
  player_id: string;
  expires_at: string;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");
const kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

/** HS256 JWT of `claims`. */
export function signHs256(claims: Record<string, unknown>, secret: string): string {
  const head = `${b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac("sha256", secret).update(head).digest("base64url")}`;
}

export class GuestTokens {
  // Per client address: tokens left and when last refilled. Bounded: full buckets are dropped.
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly settings: GuestSettings, private readonly now: () => number = Date.now) {
    if (settings.secret.length < 16) throw new Error("--guest_tokens needs --jwt_hs256_secret (the services' secret)");
  }

  /** Takes one from `address`'s allowance; false when it has none left. */
  allow(address: string): boolean {
    const now = this.now();
    const rate = this.settings.perMinute / 60_000;
    const bucket = this.buckets.get(address) ?? { tokens: this.settings.perMinute, at: now };
    bucket.tokens = Math.min(this.settings.perMinute, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    if (this.buckets.size > 10_000) {
      for (const [k, b] of this.buckets) {
        if (b.tokens + (now - b.at) * rate >= this.settings.perMinute) this.buckets.delete(k);
      }
    }
    if (bucket.tokens < 1) {
      this.buckets.set(address, bucket);
      return false;
    }
    bucket.tokens -= 1;
    this.buckets.set(address, bucket);
    return true;
  }

  issue(): GuestToken {
    const bytes = randomBytes(10);
    let id = "guest-";
    for (const b of bytes) id += kAlphabet[b % kAlphabet.length];
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + this.settings.ttlSeconds;
    const claims: Record<string, unknown> = { sub: id, role: "player", iat, exp };
    if (this.settings.issuer) claims["iss"] = this.settings.issuer;
    if (this.settings.audience) claims["aud"] = this.settings.audience;
    return { token: signHs256(claims, this.settings.secret), player_id: id, expires_at: new Date(exp * 1000).toISOString() };
  }
}
