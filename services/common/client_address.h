#ifndef KAHVE_SERVICES_COMMON_CLIENT_ADDRESS_H_
#define KAHVE_SERVICES_COMMON_CLIENT_ADDRESS_H_

// Whom a connection-keyed budget counts a call against. Behind a proxy (Envoy Gateway, kahve-web)
// every player's calls arrive over the proxy's few connections, so a budget keyed on the
// connection would throttle all of them together. A connection from a trusted proxy
// (--trusted_proxies) is instead keyed on the client address the proxies forwarded in
// x-forwarded-for: the rightmost entry that is not itself a trusted proxy, since every entry left
// of it was written by the client and may be forged. Without a usable address, the call counts
// against its identity.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"

namespace kahve::common {

// A set of address ranges in CIDR notation ("10.0.0.0/8,fd00::/8"), IPv4 and IPv6.
class TrustedProxies {
 public:
  // Parses a comma-separated list (spaces allowed, empty: none); false with `error` set on a
  // malformed range.
  static bool Parse(absl::string_view text, TrustedProxies* out, std::string* error);
  // Whether `address` (an IP literal; IPv4-mapped IPv6 counts as IPv4) lies in a range.
  bool Contains(absl::string_view address) const;
  bool empty() const { return ranges_.empty(); }
  // The ranges as they were given, canonically spelled, comma-separated.
  std::string ToString() const;

 private:
  struct Range {
    bool v6 = false;
    std::array<uint8_t, 16> bytes{};
    int prefix = 0;
  };
  std::vector<Range> ranges_;
};

// absl flag support: --trusted_proxies=10.0.0.0/8 is checked when flags are parsed.
bool AbslParseFlag(absl::string_view text, TrustedProxies* out, std::string* error);
std::string AbslUnparseFlag(const TrustedProxies& proxies);

// The IP of a peer string ("ipv4:10.1.2.3:5678", "ipv6:[::1]:5678", or a bare literal), or ""
// when it is none of these.
std::string PeerIp(absl::string_view peer);

// The key of a call from `peer` (PeerAddress) carrying the x-forwarded-for values `forwarded_for`
// (in the order received) by `identity`: the peer itself unless it is a trusted proxy; then
// "client:<address>" of the forwarded client, or "identity:<identity>" when none is usable.
std::string ConnectionKey(absl::string_view peer,
                          const std::vector<absl::string_view>& forwarded_for,
                          const TrustedProxies& proxies, absl::string_view identity);

// The same for a call's context.
std::string ConnectionKey(const grpc::ServerContextBase& context, const TrustedProxies& proxies,
                          absl::string_view identity);

// --trusted_proxies.
TrustedProxies TrustedProxiesFromFlags();

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_CLIENT_ADDRESS_H_
