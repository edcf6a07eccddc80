#ifndef KAHVE_SERVICES_COMMON_SHA256_H_
#define KAHVE_SERVICES_COMMON_SHA256_H_

#include <string>
#include <string_view>

namespace kahve::common {

// SHA-256 of `data`: 32 raw bytes.
std::string Sha256(std::string_view data);
// The same as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_SHA256_H_
