#ifndef KAHVE_TESTS_SERVICES_RATING_RATING_FIXTURE_H_
#define KAHVE_TESTS_SERVICES_RATING_RATING_FIXTURE_H_

// A real kahve-rating (the shipped library, a real gRPC server on a free port) over a fresh
// PostgreSQL database, and a client.

#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "google/protobuf/util/time_util.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/worker_pool.h"
#include "services/rating/rating_process.h"
#include "services/rating/rating_service.h"
#include "services/rating/rating_store.h"
#include "tests/services/service_testing.h"
#include "tests/support/pg_test_env.h"

namespace kahve::rating {

class RatingServer {
 public:
  // Serves the database at `url`; provisional after fewer than `provisional_games`. Leaderboard
  // players are counted every `leaderboard_count_interval`; with zero only when a test calls
  // service().CountLeaderboardPlayers(). The shipped RatingProcess, wired from a config built here.
  RatingServer(const std::string& url, int provisional_games,
               absl::Duration drain_period = absl::ZeroDuration(),
               absl::Duration leaderboard_count_interval = absl::ZeroDuration());
  // The config the constructor above builds, for tests that change more of it (the server's
  // caps, the call rate).
  static RatingConfig Config(const std::string& url, int provisional_games,
                             absl::Duration drain_period = absl::ZeroDuration(),
                             absl::Duration leaderboard_count_interval = absl::ZeroDuration());
  explicit RatingServer(RatingConfig config);
  ~RatingServer();

  int port() const { return process_->port(); }
  int metrics_port() const { return process_->metrics_port(); }
  common::GrpcServer& server() { return process_->server(); }
  common::Metrics& metrics() { return process_->metrics(); }
  RatingService& service() { return process_->service(); }
  v1::RatingService::Stub& stub() { return *stub_; }

 private:
  std::unique_ptr<RatingProcess> process_;
  std::unique_ptr<v1::RatingService::Stub> stub_;
};

class RatingServiceTest : public testing::PgTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  v1::RatingService::Stub& stub() { return rating_->stub(); }

  // RecordMatch as the table service would send it (service role).
  grpc::Status Record(const v1::RecordMatchRequest& request, v1::RecordMatchResponse* response);

  std::unique_ptr<RatingServer> rating_;
};

inline constexpr int kProvisionalGames = 2;

// A finished four-player Liar's dice match: players[seat] with ranks[seat], ended at `ended_s`
// seconds after the epoch.
v1::RecordMatchRequest SoloMatch(const std::string& match_id,
                                 const std::vector<std::string>& players,
                                 const std::vector<int>& ranks, int64_t ended_s = 1'700'000'000);
// The same as two teams: seats {0, 2} and {1, 3}; `first_team_won` says which team ranks first.
v1::RecordMatchRequest TeamMatch(const std::string& match_id,
                                 const std::vector<std::string>& players, bool first_team_won,
                                 int64_t ended_s = 1'700'000'000);

}  // namespace kahve::rating

#endif  // KAHVE_TESTS_SERVICES_RATING_RATING_FIXTURE_H_
