#include "services/common/request_id.h"

#include <utility>

#include "absl/random/random.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"

namespace kahve::common {
namespace {

std::string NewRequestId() {
  thread_local absl::BitGen bits;
  return absl::StrFormat("%016x%016x", absl::Uniform<uint64_t>(bits),
                         absl::Uniform<uint64_t>(bits));
}

}  // namespace

bool IsPlainRequestId(absl::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

std::string AssignRequestId(grpc::ServerContextBase& context) {
  const auto& metadata = context.client_metadata();
  const auto given = metadata.find(kRequestIdKey);
  std::string id;
  if (given != metadata.end()) id.assign(given->second.data(), given->second.size());
  if (!IsPlainRequestId(id)) id = NewRequestId();
  // In the trailers, which every answer has: initial metadata would turn a refusal's
  // Trailers-Only response into a full one, and gRPC's automatic retries need Trailers-Only.
  context.AddTrailingMetadata(kRequestIdKey, id);
  return id;
}

}  // namespace kahve::common
