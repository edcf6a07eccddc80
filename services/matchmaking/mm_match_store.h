#ifndef KAHVE_SERVICES_MATCHMAKING_MM_MATCH_STORE_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_MATCH_STORE_H_

// Queue passes and placement: the waiting tickets a pass reads, the matches it forms, and their
// way to a table (placing, then placed or abandoned). Every method is one transaction.

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"
#include "services/matchmaking/mm_records.h"

namespace kahve::matchmaking {

class MatchStore {
 public:
  explicit MatchStore(common::PgPool* pool) : pool_(pool) {}

  static NamedStatements PreparedStatements();

  // Queues with waiting or placing tickets, and how many each has.
  absl::StatusOr<std::map<std::string, int64_t>> ActiveQueues();
  absl::StatusOr<std::vector<QueuedTicket>> WaitingTickets(const std::string& queue_key);
  // Moves waiting tickets enqueued before `cutoff` to expired; returns how many.
  absl::StatusOr<int> ExpireTickets(const std::string& queue_key, absl::Time cutoff,
                                    absl::Time now);
  // In one transaction: each match's row (placing) and its tickets from waiting to placing with
  // their seats. A match with a ticket no longer waiting (cancelled since the pass read it) is
  // left out, its other tickets still waiting. Returns the matches recorded.
  absl::StatusOr<std::vector<PendingMatch>> RecordFormedMatches(std::vector<PendingMatch> matches);
  absl::StatusOr<std::vector<PendingMatch>> PlacingMatches(const std::string& queue_key);
  absl::Status SetMatchHost(const std::string& match_id, const std::string& host_id,
                            const std::string& error);
  // Gives a match still placing up (state abandoned, with the reason) and puts its tickets back
  // to waiting with their enqueue times. Returns how many tickets went back (0: it was placed or
  // given up meanwhile).
  absl::StatusOr<int> AbandonMatch(const std::string& match_id, const std::string& reason);
  // In one transaction, for each match whose table exists: its assignments, and its tickets
  // moved to matched. Matches placed already are left as they are. Returns the tickets' waits.
  absl::StatusOr<std::vector<absl::Duration>> CompletePlacements(
      const std::vector<Placement>& placements, absl::Time now);

 private:
  common::PgPool* pool_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_MATCH_STORE_H_
