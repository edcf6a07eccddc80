#ifndef KAHVE_SERVICES_RATING_RATING_PROCESS_H_
#define KAHVE_SERVICES_RATING_RATING_PROCESS_H_

// kahve-rating wired from its flags (docs/configuration.md): pool, store, service, server.

#include "services/common/service_process.h"

namespace kahve::rating {

extern const common::ServiceDescription kRatingService;

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_RATING_PROCESS_H_
