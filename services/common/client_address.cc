#include "services/common/client_address.h"

#include <arpa/inet.h>

#include <cstring>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "services/common/connection_gate.h"

ABSL_FLAG(kahve::common::TrustedProxies, trusted_proxies, {},
          "Address ranges (CIDR, comma-separated) of the proxies in front of this server (the "
          "gateway's pods): their connections carry many clients, so stream and connection budgets "
          "count each client by the address the proxy forwards in x-forwarded-for. Empty: no "
          "proxy is trusted.");

namespace kahve::common {
namespace {

// An IP literal as 16 bytes (IPv4 in the first 4) and whether it is IPv6; IPv4-mapped IPv6
// becomes IPv4, so that one client has one spelling.
bool ParseIp(absl::string_view text, std::array<uint8_t, 16>* bytes, bool* v6) {
  const std::string literal(absl::StripSuffix(absl::StripPrefix(text, "["), "]"));
  bytes->fill(0);
  in_addr v4{};
  if (inet_pton(AF_INET, literal.c_str(), &v4) == 1) {
    std::memcpy(bytes->data(), &v4, sizeof(v4));
    *v6 = false;
    return true;
  }
  in6_addr address{};
  if (inet_pton(AF_INET6, literal.c_str(), &address) != 1) return false;
  if (IN6_IS_ADDR_V4MAPPED(&address)) {
    std::memcpy(bytes->data(), &address.s6_addr[12], 4);
    *v6 = false;
    return true;
  }
  std::memcpy(bytes->data(), address.s6_addr, 16);
  *v6 = true;
  return true;
}

std::string FormatIp(const std::array<uint8_t, 16>& bytes, bool v6) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), text, sizeof(text));
  return text;
}

bool PrefixMatches(const std::array<uint8_t, 16>& a, const std::array<uint8_t, 16>& b, int bits) {
  const int whole = bits / 8;
  if (std::memcmp(a.data(), b.data(), whole) != 0) return false;
  const int rest = bits % 8;
  if (rest == 0) return true;
  const uint8_t mask = static_cast<uint8_t>(0xff << (8 - rest));
  return (a[whole] & mask) == (b[whole] & mask);
}

}  // namespace

bool TrustedProxies::Parse(absl::string_view text, TrustedProxies* out, std::string* error) {
  TrustedProxies parsed;
  for (absl::string_view part : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    part = absl::StripAsciiWhitespace(part);
    Range range;
    const size_t slash = part.find('/');
    if (!ParseIp(part.substr(0, slash), &range.bytes, &range.v6)) {
      *error = absl::StrCat("trusted_proxies: \"", part, "\" is not an address or CIDR range");
      return false;
    }
    const int most = range.v6 ? 128 : 32;
    range.prefix = most;
    if (slash != absl::string_view::npos) {
      const absl::string_view length = part.substr(slash + 1);
      if (!absl::SimpleAtoi(length, &range.prefix) || range.prefix < 0 || range.prefix > most) {
        *error = absl::StrCat("trusted_proxies: \"", part, "\" needs a prefix length 0-", most);
        return false;
      }
    }
    parsed.ranges_.push_back(range);
  }
  *out = std::move(parsed);
  return true;
}

bool TrustedProxies::Contains(absl::string_view address) const {
  std::array<uint8_t, 16> bytes{};
  bool v6 = false;
  if (!ParseIp(address, &bytes, &v6)) return false;
  for (const Range& range : ranges_) {
    if (range.v6 == v6 && PrefixMatches(range.bytes, bytes, range.prefix)) return true;
  }
  return false;
}

std::string TrustedProxies::ToString() const {
  return absl::StrJoin(ranges_, ",", [](std::string* out, const Range& range) {
    absl::StrAppend(out, FormatIp(range.bytes, range.v6), "/", range.prefix);
  });
}

bool AbslParseFlag(absl::string_view text, TrustedProxies* out, std::string* error) {
  return TrustedProxies::Parse(text, out, error);
}

std::string AbslUnparseFlag(const TrustedProxies& proxies) { return proxies.ToString(); }

std::string PeerIp(absl::string_view peer) {
  absl::string_view rest = peer;
  if (absl::ConsumePrefix(&rest, "ipv4:")) {
    rest = rest.substr(0, rest.rfind(':'));
  } else if (absl::ConsumePrefix(&rest, "ipv6:")) {
    const size_t close = rest.rfind(']');
    if (close != absl::string_view::npos) rest = rest.substr(0, close + 1);
  }
  std::array<uint8_t, 16> bytes{};
  bool v6 = false;
  return ParseIp(rest, &bytes, &v6) ? FormatIp(bytes, v6) : "";
}

std::string ConnectionKey(absl::string_view peer,
                          const std::vector<absl::string_view>& forwarded_for,
                          const TrustedProxies& proxies, absl::string_view identity) {
  if (proxies.empty() || !proxies.Contains(PeerIp(peer))) return std::string(peer);
  // Every value, and every entry of each, from the nearest hop (the right) outwards.
  std::vector<absl::string_view> hops;
  for (absl::string_view value : forwarded_for) {
    for (absl::string_view entry : absl::StrSplit(value, ',')) {
      hops.push_back(absl::StripAsciiWhitespace(entry));
    }
  }
  for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
    std::array<uint8_t, 16> bytes{};
    bool v6 = false;
    // The first entry a trusted proxy did not vouch for: a malformed one is the client's own
    // writing, so the call counts against its identity rather than against a string it chose.
    if (!ParseIp(*hop, &bytes, &v6)) break;
    const std::string address = FormatIp(bytes, v6);
    if (!proxies.Contains(address)) return absl::StrCat("client:", address);
  }
  return absl::StrCat("identity:", identity);
}

std::string ConnectionKey(const grpc::ServerContextBase& context, const TrustedProxies& proxies,
                          absl::string_view identity) {
  const std::string peer = PeerAddress(context);
  if (proxies.empty()) return peer;
  std::vector<absl::string_view> forwarded_for;
  const auto& metadata = context.client_metadata();
  for (auto [at, end] = metadata.equal_range("x-forwarded-for"); at != end; ++at) {
    forwarded_for.emplace_back(at->second.data(), at->second.size());
  }
  return ConnectionKey(peer, forwarded_for, proxies, identity);
}

TrustedProxies TrustedProxiesFromFlags() { return absl::GetFlag(FLAGS_trusted_proxies); }

}  // namespace kahve::common
