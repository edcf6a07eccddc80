// Fair shares (issue 28, finding 7): 200 accounts, each queuing classic okey with its own
// `max_deals`, filled the 200-queue budget and every honest Enqueue for a queue nobody waited in
// was refused for the ticket lifetime. Queueable settings now take few values
// (docs/matchmaking.md, Queues), the budget's default covers every queue they make, and the
// standard queues (each ruleset's defaults) are admitted whatever the budget.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

using ::testing::HasSubstr;

// Every queue clients can open (docs/matchmaking.md, Queues): 45 of liars_dice, 210 of okey,
// 20 of okey101, 16 of okey51, 9 of mexican_train.
constexpr int kPossibleQueues = 300;

class MatchmakingFairSharesTest : public MatchmakingTest {
 protected:
  // A replica whose passes the test runs (RunOnce), so the budget's counts move only when the
  // test says.
  void StartReplica(const MatchmakerBudgets& budgets = {}) {
    mm_ = std::make_unique<MatchmakerServer>(url(), Settings(), Peers(), /*start_passes=*/false,
                                             budgets);
  }

  static v1::EnqueueRequest Request(const v1::GameSettings& settings, bool teams) {
    v1::EnqueueRequest request;
    *request.mutable_settings() = settings;
    request.set_teams(teams);
    return request;
  }

  // What a lobby's "play" asks for: each ruleset's defaults, solo, and teams where the ruleset
  // has partners. Eight queues.
  static std::vector<v1::EnqueueRequest> StandardRequests() {
    std::vector<v1::EnqueueRequest> requests;
    v1::GameSettings settings;
    settings.mutable_liars_dice();
    requests.push_back(Request(settings, false));
    settings.mutable_mexican_train();
    requests.push_back(Request(settings, false));
    for (const bool teams : {false, true}) {
      settings.mutable_okey();
      requests.push_back(Request(settings, teams));
      settings.mutable_okey101();
      requests.push_back(Request(settings, teams));
      settings.mutable_okey51();
      requests.push_back(Request(settings, teams));
    }
    return requests;
  }

  // What an attacker with an account per request tries, to open as many queues as the server
  // takes while leaving the standard ones alone: the 250 values of max_deals, then every
  // combination of the queueable settings over (at least) the ranges the engine accepts.
  static std::vector<v1::EnqueueRequest> AttackRequests() {
    std::vector<v1::EnqueueRequest> requests;
    v1::GameSettings settings;
    for (int deals = 1; deals <= 250; ++deals) {
      settings.mutable_okey()->set_max_deals(deals);
      requests.push_back(Request(settings, false));
    }
    for (int players = 2; players <= 10; ++players) {
      for (int dice = 1; dice <= 5; ++dice) {
        if (players == 4 && dice == 5) continue;
        settings.mutable_liars_dice()->set_players(players);
        settings.mutable_liars_dice()->set_dice_per_player(dice);
        requests.push_back(Request(settings, false));
      }
      if (players == 4) continue;
      settings.mutable_mexican_train()->set_players(players);
      requests.push_back(Request(settings, false));
    }
    for (const bool teams : {false, true}) {
      for (int variant = 0; variant < 16 * 6 * 3; ++variant) {
        v1::OkeySettings& okey = *settings.mutable_okey();
        okey.set_indicator_last_tile((variant & 1) != 0);
        okey.set_elimination((variant & 2) != 0);
        okey.set_single_colour_doubles((variant & 4) != 0);
        okey.set_single_colour_red_black_only((variant & 8) != 0);
        okey.set_max_deals(std::vector<int>{0, 1, 2, 3, 5, 10}[variant / 16 % 6]);
        okey.set_players(2 + variant / 96);
        if (variant == 96 * 2) continue;  // the defaults: four players, no limit
        requests.push_back(Request(settings, teams));
      }
      for (int variant = 1; variant < 2 * 5; ++variant) {
        settings.mutable_okey101()->set_hints((variant & 1) != 0);
        settings.mutable_okey101()->set_deals(std::vector<int>{5, 3, 7, 9, 11}[variant / 2]);
        requests.push_back(Request(settings, teams));
      }
      for (int variant = 1; variant < 2 * 2 * 2; ++variant) {
        settings.mutable_okey51()->set_hints((variant & 1) != 0);
        settings.mutable_okey51()->set_doubling((variant & 2) != 0);
        settings.mutable_okey51()->set_deals(variant & 4 ? 3 : 1);
        requests.push_back(Request(settings, teams));
      }
    }
    return requests;
  }

  // What a budget holds or has refused, as /metrics shows it.
  double InUse(const std::string& budget) {
    return Metric("kahve_budget_in_use", {{"budget", budget}});
  }
  double Refusals(const std::string& budget) {
    return Metric("kahve_budget_refusals_total", {{"budget", budget}});
  }

  grpc::Status GetMyTicket(const std::string& player) {
    auto context = kahve::testing::ContextFor(player);
    v1::TicketUpdate update;
    return mm().stub().GetMyTicket(context.get(), {}, &update);
  }
};

// Every queue the settings allow is one an account may open: with the default budget none is
// refused for want of room, so however many accounts an attacker brings, honest players are
// admitted to the standard queues and to any other.
TEST_F(MatchmakingFairSharesTest, AnAttackOpeningEveryQueueLocksNoHonestPlayerOut) {
  StartReplica();
  const std::vector<v1::EnqueueRequest> attack = AttackRequests();
  int admitted = 0;
  int exhausted = 0;
  for (size_t i = 0; i < attack.size(); ++i) {
    const grpc::Status status = Enqueue(absl::StrCat("attacker", i), attack[i], nullptr);
    admitted += status.ok();
    exhausted += status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
  }
  EXPECT_EQ(exhausted, 0) << "refused for the queue budget, of " << attack.size() << " tries";
  EXPECT_EQ(Count("SELECT count(DISTINCT queue_key) FROM mm_tickets"),
            kPossibleQueues - static_cast<int>(StandardRequests().size()))
      << admitted << " admitted";

  // Counted again from the database, as every pass does: the honest players still get in.
  mm().matchmaker().RunOnce();
  const std::vector<v1::EnqueueRequest> standard = StandardRequests();
  for (size_t i = 0; i < standard.size(); ++i) {
    const grpc::Status status = Enqueue(absl::StrCat("honest", i), standard[i], nullptr);
    EXPECT_TRUE(status.ok()) << standard[i].ShortDebugString() << ": " << status.error_message();
  }
  EXPECT_EQ(Count("SELECT count(DISTINCT queue_key) FROM mm_tickets"), kPossibleQueues);
  EXPECT_TRUE(Enqueue("honest-rare", LiarsDice(9), nullptr).ok()) << "a queue an attacker holds";
}

// An operator may set the budget below the number of queues (each active queue costs every pass
// a few queries); accounts can then fill it with rare settings, but not to the exclusion of the
// standard queues, which do not count against it.
TEST_F(MatchmakingFairSharesTest, StandardQueuesAreAdmittedPastAFullQueueBudget) {
  MatchmakerBudgets budgets;
  budgets.queues.max_active_queues = 5;
  StartReplica(budgets);
  for (const int players : {2, 3, 5, 6, 7}) {
    ASSERT_TRUE(Enqueue(absl::StrCat("rare", players), LiarsDice(players), nullptr).ok());
  }
  const grpc::Status full = Enqueue("rare8", LiarsDice(8), nullptr);
  EXPECT_EQ(full.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(full.error_message(), HasSubstr("budget max_active_queues (5) reached"));

  const std::vector<v1::EnqueueRequest> standard = StandardRequests();
  for (size_t i = 0; i < standard.size(); ++i) {
    const grpc::Status status = Enqueue(absl::StrCat("honest", i), standard[i], nullptr);
    EXPECT_TRUE(status.ok()) << standard[i].ShortDebugString() << ": " << status.error_message();
  }
  // Counted again from the database: the standard queues are active and still do not count.
  mm().matchmaker().RunOnce();
  EXPECT_EQ(Enqueue("rare8", LiarsDice(8), nullptr).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(Enqueue("honest-late", LiarsDice(4), nullptr).ok());
  EXPECT_EQ(InUse("max_active_queues"), 5) << "the standard queues do not count";
  EXPECT_EQ(InUse("max_active_tickets"), 14) << "their tickets do";
  EXPECT_EQ(Refusals("max_active_queues"), 2);
}

// A queueable setting takes only its listed values: another is refused naming the field and the
// values, and changes nothing (no ticket, no queue counted, nothing for the caller to find).
TEST_F(MatchmakingFairSharesTest, AQueueableValueOutsideItsListIsRefusedByNameAndChangesNothing) {
  StartReplica();
  struct Case {
    v1::GameSettings settings;
    std::string message;
  };
  std::vector<Case> cases(7);
  cases[0].settings.mutable_okey()->set_max_deals(7);
  cases[0].message = "settings.okey.max_deals: a queue may ask for 0, 1, 3, 5 or 10, not 7";
  cases[1].settings.mutable_okey()->set_max_deals(-1);
  cases[1].message = "settings.okey.max_deals: a queue may ask for 0, 1, 3, 5 or 10, not -1";
  cases[2].settings.mutable_liars_dice()->set_players(11);
  cases[2].message = "settings.liars_dice.players: a queue may ask for 2..10, not 11";
  cases[3].settings.mutable_liars_dice()->set_dice_per_player(0);
  cases[3].message = "settings.liars_dice.dice_per_player: a queue may ask for 1..5, not 0";
  cases[4].settings.mutable_mexican_train()->set_players(1);
  cases[4].message = "settings.mexican_train.players: a queue may ask for 2..10, not 1";
  cases[5].settings.mutable_okey101()->set_deals(4);
  cases[5].message = "settings.okey101.deals: a queue may ask for 3, 5, 7, 9 or 11, not 4";
  cases[6].settings.mutable_okey51()->set_deals(2);
  cases[6].message = "settings.okey51.deals: a queue may ask for 1 or 3, not 2";
  for (const Case& refused : cases) {
    const grpc::Status status = Enqueue("ana", Request(refused.settings, false), nullptr);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << refused.settings.ShortDebugString();
    EXPECT_EQ(status.error_message(), refused.message);
  }
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 0);
  EXPECT_EQ(GetMyTicket("ana").error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(InUse("max_active_queues"), 0);
  EXPECT_EQ(InUse("max_active_tickets"), 0);
  EXPECT_EQ(Refusals("max_active_queues"), 0);
}

}  // namespace
}  // namespace kahve::matchmaking
