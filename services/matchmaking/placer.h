#ifndef KAHVE_SERVICES_MATCHMAKING_PLACER_H_
#define KAHVE_SERVICES_MATCHMAKING_PLACER_H_

// Placement: creates the table of a formed match on a table host and stores the assignments.
// The match id makes CreateTable idempotent across hosts: a match has at most one table, and any
// host answers a retry with the first answer (the same table and seat tokens). So retrying, on
// this replica or another, after a crash, on whichever host, can never make a second table.

#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "kahve/v1/table.grpc.pb.h"
#include "services/common/clock.h"
#include "services/common/stub_cache.h"
#include "services/matchmaking/mm_match_store.h"
#include "services/matchmaking/table_directory.h"

namespace kahve::matchmaking {

struct PlacerSettings {
  // Bearer token with the service role, for CreateTable.
  std::string bearer;
  // Deadline of one CreateTable call.
  absl::Duration call_timeout = absl::Seconds(3);
  // Hosts tried for one match in one placement before waiting for the next pass.
  int max_hosts = 3;
  // CreateTable calls in flight at once when a pass places its new matches.
  int max_in_flight = 128;
  // The table address players are handed (one entry address: any host answers for any table);
  // empty: the host's own endpoint, where the table is created.
  std::string client_endpoint;
  // When placements complete (the tickets' waits end). CreateTable deadlines stay real. Not owned.
  common::Clock* clock = common::RealClock();
};

class Placer {
 public:
  // Neither is owned.
  Placer(PlacerSettings settings, MatchStore* store, TableDirectory* tables);

  // Places `match` (state placing): on its chosen host if that still takes tables, else on the
  // least loaded one not yet tried. Returns the tickets' waits once the assignments are stored;
  // Unavailable (the match stays placing, retried next pass) when no host could create the table.
  absl::StatusOr<std::vector<absl::Duration>> Place(const PendingMatch& match);

  // Places a pass's new matches, each on its chosen host (one of `hosts`): the tables are created
  // concurrently and every assignment stored in one transaction. Matches whose host failed go
  // through Place, one by one. Returns the waits of the tickets placed.
  std::vector<absl::Duration> PlaceNew(const std::vector<PendingMatch>& matches,
                                       const std::vector<TableHostRow>& hosts);

 private:
  std::shared_ptr<v1::TableService::Stub> StubFor(const std::string& endpoint);
  // What players are told for a table created at `host_endpoint`.
  std::string ClientEndpointFor(const std::string& host_endpoint) const;
  void Authorize(grpc::ClientContext& context) const;
  // PlaceNew's end: stores the placements whose tables were made, and tries the others again one
  // by one (Place). The waits of the tickets placed.
  std::vector<absl::Duration> Settle(const std::vector<Placement>& placed,
                                     const std::vector<const PendingMatch*>& retry);

  const PlacerSettings settings_;
  MatchStore* store_;
  TableDirectory* tables_;
  common::StubCache<v1::TableService> stubs_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_PLACER_H_
