#include "services/common/call_gate.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/request_checks.h"
#include "services/common/request_id.h"
#include "services/common/server.h"

namespace kahve::common {

CallGate::CallGate(const Authenticator* authenticator, CallRateSettings rate,
                   prometheus::Registry* registry, Clock* clock)
    : authenticator_(authenticator), limiter_(rate, registry, clock) {}

absl::StatusOr<Identity> CallGate::Accept(grpc::CallbackServerContext& context, const char* role,
                                          const google::protobuf::Message& request) {
  // Before anything can refuse: a refusal carries the id too.
  std::string request_id = AssignRequestId(context);
  auto identity = AuthenticateCall(*authenticator_, context);
  if (!identity.ok()) return identity.status();
  identity->request_id = std::move(request_id);
  if (identity->role == kRolePlayer || identity->role.empty()) {
    absl::Duration retry_after;
    if (absl::Status taken = limiter_.Take(identity->subject, &retry_after); !taken.ok()) {
      context.AddTrailingMetadata("grpc-retry-pushback-ms",
                                  absl::StrCat(absl::ToInt64Milliseconds(retry_after)));
      return taken;
    }
  }
  if (role != nullptr) {
    if (absl::Status allowed = RequireRole(*identity, role); !allowed.ok()) return allowed;
  }
  if (absl::Status checked = CheckRequestStrings(request); !checked.ok()) return checked;
  return identity;
}

}  // namespace kahve::common
