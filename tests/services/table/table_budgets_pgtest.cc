// What a hostile client could make a table host hold for a whole table's life (issue 28), over
// real gRPC and PostgreSQL: finished practice tables that lingered outside every budget and were
// played out by bots into the log, a host's practice tables filled by a few players, and logs of
// finished tables that were never pruned.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::testing::HasSubstr;

class TableBudgetsTest : public TableServiceTest {
 protected:
  void Restart(TableHostSettings settings) {
    server_.reset();
    server_ = std::make_unique<TableServer>(url(), kHostId, std::move(settings));
  }
  double Metric(const std::string& family, const std::map<std::string, std::string>& labels = {}) {
    return kahve::testing::MetricSum(server_->metrics().registry(), family, labels);
  }
  // A practice table of `settings` for `player`, at seat 0.
  grpc::Status CreatePractice(const std::string& player, const std::string& request_id,
                              const v1::GameSettings& settings,
                              v1::CreatePracticeTableResponse* response) {
    v1::CreatePracticeTableRequest request;
    *request.mutable_settings() = settings;
    request.set_request_id(request_id);
    auto context = kahve::testing::ContextFor(player);
    return stub().CreatePracticeTable(context.get(), request, response);
  }
  grpc::Status Resign(const std::string& player, const v1::CreatePracticeTableResponse& table,
                      v1::ResignResponse* response = nullptr) {
    auto context = kahve::testing::ContextFor(player);
    v1::ResignRequest request;
    request.set_table_id(table.table_id());
    request.set_seat_token(table.seat_token());
    v1::ResignResponse ignored;
    return stub().Resign(context.get(), request, response != nullptr ? response : &ignored);
  }
  grpc::Status Pause(const std::string& player, const v1::CreatePracticeTableResponse& table) {
    auto context = kahve::testing::ContextFor(player);
    v1::PracticeRequest request;
    request.set_table_id(table.table_id());
    request.set_seat_token(table.seat_token());
    v1::PracticeResponse response;
    return stub().Pause(context.get(), request, &response);
  }
  int64_t LogRows(const std::string& table_id) {
    return Count(absl::StrCat("SELECT count(*) FROM table_log WHERE table_id = '", table_id, "'"));
  }
};

v1::GameSettings TenPlayerMexicanTrain() {
  v1::GameSettings settings;
  settings.mutable_mexican_train()->set_players(10);
  return settings;
}

v1::GameSettings TwoPlayerLiarsDice() {
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(2);
  return settings;
}

// Finding 2: a loop of CreatePracticeTable and Resign had bots play out each 10-player Mexican
// Train (about 6,000 log rows a second from one identity), and every finished table lingered in
// memory a minute, counted by no budget: 53 to 822 MB in 60 s. Now a resignation closes the table
// with one entry, and past max_finished_tables a finished table leaves memory at once.
TEST_F(TableBudgetsTest, APracticeLoopOfCreateAndResignHoldsNeitherMemoryNorLogRows) {
  TableHostSettings settings = TableServer::DefaultSettings();
  settings.max_finished_tables = 4;
  Restart(settings);
  constexpr int kRounds = 30;
  std::vector<std::string> tables;
  std::vector<uint64_t> closed_at;
  for (int round = 0; round < kRounds; ++round) {
    v1::CreatePracticeTableResponse created;
    const grpc::Status opened =
        CreatePractice("mallory", absl::StrCat("loop-", round), TenPlayerMexicanTrain(), &created);
    ASSERT_TRUE(opened.ok()) << opened.error_message();
    v1::ResignResponse resigned;
    ASSERT_TRUE(Resign("mallory", created, &resigned).ok());
    tables.push_back(created.table_id());
    closed_at.push_back(resigned.seq());
  }
  // Each table logged its creation, the bots' moves before the player's turn, and its closing as
  // its last entry: not a game played out (a played-out 10-player game logs hundreds).
  for (size_t i = 0; i < tables.size(); ++i) {
    EXPECT_EQ(LogRows(tables[i]), static_cast<int64_t>(closed_at[i]) + 1) << tables[i];
    EXPECT_LE(closed_at[i], 40u) << tables[i];
  }
  EXPECT_EQ(Metric("kahve_tables_closed_total", {{"reason", "practice_resigned"}}), kRounds);
  // Finished tables past the budget leave memory as soon as the clock sees them.
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (server_->host().live_tables() > 5 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_LE(server_->host().live_tables(), 5);
  EXPECT_LE(Metric("kahve_tables_finished_in_memory"), 5);
  EXPECT_EQ(Metric("kahve_budget_in_use", {{"budget", "max_practice_tables"}}), 0);
  // A closed table still answers from the database: its view says it closed, and why.
  absl::StatusOr<v1::GetViewResponse> view = View(tables.front(), "mallory", "");
  ASSERT_TRUE(view.ok()) << view.status();
  ASSERT_TRUE(view->has_closed());
  EXPECT_EQ(view->closed().reason(), v1::TableClosed::PRACTICE_RESIGNED);
}

// Finding 7: 1,667 accounts holding three practice tables each filled a host's 5,000 for half an
// hour. Now, with the host full, a new table closes the one idle longest (if idle long enough),
// so idle tables of a few players never lock the others out; busy ones are never touched.
TEST_F(TableBudgetsTest, AFullHostClosesTheTableIdleLongestForANewPlayer) {
  TableHostSettings settings = TableServer::DefaultSettings();
  settings.max_practice_tables = 3;
  settings.max_practice_tables_per_player = 3;
  settings.practice_min_idle_to_evict = absl::Minutes(2);
  settings.clock = &simulated_clock_;
  Restart(settings);
  std::vector<v1::CreatePracticeTableResponse> mallorys(3);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(
        CreatePractice("mallory", absl::StrCat("m", i), TwoPlayerLiarsDice(), &mallorys[i]).ok());
    ASSERT_TRUE(Pause("mallory", mallorys[i]).ok());
    simulated_clock_.Advance(absl::Seconds(10));
  }
  // Nothing idle long enough yet: the host is full.
  v1::CreatePracticeTableResponse quinns;
  grpc::Status refused = CreatePractice("quinn", "q0", TwoPlayerLiarsDice(), &quinns);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(), HasSubstr("max_practice_tables"));

  simulated_clock_.Advance(absl::Minutes(3));
  const grpc::Status opened = CreatePractice("quinn", "q0", TwoPlayerLiarsDice(), &quinns);
  ASSERT_TRUE(opened.ok()) << opened.error_message();
  // The first of mallory's tables (idle longest) made room; the others stay.
  absl::StatusOr<v1::GetViewResponse> evicted = View(mallorys[0].table_id(), "mallory", "");
  ASSERT_TRUE(evicted.ok()) << evicted.status();
  ASSERT_TRUE(evicted->has_closed());
  EXPECT_EQ(evicted->closed().reason(), v1::TableClosed::PRACTICE_EVICTED);
  for (int i = 1; i < 3; ++i) {
    absl::StatusOr<v1::GetViewResponse> kept = View(mallorys[i].table_id(), "mallory", "");
    ASSERT_TRUE(kept.ok());
    EXPECT_FALSE(kept->has_closed()) << i;
  }
  EXPECT_EQ(Metric("kahve_tables_closed_total", {{"reason", "practice_evicted"}}), 1);
  EXPECT_EQ(Metric("kahve_budget_in_use", {{"budget", "max_practice_tables"}}), 3);
}

// Deliverable 5: finished tables' logs are pruned by policy: practice a day after their end,
// rated ones kept (match history refers to them) unless the operator sets a retention; running
// tables never. The rows kept are a metric.
TEST_F(TableBudgetsTest, RetentionPrunesFinishedPracticeLogsAndKeepsRatedAndRunningOnes) {
  v1::CreatePracticeTableResponse practice;
  ASSERT_TRUE(CreatePractice("pia", "old", TwoPlayerLiarsDice(), &practice).ok());
  ASSERT_TRUE(Resign("pia", practice).ok());
  v1::CreatePracticeTableResponse running;
  ASSERT_TRUE(CreatePractice("pia", "running", TwoPlayerLiarsDice(), &running).ok());
  std::string rated;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, {}, &rated);
  PlayToTheEnd(rated, players);
  ASSERT_EQ(Count("SELECT count(*) FROM table_tables WHERE finished_us IS NOT NULL"), 2);
  // Everything happened two days ago.
  Count(
      "UPDATE table_tables SET finished_us = finished_us - 172800000000, "
      "created_us = created_us - 172800000000 RETURNING 1");
  const int64_t rated_rows = LogRows(rated);
  const int64_t running_rows = LogRows(running.table_id());
  ASSERT_GT(LogRows(practice.table_id()), 0);

  prometheus::Registry registry;
  LogRetention retention({.practice = absl::Hours(24)}, server_->pool(), registry);
  absl::StatusOr<PrunedLogs> pruned = retention.PruneOnce();
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(pruned->tables, 1);
  EXPECT_EQ(LogRows(practice.table_id()), 0);
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_tables WHERE table_id = '",
                               practice.table_id(), "'")),
            0);
  EXPECT_EQ(LogRows(rated), rated_rows);
  EXPECT_EQ(LogRows(running.table_id()), running_rows);
  EXPECT_EQ(kahve::testing::MetricSum(registry, "kahve_table_log_rows", {{"kind", "rated"}}),
            rated_rows);
  EXPECT_EQ(kahve::testing::MetricSum(registry, "kahve_table_log_rows", {{"kind", "practice"}}),
            running_rows);
  EXPECT_EQ(
      kahve::testing::MetricSum(registry, "kahve_table_logs_pruned_total", {{"kind", "practice"}}),
      1);
  // A retention for rated games, when the operator sets one, takes them too; still not the
  // running table.
  LogRetention rated_too({.practice = absl::Hours(24), .rated = absl::Hours(24)}, server_->pool(),
                         registry);
  pruned = rated_too.PruneOnce();
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(pruned->tables, 1);
  EXPECT_EQ(pruned->rows, rated_rows);
  EXPECT_EQ(LogRows(running.table_id()), running_rows);
}

}  // namespace
}  // namespace kahve::table
