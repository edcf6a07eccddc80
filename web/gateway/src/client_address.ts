// Whose request this is, behind proxies (issue 34). In production browsers reach the gateway
// through Envoy, so every connection comes from one of its few addresses: keyed on the socket's
// peer, the per-peer connection cap and the guest-token limit would throttle all players together.
// A connection from a trusted proxy (--trusted_proxies) is instead taken as carrying the client
// address the proxies appended to x-forwarded-for: the rightmost entry that is not itself a
// trusted proxy, since every entry left of it was written by the client and may be forged. The
// services read the same header the same way (services/common/client_address.h), with the
// gateway's pods in their own --trusted_proxies: the gateway appends its peer's address to it.
import * as net from "node:net";

export type Family = "ipv4" | "ipv6";

/**
 * An IP literal (brackets allowed) in one canonical spelling: IPv4 dotted, IPv6 as inet_ntop
 * writes it; IPv4-mapped IPv6 becomes IPv4, so that one client has one spelling. Undefined when
 * `text` is no IP literal (a host name, a port, a zone index, an empty entry).
 */
export function parseIp(text: string): { address: string; family: Family } | undefined {
  const literal = text.replace(/^\[/, "").replace(/\]$/, "");
  if (net.isIPv4(literal)) return { address: literal, family: "ipv4" };
  // Node's isIPv6 takes a zone index ("fe80::1%eth0"); the services' inet_pton does not.
  if (literal.includes("%") || !net.isIPv6(literal)) return undefined;
  const canonical = new net.SocketAddress({ address: literal, family: "ipv6" }).address;
  const mapped = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(canonical);
  return mapped ? { address: mapped[1]!, family: "ipv4" } : { address: canonical, family: "ipv6" };
}

/** `address` canonically spelled when it is an IP literal, else as it is ("" for none). */
export function normalizeAddress(address: string | undefined): string {
  if (address === undefined) return "";
  return parseIp(address)?.address ?? address;
}

/**
 * Address ranges in CIDR notation, IPv4 and IPv6 ("10.0.0.0/8, fd00::/8"); a bare address is its
 * own range (/32, /128). As in the services, an IPv4-mapped address is IPv4, ranges included
 * ("::ffff:10.0.0.0/8" is 10.0.0.0/8), and an IPv6 range never holds an IPv4 address.
 */
export class TrustedProxies {
  // One list per family: net.BlockList alone would match IPv4 addresses against IPv6 ranges
  // (::/0 holds every IPv4 address there), which the services do not.
  private readonly v4 = new net.BlockList();
  private readonly v6 = new net.BlockList();
  private readonly ranges: string[] = [];

  /** The comma-separated list `text` (spaces allowed; empty: none); throws naming a bad range. */
  static parse(text: string): TrustedProxies {
    const proxies = new TrustedProxies();
    for (const raw of text.split(",")) {
      const part = raw.trim();
      if (part === "") continue;
      const slash = part.indexOf("/");
      const ip = parseIp(slash < 0 ? part : part.slice(0, slash));
      if (!ip) throw new Error(`--trusted_proxies: "${part}" is not an address or CIDR range (e.g. 10.0.0.0/8, fd00::/8, 192.0.2.7)`);
      const most = ip.family === "ipv4" ? 32 : 128;
      let prefix = most;
      if (slash >= 0) {
        const length = part.slice(slash + 1);
        prefix = /^\d{1,3}$/.test(length) ? Number(length) : -1;
        if (prefix < 0 || prefix > most) throw new Error(`--trusted_proxies: "${part}" needs a prefix length 0-${most}`);
      }
      (ip.family === "ipv4" ? proxies.v4 : proxies.v6).addSubnet(ip.address, prefix, ip.family);
      proxies.ranges.push(`${ip.address}/${prefix}`);
    }
    return proxies;
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  /** Whether `address` (an IP literal; anything else is in no range) lies in a range. */
  contains(address: string | undefined): boolean {
    if (this.empty || address === undefined) return false;
    const ip = parseIp(address);
    if (!ip) return false;
    return (ip.family === "ipv4" ? this.v4 : this.v6).check(ip.address, ip.family);
  }

  /** The ranges canonically spelled, comma-separated ("" for none). */
  toString(): string {
    return this.ranges.join(",");
  }
}

/** The entries of x-forwarded-for values in the order received (the nearest hop last), trimmed. */
export function forwardedForEntries(values: string | readonly string[] | null | undefined): string[] {
  if (values === null || values === undefined) return [];
  const all = typeof values === "string" ? [values] : values;
  return all.flatMap((value) => value.split(",").map((entry) => entry.trim()));
}

/**
 * The client address of a request whose connection comes from `socketAddress` with the
 * x-forwarded-for values `forwardedFor`: the socket's address (canonically spelled) unless that is
 * a trusted proxy; then, walking the entries from the right, the first one not in a trusted range.
 * An entry that is no IP literal ends the walk: it and everything left of it is the client's own
 * writing, as is a list of trusted proxies only; then the socket's address it is.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | readonly string[] | null | undefined,
  proxies: TrustedProxies,
): string {
  const peer = normalizeAddress(socketAddress) || "unknown";
  if (!proxies.contains(peer)) return peer;
  const hops = forwardedForEntries(forwardedFor);
  for (let i = hops.length - 1; i >= 0; i--) {
    const ip = parseIp(hops[i]!);
    if (!ip) break;
    if (!proxies.contains(ip.address)) return ip.address;
  }
  return peer;
}

/** The connection a request came over, as the upstream call needs it. */
export interface Peer {
  /** The socket's remote address, canonically spelled; "" when the socket has none (closed). */
  address: string;
  /** Whether it is a trusted proxy, whose x-forwarded-for is passed on. */
  trusted: boolean;
}

export function peerOf(socketAddress: string | undefined, proxies: TrustedProxies): Peer {
  const address = normalizeAddress(socketAddress);
  return { address, trusted: proxies.contains(address) };
}
