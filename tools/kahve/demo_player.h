#ifndef KAHVE_TOOLS_KAHVE_DEMO_PLAYER_H_
#define KAHVE_TOOLS_KAHVE_DEMO_PLAYER_H_

// One bot client of `kahve demo`: queues, waits for its assignment, connects to its table and
// plays its seat to the end over gRPC, as a third-party client would. With `transcript`, the
// client of seat 0 prints its stream as it arrives.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "kahve/v1/rating.pb.h"
#include "kahve/v1/table.pb.h"
#include "tools/kahve/demo_clients.h"

namespace kahve::tools {

struct DemoPlayerIdentity {
  std::string id;
  std::string bearer;  // "Bearer <JWT>"

  // A call's context as this player, ending after `deadline`.
  std::unique_ptr<grpc::ClientContext> Call(
      std::chrono::seconds deadline = std::chrono::seconds(10)) const;
};

// What one client saw of its game.
struct DemoGame {
  absl::Status status;
  std::string player_id;
  v1::Assignment assignment;
  std::vector<v1::SeatStatus> seats;  // from its first snapshot
  v1::Result result;                  // once the game is over
  int moves_played = 0;               // by this client
};

// Where a client plays the table of `assignment`: its table_endpoint, or --demo_table_target.
std::string TableEndpointOf(const v1::Assignment& assignment);

// Plays one seat from queue to game over. `print_mu` guards stdout; `seed` drives its choices.
DemoGame PlayAsClient(const DemoClient& client, const DemoPlayerIdentity& player,
                      v1::MatchmakingService::Stub& matchmaking, absl::Mutex& print_mu,
                      uint64_t seed, bool transcript);

// The clients were seated at one table, on different seats, each seat a human, and saw one result.
absl::Status CheckSameGame(const std::vector<DemoGame>& games);
// The rating service's record of the match names the same players, seats and ranks.
absl::Status CheckRecorded(const v1::MatchRecord& record, const std::vector<DemoGame>& games);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_DEMO_PLAYER_H_
