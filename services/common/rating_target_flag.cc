// --rating_target lives apart from service_process.cc so that only the binaries that call the
// rating service (table, matchmaking, `kahve`) carry the flag.

#include "absl/flags/flag.h"
#include "services/common/service_process.h"

ABSL_FLAG(std::string, rating_target, "127.0.0.1:50053",
          "Table and matchmaking: the rating service (host:port). The table sends finished "
          "matches there; matchmaking reads skills from it.");

namespace kahve::common {

std::string RatingTargetFromFlags() { return absl::GetFlag(FLAGS_rating_target); }

}  // namespace kahve::common
