// Tokens: every call carries `authorization: Bearer <JWT>` (docs/api.md section 1). The token
// comes from the deployment's identity provider, or on a local stack from the gateway's guest
// endpoint; a provider callback lets an application refresh it without rebuilding clients.
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/** Something that hands out the current token. */
export interface TokenSource {
  token(): Promise<string>;
  /** Forget a token the server refused, so the next token() fetches a new one. */
  invalidate?(): void;
}

/** A fixed token, a callback (called before every call), or a TokenSource. */
export type TokenProvider = string | (() => string | Promise<string>) | TokenSource;

function asSource(provider: TokenProvider): TokenSource {
  if (typeof provider === "string") return { token: async () => provider };
  if (typeof provider === "function") return { token: async () => provider() };
  return provider;
}

/** The `exp` claim of a JWT in ms since the epoch, or undefined (no claim, or not a JWT). */
export function jwtExpiryMs(jwt: string): number | undefined {
  const payload = jwt.split(".")[1];
  if (!payload) return undefined;
  try {
    const text = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const exp = (JSON.parse(text) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The `sub` claim of a JWT (the player id everywhere in kahve), or undefined. Not verified. */
export function jwtSubject(jwt: string): string | undefined {
  const payload = jwt.split(".")[1];
  if (!payload) return undefined;
  try {
    const text = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const sub = (JSON.parse(text) as { sub?: unknown }).sub;
    return typeof sub === "string" ? sub : undefined;
  } catch {
    return undefined;
  }
}

export interface RefreshingTokenOptions {
  /** Fetch a new token this long before the current one expires (default 60 s). */
  earlyMs?: number;
  now?: () => number;
}

/**
 * A TokenSource over `fetchToken` (your identity provider, or the gateway's POST /auth/guest):
 * keeps the token until shortly before its `exp`, shares one fetch between concurrent calls, and
 * fetches again after the server refused it.
 */
export function refreshingToken(fetchToken: () => Promise<string>, options: RefreshingTokenOptions = {}): TokenSource {
  const earlyMs = options.earlyMs ?? 60_000;
  const now = options.now ?? Date.now;
  let current: string | undefined;
  let pending: Promise<string> | undefined;
  return {
    token() {
      const expiry = current === undefined ? undefined : jwtExpiryMs(current);
      if (current !== undefined && (expiry === undefined || expiry - earlyMs > now())) {
        return Promise.resolve(current);
      }
      pending ??= fetchToken().then(
        (token) => {
          current = token;
          pending = undefined;
          return token;
        },
        (err: unknown) => {
          pending = undefined;
          throw err;
        },
      );
      return pending;
    },
    invalidate() {
      current = undefined;
    },
  };
}

/**
 * Adds the bearer token to every call. A unary call refused with UNAUTHENTICATED is sent once
 * more when the source, told to forget the token, hands out a different one (an expired token
 * refreshed); streams see the refusal and reconnect, fetching the token again.
 */
export function bearerInterceptor(provider: TokenProvider): Interceptor {
  const source = asSource(provider);
  return (next) => async (req) => {
    const token = await source.token();
    req.header.set("authorization", `Bearer ${token}`);
    if (req.stream || !source.invalidate) return next(req);
    try {
      return await next(req);
    } catch (err) {
      if (!(err instanceof ConnectError) || err.code !== Code.Unauthenticated) throw err;
      source.invalidate();
      const fresh = await source.token();
      if (fresh === token) throw err;
      req.header.set("authorization", `Bearer ${fresh}`);
      return next(req);
    }
  };
}
