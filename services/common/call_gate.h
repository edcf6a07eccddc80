#ifndef KAHVE_SERVICES_COMMON_CALL_GATE_H_
#define KAHVE_SERVICES_COMMON_CALL_GATE_H_

// The one gate of every call, unary or streaming, of every service: who calls (the JWT), whether
// that identity is within its call rate, whether it holds the role the method needs, and whether
// every string of the request is acceptable; in that order, before anything is looked up.

#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "grpcpp/grpcpp.h"
#include "prometheus/registry.h"
#include "services/common/auth.h"
#include "services/common/call_rate.h"
#include "services/common/clock.h"

namespace kahve::common {

class CallGate {
 public:
  // `authenticator` is not owned and outlives the gate; `registry` may be null.
  CallGate(const Authenticator* authenticator, CallRateSettings rate,
           prometheus::Registry* registry, Clock* clock = RealClock());

  // The caller, when authenticated, within its rate (players only: services and admins are the
  // platform's own), holding `role` (unless it is null), and when every string of `request` passes
  // CheckRequestStrings; otherwise UNAUTHENTICATED, RESOURCE_EXHAUSTED (with a RetryAfter detail
  // and the grpc-retry-pushback-ms trailer), PERMISSION_DENIED or INVALID_ARGUMENT.
  absl::StatusOr<Identity> Accept(grpc::CallbackServerContext& context, const char* role,
                                  const google::protobuf::Message& request);

 private:
  const Authenticator* authenticator_;
  CallRateLimiter limiter_;
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_CALL_GATE_H_
