#include "services/table/seat_tokens.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/sha256.h"

namespace kahve::table {

std::string NewSeatToken() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) return "";
  return absl::WebSafeBase64Escape(
      std::string(reinterpret_cast<const char*>(bytes), sizeof(bytes)));
}

std::string DerivedSeatToken(std::string_view key, std::string_view table_id, int seat) {
  return absl::WebSafeBase64Escape(
      common::HmacSha256(key, absl::StrCat("kahve-seat-token/", std::string(table_id), "/", seat)));
}

std::string SeatTokenSha256(std::string_view token) { return common::Sha256Hex(token); }

bool SameDigest(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace kahve::table
