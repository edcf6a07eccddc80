#ifndef KAHVE_SERVICES_COMMON_SHA256_H_
#define KAHVE_SERVICES_COMMON_SHA256_H_

// SHA-256 and HMAC-SHA256 (OpenSSL), the one place kahve computes them.

#include <string>
#include <string_view>

namespace kahve::common {

// SHA-256 of `data`: 32 raw bytes.
std::string Sha256(std::string_view data);
// The same as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);
// HMAC-SHA256 of `data` under `key`: 32 raw bytes (empty only if OpenSSL fails, which then
// matches no signature, so verifiers fail closed).
std::string HmacSha256(std::string_view key, std::string_view data);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_SHA256_H_
