#ifndef KAHVE_SERVICES_RATING_RATING_SERVICE_H_
#define KAHVE_SERVICES_RATING_RATING_SERVICE_H_

// kahve.v1.RatingService: thin callback handlers. Each authenticates, then hands the work to the
// worker pool (database calls block), which validates, calls the store and finishes the call.

#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "services/common/auth.h"
#include "services/common/call_gate.h"
#include "services/common/clock.h"
#include "services/common/metrics.h"
#include "services/common/page_token.h"
#include "services/common/worker_pool.h"
#include "services/rating/match_writer.h"
#include "services/rating/rating_store.h"

namespace kahve::rating {

struct RatingServiceSettings {
  // Players with fewer rated games in a (ruleset, mode) are provisional: off leaderboards.
  int provisional_games = 10;
  // Signs page tokens; replicas must share it.
  std::string page_token_key;
  // Group commit of RecordMatch.
  MatchWriterSettings writer;
  // How often kahve_leaderboard_players is counted afresh; zero: never (tests count by hand).
  absl::Duration leaderboard_count_interval = absl::Seconds(60);
  // What the leaderboard count's interval waits on. Not owned.
  common::Clock* clock = common::RealClock();
};

// RatingServiceSettings from --provisional_games, --page_token_secret (falling back to
// --jwt_hs256_secret), --record_writers, --record_batch and --leaderboard_count_seconds.
// InvalidArgument when neither secret is set: page tokens would be signed with an empty key,
// which anyone can forge.
absl::StatusOr<RatingServiceSettings> RatingServiceSettingsFromFlags();

// Every metric family of the rating service, declared in one place.
struct RatingMetrics {
  explicit RatingMetrics(prometheus::Registry& registry);
  prometheus::Family<prometheus::Counter>& updates;  // kahve_rating_updates_total{ruleset}
  prometheus::Histogram& record_match_seconds;       // kahve_record_match_seconds
  prometheus::Histogram& record_batch_size;          // kahve_record_match_batch_size
  prometheus::Family<prometheus::Counter>&
      matches;  // kahve_matches_recorded_total{ruleset,mode,rated}
  // kahve_rating_mu_change{ruleset} and kahve_rating_sigma_change{ruleset}: per rating a newly
  // recorded match changes, new minus old. Series are added with their buckets by MuChange and
  // SigmaChange.
  prometheus::Family<prometheus::Histogram>& mu_change;
  prometheus::Family<prometheus::Histogram>& sigma_change;
  // kahve_leaderboard_players{ruleset,mode}: players on each leaderboard, as last counted.
  prometheus::Family<prometheus::Gauge>& leaderboard_players;

  prometheus::Histogram& MuChange(const std::string& ruleset);
  prometheus::Histogram& SigmaChange(const std::string& ruleset);
};

class RatingService final : public v1::RatingService::CallbackService {
 public:
  // Records matches through `pool` (its own MatchWriter threads); reads through `store` on
  // `workers`.
  // Counts the leaderboards' players on a thread of its own, at once and then every
  // settings.leaderboard_count_interval (unless zero).
  RatingService(RatingServiceSettings settings, common::PgPool* pool, RatingStore* store,
                common::CallGate* gate, common::WorkerPool* workers,
                RatingMetrics* metrics);
  // Stops the counting thread; the writer then records what is still queued.
  ~RatingService() override;

  grpc::ServerUnaryReactor* RecordMatch(grpc::CallbackServerContext* context,
                                        const v1::RecordMatchRequest* request,
                                        v1::RecordMatchResponse* response) override;
  grpc::ServerUnaryReactor* GetRatings(grpc::CallbackServerContext* context,
                                       const v1::GetRatingsRequest* request,
                                       v1::GetRatingsResponse* response) override;
  grpc::ServerUnaryReactor* GetLeaderboard(grpc::CallbackServerContext* context,
                                           const v1::GetLeaderboardRequest* request,
                                           v1::GetLeaderboardResponse* response) override;
  grpc::ServerUnaryReactor* ListMatches(grpc::CallbackServerContext* context,
                                        const v1::ListMatchesRequest* request,
                                        v1::ListMatchesResponse* response) override;
  grpc::ServerUnaryReactor* GetMatch(grpc::CallbackServerContext* context,
                                     const v1::GetMatchRequest* request,
                                     v1::MatchRecord* response) override;
  grpc::ServerUnaryReactor* GetRatingHistory(grpc::CallbackServerContext* context,
                                             const v1::GetRatingHistoryRequest* request,
                                             v1::GetRatingHistoryResponse* response) override;

  // The domain behind each handler, callable without gRPC. RecordMatch answers through `done`,
  // from a MatchWriter thread.
  void DoRecordMatch(const v1::RecordMatchRequest& request,
                     std::function<void(absl::StatusOr<v1::RecordMatchResponse>)> done);
  absl::Status DoGetRatings(const v1::GetRatingsRequest& request, v1::GetRatingsResponse* response);
  absl::Status DoGetLeaderboard(const v1::GetLeaderboardRequest& request,
                                v1::GetLeaderboardResponse* response);
  absl::Status DoListMatches(const v1::ListMatchesRequest& request,
                             v1::ListMatchesResponse* response);
  absl::Status DoGetMatch(const v1::GetMatchRequest& request, v1::MatchRecord* response);
  absl::Status DoGetRatingHistory(const v1::GetRatingHistoryRequest& request,
                                  v1::GetRatingHistoryResponse* response);

  // Sets kahve_leaderboard_players from a count in the database: every (ruleset, mode) with
  // players on its leaderboard, and 0 for one counted before that has none now. The counting
  // thread calls it; tests may too. The database's failure, the gauges unchanged.
  absl::Status CountLeaderboardPlayers();

 private:
  // Authenticates (and checks `role` unless null), then runs `work` on the worker pool and
  // finishes the call with its status; failures that are ours, not the caller's, are logged.
  template <typename Work>
  grpc::ServerUnaryReactor* Offload(grpc::CallbackServerContext* context,
                                    const google::protobuf::Message& request, const char* method,
                                    const char* role, Work work);

  absl::Status LeaderboardAround(const v1::GetLeaderboardRequest& request, int page_size,
                                 v1::GetLeaderboardResponse* response);

  RatingServiceSettings settings_;
  RatingStore* store_;
  common::CallGate* gate_;
  common::WorkerPool* workers_;
  RatingMetrics* metrics_;
  common::PageTokenSigner tokens_;
  // (ruleset, mode label) of every leaderboard gauge set so far.
  absl::Mutex count_mu_;
  absl::Notification stop_counting_;
  std::thread counter_;
  // Last: its destructor records what is still queued, using the members above.
  MatchWriter writer_;
};

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_RATING_SERVICE_H_
