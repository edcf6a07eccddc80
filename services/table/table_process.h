#ifndef KAHVE_SERVICES_TABLE_TABLE_PROCESS_H_
#define KAHVE_SERVICES_TABLE_TABLE_PROCESS_H_

// kahve-table wired from its flags (docs/configuration.md): event log, live tables, service,
// server, the outbox relay to the rating service and the host registry's heartbeat.

#include "services/common/service_process.h"

namespace kahve::table {

extern const common::ServiceDescription kTableService;

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_PROCESS_H_
