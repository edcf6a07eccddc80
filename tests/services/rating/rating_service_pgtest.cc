// RecordMatch, GetRatings and GetMatch over real gRPC against a real PostgreSQL: rating,
// idempotency, bot and abandoned seats, teams, and every refusal (which must change nothing).

#include <algorithm>
#include <map>
#include <thread>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "services/rating/openskill.h"
#include "tests/services/rating/rating_fixture.h"

namespace kahve::rating {
namespace {

using google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

const std::vector<std::string> kPlayers = {"ana", "ben", "cem", "deniz"};

v1::GetRatingsResponse Ratings(v1::RatingService::Stub& stub,
                               const std::vector<std::string>& players) {
  v1::GetRatingsRequest request;
  for (const std::string& player : players) request.add_player_ids(player);
  v1::GetRatingsResponse response;
  auto context = testing::ContextFor("viewer");
  EXPECT_TRUE(stub.GetRatings(context.get(), request, &response).ok());
  return response;
}

// The sum of the observations of the histogram series of `family` with label ruleset=`ruleset`.
double ObservedSum(prometheus::Registry& registry, const std::string& family,
                   const std::string& ruleset) {
  double sum = 0;
  for (const prometheus::MetricFamily& collected : registry.Collect()) {
    if (collected.name != family) continue;
    for (const prometheus::ClientMetric& metric : collected.metric) {
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        if (label.name == "ruleset" && label.value == ruleset) sum += metric.histogram.sample_sum;
      }
    }
  }
  return sum;
}

grpc::StatusCode GetMatchCode(v1::RatingService::Stub& stub, const std::string& id,
                              v1::MatchRecord* out) {
  v1::GetMatchRequest request;
  request.set_match_id(id);
  auto context = testing::ContextFor("viewer");
  return stub.GetMatch(context.get(), request, out).error_code();
}

TEST_F(RatingServiceTest, RecordMatchNeedsAServiceToken) {
  const v1::RecordMatchRequest request = SoloMatch("m1", kPlayers, {1, 2, 3, 4});
  v1::RecordMatchResponse response;
  grpc::ClientContext anonymous;
  EXPECT_EQ(stub().RecordMatch(&anonymous, request, &response).error_code(), grpc::UNAUTHENTICATED);
  auto forged = std::make_unique<grpc::ClientContext>();
  forged->AddMetadata("authorization", "Bearer not.a.token");
  EXPECT_EQ(stub().RecordMatch(forged.get(), request, &response).error_code(),
            grpc::UNAUTHENTICATED);
  auto player = testing::ContextFor("ana");
  EXPECT_EQ(stub().RecordMatch(player.get(), request, &response).error_code(),
            grpc::PERMISSION_DENIED);
  v1::MatchRecord record;
  EXPECT_EQ(GetMatchCode(stub(), "m1", &record), grpc::NOT_FOUND) << "refusals store nothing";
}

TEST_F(RatingServiceTest, ReadsNeedAToken) {
  v1::GetMatchRequest request;
  request.set_match_id("m1");
  v1::MatchRecord record;
  grpc::ClientContext anonymous;
  EXPECT_EQ(stub().GetMatch(&anonymous, request, &record).error_code(), grpc::UNAUTHENTICATED);
}

TEST_F(RatingServiceTest, RatesAFourPlayerMatchWithTheModel) {
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(SoloMatch("m1", kPlayers, {1, 2, 3, 4}), &response).ok());
  EXPECT_TRUE(response.rated());
  ASSERT_EQ(response.changes_size(), 4);
  // The same numbers as the model run directly on the priors.
  const ModelParams params;
  std::vector<std::vector<Rating>> teams(4, {Rating{params.mu, params.sigma}});
  const std::vector<double> ranks = {1, 2, 3, 4};
  const auto expected = RateTeams(teams, ranks, params);
  ASSERT_TRUE(expected.ok());
  for (int seat = 0; seat < 4; ++seat) {
    const v1::RatingChange& change = response.changes(seat);
    EXPECT_EQ(change.player_id(), kPlayers[seat]);
    EXPECT_DOUBLE_EQ(change.before().mu(), params.mu);
    EXPECT_DOUBLE_EQ(change.after().mu(), (*expected)[seat][0].mu);
    EXPECT_DOUBLE_EQ(change.after().sigma(), (*expected)[seat][0].sigma);
    EXPECT_DOUBLE_EQ(change.after().display(), change.after().mu() - 3 * change.after().sigma());
    EXPECT_EQ(change.after().games(), 1);
    EXPECT_TRUE(change.after().provisional());
  }
  EXPECT_GT(response.changes(0).after().mu(), params.mu);
  EXPECT_LT(response.changes(3).after().mu(), params.mu);

  const v1::GetRatingsResponse ratings = Ratings(stub(), kPlayers);
  ASSERT_EQ(ratings.ratings_size(), 4);
  EXPECT_EQ(ratings.ratings(0).player_id(), "ana");
  EXPECT_EQ(ratings.ratings(0).ruleset(), "liars_dice");
  EXPECT_EQ(ratings.ratings(0).mode(), v1::SOLO);
  EXPECT_DOUBLE_EQ(ratings.ratings(0).mu(), response.changes(0).after().mu());
  EXPECT_EQ(ratings.ratings(0).last_played().seconds(), 1'700'000'000);
}

TEST_F(RatingServiceTest, SecondMatchStartsFromTheFirstsRatings) {
  v1::RecordMatchResponse first, second;
  ASSERT_TRUE(Record(SoloMatch("m1", kPlayers, {1, 2, 3, 4}, 1000), &first).ok());
  ASSERT_TRUE(Record(SoloMatch("m2", kPlayers, {4, 3, 2, 1}, 2000), &second).ok());
  for (int seat = 0; seat < 4; ++seat) {
    EXPECT_TRUE(
        MessageDifferencer::Equals(second.changes(seat).before(), first.changes(seat).after()));
    EXPECT_EQ(second.changes(seat).after().games(), 2);
    EXPECT_FALSE(second.changes(seat).after().provisional());
  }
}

TEST_F(RatingServiceTest, RepeatReturnsTheSameAnswerAndRatesOnce) {
  const v1::RecordMatchRequest request = SoloMatch("m1", kPlayers, {1, 2, 3, 4});
  v1::RecordMatchResponse first, again;
  ASSERT_TRUE(Record(request, &first).ok());
  ASSERT_TRUE(Record(request, &again).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(first, again));
  EXPECT_EQ(Ratings(stub(), {"ana"}).ratings(0).games(), 1);
}

TEST_F(RatingServiceTest, ConcurrentRepeatsRateOnce) {
  const v1::RecordMatchRequest request = SoloMatch("m1", kPlayers, {2, 1, 4, 3});
  std::vector<v1::RecordMatchResponse> responses(8);
  std::vector<grpc::Status> statuses(8);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] { statuses[i] = Record(request, &responses[i]); });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(statuses[i].ok()) << statuses[i].error_message();
    EXPECT_TRUE(MessageDifferencer::Equals(responses[0], responses[i]));
  }
  EXPECT_EQ(Ratings(stub(), {"ben"}).ratings(0).games(), 1);
}

// Matches of one player recorded at once: none fails, none is lost (each rating update builds on
// the previous one), whichever of the optimistic and the locking path each takes.
TEST_F(RatingServiceTest, ConcurrentMatchesOfOnePlayerAreAllRated) {
  constexpr int kMatches = 12;
  std::vector<grpc::Status> statuses(kMatches);
  std::vector<std::thread> threads;
  for (int i = 0; i < kMatches; ++i) {
    threads.emplace_back([&, i] {
      v1::RecordMatchResponse response;
      statuses[i] = Record(
          SoloMatch(absl::StrCat("hot", i), {"hot", absl::StrCat("a", i), absl::StrCat("b", i)},
                    {1, 2, 3}, 1000 + i),
          &response);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const grpc::Status& status : statuses) ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(Ratings(stub(), {"hot"}).ratings(0).games(), kMatches);
  v1::GetRatingHistoryRequest request;
  request.set_player_id("hot");
  request.set_ruleset("liars_dice");
  request.set_mode(v1::SOLO);
  v1::GetRatingHistoryResponse history;
  auto context = testing::ContextFor("hot");
  ASSERT_TRUE(stub().GetRatingHistory(context.get(), request, &history).ok());
  ASSERT_EQ(history.points_size(), kMatches);
  // Winning every match, each update raises mu: no update was computed from a stale read.
  std::vector<double> mus;
  for (const auto& point : history.points()) mus.push_back(point.mu());
  std::sort(mus.begin(), mus.end());
  for (size_t i = 1; i < mus.size(); ++i) EXPECT_LT(mus[i - 1], mus[i]);
}

TEST_F(RatingServiceTest, ReusedIdWithOtherContentIsAlreadyExists) {
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(SoloMatch("m1", kPlayers, {1, 2, 3, 4}), &response).ok());
  const grpc::Status status = Record(SoloMatch("m1", kPlayers, {4, 3, 2, 1}), &response);
  EXPECT_EQ(status.error_code(), grpc::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr("different content"));
  v1::MatchRecord record;
  ASSERT_EQ(GetMatchCode(stub(), "m1", &record), grpc::OK);
  EXPECT_EQ(record.participants(0).rank(), 1) << "the first record stands";
  EXPECT_EQ(Ratings(stub(), {"ana"}).ratings(0).games(), 1);
}

TEST_F(RatingServiceTest, MatchWithABotSeatIsStoredNotRated) {
  v1::RecordMatchRequest request = SoloMatch("m1", kPlayers, {1, 2, 3, 4});
  request.mutable_participants(3)->clear_player_id();
  request.mutable_participants(3)->set_bot(true);
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(request, &response).ok());
  EXPECT_FALSE(response.rated());
  EXPECT_EQ(response.changes_size(), 0);
  EXPECT_EQ(Ratings(stub(), {"ana", "ben", "cem"}).ratings_size(), 0);
  v1::ListMatchesRequest list;
  list.set_player_id("ana");
  v1::ListMatchesResponse matches;
  auto context = testing::ContextFor("ana");
  ASSERT_TRUE(stub().ListMatches(context.get(), list, &matches).ok());
  ASSERT_EQ(matches.matches_size(), 1);
  EXPECT_FALSE(matches.matches(0).rated());
}

// Every rating change of a newly stored match is one observation of mu and of sigma change under
// its ruleset; repeats and unrated matches add none.
TEST_F(RatingServiceTest, RecordedMatchesObserveTheirRatingChanges) {
  prometheus::Registry& registry = rating_->metrics().registry();
  v1::RecordMatchResponse first;
  ASSERT_TRUE(Record(SoloMatch("m1", kPlayers, {1, 2, 3, 4}), &first).ok());
  ASSERT_EQ(first.changes_size(), 4);
  double mu_moved = 0;
  double sigma_moved = 0;
  for (const v1::RatingChange& change : first.changes()) {
    mu_moved += change.after().mu() - change.before().mu();
    sigma_moved += change.after().sigma() - change.before().sigma();
  }
  const std::map<std::string, std::string> liars_dice = {{"ruleset", "liars_dice"}};
  EXPECT_EQ(testing::MetricSum(registry, "kahve_rating_mu_change", liars_dice), 4);
  EXPECT_EQ(testing::MetricSum(registry, "kahve_rating_sigma_change", liars_dice), 4);
  EXPECT_NEAR(ObservedSum(registry, "kahve_rating_mu_change", "liars_dice"), mu_moved, 1e-9);
  EXPECT_NEAR(ObservedSum(registry, "kahve_rating_sigma_change", "liars_dice"), sigma_moved, 1e-9);
  EXPECT_LT(sigma_moved, 0) << "a first match teaches the model something about everyone";

  v1::RecordMatchResponse repeat;
  ASSERT_TRUE(Record(SoloMatch("m1", kPlayers, {1, 2, 3, 4}), &repeat).ok());
  v1::RecordMatchRequest with_bot = SoloMatch("m2", kPlayers, {1, 2, 3, 4});
  with_bot.mutable_participants(3)->clear_player_id();
  with_bot.mutable_participants(3)->set_bot(true);
  v1::RecordMatchResponse unrated;
  ASSERT_TRUE(Record(with_bot, &unrated).ok());
  EXPECT_EQ(testing::MetricSum(registry, "kahve_rating_mu_change", liars_dice), 4)
      << "a repeat and an unrated match change no rating";

  v1::RecordMatchResponse teams;
  ASSERT_TRUE(Record(TeamMatch("m3", kPlayers, /*first_team_won=*/true), &teams).ok());
  EXPECT_EQ(testing::MetricSum(registry, "kahve_rating_mu_change", liars_dice), 8);
  EXPECT_EQ(testing::MetricSum(registry, "kahve_rating_sigma_change", liars_dice), 8);
  EXPECT_EQ(testing::MetricSum(registry, "kahve_rating_mu_change", {{"ruleset", "okey"}}), 0);
}

// The gauge counts the players GetLeaderboard lists: provisional players are not on it yet.
TEST_F(RatingServiceTest, LeaderboardPlayersCountWhoIsOnEachLeaderboard) {
  prometheus::Registry& registry = rating_->metrics().registry();
  const std::map<std::string, std::string> solo = {{"ruleset", "liars_dice"}, {"mode", "solo"}};
  const std::map<std::string, std::string> teams = {{"ruleset", "liars_dice"}, {"mode", "teams"}};
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(SoloMatch("m1", kPlayers, {1, 2, 3, 4}, 1000), &response).ok());
  ASSERT_TRUE(rating_->service().CountLeaderboardPlayers().ok());
  EXPECT_EQ(testing::MetricSum(registry, "kahve_leaderboard_players", solo), 0)
      << "one game: everyone is still provisional";
  // An empty leaderboard reports 0 rather than nothing: a series per ruleset and mode.
  size_t series = 0;
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name == "kahve_leaderboard_players") series = family.metric.size();
  }
  EXPECT_EQ(series, 2 * engine::Rulesets().size());

  ASSERT_TRUE(Record(SoloMatch("m2", kPlayers, {4, 3, 2, 1}, 2000), &response).ok());
  ASSERT_TRUE(Record(SoloMatch("m3", {"ana", "ben"}, {1, 2}, 3000), &response).ok());
  for (int i = 0; i < kProvisionalGames; ++i) {
    ASSERT_TRUE(Record(TeamMatch(absl::StrCat("t", i), {"eda", "fuat", "gul", "hakan"},
                                 /*first_team_won=*/i % 2 == 0, 4000 + i),
                       &response)
                    .ok());
  }
  EXPECT_EQ(testing::MetricSum(registry, "kahve_leaderboard_players", solo), 0)
      << "set only by a count";
  ASSERT_TRUE(rating_->service().CountLeaderboardPlayers().ok());
  EXPECT_EQ(testing::MetricSum(registry, "kahve_leaderboard_players", solo), 4);
  EXPECT_EQ(testing::MetricSum(registry, "kahve_leaderboard_players", teams), 4);
  EXPECT_EQ(testing::MetricSum(registry, "kahve_leaderboard_players", {{"ruleset", "okey"}}), 0);

  v1::GetLeaderboardRequest request;
  request.set_ruleset("liars_dice");
  request.set_mode(v1::SOLO);
  v1::GetLeaderboardResponse leaderboard;
  auto context = testing::ContextFor("viewer");
  ASSERT_TRUE(stub().GetLeaderboard(context.get(), request, &leaderboard).ok());
  EXPECT_EQ(leaderboard.entries_size(), 4) << "the gauge says what GetLeaderboard lists";
}

// The abandoner is rated as if it had finished last, whatever rank the request gave it.
TEST_F(RatingServiceTest, AbandonerIsRatedLast) {
  v1::RecordMatchRequest abandoned = SoloMatch("m1", kPlayers, {1, 2, 3, 4});
  abandoned.mutable_participants(0)->set_abandoned(true);
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(abandoned, &response).ok());
  v1::RecordMatchResponse reference;
  ASSERT_TRUE(Record(SoloMatch("m2", {"w", "x", "y", "z"}, {4, 1, 2, 3}), &reference).ok());
  for (int seat = 0; seat < 4; ++seat) {
    EXPECT_DOUBLE_EQ(response.changes(seat).after().mu(), reference.changes(seat).after().mu())
        << seat;
    EXPECT_DOUBLE_EQ(response.changes(seat).after().sigma(),
                     reference.changes(seat).after().sigma());
  }
  EXPECT_LT(response.changes(0).after().mu(), 25.0);
}

TEST_F(RatingServiceTest, TeamsAreRatedAsTeams) {
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(TeamMatch("m1", kPlayers, /*first_team_won=*/true), &response).ok());
  ASSERT_EQ(response.changes_size(), 4);
  EXPECT_DOUBLE_EQ(response.changes(0).after().mu(), response.changes(2).after().mu());
  EXPECT_DOUBLE_EQ(response.changes(1).after().mu(), response.changes(3).after().mu());
  EXPECT_GT(response.changes(0).after().mu(), 25.0);
  EXPECT_LT(response.changes(1).after().mu(), 25.0);
  EXPECT_EQ(response.changes(0).after().mode(), v1::TEAMS);
  // Ratings are per mode: solo ratings are untouched.
  v1::GetRatingsRequest request;
  request.add_player_ids("ana");
  request.set_mode(v1::SOLO);
  v1::GetRatingsResponse ratings;
  auto context = testing::ContextFor("ana");
  ASSERT_TRUE(stub().GetRatings(context.get(), request, &ratings).ok());
  EXPECT_EQ(ratings.ratings_size(), 0);
}

TEST_F(RatingServiceTest, GetMatchReturnsTheFullRecord) {
  v1::RecordMatchRequest request = SoloMatch("m1", kPlayers, {1, 2, 2, 4});
  v1::RoundScores* round = request.add_rounds();
  round->set_round(2);
  round->set_ending("liars_dice:last_player_standing");
  for (int seat = 0; seat < 4; ++seat) round->add_seat_scores(seat * 1.5);
  v1::RecordMatchResponse response;
  ASSERT_TRUE(Record(request, &response).ok());
  v1::MatchRecord record;
  ASSERT_EQ(GetMatchCode(stub(), "m1", &record), grpc::OK);
  EXPECT_EQ(record.ruleset(), "liars_dice");
  EXPECT_EQ(record.rounds_size(), 2);
  EXPECT_EQ(record.rounds(1).ending(), "liars_dice:last_player_standing");
  EXPECT_DOUBLE_EQ(record.rounds(1).seat_scores(3), 4.5);
  EXPECT_EQ(record.participants(2).rank(), 2);
  EXPECT_EQ(record.participants(2).team(), 2) << "solo: each seat its own team";
  EXPECT_EQ(record.changes_size(), 4);
  EXPECT_EQ(record.settings().liars_dice().players(), 4);
  EXPECT_EQ(GetMatchCode(stub(), "nope", &record), grpc::NOT_FOUND);
  EXPECT_EQ(GetMatchCode(stub(), "has space", &record), grpc::INVALID_ARGUMENT)
      << "the same id rule as RecordMatch";
}

struct BadRequest {
  const char* name;
  void (*spoil)(v1::RecordMatchRequest&);
  const char* message;
};

TEST_F(RatingServiceTest, EveryBadRequestIsRefusedPreciselyAndChangesNothing) {
  const std::vector<BadRequest> cases = {
      {"unknown ruleset", [](v1::RecordMatchRequest& r) { r.set_ruleset("chess"); },
       "unknown ruleset"},
      {"no participants", [](v1::RecordMatchRequest& r) { r.clear_participants(); },
       "0 given for 4 seats"},
      {"too few participants",
       [](v1::RecordMatchRequest& r) { r.mutable_participants()->RemoveLast(); },
       "3 given for 4 seats"},
      {"duplicate player",
       [](v1::RecordMatchRequest& r) { r.mutable_participants(1)->set_player_id("ana"); },
       "appears twice"},
      {"repeated seat", [](v1::RecordMatchRequest& r) { r.mutable_participants(1)->set_seat(0); },
       "each once"},
      {"ranks skip", [](v1::RecordMatchRequest& r) { r.mutable_participants(1)->set_rank(3); },
       "ranks skip"},
      {"rank out of range",
       [](v1::RecordMatchRequest& r) { r.mutable_participants(1)->set_rank(9); },
       "rank must be in 1..4"},
      {"human without id",
       [](v1::RecordMatchRequest& r) { r.mutable_participants(2)->clear_player_id(); },
       "player_id"},
      {"bot with id", [](v1::RecordMatchRequest& r) { r.mutable_participants(2)->set_bot(true); },
       "a bot seat has no player_id"},
      {"bad match id", [](v1::RecordMatchRequest& r) { r.set_match_id("has space"); }, "match_id"},
      {"empty match id", [](v1::RecordMatchRequest& r) { r.clear_match_id(); }, "match_id"},
      {"no mode", [](v1::RecordMatchRequest& r) { r.set_mode(v1::MATCH_MODE_UNSPECIFIED); },
       "mode"},
      {"no settings", [](v1::RecordMatchRequest& r) { r.clear_settings(); }, "settings: required"},
      {"invalid settings",
       [](v1::RecordMatchRequest& r) {
         r.mutable_settings()->mutable_liars_dice()->set_players(12);
       },
       "liars_dice.players"},
      {"ended before started",
       [](v1::RecordMatchRequest& r) {
         r.mutable_ended_at()->set_seconds(r.started_at().seconds() - 1);
       },
       "not before started_at"},
      {"no end time", [](v1::RecordMatchRequest& r) { r.clear_ended_at(); }, "both required"},
      {"round scores too narrow",
       [](v1::RecordMatchRequest& r) { r.mutable_rounds(0)->mutable_seat_scores()->RemoveLast(); },
       "one score per seat"},
      {"teammates ranked apart",
       [](v1::RecordMatchRequest& r) {
         r.set_mode(v1::TEAMS);
         for (auto& p : *r.mutable_participants()) p.set_team(p.seat() % 2);
       },
       "share one rank"},
      {"one team only",
       [](v1::RecordMatchRequest& r) {
         r.set_mode(v1::TEAMS);
         for (auto& p : *r.mutable_participants()) {
           p.set_team(0);
           p.set_rank(1);
         }
       },
       "at least two teams"},
  };
  for (const BadRequest& bad : cases) {
    v1::RecordMatchRequest request = SoloMatch("bad", kPlayers, {1, 2, 3, 4});
    bad.spoil(request);
    v1::RecordMatchResponse response;
    const grpc::Status status = Record(request, &response);
    EXPECT_EQ(status.error_code(), grpc::INVALID_ARGUMENT) << bad.name;
    EXPECT_THAT(status.error_message(), HasSubstr(bad.message)) << bad.name;
  }
  v1::MatchRecord record;
  EXPECT_EQ(GetMatchCode(stub(), "bad", &record), grpc::NOT_FOUND);
  EXPECT_EQ(Ratings(stub(), kPlayers).ratings_size(), 0);
}

TEST_F(RatingServiceTest, GetRatingsRefusesBadQueries) {
  auto call = [&](const v1::GetRatingsRequest& request) {
    v1::GetRatingsResponse response;
    auto context = testing::ContextFor("viewer");
    return stub().GetRatings(context.get(), request, &response);
  };
  v1::GetRatingsRequest empty;
  EXPECT_THAT(call(empty).error_message(), HasSubstr("1..100 ids"));
  v1::GetRatingsRequest too_many;
  for (int i = 0; i < 101; ++i) too_many.add_player_ids(absl::StrCat("p", i));
  EXPECT_EQ(call(too_many).error_code(), grpc::INVALID_ARGUMENT);
  v1::GetRatingsRequest twice;
  twice.add_player_ids("ana");
  twice.add_player_ids("ana");
  EXPECT_THAT(call(twice).error_message(), HasSubstr("appears twice"));
  v1::GetRatingsRequest ruleset;
  ruleset.add_player_ids("ana");
  ruleset.set_ruleset("chess");
  EXPECT_THAT(call(ruleset).error_message(), HasSubstr("unknown ruleset"));
  v1::GetRatingsRequest mode;
  mode.add_player_ids("ana");
  mode.set_mode(static_cast<v1::MatchMode>(7));
  EXPECT_EQ(call(mode).error_code(), grpc::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace kahve::rating
