// --table_client_endpoint lives in a file of its own so that only the binaries that hand table
// addresses to players (table, matchmaking) carry the flag.

#include "absl/flags/flag.h"
#include "services/common/service_process.h"

ABSL_FLAG(std::string, table_client_endpoint, "",
          "Table and matchmaking: the table address players are handed (assignments, practice "
          "tables): one entry address any table host answers behind, such as a gateway. Empty: "
          "the table host's own endpoint.");

namespace kahve::common {

std::string TableClientEndpointFromFlags() { return absl::GetFlag(FLAGS_table_client_endpoint); }

}  // namespace kahve::common
