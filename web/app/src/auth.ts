// The player's token: kept in this browser's storage, from the local stack's guest sign-in or
// pasted by the player. The app reads only the JWT's subject (the player id) from it; the
// services check it.
const KEY = "kahve.token";

export function getToken(): string {
  return localStorage.getItem(KEY) ?? "";
}

export function setToken(token: string): void {
  if (token) localStorage.setItem(KEY, token.trim());
  else localStorage.removeItem(KEY);
}

/** The token's `sub`, or "" when it is not a readable JWT. */
export function playerId(token = getToken()): string {
  const part = token.split(".")[1];
  if (!part) return "";
  try {
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "="));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === "string" ? sub : "";
  } catch {
    return "";
  }
}

/** Asks the gateway for a guest token (offered on the local stack only); null when it has none. */
export async function guestToken(): Promise<string | null> {
  try {
    const r = await fetch("/auth/guest", { method: "POST" });
    if (!r.ok) return null;
    const body = (await r.json()) as { token?: unknown };
    return typeof body.token === "string" ? body.token : null;
  } catch {
    return null;
  }
}
