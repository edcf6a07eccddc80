#ifndef KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_PROCESS_H_
#define KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_PROCESS_H_

// kahve-matchmaking wired from its flags (docs/configuration.md, docs/matchmaking.md): store,
// rating cache, placer, the Enqueue writer, ticket streams, service, server and the queue passes.

#include "services/common/service_process.h"

namespace kahve::matchmaking {

extern const common::ServiceDescription kMatchmakingService;

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_PROCESS_H_
