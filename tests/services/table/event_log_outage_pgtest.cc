// The event log across a database outage, on a private PostgreSQL the test stops and starts.

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/table/event_log.h"
#include "tests/services/table/table_store_test_util.h"
#include "tests/support/pg_test_env.h"

namespace kahve::table {
namespace {

using ::kahve::table::testing::Await;
using ::kahve::table::testing::Awaitable;
using ::kahve::table::testing::Query;
using ::kahve::testing::PgTestServer;

std::string EntryBytes(int64_t seq) { return absl::StrCat("move ", seq); }

TEST(EventLogOutageTest, WritesQueuedDuringAnOutageCommitOnceItEndsNoneLostOrDoubled) {
  std::unique_ptr<PgTestServer> server = PgTestServer::StartPrivate();
  const std::string url = server->CreateDatabase("outage");
  prometheus::Registry registry;
  common::PgPool pool(common::PgPoolSettings{.url = url, .size = 1, .name = "table"}, &registry);
  EventLog log(EventLogSettings{.url = url,
                                .host_id = "host-a",
                                .retry_max_backoff = absl::Milliseconds(200),
                                .shutdown_flush_timeout = absl::Seconds(1)},
               pool, registry);
  {
    auto [done, outcome] = Awaitable();
    log.CreateTable(TableRow{.table_id = "a", .match_id = "m", .ruleset = "liars_dice"},
                    EntryBytes(0), done);
    ASSERT_TRUE(Await(outcome).ok());
  }

  server->Stop();
  constexpr int kMoves = 40;
  std::vector<std::future<WriteOutcome>> outcomes;
  for (int seq = 1; seq <= kMoves; ++seq) {
    auto [done, outcome] = Awaitable();
    ASSERT_TRUE(log.Append("a", 1, seq, EntryBytes(seq), std::nullopt, done).ok());
    outcomes.push_back(std::move(outcome));
  }
  // Nothing is acknowledged while the database is away.
  absl::SleepFor(absl::Seconds(1));
  for (auto& outcome : outcomes) {
    EXPECT_NE(outcome.wait_for(std::chrono::seconds(0)), std::future_status::ready);
  }
  EXPECT_EQ(log.PendingWrites(), kMoves);

  server->Start();
  for (auto& outcome : outcomes) EXPECT_TRUE(Await(outcome).ok());
  EXPECT_EQ(log.PendingWrites(), 0);
  const absl::StatusOr<StoredTable> stored = log.LoadTable("a");
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->row.last_seq, kMoves);
  ASSERT_EQ(stored->entries.size(), kMoves + 1);
  for (int seq = 0; seq <= kMoves; ++seq) EXPECT_EQ(stored->entries[seq], EntryBytes(seq));

  // Shut down while the database is away again: after the flush timeout the writes still queued
  // fail (the process is going down), and later writes are refused at once.
  server->Stop();
  auto [late_done, late] = Awaitable();
  ASSERT_TRUE(log.Append("a", 1, kMoves + 1, EntryBytes(kMoves + 1), std::nullopt, late_done).ok());
  const absl::Time shutdown_start = absl::Now();
  log.Shutdown();
  EXPECT_LT(absl::Now() - shutdown_start, absl::Seconds(10));
  EXPECT_EQ(Await(late).status.code(), absl::StatusCode::kUnavailable);
  // Refused on the spot, and never called back (the caller may hold a lock its callback takes).
  const absl::Status refused =
      log.Append("a", 1, kMoves + 2, EntryBytes(kMoves + 2), std::nullopt,
                 [](const WriteOutcome&) { ADD_FAILURE() << "a refused append was called back"; });
  EXPECT_EQ(refused.code(), absl::StatusCode::kUnavailable) << refused;

  server->Start();
  EXPECT_EQ(Query(url, "SELECT max(seq) FROM table_log WHERE table_id = 'a'")[0][0].as<int>(),
            kMoves);
}

}  // namespace
}  // namespace kahve::table
