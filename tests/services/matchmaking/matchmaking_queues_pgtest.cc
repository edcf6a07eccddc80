// Many queues (issue 17, finding 3): queue locks share one database connection, the queues and
// tickets clients can open are budgeted, and two replicas never hold one queue at once.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/matchmaking/queue_catalog.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

using ::kahve::testing::MetricSum;
using ::testing::HasSubstr;
using ::testing::Not;

// This test's database (pg_locks and pg_stat_activity span the server).
constexpr char kThisDatabase[] = "(SELECT oid FROM pg_database WHERE datname = current_database())";

class MatchmakingQueuesTest : public MatchmakingTest {
 protected:
  // The i-th (from 1) of Liar's dice queues for 2, 3, 5, 6, 7 ... players: not the standard
  // queue (4 players), which the budget always admits; a lone ticket waits.
  static v1::EnqueueRequest Rare(int i) { return LiarsDice(i < 3 ? i + 1 : i + 2); }

  // "N locks, M sessions": the advisory locks held in this database.
  std::string Locks() {
    pqxx::connection connection(url());
    pqxx::read_transaction tx(connection);
    const pqxx::row row =
        tx.exec1(absl::StrCat("SELECT count(*), count(DISTINCT pid) FROM pg_locks"
                              "  WHERE locktype = 'advisory' AND granted AND database = ",
                              kThisDatabase));
    return absl::StrCat(row[0].as<int64_t>(), " locks, ", row[1].as<int64_t>(), " sessions");
  }

  // A replica whose passes the test runs (RunOnce).
  std::unique_ptr<MatchmakerServer> Replica(const MatchmakerBudgets& budgets = {}) {
    return std::make_unique<MatchmakerServer>(url(), Settings(), Peers(),
                                              /*start_passes=*/false, budgets);
  }

  static grpc::Status EnqueueAt(MatchmakerServer& server, const std::string& player,
                                const v1::EnqueueRequest& request, std::string* ticket_id) {
    auto context = kahve::testing::ContextFor(player);
    v1::EnqueueResponse response;
    const grpc::Status status = server.stub().Enqueue(context.get(), request, &response);
    *ticket_id = response.ticket_id();
    return status;
  }

  static std::string MetricsOf(MatchmakerServer& server) {
    auto metrics = kahve::testing::HttpGet(server.metrics_port(), "/metrics");
    EXPECT_TRUE(metrics.ok()) << metrics.status();
    return metrics.ok() ? *metrics : "";
  }

  bool WaitFor(const std::function<bool()>& condition, absl::Duration timeout = absl::Seconds(30)) {
    const absl::Time end = absl::Now() + timeout;
    while (!condition()) {
      if (absl::Now() > end) return false;
      absl::SleepFor(absl::Milliseconds(50));
    }
    return true;
  }
};

// Finding 3: 250 players in 250 distinct valid queues took a database connection each for the
// queue locks, exhausting max_connections (200 on the test server); nobody was matched any more.
TEST_F(MatchmakingQueuesTest, ManyQueuesShareOneLockConnectionAndPlayersAreStillMatched) {
  MatchmakerBudgets budgets;
  budgets.queues.max_active_queues = 300;
  StartMatchmaker(Settings(), budgets);
  int lone = 0;
  for (const QueueSpec& queue : EveryQueue()) {
    if (queue.key == "liars_dice/solo/players=2,dice_per_player=5") continue;  // ana's and bora's
    if (++lone > 250) break;
    v1::EnqueueRequest request;
    *request.mutable_settings() = queue.settings;
    request.set_teams(queue.teams);
    ASSERT_TRUE(Enqueue(absl::StrCat("lone", lone), request, nullptr).ok()) << queue.key;
  }
  std::string ana, bora;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(2), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(2), &bora).ok());
  const v1::Assignment assignment = AwaitAssignment("ana", ana);
  EXPECT_EQ(AwaitAssignment("bora", bora).table_id(), assignment.table_id());

  // Every queue still waiting is locked, all on one session (ana's queue emptied: unlocked).
  EXPECT_TRUE(WaitFor([&] { return Locks() == "250 locks, 1 sessions"; })) << Locks();
  const int64_t connections =
      Count(absl::StrCat("SELECT count(*) FROM pg_stat_activity WHERE datid = ", kThisDatabase));
  EXPECT_LT(connections, 60) << "250 queues must not cost a connection each";
}

TEST_F(MatchmakingQueuesTest, ANewQueueBeyondTheBudgetIsRefusedWhileActiveQueuesAccept) {
  MatchmakerBudgets budgets;
  budgets.queues.max_active_queues = 5;
  mm_ = Replica(budgets);
  std::string second;
  for (int i = 1; i <= 5; ++i) {
    std::string ticket;
    ASSERT_TRUE(Enqueue(absl::StrCat("p", i), Rare(i), &ticket).ok());
    if (i == 2) second = ticket;
  }
  const grpc::Status refused = Enqueue("p6", Rare(6), nullptr);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(), HasSubstr("budget max_active_queues (5) reached"));
  EXPECT_TRUE(Enqueue("p7", Rare(1), nullptr).ok()) << "a queue already active";
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 6);
  const std::string metrics = MetricsOf(mm());
  EXPECT_THAT(metrics, HasSubstr("kahve_budget_refusals_total{budget=\"max_active_queues\"} 1"));
  EXPECT_THAT(metrics, HasSubstr("kahve_budget_in_use{budget=\"max_active_queues\"} 5"));
  EXPECT_THAT(metrics, HasSubstr("kahve_budget_in_use{budget=\"max_active_tickets\"} 6"));

  // A queue that empties makes room at the next pass.
  ASSERT_TRUE(Cancel("p2", second).ok());
  mm().matchmaker().RunOnce();
  EXPECT_TRUE(Enqueue("p6", Rare(6), nullptr).ok());
}

TEST_F(MatchmakingQueuesTest, TicketsBeyondTheBudgetAreRefused) {
  MatchmakerBudgets budgets;
  budgets.queues.max_active_tickets = 3;
  mm_ = Replica(budgets);
  std::string first;
  ASSERT_TRUE(Enqueue("p1", LiarsDice(5), &first).ok());
  ASSERT_TRUE(Enqueue("p2", LiarsDice(5), nullptr).ok());
  ASSERT_TRUE(Enqueue("p3", LiarsDice(5), nullptr).ok());
  const grpc::Status refused = Enqueue("p4", LiarsDice(5), nullptr);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(), HasSubstr("budget max_active_tickets (3) reached"));
  // The pass counts the database's tickets: still three.
  mm().matchmaker().RunOnce();
  EXPECT_EQ(Enqueue("p4", LiarsDice(5), nullptr).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  ASSERT_TRUE(Cancel("p1", first).ok());
  mm().matchmaker().RunOnce();
  EXPECT_TRUE(Enqueue("p4", LiarsDice(5), nullptr).ok());
  EXPECT_THAT(MetricsOf(mm()),
              HasSubstr("kahve_budget_refusals_total{budget=\"max_active_tickets\"} 2"));
}

TEST_F(MatchmakingQueuesTest, SettingsThatAreNotQueueableAreRefusedByName) {
  StartMatchmaker(Settings());
  v1::EnqueueRequest rounds = LiarsDice(4);
  rounds.mutable_settings()->mutable_liars_dice()->set_max_rounds(5);
  const grpc::Status refused = Enqueue("ana", rounds, nullptr);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(refused.error_message(), HasSubstr("settings.liars_dice.max_rounds: not queueable"));
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 0);
}

// Two replicas never hold one queue at once, including when one's session dies; the tickets
// gauges (whose `queue` label must stay bounded) exist only for the queues a replica holds.
TEST_F(MatchmakingQueuesTest, TwoReplicasNeverHoldOneQueueAtOnce) {
  std::unique_ptr<MatchmakerServer> a = Replica();
  std::unique_ptr<MatchmakerServer> b = Replica();
  std::string three, four, five;
  ASSERT_TRUE(EnqueueAt(*a, "p3", LiarsDice(3), &three).ok());
  ASSERT_TRUE(EnqueueAt(*b, "p4", LiarsDice(4), &four).ok());
  ASSERT_TRUE(EnqueueAt(*a, "p5", LiarsDice(5), &five).ok());
  const std::string queue3 = "queue=\"liars_dice/solo/players=3,dice_per_player=5\"";

  a->matchmaker().RunOnce();
  b->matchmaker().RunOnce();
  EXPECT_EQ(a->matchmaker().held_queues().size(), 3u);
  EXPECT_TRUE(b->matchmaker().held_queues().empty());
  EXPECT_EQ(Locks(), "3 locks, 1 sessions");
  EXPECT_THAT(MetricsOf(*a), HasSubstr(queue3));
  EXPECT_THAT(MetricsOf(*b), Not(HasSubstr(queue3)));

  // A's session dies (its connection broke): its locks went with it. B takes the queues; A,
  // finding its session dead, forgets its locks and cannot take them back.
  Count(
      absl::StrCat("SELECT count(pg_terminate_backend(pid)) FROM pg_locks"
                   "  WHERE locktype = 'advisory' AND database = ",
                   kThisDatabase));
  ASSERT_TRUE(WaitFor([&] { return Locks() == "0 locks, 0 sessions"; })) << Locks();
  b->matchmaker().RunOnce();
  a->matchmaker().RunOnce();
  EXPECT_EQ(b->matchmaker().held_queues().size(), 3u);
  EXPECT_TRUE(a->matchmaker().held_queues().empty());
  EXPECT_EQ(Locks(), "3 locks, 1 sessions");
  EXPECT_THAT(MetricsOf(*a), Not(HasSubstr(queue3)));
  EXPECT_THAT(MetricsOf(*b), HasSubstr(absl::StrCat("kahve_matchmaking_tickets{", queue3,
                                                    ",state=\"waiting\"} 1")));

  // A queue gone idle is unlocked at the next pass.
  auto context = kahve::testing::ContextFor("p3");
  v1::CancelTicketRequest cancel;
  cancel.set_ticket_id(three);
  v1::CancelTicketResponse cancelled;
  ASSERT_TRUE(a->stub().CancelTicket(context.get(), cancel, &cancelled).ok());
  const std::map<std::string, std::string> cancelled_solo = {
      {"ruleset", "liars_dice"}, {"mode", "solo"}, {"reason", "cancelled"}};
  EXPECT_EQ(
      MetricSum(a->metrics().registry(), "kahve_matchmaking_tickets_ended_total", cancelled_solo),
      1)
      << "the replica whose call cancelled it counts it";
  EXPECT_EQ(MetricSum(b->metrics().registry(), "kahve_matchmaking_tickets_ended_total", {}), 0);
  b->matchmaker().RunOnce();
  EXPECT_EQ(b->matchmaker().held_queues().size(), 2u);
  EXPECT_EQ(Locks(), "2 locks, 1 sessions");
  EXPECT_THAT(MetricsOf(*b), Not(HasSubstr(queue3)));

  // B stops, closing its session (its locks go as its backend exits): A's next pass takes the
  // queues over.
  b->Stop();
  ASSERT_TRUE(WaitFor([&] { return Locks() == "0 locks, 0 sessions"; })) << Locks();
  a->matchmaker().RunOnce();
  EXPECT_EQ(a->matchmaker().held_queues().size(), 2u);
  EXPECT_EQ(Locks(), "2 locks, 1 sessions");
}

// A ticket that expires is counted once, by the replica whose pass expired it: the one holding
// its queue.
TEST_F(MatchmakingQueuesTest, AnExpiredTicketIsCountedOnceByTheReplicaThatExpiredIt) {
  MatchmakerSettings settings = Settings();
  settings.ticket_ttl = absl::Seconds(1);
  settings.clock = &simulated_clock_;  // the passes are the test's own: no one else waits on it
  auto a = std::make_unique<MatchmakerServer>(url(), settings, Peers(),
                                              /*start_passes=*/false);
  auto b = std::make_unique<MatchmakerServer>(url(), settings, Peers(),
                                              /*start_passes=*/false);
  std::string ticket;
  ASSERT_TRUE(EnqueueAt(*a, "ana", LiarsDice(4), &ticket).ok());
  b->matchmaker().RunOnce();
  ASSERT_EQ(b->matchmaker().held_queues().size(), 1u);
  simulated_clock_.Advance(absl::Milliseconds(1100));
  for (int pass = 0; pass < 2; ++pass) {
    a->matchmaker().RunOnce();
    b->matchmaker().RunOnce();
  }
  EXPECT_EQ(TicketsIn(kExpired), 1);
  const std::map<std::string, std::string> expired = {
      {"ruleset", "liars_dice"}, {"mode", "solo"}, {"reason", "expired"}};
  EXPECT_EQ(MetricSum(b->metrics().registry(), "kahve_matchmaking_tickets_ended_total", expired),
            1);
  EXPECT_EQ(MetricSum(a->metrics().registry(), "kahve_matchmaking_tickets_ended_total", {}), 0);
  const absl::Status promtool = kahve::testing::PromtoolCheck(MetricsOf(*b));
  EXPECT_TRUE(promtool.ok()) << promtool;
}

}  // namespace
}  // namespace kahve::matchmaking
