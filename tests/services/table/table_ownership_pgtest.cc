// Which host serves which table (table_ownership.h): claims, hand-offs, and the fence on the log's
// appends, over a real PostgreSQL. Hosts are EventLogs with their own host ids; a host's death is
// its heartbeat aged in the database (the lease is judged on the database's clock), so nothing
// here sleeps.

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/table/event_log.h"
#include "services/table/log_batch.h"
#include "tests/services/table/table_store_test_util.h"
#include "tests/support/pg_test_env.h"

namespace kahve::table {
namespace {

using ::kahve::table::testing::Await;
using ::kahve::table::testing::Awaitable;
using ::kahve::table::testing::CountOf;
using ::kahve::table::testing::EntryBytes;
using ::kahve::table::testing::Query;
using ::kahve::table::testing::Row;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr absl::Duration kLease = absl::Seconds(5);

// The table a claim loaded, or an error naming the live host that holds it.
absl::StatusOr<StoredTable> StoredOf(absl::StatusOr<TableClaim> claim) {
  if (!claim.ok()) return claim.status();
  if (!claim->stored.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("held by the live host at \"", claim->holder_endpoint, "\""));
  }
  return *std::move(claim->stored);
}

class TableOwnershipTest : public kahve::testing::PgTest {
 protected:
  void SetUp() override {
    kahve::testing::PgTest::SetUp();
    pool_ = std::make_unique<common::PgPool>(
        common::PgPoolSettings{.url = url(), .size = 4, .name = "table"}, &registry_);
    host_a_ = NewLog("host-a");
    host_b_ = NewLog("host-b");
  }
  void TearDown() override {
    host_a_.reset();
    host_b_.reset();
    pool_.reset();
    kahve::testing::PgTest::TearDown();
  }

  std::unique_ptr<EventLog> NewLog(const std::string& host_id) {
    return std::make_unique<EventLog>(EventLogSettings{.url = url(), .host_id = host_id}, *pool_,
                                      registry_);
  }
  WriteOutcome Create(EventLog& log, const std::string& table_id) {
    auto [done, outcome] = Awaitable();
    log.CreateTable(Row(table_id, "m-" + table_id), EntryBytes(table_id, 0), done);
    return Await(outcome);
  }
  WriteOutcome Append(EventLog& log, const std::string& table_id, int64_t epoch, int64_t seq,
                      const std::string& entry) {
    auto [done, outcome] = Awaitable();
    const absl::Status queued = log.Append(table_id, epoch, seq, entry, std::nullopt, done);
    if (!queued.ok()) return queued;  // refused at once: `done` is never called
    return Await(outcome);
  }
  // The host's last heartbeat, moved `age` into the past: to the others it fell silent then.
  void Age(const std::string& host_id, absl::Duration age) {
    Query(url(), absl::StrCat("UPDATE table_hosts SET heartbeat_us = heartbeat_us - ",
                              absl::ToInt64Microseconds(age), " WHERE host_id = '", host_id,
                              "'"));
  }
  std::string HolderOf(const std::string& table_id) {
    return Query(url(), "SELECT host_id || '@' || owner_epoch FROM table_tables "
                        "WHERE table_id = '" + table_id + "'")[0][0]
        .as<std::string>();
  }
  std::vector<std::string> IdsOf(const std::vector<ClaimedTable>& claimed) {
    std::vector<std::string> ids;
    for (const ClaimedTable& one : claimed) ids.push_back(one.stored.row.table_id);
    return ids;
  }

  prometheus::Registry registry_;
  std::unique_ptr<common::PgPool> pool_;
  std::unique_ptr<EventLog> host_a_;
  std::unique_ptr<EventLog> host_b_;
};

// Issue 21's first test: two hosts believe they own one table; the stale one's write is refused
// by the database, and nothing acknowledged is lost.
TEST_F(TableOwnershipTest, OfTwoHostsThatBelieveTheyHoldATableOnlyTheLastClaimantWrites) {
  ASSERT_TRUE(Create(*host_a_, "t").ok());
  for (int seq = 1; seq <= 3; ++seq) {
    ASSERT_TRUE(Append(*host_a_, "t", 1, seq, EntryBytes("t", seq)).ok());
  }
  // host-a never heartbeat: to host-b it is not a live host, and the table is claimable.
  absl::StatusOr<StoredTable> claimed = StoredOf(host_b_->ClaimTable("t", kLease));
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_EQ(claimed->row.owner_epoch, 2);
  EXPECT_EQ(claimed->entries.size(), 4);

  // host-a still serves the table in memory and appends its next move: fenced.
  const WriteOutcome stale = Append(*host_a_, "t", 1, 4, "host-a's move 4");
  EXPECT_EQ(stale.status.code(), absl::StatusCode::kAborted) << stale.status;
  EXPECT_TRUE(stale.fenced);
  EXPECT_THAT(stale.status.message(), HasSubstr("no longer held by this host"));
  // Even at the new epoch: the epoch is not a password, the row names its host.
  EXPECT_TRUE(Append(*host_a_, "t", 2, 4, "host-a's move 4").fenced);

  // host-b goes on from the log it replayed.
  ASSERT_TRUE(Append(*host_b_, "t", 2, 4, EntryBytes("t", 4)).ok());
  absl::StatusOr<StoredTable> stored = host_b_->LoadTable("t");
  ASSERT_TRUE(stored.ok()) << stored.status();
  ASSERT_EQ(stored->entries.size(), 5);
  for (int seq = 0; seq <= 4; ++seq) EXPECT_EQ(stored->entries[seq], EntryBytes("t", seq));
  EXPECT_EQ(HolderOf("t"), "host-b@2");
  // A repeat of an entry the table has, byte for byte, is durable whoever asks.
  EXPECT_TRUE(Append(*host_a_, "t", 1, 3, EntryBytes("t", 3)).ok());
}

// The fence holds under a race: host-a appends as fast as it can while host-b claims. Every
// append host-a had acknowledged is in the log; every one after the claim is refused; host-b
// continues the log without a gap.
TEST_F(TableOwnershipTest, AClaimRacingAStreamOfAppendsLosesNoAcknowledgedEntry) {
  ASSERT_TRUE(Create(*host_a_, "t").ok());
  std::atomic<int64_t> last_acknowledged = 0;
  std::atomic<bool> fenced = false;
  std::promise<void> some_written;
  std::thread writer([&] {
    for (int64_t seq = 1; seq <= 100000; ++seq) {
      const WriteOutcome written = Append(*host_a_, "t", 1, seq, EntryBytes("t", seq));
      if (!written.ok()) {
        fenced = written.fenced;
        return;
      }
      last_acknowledged = seq;
      if (seq == 20) some_written.set_value();
    }
  });
  some_written.get_future().wait();
  absl::StatusOr<StoredTable> claimed = StoredOf(host_b_->ClaimTable("t", kLease));
  writer.join();
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_TRUE(fenced) << "host-a was never refused";
  // The claim replayed exactly what host-a had acknowledged: the write in flight at the claim
  // was either committed before it (and acknowledged) or refused after it.
  EXPECT_EQ(static_cast<int64_t>(claimed->entries.size()), last_acknowledged + 1);
  const int64_t next = last_acknowledged + 1;
  ASSERT_TRUE(Append(*host_b_, "t", claimed->row.owner_epoch, next, EntryBytes("t", next)).ok());
  absl::StatusOr<StoredTable> stored = host_b_->LoadTable("t");
  ASSERT_TRUE(stored.ok()) << stored.status();
  ASSERT_EQ(static_cast<int64_t>(stored->entries.size()), next + 1);
  for (int64_t seq = 0; seq <= next; ++seq) EXPECT_EQ(stored->entries[seq], EntryBytes("t", seq));
}

TEST_F(TableOwnershipTest, ALiveHostKeepsItsTablesAndALapsedHostsAreClaimed) {
  ASSERT_TRUE(host_a_->Heartbeat("host-a", "a:1", 2, false).ok());
  ASSERT_TRUE(host_b_->Heartbeat("host-b", "b:1", 0, false).ok());
  ASSERT_TRUE(Create(*host_a_, "a1").ok());
  ASSERT_TRUE(Create(*host_a_, "a2").ok());
  ASSERT_TRUE(Append(*host_a_, "a1", 1, 1, EntryBytes("a1", 1)).ok());

  // host-a is live: nothing to claim, and a call for its table is told where it is served.
  absl::StatusOr<std::vector<ClaimedTable>> none = host_b_->ClaimLapsed(kLease, 10);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  absl::StatusOr<TableClaim> held = host_b_->ClaimTable("a1", kLease);
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_FALSE(held->stored.has_value());
  EXPECT_EQ(held->holder_endpoint, "a:1");
  EXPECT_EQ(HolderOf("a1"), "host-a@1");

  // host-a falls silent past the lease: host-b claims both, with their logs.
  Age("host-a", absl::Seconds(60));
  absl::StatusOr<std::vector<ClaimedTable>> claimed = host_b_->ClaimLapsed(kLease, 10);
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_THAT(IdsOf(*claimed), UnorderedElementsAre("a1", "a2"));
  for (const ClaimedTable& one : *claimed) {
    EXPECT_EQ(one.previous_host, "host-a");
    ASSERT_TRUE(one.silent_for.has_value());
    EXPECT_GE(*one.silent_for, absl::Seconds(60));
    EXPECT_EQ(one.stored.row.owner_epoch, 2);
    EXPECT_EQ(one.stored.row.host_id, "host-b");
  }
  EXPECT_EQ(HolderOf("a1"), "host-b@2");
  // Claimed once: a second pass (or another host's) finds nothing.
  absl::StatusOr<std::vector<ClaimedTable>> again = host_b_->ClaimLapsed(kLease, 10);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->empty());
}

// A claim that waited out a database outage (docs/table.md, "When the database is away"): every
// heartbeat, the claimant's own too, is as old as the outage, so the holder is judged against the
// claimant's last heartbeat, not the clock, and keeps its tables; once the claimant beats again
// and the holder does not, the holder's tables lapse as usual.
TEST_F(TableOwnershipTest, AfterAnOutageNoHostFindsAnotherLapsedForSilenceBothShared) {
  ASSERT_TRUE(host_a_->Heartbeat("host-a", "a:1", 1, false).ok());
  ASSERT_TRUE(host_b_->Heartbeat("host-b", "b:1", 0, false).ok());
  ASSERT_TRUE(Create(*host_a_, "a1").ok());
  // Neither could beat for a minute: the database was away.
  Age("host-a", absl::Seconds(60));
  Age("host-b", absl::Seconds(60));

  absl::StatusOr<TableClaim> held = host_b_->ClaimTable("a1", kLease);
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_FALSE(held->stored.has_value()) << "claimed a table whose host was as silent as itself";
  EXPECT_EQ(held->holder_endpoint, "a:1");
  absl::StatusOr<std::vector<ClaimedTable>> none = host_b_->ClaimLapsed(kLease, 10);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(HolderOf("a1"), "host-a@1");

  // host-b is back and beats; host-a stays silent: its table lapses.
  ASSERT_TRUE(host_b_->Heartbeat("host-b", "b:1", 0, false).ok());
  absl::StatusOr<StoredTable> claimed = StoredOf(host_b_->ClaimTable("a1", kLease));
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_EQ(HolderOf("a1"), "host-b@2");
}

TEST_F(TableOwnershipTest, ClaimsComeInBatchesAndFinishedTablesStayWhereTheyAre) {
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(Create(*host_a_, absl::StrCat("t", i)).ok());
  {
    auto [done, outcome] = Awaitable();
    ASSERT_TRUE(host_a_
                    ->Append("t4", 1, 1, EntryBytes("t4", 1),
                             Finished{.finished_us = 9, .match_id = "m-t4"}, done)
                    .ok());
    ASSERT_TRUE(Await(outcome).ok());
  }
  absl::StatusOr<std::vector<ClaimedTable>> first = host_b_->ClaimLapsed(kLease, 3);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->size(), 3);
  absl::StatusOr<std::vector<ClaimedTable>> second = host_b_->ClaimLapsed(kLease, 3);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->size(), 1);
  EXPECT_EQ(HolderOf("t4"), "host-a@1");
  // A finished table is read by whoever asks, and stays unclaimed.
  absl::StatusOr<StoredTable> finished = StoredOf(host_b_->ClaimTable("t4", kLease));
  ASSERT_TRUE(finished.ok()) << finished.status();
  EXPECT_EQ(finished->row.finished_us, 9);
  EXPECT_EQ(HolderOf("t4"), "host-a@1");
  EXPECT_EQ(host_b_->ClaimTable("nowhere", kLease).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(TableOwnershipTest, ADrainingHostHandsItsTablesOffAndLeavesTheRegistry) {
  ASSERT_TRUE(host_a_->Heartbeat("host-a", "a:1", 2, true).ok());
  ASSERT_TRUE(Create(*host_a_, "a1").ok());
  ASSERT_TRUE(Create(*host_a_, "a2").ok());
  ASSERT_TRUE(Create(*host_b_, "b1").ok());
  absl::StatusOr<int> released = host_a_->Release();
  ASSERT_TRUE(released.ok()) << released.status();
  EXPECT_EQ(*released, 2);
  EXPECT_EQ(HolderOf("a1"), "@2");
  EXPECT_EQ(HolderOf("b1"), "host-b@1");
  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_hosts WHERE host_id = 'host-a'"), 0);
  // Released means fenced: the drained host cannot write after handing off.
  EXPECT_TRUE(Append(*host_a_, "a1", 1, 1, EntryBytes("a1", 1)).fenced);

  // host-b is live and holds b1; the handed-off tables go to the first host that asks.
  ASSERT_TRUE(host_b_->Heartbeat("host-b", "b:1", 1, false).ok());
  std::unique_ptr<EventLog> host_c = NewLog("host-c");
  absl::StatusOr<std::vector<ClaimedTable>> claimed = host_c->ClaimLapsed(kLease, 10);
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_THAT(IdsOf(*claimed), UnorderedElementsAre("a1", "a2"));
  for (const ClaimedTable& one : *claimed) {
    EXPECT_EQ(one.previous_host, "");
    EXPECT_FALSE(one.silent_for.has_value());
  }
  EXPECT_EQ(HolderOf("a1"), "host-c@3");
}

TEST_F(TableOwnershipTest, ARestartedHostClaimsItsOwnTablesAnewAndFencesItsEarlierRun) {
  ASSERT_TRUE(Create(*host_a_, "a1").ok());
  // The same host id started again (a pod recreated while the old one is stalled, not dead).
  std::unique_ptr<EventLog> host_a_again = NewLog("host-a");
  absl::StatusOr<std::vector<StoredTable>> own = host_a_again->ClaimOwn();
  ASSERT_TRUE(own.ok()) << own.status();
  ASSERT_EQ(own->size(), 1);
  EXPECT_EQ(own->front().row.owner_epoch, 2);
  EXPECT_TRUE(Append(*host_a_, "a1", 1, 1, EntryBytes("a1", 1)).fenced);
  EXPECT_TRUE(Append(*host_a_again, "a1", 2, 1, EntryBytes("a1", 1)).ok());
  absl::StatusOr<absl::flat_hash_map<std::string, int64_t>> held = host_a_again->Held();
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_EQ(held->size(), 1);
  EXPECT_EQ(held->at("a1"), 2);
}

}  // namespace
}  // namespace kahve::table
