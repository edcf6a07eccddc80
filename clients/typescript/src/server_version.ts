// The kahve version a server runs, as it reports it on every call (docs/api.md section 9): the
// `kahve-server-version` metadata entry, in the response headers, or in the trailers of a call
// refused before it sent any. Clients log it and compare it with CHANGELOG.md's entries.
import { ConnectError, type CallOptions } from "@connectrpc/connect";

export const kServerVersionKey = "kahve-server-version";

/**
 * Runs `call` with header and trailer hooks and answers the version the server named ("" when it
 * named none). A refusal still answers: its version comes from the error's metadata.
 */
export async function serverVersion(call: (options: CallOptions) => Promise<unknown>): Promise<string> {
  let version = "";
  const keep = (headers: Headers) => {
    version = version || (headers.get(kServerVersionKey) ?? "");
  };
  try {
    await call({ onHeader: keep, onTrailer: keep });
  } catch (err) {
    keep(ConnectError.from(err).metadata);
  }
  return version;
}
