#ifndef KAHVE_TOOLS_KAHVE_HEALTH_LOAD_H_
#define KAHVE_TOOLS_KAHVE_HEALTH_LOAD_H_

// The baseline of the `kahve load` commands that drive a server: the gRPC health check, a call
// the server answers without doing anything, at the same concurrency on the same server. A load's
// rate divided by this one says how far from the bare cost of a gRPC call the service is.

#include <string>

#include "absl/time/time.h"
#include "tools/kahve/load_stats.h"

namespace kahve::tools {

// Keeps `concurrency` calls of /grpc.health.v1.Health/Check (empty request: the server's overall
// status) in flight on `target` for `length`, spread over `channels` separate connections.
PhaseResult HealthCheckPhase(const std::string& target, int concurrency, absl::Duration length,
                             int channels);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_HEALTH_LOAD_H_
