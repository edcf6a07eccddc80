// The table service against hostile clients (issue 17), over real gRPC and PostgreSQL: each test
// replays one way a single player hurt the others, and checks that the player is refused alone
// while everybody else's game goes on.

#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::testing::HasSubstr;

v1::TableOptions NoClock() {
  v1::TableOptions options;
  options.set_turn_seconds(600);
  return options;
}

// A refusal that names the field and never echoes the value.
void ExpectRefusedField(const grpc::Status& status, const std::string& field) {
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr(field));
  EXPECT_LT(status.error_message().size(), 200u);
  EXPECT_EQ(status.error_message().find('\0'), std::string::npos);
}

class TableUntrustedTest : public TableServiceTest {
 protected:
  // Restarts the host with other budgets (the database stays).
  void Restart(TableHostSettings settings, common::StreamBudgetSettings streams = {}) {
    server_.reset();
    server_ = std::make_unique<TableServer>(url(), kHostId, std::move(settings), streams);
  }
  double Metric(const std::string& family, const std::map<std::string, std::string>& labels) {
    return kahve::testing::MetricSum(server_->metrics().registry(), family, labels);
  }
  grpc::Status CreatePractice(const std::string& player, const std::string& request_id,
                              v1::CreatePracticeTableResponse* response) {
    v1::CreatePracticeTableRequest request;
    request.mutable_settings()->mutable_liars_dice()->set_players(2);
    request.set_request_id(request_id);
    auto context = kahve::testing::ContextFor(player);
    return stub().CreatePracticeTable(context.get(), request, response);
  }
};

// Finding 1: Connect's NOT_FOUND fallback handed the call's request and stream to a worker, and a
// client giving up freed both under it: many Connects to unknown tables with deadlines of a few
// milliseconds crashed the host with every table on it.
TEST_F(TableUntrustedTest, ConnectsToUnknownTablesAbandonedAtOnceLeaveEveryTableServed) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, NoClock(), &table_id);
  auto ana = Connect(table_id, "ana", players[0].token);
  std::vector<std::thread> attackers;
  for (int thread = 0; thread < 4; ++thread) {
    attackers.emplace_back([this, thread] {
      for (int call = 0; call < 300; ++call) {
        grpc::ClientContext context;
        context.AddMetadata("authorization", kahve::testing::Bearer("mallory"));
        context.set_deadline(std::chrono::system_clock::now() +
                             std::chrono::milliseconds(1 + call % 3));
        v1::ConnectRequest request;
        request.set_table_id(absl::StrCat("t-unknown-", thread, "-", call));
        auto reader = stub().Connect(&context, request);
        v1::TableUpdate update;
        while (reader->Read(&update)) {
        }
        reader->Finish().IgnoreError();
      }
    });
  }
  for (std::thread& attacker : attackers) attacker.join();
  PlayToTheEnd(table_id, players);
  ASSERT_TRUE(ana->WaitUntil(EndsWithResult));
  EXPECT_EQ(CheckStream(ana->updates(), players[0].seat), "");
  EXPECT_EQ(kahve::testing::HealthStatus(server_->port(), "").value_or("?"), "SERVING");
}

// Finding 2 and 6: a NUL cut the id short in SQL (a finished table was adopted again on every
// call, inflating kahve_tables_active), and a 3 MB id reached the database and came back in the
// error. Every string is checked before any lookup now.
TEST_F(TableUntrustedTest, NulAndOversizedStringsAreRefusedBeforeAnyLookup) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, NoClock(), &table_id);
  PlayToTheEnd(table_id, players);
  const double tables_before = Metric("kahve_tables_active", {});
  for (int call = 0; call < 5; ++call) {
    v1::ConnectRequest request;
    request.set_table_id(table_id + std::string("\0x", 2));
    grpc::ClientContext context;
    context.AddMetadata("authorization", kahve::testing::Bearer("mallory"));
    auto reader = stub().Connect(&context, request);
    v1::TableUpdate update;
    EXPECT_FALSE(reader->Read(&update));
    ExpectRefusedField(reader->Finish(), "table_id");
  }
  EXPECT_EQ(Metric("kahve_tables_active", {}), tables_before);
  EXPECT_EQ(server_->host().live_tables(), 1);

  const std::string huge(3 << 20, 't');
  absl::StatusOr<v1::GetViewResponse> view = View(huge, "mallory", "");
  EXPECT_TRUE(absl::IsInvalidArgument(view.status())) << view.status();
  EXPECT_LT(view.status().message().size(), 200u);

  v1::PlayResponse played;
  ExpectRefusedField(Play(table_id, players[0], v1::Move(), &played, std::string("\0", 1)),
                     "request_id");
  Player forged = players[0];
  forged.token = "token\nwith a line break";
  ExpectRefusedField(Play(table_id, forged, v1::Move(), &played), "seat_token");
  auto context = kahve::testing::ContextFor("mallory");
  v1::GetReplayRequest replay_request;
  replay_request.set_table_id("t-\x01");
  v1::Replay replay;
  ExpectRefusedField(stub().GetReplay(context.get(), replay_request, &replay), "table_id");
}

// Finding 4: streams nobody reads queued every update of the table without bound. Each stream's
// queue and all queues together are budgeted: the unread streams are ended, the host's queued
// bytes stay under its budget, and the one honest reader sees the whole game.
TEST_F(TableUntrustedTest, UnreadStreamsAreEndedAndTheirBytesStayWithinTheHostBudget) {
  TableHostSettings settings = TableServer::DefaultSettings();
  settings.max_stream_queued_bytes = 16 << 10;
  settings.max_streams_queued_bytes = 256 << 10;
  Restart(settings, {.per_identity = 1000, .per_connection = 1000});
  // Four bots playing Liar's dice: a few hundred updates, each a few KiB in memory.
  v1::TableOptions options = NoClock();
  options.set_bot_delay_ms(1);
  std::string table_id;
  CreateTable({"bot:random", "bot:random", "bot:random", "bot:random"}, options, &table_id, 7);

  // A client whose receive window is a few bytes and never grows: its streams stall at once.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 1024);
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  auto slow_channel = grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                                grpc::InsecureChannelCredentials(), args);
  auto slow_stub = v1::TableService::NewStub(slow_channel);
  constexpr int kUnread = 50;
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReader<v1::TableUpdate>>> unread;
  for (int i = 0; i < kUnread; ++i) {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    contexts.back()->AddMetadata("authorization", kahve::testing::Bearer("mallory"));
    v1::ConnectRequest request;
    request.set_table_id(table_id);
    unread.push_back(slow_stub->Connect(contexts.back().get(), request));
  }
  auto honest = Connect(table_id, "ben", "");
  int64_t most_queued = 0;
  const absl::Time deadline = absl::Now() + absl::Seconds(120);
  while (!EndsWithResult(honest->updates()) && absl::Now() < deadline) {
    most_queued = std::max(most_queued, server_->host().stream_queue_budget()->queued());
    absl::SleepFor(absl::Milliseconds(2));
  }
  ASSERT_TRUE(EndsWithResult(honest->updates()));
  EXPECT_EQ(CheckStream(honest->updates(), engine::kSpectator), "");
  // Beyond the host's budget, each stream may hold its first snapshot and the one update always
  // queued for a stream with nothing waiting: a few KiB of memory each. Unbudgeted, these queues
  // would hold up to kMaxQueuedUpdates updates each (hundreds of MiB).
  EXPECT_LE(most_queued, (256 << 10) + kUnread * (32 << 10)) << most_queued;
  std::printf("most bytes queued at once: %lld\n", static_cast<long long>(most_queued));
  EXPECT_GT(Metric("kahve_budget_refusals_total", {{"budget", "max_stream_queued_bytes"}}) +
                Metric("kahve_budget_refusals_total", {{"budget", "max_streams_queued_bytes"}}),
            0);
  // Read now: a stream that was cut ends with the budget it ran into, after what it had queued.
  int exhausted = 0;
  for (int i = 0; i < kUnread; ++i) {
    v1::TableUpdate update;
    while (unread[i]->Read(&update)) {
    }
    if (unread[i]->Finish().error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) ++exhausted;
  }
  EXPECT_GT(exhausted, 0);
  // Everything queued is given back once the streams are gone.
  const absl::Time drained = absl::Now() + absl::Seconds(20);
  while (server_->host().stream_queue_budget()->queued() != 0 && absl::Now() < drained) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  EXPECT_EQ(server_->host().stream_queue_budget()->queued(), 0);
}

TEST_F(TableUntrustedTest, StreamsPerIdentityAreBudgetedAndOthersStillConnect) {
  Restart(TableServer::DefaultSettings(), {.per_identity = 3, .per_connection = 100});
  std::string table_id;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, NoClock(), &table_id);
  std::vector<std::unique_ptr<UpdateReader>> watching;
  for (int i = 0; i < 3; ++i) {
    watching.push_back(Connect(table_id, "mallory", ""));
    ASSERT_TRUE(watching.back()->WaitUntil([](const auto& updates) { return !updates.empty(); }));
  }
  auto refused = Connect(table_id, "mallory", "");
  const std::optional<grpc::Status> status = refused->WaitFinished();
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status->error_message(), HasSubstr("max_streams_per_identity"));
  EXPECT_EQ(Metric("kahve_budget_refusals_total", {{"budget", "max_streams_per_identity"}}), 1);

  auto ana = Connect(table_id, "ana", players[0].token);
  ASSERT_TRUE(ana->WaitUntil([](const auto& updates) { return !updates.empty(); }));
  // A stream closed gives its place back.
  watching.front()->Cancel();
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  bool reopened = false;
  while (!reopened && absl::Now() < deadline) {
    auto again = Connect(table_id, "mallory", "");
    reopened = again->WaitUntil([](const auto& updates) { return !updates.empty(); },
                                absl::Milliseconds(500));
    if (reopened) watching.push_back(std::move(again));
  }
  EXPECT_TRUE(reopened);
}

// Finding 5: one player opened 30,000 practice tables that never expired.
TEST_F(TableUntrustedTest, PracticeTablesPerPlayerAndPerHostAreBudgeted) {
  TableHostSettings settings = TableServer::DefaultSettings();
  settings.max_practice_tables_per_player = 3;
  settings.max_practice_tables = 5;
  Restart(settings);
  std::vector<v1::CreatePracticeTableResponse> mallorys(3);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(CreatePractice("mallory", absl::StrCat("r", i), &mallorys[i]).ok());
  }
  v1::CreatePracticeTableResponse response;
  grpc::Status refused = CreatePractice("mallory", "r3", &response);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(), HasSubstr("max_practice_tables_per_player"));
  // A retry of a table already held is no new table.
  ASSERT_TRUE(CreatePractice("mallory", "r0", &response).ok());
  EXPECT_EQ(response.table_id(), mallorys[0].table_id());
  // Others still practise, up to the host's budget.
  ASSERT_TRUE(CreatePractice("pia", "p0", &response).ok());
  ASSERT_TRUE(CreatePractice("pia", "p1", &response).ok());
  refused = CreatePractice("quinn", "q0", &response);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(), HasSubstr("max_practice_tables"));
  EXPECT_EQ(Metric("kahve_budget_in_use", {{"budget", "max_practice_tables"}}), 5);

  // Resigning closes the table: its place is free again at once.
  auto context = kahve::testing::ContextFor("mallory");
  v1::ResignRequest resign;
  resign.set_table_id(mallorys[1].table_id());
  resign.set_seat_token(mallorys[1].seat_token());
  v1::ResignResponse resigned;
  ASSERT_TRUE(stub().Resign(context.get(), resign, &resigned).ok());
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  grpc::Status again = CreatePractice("mallory", "r4", &response);
  while (!again.ok() && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
    again = CreatePractice("mallory", "r4", &response);
  }
  EXPECT_TRUE(again.ok()) << again.error_message();
}

TEST_F(TableUntrustedTest, AnIdlePracticeTableIsClosedAndNotReloadedAfterARestart) {
  TableHostSettings settings = TableServer::DefaultSettings();
  settings.practice_idle_expiry = absl::Milliseconds(300);
  Restart(settings);
  v1::CreatePracticeTableResponse created;
  ASSERT_TRUE(CreatePractice("pia", "idle", &created).ok());
  auto context = kahve::testing::ContextFor("pia");
  v1::PracticeRequest pause;
  pause.set_table_id(created.table_id());
  pause.set_seat_token(created.seat_token());
  v1::PracticeResponse paused;
  ASSERT_TRUE(stub().Pause(context.get(), pause, &paused).ok());
  auto watcher = Connect(created.table_id(), "pia", created.seat_token());
  ASSERT_TRUE(watcher->WaitUntil(
      [](const std::vector<v1::TableUpdate>& updates) {
        return !updates.empty() && updates.back().has_closed();
      },
      absl::Seconds(30)));
  EXPECT_EQ(watcher->updates().back().closed().reason(), v1::TableClosed::PRACTICE_EXPIRED);
  EXPECT_EQ(Metric("kahve_practice_tables_expired_total", {}), 1);
  EXPECT_EQ(Metric("kahve_budget_in_use", {{"budget", "max_practice_tables"}}), 0);
  // One entry closed it: the bots did not play a game nobody watched to its end (issue 28).
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_log WHERE table_id = '",
                               created.table_id(), "'")),
            static_cast<int64_t>(paused.seq()) + 2);
  watcher->Cancel();
  Restart(settings);
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables WHERE finished_us IS NULL"), 0);
}

}  // namespace
}  // namespace kahve::table
