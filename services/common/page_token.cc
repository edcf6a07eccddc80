#include "services/common/page_token.h"

#include <openssl/crypto.h>

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/sha256.h"

namespace kahve::common {
namespace {

constexpr size_t kMacBytes = 16;  // a truncated HMAC-SHA256: 128 bits is ample for tokens

absl::Status InvalidToken() { return absl::InvalidArgumentError("invalid page token"); }

}  // namespace

PageTokenSigner::PageTokenSigner(std::string key) : key_(std::move(key)) {}

std::string PageTokenSigner::Mac(std::string_view scope, std::string_view payload) const {
  // The scope's length first, so (scope, payload) pairs cannot be re-split.
  const std::string message =
      absl::StrCat(scope.size(), ":", std::string(scope), std::string(payload));
  return HmacSha256(key_, message).substr(0, kMacBytes);
}

std::string PageTokenSigner::Sign(std::string_view scope,
                                  const google::protobuf::ListValue& cursor) const {
  std::string payload;
  cursor.SerializeToString(&payload);
  return absl::WebSafeBase64Escape(absl::StrCat(Mac(scope, payload), payload));
}

absl::StatusOr<google::protobuf::ListValue> PageTokenSigner::Verify(std::string_view scope,
                                                                    std::string_view token) const {
  std::string raw;
  if (!absl::WebSafeBase64Unescape(std::string(token), &raw) || raw.size() < kMacBytes) {
    return InvalidToken();
  }
  const std::string payload = raw.substr(kMacBytes);
  const std::string expected = Mac(scope, payload);
  if (CRYPTO_memcmp(expected.data(), raw.data(), kMacBytes) != 0) return InvalidToken();
  google::protobuf::ListValue cursor;
  if (!cursor.ParseFromString(payload)) return InvalidToken();
  return cursor;
}

}  // namespace kahve::common
