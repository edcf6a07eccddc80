// Matchmaking end to end: real matchmaking, table and rating services over real gRPC and one real
// PostgreSQL database.

#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

// With one entry address in front of the table hosts (--table_client_endpoint), players are told
// that address, never a host's own, while the table is still created on a host.
TEST_F(MatchmakingTest, AssignmentsNameTheEntryAddressWhenOneIsSet) {
  StartMatchmaker(Settings(), {}, "games.example.com:443");
  std::vector<std::string> tickets(2);
  ASSERT_TRUE(Enqueue("ana", LiarsDice(2), &tickets[0]).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(2), &tickets[1]).ok());
  for (int i = 0; i < 2; ++i) {
    const v1::Assignment assignment = AwaitAssignment(i == 0 ? "ana" : "bora", tickets[i]);
    EXPECT_EQ(assignment.table_endpoint(), "games.example.com:443");
    EXPECT_FALSE(assignment.table_id().empty());
  }
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables WHERE host_id <> ''"), 1);
}

TEST_F(MatchmakingTest, FourPlayersShareOneTableAndTheResultReachesRatings) {
  StartRelay();
  StartMatchmaker(Settings());
  const std::vector<std::string> names = {"ana", "bora", "cem", "deniz"};
  std::vector<std::string> tickets(4);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(Enqueue(names[i], LiarsDice(4), &tickets[i]).ok()) << names[i];
  }
  std::vector<table::Player> players;
  std::set<int> seats;
  std::string table_id;
  for (int i = 0; i < 4; ++i) {
    const v1::Assignment assignment = AwaitAssignment(names[i], tickets[i]);
    if (i == 0) table_id = assignment.table_id();
    EXPECT_EQ(assignment.table_id(), table_id);
    EXPECT_EQ(assignment.table_endpoint(), absl::StrCat("127.0.0.1:", server_->port()));
    EXPECT_FALSE(assignment.seat_token().empty());
    EXPECT_FALSE(assignment.match_id().empty());
    seats.insert(assignment.seat());
    players.push_back({names[i], assignment.seat(), assignment.seat_token()});
  }
  ASSERT_FALSE(table_id.empty());
  EXPECT_EQ(seats, (std::set<int>{0, 1, 2, 3}));
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 1);
  EXPECT_EQ(TicketsIn(kMatched), 4);

  // Watching again (a client that reconnects) gives the assignment at once.
  const Watched again = WatchUntil("cem", tickets[2], v1::TicketUpdate::MATCHED);
  ASSERT_EQ(again.updates.size(), 1u);
  EXPECT_EQ(again.updates[0].assignment().table_id(), table_id);
  EXPECT_TRUE(again.status.ok()) << again.status.error_message();

  // The seats are real: the players finish the game and the result is rated.
  PlayToTheEnd(table_id, players);
  bool rated = false;
  for (int attempt = 0; attempt < 200 && !rated; ++attempt) {
    auto context = kahve::testing::ContextFor("ana");
    v1::GetRatingsRequest request;
    for (const std::string& name : names) request.add_player_ids(name);
    v1::GetRatingsResponse response;
    absl::MutexLock lock(&rating_mu_);
    rated = rating_->stub().GetRatings(context.get(), request, &response).ok() &&
            response.ratings_size() == 4;
    if (!rated) absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_TRUE(rated);

  // Queue statistics and metrics tell the story.
  auto context = kahve::testing::ContextFor("ana");
  v1::GetQueueStatsRequest stats_request;
  stats_request.set_ruleset("liars_dice");
  v1::GetQueueStatsResponse stats;
  ASSERT_TRUE(mm().stub().GetQueueStats(context.get(), stats_request, &stats).ok());
  ASSERT_EQ(stats.queues_size(), 1);
  EXPECT_EQ(stats.queues(0).ruleset(), "liars_dice");
  EXPECT_EQ(stats.queues(0).waiting(), 0);
  EXPECT_GT(stats.queues(0).matches_per_minute(), 0);
  EXPECT_GE(stats.queues(0).p95_wait_seconds(), stats.queues(0).p50_wait_seconds());
  auto metrics = kahve::testing::HttpGet(mm().metrics_port(), "/metrics");
  ASSERT_TRUE(metrics.ok()) << metrics.status();
  EXPECT_THAT(*metrics,
              ::testing::HasSubstr("kahve_matches_formed_total{queue=\"liars_dice/solo/"));
  EXPECT_THAT(*metrics, ::testing::HasSubstr("kahve_matchmaking_wait_seconds_count{mode=\"solo\","
                                             "ruleset=\"liars_dice\"} 4"));
  EXPECT_THAT(*metrics, ::testing::HasSubstr("kahve_match_rating_spread_count 1"));
  EXPECT_THAT(*metrics, ::testing::HasSubstr("kahve_matchmaking_pass_seconds_count"));
  // The queue emptied, so its tickets gauges are gone: only held queues have series.
  EXPECT_THAT(*metrics, ::testing::Not(::testing::HasSubstr("kahve_matchmaking_tickets{")));
  const absl::Status promtool = kahve::testing::PromtoolCheck(*metrics);
  EXPECT_TRUE(promtool.ok()) << promtool;
}

TEST_F(MatchmakingTest, WatchingShowsTheQueueThenTheCancellation) {
  StartMatchmaker(Settings());
  std::string ticket;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ticket).ok());
  const Watched queued = WatchUntil("ana", ticket, v1::TicketUpdate::QUEUED);
  ASSERT_FALSE(queued.updates.empty());
  EXPECT_EQ(queued.updates[0].queue_size(), 1);
  EXPECT_TRUE(queued.updates[0].has_enqueued_at());

  ASSERT_TRUE(Cancel("ana", ticket).ok());
  EXPECT_TRUE(Cancel("ana", ticket).ok()) << "cancelling twice is fine";
  const std::map<std::string, std::string> cancelled_here = {
      {"ruleset", "liars_dice"}, {"mode", "solo"}, {"reason", "cancelled"}};
  EXPECT_EQ(Metric("kahve_matchmaking_tickets_ended_total", cancelled_here), 1)
      << "counted once, by the call that cancelled it";
  EXPECT_EQ(Metric("kahve_matchmaking_tickets_ended_total", {{"reason", "expired"}}), 0);
  const Watched cancelled = WatchUntil("ana", ticket, v1::TicketUpdate::CANCELLED);
  ASSERT_FALSE(cancelled.updates.empty());
  EXPECT_EQ(cancelled.updates.back().state(), v1::TicketUpdate::CANCELLED);
  EXPECT_TRUE(cancelled.status.ok());

  // A cancelled ticket is never matched, and its player may queue again.
  std::string again, other;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(2), &again).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(2), &other).ok());
  EXPECT_EQ(AwaitAssignment("ana", again).table_id(), AwaitAssignment("bora", other).table_id());
  EXPECT_EQ(TicketsIn(kCancelled), 1);
  // A matched ticket can no longer be cancelled.
  EXPECT_EQ(Cancel("bora", other).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Metric("kahve_matchmaking_tickets_ended_total", {}), 1);
}

TEST_F(MatchmakingTest, PartySitsTogether) {
  StartMatchmaker(Settings());
  v1::Party party;
  {
    auto context = kahve::testing::ContextFor("ana");
    ASSERT_TRUE(mm().stub().CreateParty(context.get(), {}, &party).ok());
  }
  EXPECT_EQ(party.leader(), "ana");
  ASSERT_FALSE(party.invite_code().empty());
  {
    auto context = kahve::testing::ContextFor("bora");
    v1::JoinPartyRequest join;
    join.set_invite_code(party.invite_code());
    v1::Party joined;
    ASSERT_TRUE(mm().stub().JoinParty(context.get(), join, &joined).ok());
    EXPECT_THAT(joined.members(), ::testing::ElementsAre("ana", "bora"));
    EXPECT_TRUE(joined.invite_code().empty()) << "a full party has no code to share";
  }
  v1::EnqueueRequest request = LiarsDice(4);
  request.set_party_id(party.party_id());
  std::string party_ticket, cem, deniz;
  ASSERT_TRUE(Enqueue("ana", request, &party_ticket).ok());
  ASSERT_TRUE(Enqueue("cem", LiarsDice(4), &cem).ok());
  ASSERT_TRUE(Enqueue("deniz", LiarsDice(4), &deniz).ok());
  const v1::Assignment leader = AwaitAssignment("ana", party_ticket);
  const v1::Assignment partner = AwaitAssignment("bora", party_ticket);
  EXPECT_EQ(leader.table_id(), partner.table_id());
  EXPECT_EQ(partner.seat(), leader.seat() + 1) << "a party sits side by side";
  EXPECT_NE(leader.seat_token(), partner.seat_token());
  EXPECT_EQ(AwaitAssignment("cem", cem).table_id(), leader.table_id());
  EXPECT_EQ(AwaitAssignment("deniz", deniz).table_id(), leader.table_id());

  // Leaving: the partner may go once the ticket is over; the leader's leaving ends the party.
  auto context = kahve::testing::ContextFor("bora");
  v1::LeavePartyRequest leave;
  leave.set_party_id(party.party_id());
  v1::LeavePartyResponse left;
  ASSERT_TRUE(mm().stub().LeaveParty(context.get(), leave, &left).ok());
  EXPECT_EQ(Count("SELECT count(*) FROM mm_party_members"), 1);
}

// A party of two and two singles queue for 2v2 okey51 or okey101 beside a solo player: the party
// are partners, the table plays 2v2 to its end, and all four are rated as teams.
class TwoVersusTwoTest : public MatchmakingTest,
                         public ::testing::WithParamInterface<std::string> {};

TEST_P(TwoVersusTwoTest, APartyStaysTogetherAsPartners) {
  const std::string ruleset = GetParam();
  StartRelay();
  StartMatchmaker(Settings());
  const auto request_for = [&](bool teams) {
    return ruleset == "okey101" ? Okey101(teams) : Okey51(teams);
  };
  v1::Party party;
  {
    auto context = kahve::testing::ContextFor("ana");
    ASSERT_TRUE(mm().stub().CreateParty(context.get(), {}, &party).ok());
  }
  {
    auto context = kahve::testing::ContextFor("bora");
    v1::JoinPartyRequest join;
    join.set_invite_code(party.invite_code());
    v1::Party joined;
    ASSERT_TRUE(mm().stub().JoinParty(context.get(), join, &joined).ok());
  }
  v1::EnqueueRequest request = request_for(/*teams=*/true);
  request.set_party_id(party.party_id());
  std::string party_ticket, cem, deniz, solo;
  ASSERT_TRUE(Enqueue("ana", request, &party_ticket).ok());
  // A solo player waits in another queue: teams and solo never mix.
  ASSERT_TRUE(Enqueue("emre", request_for(/*teams=*/false), &solo).ok());
  ASSERT_TRUE(Enqueue("cem", request_for(/*teams=*/true), &cem).ok());
  ASSERT_TRUE(Enqueue("deniz", request_for(/*teams=*/true), &deniz).ok());

  const v1::Assignment leader = AwaitAssignment("ana", party_ticket);
  const v1::Assignment partner = AwaitAssignment("bora", party_ticket);
  const v1::Assignment third = AwaitAssignment("cem", cem);
  const v1::Assignment fourth = AwaitAssignment("deniz", deniz);
  EXPECT_EQ(partner.table_id(), leader.table_id());
  EXPECT_EQ(third.table_id(), leader.table_id());
  EXPECT_EQ(fourth.table_id(), leader.table_id());
  // Partners sit opposite (seats 0 and 2, 1 and 3): the party is one team, the two singles the
  // other.
  EXPECT_EQ(partner.seat(), (leader.seat() + 2) % 4);
  EXPECT_EQ(third.seat() % 2, fourth.seat() % 2);
  EXPECT_NE(third.seat() % 2, leader.seat() % 2);
  EXPECT_EQ(TicketsIn(kMatched), 3);
  EXPECT_EQ(TicketsIn(kWaiting), 1) << "the solo player is still waiting";
  EXPECT_EQ(
      AwaitMetric("kahve_matchmaking_wait_seconds", {{"ruleset", ruleset}, {"mode", "teams"}}, 3),
      3)
      << "one observation per matched ticket, the party's one of them";
  EXPECT_EQ(Metric("kahve_matchmaking_wait_seconds", {{"mode", "solo"}}), 0);

  // The table plays 2v2, and its result is rated for the teams.
  std::vector<table::Player> players = {{"ana", leader.seat(), leader.seat_token()},
                                        {"bora", partner.seat(), partner.seat_token()},
                                        {"cem", third.seat(), third.seat_token()},
                                        {"deniz", fourth.seat(), fourth.seat_token()}};
  auto view = View(leader.table_id(), "ana", leader.seat_token());
  ASSERT_TRUE(view.ok());
  EXPECT_TRUE(ruleset == "okey101" ? view->view().okey101().teams()
                                   : view->view().okey51().teams());
  PlayToTheEnd(leader.table_id(), players);
  auto end = View(leader.table_id(), "ana", leader.seat_token());
  ASSERT_TRUE(end.ok());
  ASSERT_TRUE(end->view().over());
  for (const auto& seat : end->view().result().seats()) EXPECT_EQ(seat.team(), seat.seat() % 2);
  bool rated = false;
  for (int attempt = 0; attempt < 200 && !rated; ++attempt) {
    auto context = kahve::testing::ContextFor("ana");
    v1::GetRatingsRequest ratings;
    for (const char* name : {"ana", "bora", "cem", "deniz"}) ratings.add_player_ids(name);
    ratings.set_ruleset(ruleset);
    ratings.set_mode(v1::TEAMS);
    v1::GetRatingsResponse response;
    absl::MutexLock lock(&rating_mu_);
    rated = rating_->stub().GetRatings(context.get(), ratings, &response).ok() &&
            response.ratings_size() == 4;
    if (!rated) absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_TRUE(rated) << "the four are rated in " << ruleset << "'s 2v2 mode";
}

INSTANTIATE_TEST_SUITE_P(Rulesets, TwoVersusTwoTest, ::testing::Values("okey51", "okey101"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace kahve::matchmaking
