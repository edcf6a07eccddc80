#ifndef KAHVE_TOOLS_KAHVE_MATCHMAKING_SEATING_H_
#define KAHVE_TOOLS_KAHVE_MATCHMAKING_SEATING_H_

// How `kahve load tables --matchmaking_target` gets its tables: as game clients would, through
// kahve-matchmaking. The two players of a slot form a party (one creates it, the other joins with
// its invite code), the leader queues the party for 2-player Liar's dice, which it fills alone,
// and each player reads its own assignment. Blocking calls; one slot at a time per caller.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "kahve/v1/table.pb.h"

namespace kahve::tools {

class MatchmakingSeater {
 public:
  explicit MatchmakingSeater(std::shared_ptr<grpc::Channel> channel);

  // Seats the two players whose "Bearer ..." headers are `bearers` at one table. `party_id`: the
  // players' party, made on the first call and kept for the next. `request_id` makes the Enqueue
  // safe to repeat. The table and both seats' tokens come back as CreateTable would give them.
  absl::StatusOr<v1::CreateTableResponse> Seat(const std::vector<std::string>& bearers,
                                               const std::string& request_id, std::string& party_id,
                                               absl::Duration timeout);

 private:
  std::unique_ptr<v1::MatchmakingService::Stub> stub_;
};

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_MATCHMAKING_SEATING_H_
