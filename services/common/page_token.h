#ifndef KAHVE_SERVICES_COMMON_PAGE_TOKEN_H_
#define KAHVE_SERVICES_COMMON_PAGE_TOKEN_H_

// Opaque page tokens: a cursor (a list of values) bound to the query it continues and signed with
// HMAC-SHA256, so a forged, altered or foreign token is refused rather than trusted.

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "google/protobuf/struct.pb.h"

namespace kahve::common {

class PageTokenSigner {
 public:
  // `key` signs and checks tokens; replicas must share it to honour each other's tokens.
  explicit PageTokenSigner(std::string key);

  // A token for `cursor`, valid only for queries with the same `scope` (a fingerprint of the
  // query's filters).
  std::string Sign(std::string_view scope, const google::protobuf::ListValue& cursor) const;
  // The cursor, or InvalidArgument "invalid page token" for anything not signed here for `scope`.
  absl::StatusOr<google::protobuf::ListValue> Verify(std::string_view scope,
                                                     std::string_view token) const;

 private:
  std::string Mac(std::string_view scope, std::string_view payload) const;
  std::string key_;
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_PAGE_TOKEN_H_
