#ifndef KAHVE_TOOLS_KAHVE_HEALTH_CHECK_H_
#define KAHVE_TOOLS_KAHVE_HEALTH_CHECK_H_

// One grpc.health.v1.Health/Check call, shared by `kahve health` and the service tests.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"

namespace kahve::tools {

// The status `channel`'s server reports for `service` ("" the server as a whole): "SERVING",
// "NOT_SERVING", "SERVICE_UNKNOWN", ...; or the call's error.
absl::StatusOr<std::string> CheckHealth(const std::shared_ptr<grpc::Channel>& channel,
                                        const std::string& service, absl::Duration deadline);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_HEALTH_CHECK_H_
