// Request ids for retry-safe calls (Play, Enqueue, Resign, CreatePracticeTable): at most 128
// characters of [A-Za-z0-9._:-] (docs/api.md section 4), unique per decision, never secret.

const kAlphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A new request id: `prefix` (when given) and 22 random characters, e.g. "ana-play:3kW9...". */
export function newRequestId(prefix = ""): string {
  const bytes = new Uint8Array(22);
  // WebCrypto in browsers and Node.js 19+; Node.js 18 has it only under node:crypto, and a request
  // id needs uniqueness, not secrecy, so Math.random is an acceptable fallback there.
  const cryptoApi = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
  if (cryptoApi?.getRandomValues) {
    cryptoApi.getRandomValues(bytes);
  } else {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  let id = "";
  for (const b of bytes) id += kAlphabet[b % kAlphabet.length];
  const head = prefix.replace(/[^A-Za-z0-9._:-]/g, "-").slice(0, 100);
  return head ? `${head}:${id}` : id;
}
