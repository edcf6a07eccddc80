#include "tests/services/rating/rating_fixture.h"

namespace kahve::rating {

using google::protobuf::util::TimeUtil;

RatingServer::RatingServer(const std::string& url, int provisional_games,
                           absl::Duration drain_period, absl::Duration leaderboard_count_interval)
    : RatingServer(Config(url, provisional_games, drain_period, leaderboard_count_interval)) {}

RatingConfig RatingServer::Config(const std::string& url, int provisional_games,
                                  absl::Duration drain_period,
                                  absl::Duration leaderboard_count_interval) {
  RatingConfig config;
  config.authenticator = testing::TestAuthenticator();
  config.pool.url = url;
  config.pool.size = 4;
  config.pool.name = "rating";
  config.server.host = "127.0.0.1";
  config.server.metrics_host = "127.0.0.1";
  config.server.drain_period = drain_period;
  config.server.shutdown_deadline = absl::Seconds(5);
  config.service = {.provisional_games = provisional_games,
                    .page_token_key = "test-key",
                    .leaderboard_count_interval = leaderboard_count_interval};
  config.workers = 4;
  return config;
}

RatingServer::RatingServer(RatingConfig config) {
  process_ = std::make_unique<RatingProcess>(std::move(config));
  const absl::Status started = process_->Start();
  EXPECT_TRUE(started.ok()) << started;
  stub_ = v1::RatingService::NewStub(testing::LocalChannel(process_->port()));
}

RatingServer::~RatingServer() { process_->Stop(); }

void RatingServiceTest::SetUp() {
  PgTest::SetUp();
  rating_ = std::make_unique<RatingServer>(url(), kProvisionalGames);
}

void RatingServiceTest::TearDown() {
  rating_.reset();
  PgTest::TearDown();
}

grpc::Status RatingServiceTest::Record(const v1::RecordMatchRequest& request,
                                       v1::RecordMatchResponse* response) {
  auto context = testing::ContextFor("table-service", common::kRoleService);
  return stub().RecordMatch(context.get(), request, response);
}

v1::RecordMatchRequest SoloMatch(const std::string& match_id,
                                 const std::vector<std::string>& players,
                                 const std::vector<int>& ranks, int64_t ended_s) {
  v1::RecordMatchRequest request;
  request.set_match_id(match_id);
  request.set_ruleset("liars_dice");
  request.set_mode(v1::SOLO);
  request.mutable_settings()->mutable_liars_dice()->set_players(static_cast<int>(players.size()));
  *request.mutable_started_at() = TimeUtil::SecondsToTimestamp(ended_s - 600);
  *request.mutable_ended_at() = TimeUtil::SecondsToTimestamp(ended_s);
  for (size_t seat = 0; seat < players.size(); ++seat) {
    v1::Participant* participant = request.add_participants();
    participant->set_player_id(players[seat]);
    participant->set_seat(static_cast<int>(seat));
    participant->set_rank(ranks[seat]);
    participant->set_final_score(static_cast<double>(players.size()) - ranks[seat]);
  }
  v1::RoundScores* round = request.add_rounds();
  round->set_round(1);
  for (size_t seat = 0; seat < players.size(); ++seat)
    round->add_seat_scores(ranks[seat] == 1 ? 1 : 0);
  return request;
}

v1::RecordMatchRequest TeamMatch(const std::string& match_id,
                                 const std::vector<std::string>& players, bool first_team_won,
                                 int64_t ended_s) {
  const int first = first_team_won ? 1 : 2;
  const int second = first_team_won ? 2 : 1;
  v1::RecordMatchRequest request =
      SoloMatch(match_id, players, {first, second, first, second}, ended_s);
  request.set_mode(v1::TEAMS);
  for (v1::Participant& participant : *request.mutable_participants()) {
    participant.set_team(participant.seat() % 2);
  }
  return request;
}

}  // namespace kahve::rating
