#include <atomic>
#include <chrono>
#include <future>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/table/event_log.h"
#include "tests/services/table/table_store_test_util.h"
#include "tests/support/pg_test_env.h"

namespace kahve::table {
namespace {

using ::kahve::table::testing::Await;
using ::kahve::table::testing::Awaitable;
using ::kahve::table::testing::CountOf;
using ::kahve::table::testing::EntryBytes;
using ::kahve::table::testing::HistogramOf;
using ::kahve::table::testing::Query;
using ::kahve::table::testing::Row;
using ::testing::ElementsAre;
using ::testing::HasSubstr;


class EventLogTest : public kahve::testing::PgTest {
 protected:
  std::unique_ptr<common::PgPool> NewPool() {
    return std::make_unique<common::PgPool>(
        common::PgPoolSettings{.url = url(), .size = 2, .name = "table"}, &registry_);
  }
  EventLogSettings Settings(const std::string& host_id, int writers = 1) const {
    return EventLogSettings{.url = url(), .host_id = host_id, .writers = writers};
  }
  // Whether a session came to wait for a lock on `table` of this test's database within a few
  // seconds. (pg_locks spans the server, and every test database, cloned from one template, gives
  // its tables the same oids: hence the database filter.)
  bool WaitForAWriterBlockedOn(const std::string& table) {
    const std::string sql =
        absl::StrCat("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = '", table,
                     "'::regclass AND database = (SELECT oid FROM pg_database WHERE datname = "
                     "current_database())");
    for (int i = 0; i < 500; ++i) {
      if (CountOf(url(), sql) > 0) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  WriteOutcome Create(EventLog& log, const std::string& table_id, const std::string& match_id) {
    auto [done, outcome] = Awaitable();
    log.CreateTable(Row(table_id, match_id), EntryBytes(table_id, 0), done);
    return Await(outcome);
  }
  WriteOutcome Append(EventLog& log, const std::string& table_id, int64_t seq,
                      std::optional<Finished> finished = std::nullopt) {
    auto [done, outcome] = Awaitable();
    const absl::Status queued =
        log.Append(table_id, 1, seq, EntryBytes(table_id, seq), std::move(finished), done);
    if (!queued.ok()) return queued;  // refused at once: `done` is never called
    return Await(outcome);
  }

  // 8 threads, 5 tables each, 50 moves per table; a thread appends one move to each of its tables,
  // then waits for the five acknowledgements, as tables waiting for durability would. Checks in
  // the acknowledgement itself that the entry is in the database.
  void AppendConcurrently(int writers) {
    constexpr int kThreads = 8, kTablesPerThread = 5, kMoves = 50;
    auto pool = NewPool();
    EventLog log(Settings("host-a", writers), *pool, registry_);
    for (int t = 0; t < kThreads * kTablesPerThread; ++t) {
      ASSERT_TRUE(Create(log, absl::StrCat("t", t), absl::StrCat("m", t)).ok());
    }
    absl::Mutex checker_mu;
    pqxx::connection checker(url());
    std::atomic<int> acknowledged = 0, missing_at_ack = 0;
    std::vector<std::thread> threads;
    for (int thread = 0; thread < kThreads; ++thread) {
      threads.emplace_back([&, thread] {
        for (int seq = 1; seq <= kMoves; ++seq) {
          std::vector<std::future<WriteOutcome>> outcomes;
          for (int i = 0; i < kTablesPerThread; ++i) {
            const std::string table_id = absl::StrCat("t", thread * kTablesPerThread + i);
            auto [done, outcome] = Awaitable();
            const absl::Status queued = log.Append(
                table_id, 1, seq, EntryBytes(table_id, seq), std::nullopt,
                [&, done = done, table_id, seq](const WriteOutcome& written) {
                  absl::MutexLock lock(&checker_mu);
                  pqxx::nontransaction tx(checker);
                  if (tx.exec_params("SELECT 1 FROM table_log WHERE table_id = $1 AND seq = $2",
                                     table_id, seq)
                          .empty()) {
                    ++missing_at_ack;
                  }
                  ++acknowledged;
                  done(written);
                });
            EXPECT_TRUE(queued.ok()) << queued;
            outcomes.push_back(std::move(outcome));
          }
          for (auto& outcome : outcomes) EXPECT_TRUE(Await(outcome).ok());
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    log.Shutdown();
    EXPECT_EQ(acknowledged, kThreads * kTablesPerThread * kMoves);
    EXPECT_EQ(missing_at_ack, 0);
    for (int t = 0; t < kThreads * kTablesPerThread; ++t) {
      const std::string table_id = absl::StrCat("t", t);
      const absl::StatusOr<StoredTable> stored = log.LoadTable(table_id);
      ASSERT_TRUE(stored.ok()) << stored.status();
      EXPECT_EQ(stored->row.last_seq, kMoves);
      ASSERT_EQ(stored->entries.size(), kMoves + 1);
      for (int seq = 0; seq <= kMoves; ++seq) {
        EXPECT_EQ(stored->entries[seq], EntryBytes(table_id, seq));
      }
    }
    const prometheus::ClientMetric::Histogram batches =
        HistogramOf(registry_, "kahve_event_log_batch_size");
    const int writes = kThreads * kTablesPerThread * (kMoves + 1);
    EXPECT_EQ(batches.sample_sum, writes);
    // Grouped: some commits carried several writes. (How many depends on the machine's load, so
    // only that much is asserted; the counts are printed below.)
    EXPECT_LT(batches.sample_count, static_cast<uint64_t>(writes));
    std::cout << "writers " << writers << ": " << writes << " writes in " << batches.sample_count
              << " commits\n";
    EXPECT_GT(HistogramOf(registry_, "kahve_event_log_commit_seconds").sample_count, 0);
  }

  prometheus::Registry registry_;
};

TEST_F(EventLogTest, ConcurrentAppendsLandInOrderAndAreGrouped) { AppendConcurrently(1); }

TEST_F(EventLogTest, SeveralWritersKeepEachTablesOrder) { AppendConcurrently(3); }

TEST_F(EventLogTest, ReusedMatchIdIsRefusedAndTheRestOfTheBatchCommits) {
  auto pool = NewPool();
  EventLog log(Settings("host-a"), *pool, registry_);
  ASSERT_TRUE(Create(log, "a", "match-1").ok());
  const double commits_before = HistogramOf(registry_, "kahve_event_log_batch_size").sample_count;
  // A lock on the log holds the writer inside its commit of the first write, so the other four
  // queue up behind it and go in one batch of their own. (Acknowledgements run on a thread of
  // their own, so holding an acknowledgement would not hold the writer.)
  pqxx::connection locker(url());
  pqxx::work lock_tx(locker);
  lock_tx.exec0("LOCK TABLE table_log IN ACCESS EXCLUSIVE MODE");
  auto [first_done, first] = Awaitable();
  ASSERT_TRUE(log.Append("a", 1, 1, EntryBytes("a", 1), std::nullopt, first_done).ok());
  ASSERT_TRUE(WaitForAWriterBlockedOn("table_log"));
  auto [reuse_done, reuse] = Awaitable();
  log.CreateTable(Row("b", "match-1"), EntryBytes("b", 0), reuse_done);
  auto [fresh_done, fresh] = Awaitable();
  log.CreateTable(Row("c", "match-2"), EntryBytes("c", 0), fresh_done);
  auto [twin_done, twin] = Awaitable();
  log.CreateTable(Row("d", "match-2"), EntryBytes("d", 0), twin_done);
  auto [move_done, move] = Awaitable();
  ASSERT_TRUE(log.Append("a", 1, 2, EntryBytes("a", 2), std::nullopt, move_done).ok());
  lock_tx.commit();
  EXPECT_TRUE(Await(first).ok());

  const WriteOutcome reused = Await(reuse);
  EXPECT_EQ(reused.status.code(), absl::StatusCode::kAlreadyExists) << reused.status;
  EXPECT_THAT(reused.status.message(), HasSubstr("table a"));
  EXPECT_EQ(reused.existing_table_id, "a");
  EXPECT_TRUE(Await(fresh).ok());
  const WriteOutcome twinned = Await(twin);
  EXPECT_EQ(twinned.status.code(), absl::StatusCode::kAlreadyExists) << twinned.status;
  EXPECT_EQ(twinned.existing_table_id, "c");
  EXPECT_TRUE(Await(move).ok());
  // Two commits: the first write alone, then the other four together.
  EXPECT_EQ(HistogramOf(registry_, "kahve_event_log_batch_size").sample_count - commits_before, 2);

  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_tables WHERE table_id IN ('b', 'd')"), 0);
  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_log WHERE table_id IN ('b', 'd')"), 0);
  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_log WHERE table_id = 'c'"), 1);
  EXPECT_EQ(CountOf(url(), "SELECT last_seq FROM table_tables WHERE table_id = 'a'"), 2);
}

TEST_F(EventLogTest, RepeatedWritesAreIdempotentAndConflictsAreRefused) {
  auto pool = NewPool();
  EventLog log(Settings("host-a"), *pool, registry_);
  ASSERT_TRUE(Create(log, "a", "match-1").ok());
  ASSERT_TRUE(Append(log, "a", 1).ok());
  // The same creation or entry again, as after a commit whose reply was lost: success.
  EXPECT_TRUE(Create(log, "a", "match-1").ok());
  EXPECT_TRUE(Append(log, "a", 1).ok());
  // The same table id for another match, or other bytes at a written seq: refused.
  EXPECT_EQ(Create(log, "a", "match-9").status.code(), absl::StatusCode::kAlreadyExists);
  auto [done, outcome] = Awaitable();
  ASSERT_TRUE(log.Append("a", 1, 1, "other bytes", std::nullopt, done).ok());
  const absl::Status conflict = Await(outcome).status;
  EXPECT_EQ(conflict.code(), absl::StatusCode::kAlreadyExists) << conflict;
  EXPECT_THAT(conflict.message(), HasSubstr("seq 1 of table a"));
  EXPECT_EQ(Append(log, "nowhere", 1).status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_log"), 2);
}

TEST_F(EventLogTest, FinishedMarksTheTableAndQueuesTheResultAtomically) {
  auto pool = NewPool();
  EventLog log(Settings("host-a"), *pool, registry_);
  ASSERT_TRUE(Create(log, "a", "match-1").ok());
  ASSERT_TRUE(Append(log, "a", 1).ok());
  // A refused final entry finishes nothing.
  auto [refused_done, refused] = Awaitable();
  ASSERT_TRUE(log.Append("a", 1, 1, "other bytes",
                         Finished{.finished_us = 5,
                                  .match_id = "match-1",
                                  .record_match_request_bytes = "r"},
                         refused_done)
                  .ok());
  EXPECT_EQ(Await(refused).status.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_outbox"), 0);

  const std::string request("request\0bytes", 13);
  ASSERT_TRUE(Append(log, "a", 2,
                     Finished{.finished_us = 1'700'000'000'000'001,
                              .match_id = "match-1",
                              .record_match_request_bytes = request})
                  .ok());
  const pqxx::result table =
      Query(url(), "SELECT finished_us, last_seq FROM table_tables WHERE table_id = 'a'");
  EXPECT_EQ(table[0][0].as<int64_t>(), 1'700'000'000'000'001);
  EXPECT_EQ(table[0][1].as<int64_t>(), 2);
  const pqxx::result outbox =
      Query(url(), "SELECT match_id, payload, attempts, delivered_us IS NULL FROM table_outbox");
  ASSERT_EQ(outbox.size(), 1);
  EXPECT_EQ(outbox[0][0].as<std::string>(), "match-1");
  EXPECT_EQ(pqxx::binarystring(outbox[0][1]).str(), request);
  EXPECT_EQ(outbox[0][2].as<int>(), 0);
  EXPECT_TRUE(outbox[0][3].as<bool>());
}

TEST_F(EventLogTest, ClaimOwnReturnsTheHostsUnfinishedTablesInLogOrderClaimedAnew) {
  auto pool = NewPool();
  EventLog host_a(Settings("host-a"), *pool, registry_);
  EventLog host_b(Settings("host-b"), *pool, registry_);
  ASSERT_TRUE(Create(host_a, "a1", "m1").ok());
  ASSERT_TRUE(Create(host_a, "a2", "m2").ok());
  ASSERT_TRUE(Create(host_b, "b1", "m3").ok());
  for (int seq = 1; seq <= 12; ++seq) ASSERT_TRUE(Append(host_a, "a1", seq).ok());
  ASSERT_TRUE(Append(host_a, "a2", 1, Finished{.finished_us = 9, .match_id = "m2"}).ok());
  ASSERT_TRUE(Append(host_b, "b1", 1).ok());

  const absl::StatusOr<std::vector<StoredTable>> unfinished = host_a.ClaimOwn();
  ASSERT_TRUE(unfinished.ok()) << unfinished.status();
  ASSERT_EQ(unfinished->size(), 1);
  const StoredTable& a1 = unfinished->front();
  EXPECT_EQ(a1.row.table_id, "a1");
  EXPECT_EQ(a1.row.host_id, "host-a");
  EXPECT_EQ(a1.row.match_id, "m1");
  EXPECT_EQ(a1.row.ruleset, "liars_dice");
  EXPECT_FALSE(a1.row.finished_us.has_value());
  // Claimed anew: an earlier run of host-a can no longer write to it.
  EXPECT_EQ(a1.row.owner_epoch, 2);
  ASSERT_EQ(a1.entries.size(), 13);
  for (int seq = 0; seq <= 12; ++seq) EXPECT_EQ(a1.entries[seq], EntryBytes("a1", seq));

  const absl::StatusOr<StoredTable> a2 = host_a.LoadTable("a2");
  ASSERT_TRUE(a2.ok()) << a2.status();
  EXPECT_EQ(a2->row.finished_us, 9);
  EXPECT_THAT(a2->entries, ElementsAre(EntryBytes("a2", 0), EntryBytes("a2", 1)));
  EXPECT_EQ(host_a.LoadTable("nowhere").status().code(), absl::StatusCode::kNotFound);

  // A gap in a log is reported, not replayed around.
  Query(url(), "DELETE FROM table_log WHERE table_id = 'a1' AND seq = 5");
  const auto broken = host_a.ClaimOwn();
  EXPECT_EQ(broken.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(broken.status().message(), HasSubstr("a1"));
}

TEST_F(EventLogTest, HeartbeatsRegisterHostsForMatchmaking) {
  auto pool = NewPool();
  EventLog log(Settings("host-a"), *pool, registry_);
  ASSERT_TRUE(log.Heartbeat("host-a", "10.0.0.1:50052", 3, false).ok());
  ASSERT_TRUE(log.Heartbeat("host-b", "10.0.0.2:50052", 0, false).ok());
  ASSERT_TRUE(log.Heartbeat("host-a", "10.0.0.1:50052", 4, true).ok());
  absl::StatusOr<std::vector<HostRow>> hosts = log.LiveHosts(absl::Minutes(1));
  ASSERT_TRUE(hosts.ok()) << hosts.status();
  ASSERT_EQ(hosts->size(), 2);
  EXPECT_EQ((*hosts)[0].host_id, "host-a");
  EXPECT_EQ((*hosts)[0].live_tables, 4);
  EXPECT_TRUE((*hosts)[0].draining);
  EXPECT_EQ((*hosts)[1].endpoint, "10.0.0.2:50052");
  EXPECT_FALSE((*hosts)[1].draining);
  // A host whose heartbeat stopped drops out.
  Query(url(),
        "UPDATE table_hosts SET heartbeat_us = heartbeat_us - 120000000 "
        "WHERE host_id = 'host-b'");
  hosts = log.LiveHosts(absl::Minutes(1));
  ASSERT_TRUE(hosts.ok()) << hosts.status();
  ASSERT_EQ(hosts->size(), 1);
  EXPECT_EQ((*hosts)[0].host_id, "host-a");
}

TEST_F(EventLogTest, WritesAfterShutdownAreRefused) {
  auto pool = NewPool();
  EventLog log(Settings("host-a"), *pool, registry_);
  ASSERT_TRUE(Create(log, "a", "m").ok());
  log.Shutdown();
  EXPECT_EQ(Append(log, "a", 1).status.code(), absl::StatusCode::kUnavailable);
  log.Shutdown();
}

}  // namespace
}  // namespace kahve::table
