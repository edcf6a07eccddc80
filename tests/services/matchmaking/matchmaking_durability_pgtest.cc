// Matchmaking under restarts, replicas, failing table hosts, and the skill window.

#include <functional>
#include <map>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

// Nothing listens here: connecting fails at once.
constexpr char kDeadEndpoint[] = "127.0.0.1:1";

class MatchmakingDurabilityTest : public MatchmakingTest {
 protected:
  std::string Query(const std::string& sql) {
    pqxx::connection connection(url());
    pqxx::read_transaction tx(connection);
    const pqxx::result rows = tx.exec(sql);
    return rows.empty() || rows[0][0].is_null() ? "" : rows[0][0].as<std::string>();
  }

  void Exec(const std::string& sql) {
    pqxx::connection connection(url());
    pqxx::work tx(connection);
    tx.exec0(sql);
    tx.commit();
  }

  bool WaitFor(const std::function<bool()>& condition, absl::Duration timeout = absl::Seconds(20)) {
    const absl::Time end = absl::Now() + timeout;
    while (!condition()) {
      if (absl::Now() > end) return false;
      absl::SleepFor(absl::Milliseconds(50));
    }
    return true;
  }
};

TEST_F(MatchmakingDurabilityTest, TicketsSurviveARestart) {
  StartMatchmaker(Settings());
  std::string ana, bora, cem, deniz;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(4), &bora).ok());
  mm_.reset();
  EXPECT_EQ(TicketsIn(kWaiting), 2);

  StartMatchmaker(Settings());
  ASSERT_TRUE(Enqueue("cem", LiarsDice(4), &cem).ok());
  ASSERT_TRUE(Enqueue("deniz", LiarsDice(4), &deniz).ok());
  const std::string table_id = AwaitAssignment("ana", ana).table_id();
  EXPECT_FALSE(table_id.empty());
  EXPECT_EQ(AwaitAssignment("bora", bora).table_id(), table_id);
  EXPECT_EQ(AwaitAssignment("cem", cem).table_id(), table_id);
  EXPECT_EQ(AwaitAssignment("deniz", deniz).table_id(), table_id);
}

TEST_F(MatchmakingDurabilityTest, AMatchLeftPlacingIsFinishedWithoutASecondTable) {
  // The only live host is dead: the match is recorded and stays placing.
  UnregisterHost(kHostId);
  absl::SleepFor(absl::Milliseconds(300));  // a heartbeat already under way finishes first
  Exec("DELETE FROM table_hosts");
  RegisterHost("host-dead", kDeadEndpoint, 0);
  StartMatchmaker(Settings());
  std::string ana, bora;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(2), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(2), &bora).ok());
  ASSERT_TRUE(WaitFor([&] {
    return Count("SELECT count(*) FROM mm_matches WHERE state = 'placing' AND attempts > 0") == 1;
  }));
  mm_.reset();
  EXPECT_EQ(TicketsIn(kPlacing), 2);

  // The crash came after the table was created but before the assignments were stored: the
  // table exists on host-a, made from the match's own request.
  v1::CreateTableRequest request;
  ASSERT_TRUE(request.ParseFromString(
      absl::HexStringToBytes(Query("SELECT encode(request, 'hex') FROM mm_matches"))));
  v1::CreateTableResponse created;
  ASSERT_TRUE(Create(request, &created).ok());
  RegisterHost(kHostId, absl::StrCat("127.0.0.1:", server_->port()), 5);

  StartMatchmaker(Settings());
  const v1::Assignment first = AwaitAssignment("ana", ana);
  const v1::Assignment second = AwaitAssignment("bora", bora);
  EXPECT_EQ(first.table_id(), created.table_id());
  EXPECT_EQ(second.table_id(), created.table_id());
  EXPECT_NE(first.seat(), second.seat());
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 1);
}

TEST_F(MatchmakingDurabilityTest, AFailingHostIsSkipped) {
  // The dead host is the least loaded, so it is tried first.
  RegisterHost("host-dead", kDeadEndpoint, 0);
  RegisterHost(kHostId, absl::StrCat("127.0.0.1:", server_->port()), 5);
  StartMatchmaker(Settings());
  std::string ana, bora;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(2), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(2), &bora).ok());
  const v1::Assignment assignment = AwaitAssignment("ana", ana);
  EXPECT_EQ(assignment.table_endpoint(), absl::StrCat("127.0.0.1:", server_->port()));
  EXPECT_EQ(AwaitAssignment("bora", bora).table_id(), assignment.table_id());
  EXPECT_EQ(Query("SELECT host_id FROM mm_matches"), kHostId);
  EXPECT_TRUE(absl::StrContains(Query("SELECT last_error FROM mm_matches"), "host-dead"));
}

TEST_F(MatchmakingDurabilityTest, AMatchNoHostCanMakeIsGivenUpAndItsTicketsWaitAgain) {
  // Only a dead host is live: the real one's heartbeats stop, and (after any write in flight)
  // its row goes.
  UnregisterHost(kHostId);
  RegisterHost("host-dead", kDeadEndpoint, 0);
  absl::SleepFor(absl::Milliseconds(400));
  Exec(absl::StrCat("DELETE FROM table_hosts WHERE host_id = '", kHostId, "'"));
  MatchmakerSettings settings = Settings();
  settings.placement_timeout = absl::Seconds(1);
  StartMatchmaker(settings);
  std::string ana, bora;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(2), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(2), &bora).ok());
  const std::string enqueued = Query("SELECT enqueued_us FROM mm_tickets WHERE owner = 'ana'");
  ASSERT_TRUE(WaitFor([&] {
    return Query("SELECT count(*) FROM mm_matches WHERE state = 'abandoned'") != "0";
  })) << "the match was never given up";
  EXPECT_TRUE(absl::StrContains(
      Query("SELECT last_error FROM mm_matches WHERE state = 'abandoned' LIMIT 1"), "not placed"));
  // Back in line with the time they first queued; no table was made.
  EXPECT_EQ(Query("SELECT enqueued_us FROM mm_tickets WHERE owner = 'ana'"), enqueued);
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 0);
  // A live host again: the next match is placed.
  RegisterHost(kHostId, absl::StrCat("127.0.0.1:", server_->port()), 5);
  UnregisterHost("host-dead");
  const v1::Assignment assignment = AwaitAssignment("ana", ana);
  EXPECT_EQ(AwaitAssignment("bora", bora).table_id(), assignment.table_id());
  EXPECT_EQ(Query("SELECT count(*) FROM mm_matches WHERE state = 'placed'"), "1");
  EXPECT_EQ(Count("SELECT count(*) FROM mm_ticket_players WHERE active"), 0);
}

TEST_F(MatchmakingDurabilityTest, AnotherReplicaTakesTheQueuesOver) {
  StartMatchmaker(Settings());
  MatchmakerServer second(url(), Settings(), Peers());
  // Tickets enqueued through either replica meet in one queue; each is matched once.
  std::vector<std::string> tickets(8);
  for (int i = 0; i < 8; ++i) {
    auto context = kahve::testing::ContextFor(absl::StrCat("p", i));
    v1::EnqueueResponse response;
    auto& stub = i % 2 == 0 ? mm().stub() : second.stub();
    ASSERT_TRUE(stub.Enqueue(context.get(), LiarsDice(2), &response).ok());
    tickets[i] = response.ticket_id();
  }
  std::set<std::string> tables;
  for (int i = 0; i < 8; ++i)
    tables.insert(AwaitAssignment(absl::StrCat("p", i), tickets[i]).table_id());
  EXPECT_EQ(tables.size(), 4u);
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 4);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_matches"), 4);

  // The first replica goes away; the second carries on alone.
  mm_.reset();
  std::string late_a, late_b;
  auto context_a = kahve::testing::ContextFor("late-a");
  auto context_b = kahve::testing::ContextFor("late-b");
  v1::EnqueueResponse response;
  ASSERT_TRUE(second.stub().Enqueue(context_a.get(), LiarsDice(2), &response).ok());
  late_a = response.ticket_id();
  ASSERT_TRUE(second.stub().Enqueue(context_b.get(), LiarsDice(2), &response).ok());
  late_b = response.ticket_id();
  ASSERT_TRUE(WaitFor([&] { return TicketsIn(kMatched) == 10; }));
}

TEST_F(MatchmakingDurabilityTest, SkillClustersDoNotMix) {
  StartMatchmaker(Settings());
  std::vector<std::pair<std::string, std::string>> players;  // (player, ticket)
  for (int i = 0; i < 4; ++i) {
    // Interleaved: strong, weak, strong, weak...
    for (const auto& [prefix, rating] : {std::pair{"strong", 30.0}, std::pair{"weak", 5.0}}) {
      const std::string player = absl::StrCat(prefix, i);
      SetRating(player, rating + i * 0.5);
      std::string ticket;
      ASSERT_TRUE(Enqueue(player, LiarsDice(4), &ticket).ok());
      players.emplace_back(player, ticket);
    }
  }
  std::map<std::string, std::set<std::string>> prefixes_at_table;
  for (const auto& [player, ticket] : players) {
    prefixes_at_table[AwaitAssignment(player, ticket).table_id()].insert(
        player.substr(0, player.size() - 1));
  }
  ASSERT_EQ(prefixes_at_table.size(), 2u);
  for (const auto& [table, prefixes] : prefixes_at_table) EXPECT_EQ(prefixes.size(), 1u) << table;
}

TEST_F(MatchmakingDurabilityTest, TheWindowWidensWithTheWait) {
  MatchmakerSettings settings = Settings();
  // 3 at once, 27 after two seconds: the clusters, 25 apart, meet after about 1.8 s.
  settings.window = SkillWindow{.base = 3, .per_second = 12, .max = 40, .provisional_extra = 0};
  StartOnSimulatedTime(settings);
  const std::vector<std::pair<std::string, double>> ratings = {
      {"strong0", 30}, {"weak0", 5}, {"strong1", 30}, {"weak1", 5}};
  std::vector<std::string> tickets;
  for (const auto& [player, rating] : ratings) {
    SetRating(player, rating);
    ASSERT_TRUE(Enqueue(player, LiarsDice(4), &tickets.emplace_back()).ok());
  }
  AdvanceAndSettle(absl::Seconds(1));
  EXPECT_EQ(TicketsIn(kWaiting), 4) << "a window of 15 after a second does not reach 25";
  AdvanceAndSettle(absl::Milliseconds(500));
  EXPECT_EQ(TicketsIn(kWaiting), 4) << "a window of 21 after 1.5 s does not reach 25";
  AdvanceAndSettle(absl::Milliseconds(500));
  const std::string table_id = AwaitAssignment("strong0", tickets[0]).table_id();
  for (int i = 1; i < 4; ++i) {
    EXPECT_EQ(AwaitAssignment(ratings[i].first, tickets[i]).table_id(), table_id);
  }
  EXPECT_GE(std::stod(Query("SELECT rating_spread FROM mm_matches")), 25.0);
}

}  // namespace
}  // namespace kahve::matchmaking
