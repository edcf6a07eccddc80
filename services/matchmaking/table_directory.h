#ifndef KAHVE_SERVICES_MATCHMAKING_TABLE_DIRECTORY_H_
#define KAHVE_SERVICES_MATCHMAKING_TABLE_DIRECTORY_H_

// What matchmaking learns from the table service, over its gRPC API only (ListHosts,
// GetMatchStates at --table_target, any host answering): where tables can go, and which games
// have ended. The table service's schema stays its own.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/table.grpc.pb.h"

namespace kahve::matchmaking {

struct TableHostRow {
  std::string host_id;
  std::string endpoint;
  int live_tables = 0;
};

struct TableDirectorySettings {
  // Bearer token with the service role.
  std::string bearer;
  // Deadline of one call.
  absl::Duration call_timeout = absl::Seconds(3);
};

class TableDirectory {
 public:
  // `table_service`: a stub to any table host (a Service in front of them all).
  TableDirectory(TableDirectorySettings settings,
                 std::unique_ptr<v1::TableService::StubInterface> table_service);

  // The hosts that take new tables, least loaded first.
  absl::StatusOr<std::vector<TableHostRow>> Hosts();
  // The matches whose game is over, among `match_ids`: ended, or with no table at all (nothing
  // to go back to). Asked 100 at a time.
  absl::StatusOr<std::vector<std::string>> EndedMatches(const std::vector<std::string>& match_ids);
  // Whether the match has a table (on any host, ended or not).
  absl::StatusOr<bool> HasTable(const std::string& match_id);

 private:
  void Prepare(grpc::ClientContext& context) const;
  absl::StatusOr<v1::GetMatchStatesResponse> States(std::vector<std::string>::const_iterator begin,
                                                    std::vector<std::string>::const_iterator end);

  const TableDirectorySettings settings_;
  const std::unique_ptr<v1::TableService::StubInterface> table_service_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_TABLE_DIRECTORY_H_
