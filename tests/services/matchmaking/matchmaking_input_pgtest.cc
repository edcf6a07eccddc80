// Bad input to the matchmaking service: each gets a precise status and changes nothing.

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/matchmaking/queue_spec.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

class MatchmakingInputTest : public MatchmakingTest {
 protected:
  void SetUp() override {
    MatchmakingTest::SetUp();
    // No passes: nothing moves while the refusals are checked.
    MatchmakerSettings settings = Settings();
    settings.pass_interval = absl::Hours(1);
    StartMatchmaker(settings);
  }

  // Everything a refused call could have changed.
  std::string State() {
    return absl::StrCat(Count("SELECT count(*) FROM mm_tickets"), "/",
                        Count("SELECT count(*) FROM mm_ticket_players WHERE active"), "/",
                        Count("SELECT count(*) FROM mm_tickets WHERE state = 'waiting'"), "/",
                        Count("SELECT count(*) FROM mm_parties"), "/",
                        Count("SELECT count(*) FROM mm_party_members"));
  }

  grpc::StatusCode EnqueueCode(const std::string& player, const v1::EnqueueRequest& request) {
    const std::string before = State();
    const grpc::StatusCode code = Enqueue(player, request, nullptr).error_code();
    EXPECT_EQ(State(), before) << "a refused Enqueue changed something";
    return code;
  }
};

TEST_F(MatchmakingInputTest, BadSettingsAreInvalidArgument) {
  EXPECT_EQ(EnqueueCode("ana", v1::EnqueueRequest()), grpc::StatusCode::INVALID_ARGUMENT);
  v1::EnqueueRequest no_ruleset;
  no_ruleset.mutable_settings();
  EXPECT_EQ(EnqueueCode("ana", no_ruleset), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(EnqueueCode("ana", LiarsDice(11)), grpc::StatusCode::INVALID_ARGUMENT);
  v1::EnqueueRequest teams = LiarsDice(4);
  teams.set_teams(true);
  EXPECT_EQ(EnqueueCode("ana", teams), grpc::StatusCode::INVALID_ARGUMENT)
      << "Liar's dice has no partners";
  v1::EnqueueRequest wait = LiarsDice(4);
  wait.set_longest_wait_seconds(-1);
  EXPECT_EQ(EnqueueCode("ana", wait), grpc::StatusCode::INVALID_ARGUMENT);
}

// The okey family: the queue's teams flag decides the partnership; settings may not disagree.
TEST_F(MatchmakingInputTest, OkeyPartnershipsFollowTheQueue) {
  v1::EnqueueRequest classic;
  classic.mutable_settings()->mutable_okey()->set_partners(true);
  EXPECT_EQ(EnqueueCode("ana", classic), grpc::StatusCode::INVALID_ARGUMENT)
      << "partners asked for in a solo queue";
  v1::EnqueueRequest three;
  three.mutable_settings()->mutable_okey()->set_players(3);
  three.set_teams(true);
  EXPECT_EQ(EnqueueCode("ana", three), grpc::StatusCode::INVALID_ARGUMENT)
      << "partnerships need four";
  v1::EnqueueRequest okey51 = Okey51(/*teams=*/false);
  okey51.mutable_settings()->mutable_okey51()->set_teams(true);
  EXPECT_EQ(EnqueueCode("ana", okey51), grpc::StatusCode::INVALID_ARGUMENT);
  v1::EnqueueRequest okey101 = Okey101(/*teams=*/false);
  okey101.mutable_settings()->mutable_okey101()->set_teams(true);
  EXPECT_EQ(EnqueueCode("ana", okey101), grpc::StatusCode::INVALID_ARGUMENT);
  v1::EnqueueRequest four_deals = Okey101(/*teams=*/true);
  four_deals.mutable_settings()->mutable_okey101()->set_deals(4);
  EXPECT_EQ(EnqueueCode("ana", four_deals), grpc::StatusCode::INVALID_ARGUMENT)
      << "okey101 plays 3, 5, 7, 9 or 11 deals";
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 0);

  v1::GameSettings okey101_default;
  okey101_default.mutable_okey101();
  const absl::StatusOr<QueueSpec> okey101_teams = QueueSpecFor(okey101_default, true);
  ASSERT_TRUE(okey101_teams.ok()) << okey101_teams.status();
  EXPECT_TRUE(okey101_teams->settings.okey101().teams());
  EXPECT_EQ(okey101_teams->settings.okey101().deals(), 5) << "the default is written out";
  EXPECT_EQ(okey101_teams->min_seats, 4);

  v1::GameSettings four;
  four.mutable_okey();
  const absl::StatusOr<QueueSpec> teams = QueueSpecFor(four, true);
  ASSERT_TRUE(teams.ok()) << teams.status();
  EXPECT_TRUE(teams->settings.okey().partners());
  EXPECT_EQ(teams->settings.okey().players(), 4);
  EXPECT_EQ(teams->mode, v1::TEAMS);
  const absl::StatusOr<QueueSpec> solo = QueueSpecFor(four, false);
  ASSERT_TRUE(solo.ok());
  EXPECT_FALSE(solo->settings.okey().partners());
  EXPECT_EQ(solo->min_seats, 4) << "classic okey tables never shrink";
  EXPECT_NE(solo->key, teams->key);
}

TEST_F(MatchmakingInputTest, OnlyTheCallerOrTheCallersPartyIsQueued) {
  v1::EnqueueRequest three = LiarsDice(4);
  for (const char* player : {"ana", "bora", "cem"}) three.add_players(player);
  EXPECT_EQ(EnqueueCode("ana", three), grpc::StatusCode::INVALID_ARGUMENT) << "party too large";
  v1::EnqueueRequest someone_else = LiarsDice(4);
  someone_else.add_players("bora");
  EXPECT_EQ(EnqueueCode("ana", someone_else), grpc::StatusCode::PERMISSION_DENIED);

  v1::Party party;
  ASSERT_TRUE(CreateParty("ana", &party).ok());
  v1::EnqueueRequest alone_in_party = LiarsDice(4);
  alone_in_party.set_party_id(party.party_id());
  EXPECT_EQ(EnqueueCode("ana", alone_in_party), grpc::StatusCode::FAILED_PRECONDITION)
      << "no partner yet";
  ASSERT_TRUE(JoinParty("bora", party.invite_code()).ok());
  EXPECT_EQ(EnqueueCode("bora", alone_in_party), grpc::StatusCode::PERMISSION_DENIED)
      << "only the leader enqueues the party";
  EXPECT_EQ(EnqueueCode("cem", alone_in_party), grpc::StatusCode::PERMISSION_DENIED)
      << "not in the party";
  v1::EnqueueRequest outsider = alone_in_party;
  outsider.add_players("ana");
  outsider.add_players("cem");
  EXPECT_EQ(EnqueueCode("ana", outsider), grpc::StatusCode::PERMISSION_DENIED)
      << "cem is not in ana's party";
  v1::EnqueueRequest unknown = LiarsDice(4);
  unknown.set_party_id("pt-nope");
  EXPECT_EQ(EnqueueCode("ana", unknown), grpc::StatusCode::NOT_FOUND);

  // The whole party, listed or not, is fine once.
  v1::EnqueueRequest both = alone_in_party;
  both.add_players("bora");
  both.add_players("ana");
  std::string ticket;
  ASSERT_TRUE(Enqueue("ana", both, &ticket).ok());
  EXPECT_EQ(EnqueueCode("ana", LiarsDice(2)), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(EnqueueCode("bora", LiarsDice(4)), grpc::StatusCode::ALREADY_EXISTS)
      << "the partner is queued with the party";
}

TEST_F(MatchmakingInputTest, RepeatedRequestIdReturnsTheSameTicket) {
  v1::EnqueueRequest request = LiarsDice(4);
  request.set_request_id("r-1");
  std::string first, second;
  ASSERT_TRUE(Enqueue("ana", request, &first).ok());
  ASSERT_TRUE(Enqueue("ana", request, &second).ok());
  EXPECT_EQ(first, second);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 1);

  // The same id for another queue is no retry: refused, and nothing changes.
  v1::EnqueueRequest other = LiarsDice(3);
  other.set_request_id("r-1");
  std::string third;
  const grpc::Status reused = Enqueue("ana", other, &third);
  EXPECT_EQ(reused.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(reused.error_message(),
              ::testing::HasSubstr("request_id: already used for ticket " + first));
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 1);
}

// Enqueue's group commit answers a batch as CreateTicket would answer its tickets one by one.
TEST_F(MatchmakingInputTest, ABatchOfTicketsIsAnsweredAsOneByOne) {
  std::string earlier;
  v1::EnqueueRequest with_id = LiarsDice(4);
  with_id.set_request_id("r-1");
  ASSERT_TRUE(Enqueue("ana", with_id, &earlier).ok());  // ana: active, and r-1 is taken

  common::Metrics metrics;
  common::PgPool pool(WithMatchmakingStatements({.url = url(), .size = 1, .name = "test"}),
                      &metrics.registry());
  MatchmakingStore store(&pool);
  const std::string key = QueueSpecFor(with_id.settings(), false)->key;
  auto ticket = [&](const std::string& owner, const std::string& request_id,
                    std::vector<std::string> players, const std::string& queue_key = "") {
    return NewTicket{.queue_key = queue_key.empty() ? key : queue_key,
                     .owner = owner,
                     .request_id = request_id,
                     .players = std::move(players)};
  };
  const std::vector<absl::StatusOr<std::string>> answers = store.tickets.CreateTickets(
      {
          ticket("ana", "r-1", {"ana"}),                       // a retry of the stored ticket
          ticket("bora", "", {"bora", "cem"}),                 // new
          ticket("cem", "", {"cem"}),                          // cem is in bora's ticket, just made
          ticket("deniz", "r-2", {"deniz"}),                   // new
          ticket("deniz", "r-2", {"deniz"}),                   // a retry of the one just made
          ticket("ana", "r-3", {"ana"}),                       // ana already has a ticket
          ticket("deniz", "r-2", {"deniz"}, "another queue"),  // r-2 is deniz's other ticket
      },
      absl::Now());
  ASSERT_EQ(answers.size(), 7u);
  ASSERT_TRUE(answers[0].ok());
  EXPECT_EQ(*answers[0], earlier);
  ASSERT_TRUE(answers[1].ok());
  EXPECT_EQ(answers[2].status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_NE(answers[2].status().message().find(*answers[1]), std::string::npos)
      << answers[2].status();
  ASSERT_TRUE(answers[3].ok());
  ASSERT_TRUE(answers[4].ok());
  EXPECT_EQ(*answers[4], *answers[3]);
  EXPECT_EQ(answers[5].status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_NE(answers[5].status().message().find(earlier), std::string::npos);
  EXPECT_EQ(answers[6].status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_NE(answers[6].status().message().find("another queue; use a new id"), std::string::npos);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 3);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_ticket_players WHERE active"), 4);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_ticket_players WHERE player_id = 'cem' AND"
                  " position = 1"),
            1);
}

TEST_F(MatchmakingInputTest, BadOrUsedInviteCodes) {
  v1::Party party;
  ASSERT_TRUE(CreateParty("ana", &party).ok());
  const std::string before = State();
  EXPECT_EQ(JoinParty("bora", "").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(JoinParty("bora", "NOSUCHCODE").error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(JoinParty("ana", party.invite_code()).error_code(), grpc::StatusCode::ALREADY_EXISTS)
      << "the leader is in the party already";
  v1::Party other;
  EXPECT_EQ(CreateParty("ana", &other).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(State(), before);
  ASSERT_TRUE(JoinParty("bora", party.invite_code()).ok());
  const std::string full = State();
  EXPECT_EQ(JoinParty("cem", party.invite_code()).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION)
      << "a used code";
  EXPECT_EQ(State(), full);
}

TEST_F(MatchmakingInputTest, OthersTicketsAreNotYours) {
  std::string ticket;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ticket).ok());
  const std::string before = State();
  EXPECT_EQ(Cancel("bora", ticket).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Cancel("bora", "tk-unknown").error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Cancel("bora", "").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(State(), before);
  EXPECT_EQ(WatchUntil("bora", ticket, v1::TicketUpdate::QUEUED).status.error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(WatchUntil("bora", "tk-unknown", v1::TicketUpdate::QUEUED).status.error_code(),
            grpc::StatusCode::NOT_FOUND);

  // Without a token nothing is answered.
  grpc::ClientContext context;
  v1::EnqueueResponse response;
  EXPECT_EQ(mm().stub().Enqueue(&context, LiarsDice(4), &response).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(State(), before);
}

}  // namespace
}  // namespace kahve::matchmaking
