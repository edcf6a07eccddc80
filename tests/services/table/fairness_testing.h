#ifndef KAHVE_TESTS_SERVICES_TABLE_FAIRNESS_TESTING_H_
#define KAHVE_TESTS_SERVICES_TABLE_FAIRNESS_TESTING_H_

// Looking for a deal's secrets (its seed and the commitment's salt) in what a participant received,
// in every encoding they could travel in.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/message.h"
#include "google/protobuf/util/json_util.h"

namespace kahve::table::testing {

// Each form of the seed and of the salt (raw salt: 32 bytes) worth looking for, with its name.
// The seed should be a random 64-bit value: a small one's bytes would turn up by chance.
inline std::vector<std::pair<std::string, std::string>> SecretForms(uint64_t seed,
                                                                    const std::string& salt) {
  std::string big_endian;
  std::string little_endian;
  for (int byte = 0; byte < 8; ++byte) {
    big_endian.push_back(static_cast<char>(seed >> (56 - 8 * byte)));
    little_endian.push_back(static_cast<char>(seed >> (8 * byte)));
  }
  std::string varint;
  for (uint64_t rest = seed;; rest >>= 7) {
    varint.push_back(static_cast<char>((rest & 0x7f) | (rest >= 0x80 ? 0x80 : 0)));
    if (rest < 0x80) break;
  }
  const std::string salt_hex = absl::BytesToHexString(salt);
  return {
      {"the seed, 8 bytes big-endian", big_endian},
      {"the seed, 8 bytes little-endian", little_endian},
      {"the seed as a protobuf varint", varint},
      {"the seed in decimal", absl::StrCat(seed)},
      {"the seed in hex", absl::BytesToHexString(big_endian)},
      {"the salt's first 8 bytes", salt.substr(0, 8)},
      {"the salt's first 8 bytes in hex", salt_hex.substr(0, 16)},
      {"the salt's first 8 bytes in upper-case hex", absl::AsciiStrToUpper(salt_hex.substr(0, 16))},
      {"the salt in base64", absl::Base64Escape(salt).substr(0, 12)}};
}

// The name of the first secret form found in `bytes`, or "".
inline std::string FindSecret(const std::string& bytes, uint64_t seed, const std::string& salt) {
  for (const auto& [name, form] : SecretForms(seed, salt)) {
    if (bytes.find(form) != std::string::npos) return name;
  }
  return "";
}

// As FindSecret, in a message's binary serialization and in its JSON.
inline std::string FindSecretIn(const google::protobuf::Message& message, uint64_t seed,
                                const std::string& salt) {
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(message, &json);
  std::string found = FindSecret(message.SerializeAsString(), seed, salt);
  if (found.empty()) found = FindSecret(json, seed, salt);
  return found;
}

}  // namespace kahve::table::testing

#endif  // KAHVE_TESTS_SERVICES_TABLE_FAIRNESS_TESTING_H_
