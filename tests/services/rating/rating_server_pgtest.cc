// What every kahve service shares, checked on kahve-rating: health, reflection, /metrics (linted by
// promtool), a database outage (Unavailable, then recovery), and graceful shutdown.

#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/request_id.h"
#include "services/common/service_process.h"
#include "tests/services/rating/rating_fixture.h"

ABSL_DECLARE_FLAG(std::string, rating_target);

namespace kahve::rating {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

TEST_F(RatingServiceTest, ServesHealthAndReflection) {
  EXPECT_EQ(*testing::HealthStatus(rating_->port(), ""), "SERVING");
  EXPECT_EQ(*testing::HealthStatus(rating_->port(), "kahve.v1.RatingService"), "SERVING");
  const auto services = testing::ReflectedServices(rating_->port());
  ASSERT_TRUE(services.ok()) << services.status();
  EXPECT_THAT(*services, Contains("kahve.v1.RatingService"));
  EXPECT_THAT(*services, Contains("grpc.health.v1.Health"));
}

// Issue 34: every call has a request id, returned to the client as x-request-id in the trailers:
// the caller's when it is a plain token (the entry proxy sets one), else a new one; refusals carry
// it too, and stay Trailers-Only (no initial metadata), which gRPC's retries need.
TEST_F(RatingServiceTest, EveryCallIsAnsweredWithItsRequestId) {
  auto request_id_of = [](const grpc::ClientContext& context) {
    const auto& metadata = context.GetServerTrailingMetadata();
    const auto found = metadata.find("x-request-id");
    return found == metadata.end() ? std::string("(none)")
                                   : std::string(found->second.data(), found->second.size());
  };
  v1::GetMatchRequest missing;
  missing.set_match_id("nope");
  v1::MatchRecord record;
  auto given = testing::ContextFor("ana");
  given->AddMetadata("x-request-id", "edge-7f3a.01_b");
  EXPECT_EQ(stub().GetMatch(given.get(), missing, &record).error_code(), grpc::NOT_FOUND);
  EXPECT_EQ(request_id_of(*given), "edge-7f3a.01_b");

  std::set<std::string> generated;
  const std::vector<std::string> hostile_ids = {"", "two words", "{\"json\":1}",
                                                std::string(65, 'a')};
  for (const std::string& hostile : hostile_ids) {
    auto context = testing::ContextFor("ana");
    if (!hostile.empty()) context->AddMetadata("x-request-id", hostile);
    EXPECT_EQ(stub().GetMatch(context.get(), missing, &record).error_code(), grpc::NOT_FOUND);
    const std::string id = request_id_of(*context);
    EXPECT_TRUE(common::IsPlainRequestId(id)) << id;
    EXPECT_EQ(id.size(), 32u) << id;
    generated.insert(id);
  }
  EXPECT_EQ(generated.size(), 4u);  // a new one each time

  // A refused call (no token) is answered with its id as well.
  grpc::ClientContext anonymous;
  anonymous.AddMetadata("x-request-id", "refused-1");
  EXPECT_EQ(stub().GetMatch(&anonymous, missing, &record).error_code(), grpc::UNAUTHENTICATED);
  EXPECT_EQ(request_id_of(anonymous), "refused-1");
  EXPECT_EQ(anonymous.GetServerInitialMetadata().count("x-request-id"), 0u);
}

TEST_F(RatingServiceTest, MetricsAreExposedAndPassPromtool) {
  v1::RecordMatchResponse response;
  ASSERT_TRUE(
      Record(SoloMatch("m1", {"ana", "ben", "cem", "deniz"}, {1, 2, 3, 4}), &response).ok());
  ASSERT_TRUE(Record(SoloMatch("m2", {"ana", "ben"}, {2, 1}), &response).ok());
  ASSERT_TRUE(rating_->service().CountLeaderboardPlayers().ok());
  v1::GetMatchRequest missing;
  missing.set_match_id("nope");
  v1::MatchRecord record;
  auto context = testing::ContextFor("ana");
  ASSERT_EQ(stub().GetMatch(context.get(), missing, &record).error_code(), grpc::NOT_FOUND);

  const auto text = testing::HttpGet(rating_->metrics_port(), "/metrics");
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("kahve_rating_updates_total{ruleset=\"liars_dice\"} 6"));
  EXPECT_THAT(*text, HasSubstr("kahve_record_match_seconds_count 2"));
  EXPECT_THAT(*text, HasSubstr("kahve_rating_mu_change_count{ruleset=\"liars_dice\"} 6"));
  EXPECT_THAT(*text,
              HasSubstr("kahve_rating_sigma_change_bucket{ruleset=\"liars_dice\",le=\"0\"} 6"));
  EXPECT_THAT(*text,
              HasSubstr("kahve_leaderboard_players{mode=\"solo\",ruleset=\"liars_dice\"} 2"));
  EXPECT_THAT(*text,
              HasSubstr("grpc_server_handled_total{grpc_code=\"OK\",grpc_method=\"RecordMatch\","
                        "grpc_service=\"kahve.v1.RatingService\"} 2"));
  EXPECT_THAT(*text, HasSubstr("grpc_code=\"NotFound\",grpc_method=\"GetMatch\""));
  EXPECT_THAT(*text, HasSubstr("grpc_server_handling_seconds_bucket{grpc_method=\"RecordMatch\""));
  EXPECT_THAT(*text, HasSubstr("kahve_pg_pool_connections{"));
  const absl::Status lint = testing::PromtoolCheck(*text);
  EXPECT_TRUE(lint.ok()) << lint;
}

// The value of one series of the counter in a /metrics text, or -1 when absent.
int64_t SeriesValue(const std::string& text, const std::string& series) {
  const size_t at = text.find(series + " ");
  if (at == std::string::npos) return -1;
  const size_t start = at + series.size() + 1;
  int64_t value = -1;
  if (!absl::SimpleAtoi(text.substr(start, text.find('\n', start) - start), &value)) return -1;
  return value;
}

// The channel the table hosts and matchmaking use reaches every address its target names, as a
// headless Service's name resolves to every rating pod.
TEST_F(RatingServiceTest, CallsToTheRatingServiceSpreadOverEveryAddress) {
  RatingServer second(url(), kProvisionalGames);
  absl::FlagSaver restore_flags;
  absl::SetFlag(&FLAGS_rating_target,
                absl::StrCat("ipv4:127.0.0.1:", rating_->port(), ",127.0.0.1:", second.port()));
  auto client = v1::RatingService::NewStub(common::ChannelToRatingService());
  constexpr int kCalls = 40;
  for (int i = 0; i < kCalls; ++i) {
    v1::GetMatchRequest missing;
    missing.set_match_id("nope");
    v1::MatchRecord record;
    auto context = testing::ContextFor("ana");
    ASSERT_EQ(client->GetMatch(context.get(), missing, &record).error_code(), grpc::NOT_FOUND);
  }
  const std::string series =
      "grpc_server_handled_total{grpc_code=\"NotFound\",grpc_method=\"GetMatch\","
      "grpc_service=\"kahve.v1.RatingService\"}";
  const auto first_text = testing::HttpGet(rating_->metrics_port(), "/metrics");
  const auto second_text = testing::HttpGet(second.metrics_port(), "/metrics");
  ASSERT_TRUE(first_text.ok() && second_text.ok());
  const int64_t first = SeriesValue(*first_text, series);
  const int64_t second_calls = SeriesValue(*second_text, series);
  EXPECT_EQ(first + second_calls, kCalls);
  // Round robin: once both connections are up the calls alternate; the first few may all go to
  // whichever connected first.
  EXPECT_GE(first, kCalls / 4);
  EXPECT_GE(second_calls, kCalls / 4);
}

// Every replica counts the leaderboards in the database, so one that recorded nothing reports
// what the others stored, from its first count on.
TEST_F(RatingServiceTest, EveryReplicaCountsTheLeaderboardsInTheDatabase) {
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(SoloMatch("m1", {"ana", "ben", "cem"}, {1, 2, 3}, 1000), &response).ok());
  ASSERT_TRUE(Record(SoloMatch("m2", {"ana", "ben", "cem"}, {3, 2, 1}, 2000), &response).ok());
  RatingServer other(url(), kProvisionalGames, /*drain_period=*/absl::ZeroDuration(),
                     /*leaderboard_count_interval=*/absl::Milliseconds(20));
  const std::map<std::string, std::string> solo = {{"ruleset", "liars_dice"}, {"mode", "solo"}};
  double players = 0;
  for (const absl::Time deadline = absl::Now() + absl::Seconds(10);
       players != 3 && absl::Now() < deadline; absl::SleepFor(absl::Milliseconds(10))) {
    players = testing::MetricSum(other.metrics().registry(), "kahve_leaderboard_players", solo);
  }
  EXPECT_EQ(players, 3);
  ASSERT_TRUE(Record(SoloMatch("m3", {"dora", "ana"}, {1, 2}, 3000), &response).ok());
  ASSERT_TRUE(Record(SoloMatch("m4", {"dora", "ben"}, {1, 2}, 4000), &response).ok());
  for (const absl::Time deadline = absl::Now() + absl::Seconds(10);
       players != 4 && absl::Now() < deadline; absl::SleepFor(absl::Milliseconds(10))) {
    players = testing::MetricSum(other.metrics().registry(), "kahve_leaderboard_players", solo);
  }
  EXPECT_EQ(players, 4) << "counted again every interval";
}

TEST(RatingOutageTest, DatabaseOutageGivesUnavailableThenRecovers) {
  std::unique_ptr<testing::PgTestServer> database = testing::PgTestServer::StartPrivate();
  const std::string url = database->CreateDatabase("outage");
  RatingServer rating(url, kProvisionalGames);
  auto record = [&](const std::string& id) {
    v1::RecordMatchResponse response;
    auto context = testing::ContextFor("table-service", common::kRoleService);
    return rating.stub().RecordMatch(context.get(), SoloMatch(id, {"ana", "ben"}, {1, 2}),
                                     &response);
  };
  ASSERT_TRUE(record("before").ok());
  database->Stop();
  const grpc::Status down = record("during");
  EXPECT_EQ(down.error_code(), grpc::UNAVAILABLE) << down.error_message();
  EXPECT_EQ(*testing::HealthStatus(rating.port(), ""), "SERVING") << "the process stays up";
  database->Start();
  grpc::Status up = record("after");
  EXPECT_TRUE(up.ok()) << up.error_message();
  v1::GetRatingsRequest request;
  request.add_player_ids("ana");
  v1::GetRatingsResponse ratings;
  auto context = testing::ContextFor("ana");
  ASSERT_TRUE(rating.stub().GetRatings(context.get(), request, &ratings).ok());
  EXPECT_EQ(ratings.ratings(0).games(), 2) << "the match refused during the outage was not stored";
}

TEST(RatingShutdownTest, DrainsReportingNotServingThenRefusesCalls) {
  std::unique_ptr<testing::PgTestServer> database = testing::PgTestServer::StartPrivate();
  RatingServer rating(database->CreateDatabase("shutdown"), kProvisionalGames,
                      /*drain_period=*/absl::Seconds(2));
  const int port = rating.port();
  std::thread shutdown([&] { rating.server().Shutdown(); });
  // During the drain the server still answers, and says NOT_SERVING.
  std::string health;
  for (int i = 0; i < 100 && health != "NOT_SERVING"; ++i) {
    health = testing::HealthStatus(port, "").value_or("");
    absl::SleepFor(absl::Milliseconds(10));
  }
  EXPECT_EQ(health, "NOT_SERVING");
  shutdown.join();
  EXPECT_EQ(testing::HealthStatus(port, "").status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace kahve::rating
