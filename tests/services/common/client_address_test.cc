// Whom connection-keyed budgets count a call against behind a proxy (client_address.h).
#include "services/common/client_address.h"

#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "gtest/gtest.h"

namespace kahve::common {
namespace {

TrustedProxies Proxies(absl::string_view text) {
  TrustedProxies proxies;
  std::string error;
  EXPECT_TRUE(TrustedProxies::Parse(text, &proxies, &error)) << error;
  return proxies;
}

TEST(TrustedProxiesTest, ParsesRangesOfBothFamiliesAndMatchesByPrefix) {
  const TrustedProxies proxies = Proxies(" 10.0.0.0/8, fd00::/8 ,192.168.1.7");
  EXPECT_EQ(proxies.ToString(), "10.0.0.0/8,fd00::/8,192.168.1.7/32");
  EXPECT_TRUE(proxies.Contains("10.255.3.4"));
  EXPECT_FALSE(proxies.Contains("11.0.0.1"));
  EXPECT_TRUE(proxies.Contains("fd12:3456::1"));
  EXPECT_FALSE(proxies.Contains("fe80::1"));
  EXPECT_TRUE(proxies.Contains("192.168.1.7"));
  EXPECT_FALSE(proxies.Contains("192.168.1.8"));
  // IPv4-mapped IPv6 is the IPv4 client; a family never matches the other's range.
  EXPECT_TRUE(proxies.Contains("::ffff:10.1.2.3"));
  EXPECT_FALSE(Proxies("::/0").Contains("10.1.2.3"));
  EXPECT_TRUE(Proxies("0.0.0.0/0").Contains("203.0.113.9"));
  // A prefix that is not on a byte boundary.
  const TrustedProxies narrow = Proxies("172.16.0.0/12");
  EXPECT_TRUE(narrow.Contains("172.31.255.255"));
  EXPECT_FALSE(narrow.Contains("172.32.0.0"));
  EXPECT_FALSE(narrow.Contains("not an address"));
  EXPECT_TRUE(Proxies("").empty());
}

TEST(TrustedProxiesTest, RefusesMalformedRangesNamingThem) {
  for (const char* bad : {"10.0.0.0/33", "fd00::/129", "10.0.0/8", "10.0.0.0/", "10.0.0.0/-1",
                          "example.com/8", "10.0.0.0/8x", "10.0.0.0/8,,/8"}) {
    TrustedProxies proxies = Proxies("127.0.0.0/8");
    std::string error;
    EXPECT_FALSE(TrustedProxies::Parse(bad, &proxies, &error)) << bad;
    EXPECT_NE(error.find("trusted_proxies: \""), std::string::npos) << error;
    // A refused value changes nothing.
    EXPECT_EQ(proxies.ToString(), "127.0.0.0/8");
  }
}

TEST(TrustedProxiesTest, IsAFlagCheckedWhenParsed) {
  TrustedProxies proxies;
  std::string error;
  EXPECT_TRUE(AbslParseFlag("10.0.0.0/8", &proxies, &error));
  EXPECT_EQ(AbslUnparseFlag(proxies), "10.0.0.0/8");
  EXPECT_FALSE(AbslParseFlag("10.0.0.0/99", &proxies, &error));
}

TEST(PeerIpTest, ReadsGrpcPeerStrings) {
  EXPECT_EQ(PeerIp("ipv4:10.1.2.3:5678"), "10.1.2.3");
  EXPECT_EQ(PeerIp("ipv6:[fd00::1]:5678"), "fd00::1");
  EXPECT_EQ(PeerIp("ipv6:[::ffff:10.1.2.3]:5678"), "10.1.2.3");
  EXPECT_EQ(PeerIp("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(PeerIp("unix:/tmp/socket"), "");
  EXPECT_EQ(PeerIp("fd:12"), "");
}

TEST(ConnectionKeyTest, ADirectClientIsItsConnection) {
  const TrustedProxies proxies = Proxies("10.0.0.0/8");
  // Whatever it claims: an untrusted peer's x-forwarded-for is ignored.
  EXPECT_EQ(ConnectionKey("ipv4:203.0.113.9:4000", {"198.51.100.1"}, proxies, "ana"),
            "ipv4:203.0.113.9:4000");
  EXPECT_EQ(ConnectionKey("ipv4:10.0.0.5:4000", {"198.51.100.1"}, TrustedProxies(), "ana"),
            "ipv4:10.0.0.5:4000");
}

TEST(ConnectionKeyTest, BehindTrustedProxiesTheRightmostUntrustedAddressCounts) {
  const TrustedProxies proxies = Proxies("10.0.0.0/8");
  const std::string proxy = "ipv4:10.0.0.5:4000";
  EXPECT_EQ(ConnectionKey(proxy, {"198.51.100.1"}, proxies, "ana"), "client:198.51.100.1");
  // Two proxies (Envoy, then kahve-web): the client is the address before both.
  EXPECT_EQ(ConnectionKey(proxy, {"198.51.100.1, 10.0.0.7"}, proxies, "ana"),
            "client:198.51.100.1");
  // Entries left of the one a trusted proxy wrote are the client's own writing.
  EXPECT_EQ(ConnectionKey(proxy, {"1.2.3.4, 198.51.100.1"}, proxies, "ana"), "client:198.51.100.1");
  EXPECT_EQ(ConnectionKey(proxy, {"garbage", "198.51.100.1"}, proxies, "ana"),
            "client:198.51.100.1");
  // One spelling per client.
  EXPECT_EQ(ConnectionKey(proxy, {"2001:DB8:0::1"}, proxies, "ana"), "client:2001:db8::1");
  EXPECT_EQ(ConnectionKey(proxy, {"[2001:db8::1]"}, proxies, "ana"), "client:2001:db8::1");
}

TEST(ConnectionKeyTest, BehindTrustedProxiesWithoutAUsableAddressTheIdentityCounts) {
  const TrustedProxies proxies = Proxies("10.0.0.0/8");
  const std::string proxy = "ipv4:10.0.0.5:4000";
  EXPECT_EQ(ConnectionKey(proxy, {}, proxies, "ana"), "identity:ana");
  EXPECT_EQ(ConnectionKey(proxy, {"10.0.0.9"}, proxies, "ana"), "identity:ana");
  // A client's string never becomes a key: the nearest untrusted entry is malformed.
  EXPECT_EQ(ConnectionKey(proxy, {"198.51.100.1, <script>"}, proxies, "ana"), "identity:ana");
  EXPECT_EQ(ConnectionKey(proxy, {std::string(5000, 'x')}, proxies, "ben"), "identity:ben");
}

}  // namespace
}  // namespace kahve::common
