#include "services/common/sha256.h"

#include <openssl/evp.h>

#include "absl/strings/escaping.h"

namespace kahve::common {

std::string Sha256(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string Sha256Hex(std::string_view data) { return absl::BytesToHexString(Sha256(data)); }

}  // namespace kahve::common
