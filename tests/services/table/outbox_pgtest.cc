#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "prometheus/registry.h"
#include "services/common/pg_arrays.h"
#include "services/table/outbox.h"
#include "tests/services/table/table_fixture.h"
#include "tests/services/table/table_store_test_util.h"
#include "tests/support/pg_test_env.h"

namespace kahve::table {
namespace {

using ::kahve::table::testing::CountOf;
using ::kahve::table::testing::GaugeOf;
using ::kahve::table::testing::Query;
using ::testing::HasSubstr;

class OutboxTest : public kahve::testing::PgTest {
 protected:
  std::unique_ptr<common::PgPool> NewPool() {
    return std::make_unique<common::PgPool>(
        common::PgPoolSettings{.url = url(), .size = 2, .name = "outbox"}, &registry_);
  }
  // Queues `count` results, due now, as EventLog does when tables finish.
  void QueueResults(int count) {
    Query(url(), absl::StrCat("INSERT INTO table_outbox (match_id, payload, created_us, "
                              "next_attempt_us) SELECT 'm' || n, ('\\x00ff'::bytea || "
                              "convert_to(n::text, 'UTF8')), 0, 0 FROM generate_series(1, ",
                              count, ") AS n"));
  }
  // The row's next attempt and the database's clock, in microseconds since the epoch.
  int64_t NextAttemptUs(const std::string& match_id) {
    return CountOf(
        url(),
        absl::StrCat("SELECT next_attempt_us FROM table_outbox WHERE match_id = '", match_id, "'"));
  }
  int64_t DbNowUs() {
    return CountOf(url(), "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint");
  }
  // Delivers once, and checks the failure set the next attempt `delay_us` +-20% after the attempt,
  // which happened somewhere between the two clock readings around it (however slow the host).
  void DeliverAndExpectBackoff(Outbox& outbox, const Outbox::Send& send, int64_t delay_us) {
    const int64_t before = DbNowUs();
    ASSERT_TRUE(outbox.DeliverPending(send, 10).ok());
    const int64_t after = DbNowUs();
    const int64_t next = NextAttemptUs("m1");
    EXPECT_GE(next, before + delay_us * 8 / 10);
    EXPECT_LE(next, after + delay_us * 12 / 10);
  }

  prometheus::Registry registry_;
};

TEST_F(OutboxTest, FailuresBackOffAndASuccessDeliversOnce) {
  auto pool = NewPool();
  Outbox outbox(*pool, registry_);
  QueueResults(1);
  ASSERT_EQ(*outbox.PendingCount(), 1);
  EXPECT_EQ(GaugeOf(registry_, "kahve_outbox_pending"), 1);

  int sends = 0;
  std::string sent_payload;
  auto failing = [&](const std::string&, const std::string& payload) {
    ++sends;
    sent_payload = payload;
    return absl::UnavailableError("rating service down");
  };
  // First retry in 0.5 s +-20%.
  DeliverAndExpectBackoff(outbox, failing, 500'000);
  EXPECT_EQ(sends, 1);
  EXPECT_EQ(sent_payload, std::string("\0\xff"
                                      "1",
                                      3));
  pqxx::result row = Query(url(), "SELECT attempts, last_error FROM table_outbox");
  EXPECT_EQ(row[0][0].as<int>(), 1);
  EXPECT_THAT(row[0][1].as<std::string>(), HasSubstr("rating service down"));
  // Not due yet (an hour away, whatever the host's speed): not sent.
  Query(url(),
        absl::StrCat("UPDATE table_outbox SET next_attempt_us = ", DbNowUs() + 3'600'000'000));
  int picked = -1;
  ASSERT_TRUE(outbox.DeliverPending(failing, 10, &picked).ok());
  EXPECT_EQ(picked, 0);
  EXPECT_EQ(sends, 1);

  // Due again: the second failure waits twice as long.
  Query(url(), "UPDATE table_outbox SET next_attempt_us = 0");
  DeliverAndExpectBackoff(outbox, failing, 1'000'000);
  EXPECT_EQ(sends, 2);

  Query(url(), "UPDATE table_outbox SET next_attempt_us = 0");
  int delivered = 0;
  auto succeeding = [&](const std::string& match_id, const std::string&) {
    EXPECT_EQ(match_id, "m1");
    ++delivered;
    return absl::OkStatus();
  };
  ASSERT_TRUE(outbox.DeliverPending(succeeding, 10).ok());
  ASSERT_TRUE(outbox.DeliverPending(succeeding, 10).ok());
  Query(url(), "UPDATE table_outbox SET next_attempt_us = 0");
  ASSERT_TRUE(outbox.DeliverPending(succeeding, 10).ok());
  EXPECT_EQ(delivered, 1);
  row = Query(url(), "SELECT attempts, last_error IS NULL, delivered_us > 0 FROM table_outbox");
  EXPECT_EQ(row[0][0].as<int>(), 3);
  EXPECT_TRUE(row[0][1].as<bool>());
  EXPECT_TRUE(row[0][2].as<bool>());
  EXPECT_EQ(*outbox.PendingCount(), 0);
  EXPECT_EQ(GaugeOf(registry_, "kahve_outbox_pending"), 0);
}

TEST_F(OutboxTest, BackoffDoublesUpToItsCap) {
  auto pool = NewPool();
  Outbox exact(*pool, registry_, OutboxSettings{.jitter = 0});
  EXPECT_EQ(exact.BackoffAfter(1), absl::Milliseconds(500));
  EXPECT_EQ(exact.BackoffAfter(2), absl::Seconds(1));
  EXPECT_EQ(exact.BackoffAfter(4), absl::Seconds(4));
  EXPECT_EQ(exact.BackoffAfter(8), absl::Seconds(60));
  EXPECT_EQ(exact.BackoffAfter(1000), absl::Seconds(60));
  Outbox jittered(*pool, registry_);
  for (int i = 0; i < 100; ++i) {
    const absl::Duration backoff = jittered.BackoffAfter(3);
    EXPECT_GE(backoff, absl::Milliseconds(1600));
    EXPECT_LE(backoff, absl::Milliseconds(2400));
    EXPECT_LE(jittered.BackoffAfter(100), absl::Seconds(60));
  }
}

TEST_F(OutboxTest, TwoOutboxesNeverSendTheSameResultTwice) {
  constexpr int kResults = 300;
  QueueResults(kResults);
  absl::Mutex mu;
  std::map<std::string, int> sends;
  auto send = [&](const std::string& match_id, const std::string&) {
    {
      absl::MutexLock lock(&mu);
      ++sends[match_id];
    }
    absl::SleepFor(absl::Microseconds(200));  // so the two passes overlap
    return absl::OkStatus();
  };
  std::vector<std::thread> hosts;
  std::atomic<int> failures = 0;
  for (int host = 0; host < 2; ++host) {
    hosts.emplace_back([&] {
      prometheus::Registry registry;
      common::PgPool pool(common::PgPoolSettings{.url = url(), .size = 1}, &registry);
      Outbox outbox(pool, registry);
      int picked = 1;
      while (picked > 0) {
        if (!outbox.DeliverPending(send, 7, &picked).ok()) ++failures;
      }
    });
  }
  for (std::thread& host : hosts) host.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(sends.size(), kResults);
  for (const auto& [match_id, count] : sends) EXPECT_EQ(count, 1) << match_id;
  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_outbox WHERE delivered_us IS NULL"), 0);
}

TEST_F(OutboxTest, RelayDeliversInTheBackgroundUntilStopped) {
  QueueResults(50);
  auto pool = NewPool();
  Outbox outbox(*pool, registry_);
  std::atomic<int> sent = 0;
  OutboxRelay relay(
      outbox,
      [&](const std::string&, const std::string&) {
        ++sent;
        return absl::OkStatus();
      },
      absl::Milliseconds(20), /*batch_limit=*/8);
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (sent < 50 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(10));
  EXPECT_EQ(sent, 50);
  // The gauge follows within a pass or two.
  while (GaugeOf(registry_, "kahve_outbox_pending") != 0 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  EXPECT_EQ(GaugeOf(registry_, "kahve_outbox_pending"), 0);
  relay.Stop();
  Query(url(),
        "INSERT INTO table_outbox (match_id, payload, created_us, next_attempt_us) "
        "VALUES ('late', '', 0, 0)");
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_EQ(sent, 50);
  relay.Stop();
}

TEST_F(OutboxTest, ASendHoldsNoConnectionAndItsClaimKeepsOtherHostsAway) {
  QueueResults(1);
  // One connection each: a pass that held its connection through the send would stop every other
  // use of the pool until the send returned.
  common::PgPool pool(common::PgPoolSettings{.url = url(), .size = 1}, &registry_);
  Outbox outbox(pool, registry_, OutboxSettings{.claim_for = absl::Seconds(5)});
  absl::Notification sending;
  absl::Notification release;
  std::thread pass([&] {
    EXPECT_TRUE(outbox
                    .DeliverPending(
                        [&](const std::string&, const std::string&) {
                          sending.Notify();
                          release.WaitForNotification();
                          return absl::OkStatus();
                        },
                        10)
                    .ok());
  });
  ASSERT_TRUE(sending.WaitForNotificationWithTimeout(absl::Seconds(20)));

  // Mid-send: the pool's only connection is free, and the claimed row is no other host's to send.
  EXPECT_TRUE(pool.Run([](pqxx::connection& connection) {
                    pqxx::nontransaction tx(connection);
                    tx.exec1("SELECT 1");
                    return absl::OkStatus();
                  })
                  .ok());
  common::PgPool other_pool(common::PgPoolSettings{.url = url(), .size = 1}, &registry_);
  Outbox other(other_pool, registry_);
  int other_sends = 0;
  auto count_send = [&](const std::string&, const std::string&) {
    ++other_sends;
    return absl::UnavailableError("the other host's rating service is down");
  };
  int picked = -1;
  ASSERT_TRUE(other.DeliverPending(count_send, 10, &picked).ok());
  EXPECT_EQ(picked, 0);
  EXPECT_FALSE(release.HasBeenNotified());

  // A host that dies mid-send: once its claim lapses the row is due again for the others.
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (other_sends == 0 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(100));
    ASSERT_TRUE(other.DeliverPending(count_send, 10).ok());
  }
  EXPECT_EQ(other_sends, 1);
  release.Notify();
  pass.join();
  // The first host's acknowledgement, stored after the other's failure, delivers the row.
  EXPECT_EQ(CountOf(url(), "SELECT count(*) FROM table_outbox WHERE delivered_us IS NULL"), 0);
}

// A rating service whose RecordMatch is held until released (at most 30 s), then refused.
class StalledRating final : public v1::RatingService::Service {
 public:
  grpc::Status RecordMatch(grpc::ServerContext*, const v1::RecordMatchRequest*,
                           v1::RecordMatchResponse*) override {
    {
      absl::MutexLock lock(&mu_);
      ++held_;
    }
    release_.WaitForNotificationWithTimeout(absl::Seconds(30));
    absl::MutexLock lock(&mu_);
    --held_;
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "stalled");
  }
  bool WaitUntilHolding(absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    return mu_.AwaitWithTimeout(absl::Condition(
                                    +[](int* held) { return *held > 0; }, &held_),
                                timeout);
  }
  int held() {
    absl::MutexLock lock(&mu_);
    return held_;
  }
  void Release() { release_.Notify(); }

 private:
  absl::Notification release_;
  absl::Mutex mu_;
  int held_ ABSL_GUARDED_BY(mu_) = 0;
};

TEST_F(TableServiceTest, AStalledRatingServiceLeavesThePoolAndTheMovesAlone) {
  StalledRating rating;
  int rating_port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &rating_port);
  builder.RegisterService(&rating);
  std::unique_ptr<grpc::Server> rating_server = builder.BuildAndStart();
  ASSERT_NE(rating_server, nullptr);

  // A host with one database connection, relaying results to the stalled service, whose calls may
  // take a minute: a relay holding its connection through the call would stop every move.
  TableConfig config = TableServer::Config(url(), "host-relaying");
  config.pool.size = 1;
  config.relay = true;
  config.rating_target = absl::StrCat("127.0.0.1:", rating_port);
  config.rating_bearer = "not-checked";
  config.rating_deadline = absl::Seconds(60);
  auto host = std::make_unique<TableServer>(std::move(config));
  via_ = host.get();

  const std::vector<std::string> four = {"ana", "ben", "cem", "dua"};
  v1::TableOptions options;
  options.set_away_grace_seconds(60);
  std::string finished_id;
  const std::vector<Player> first = CreateTable(four, options, &finished_id);
  EXPECT_GT(PlayToTheEnd(finished_id, first), 0);
  ASSERT_TRUE(rating.WaitUntilHolding(absl::Seconds(20)));

  // While the rating service holds the result: a new table, moves, a view.
  std::string table_id;
  const std::vector<Player> players = CreateTable(four, options, &table_id);
  EXPECT_EQ(PlayToTheEnd(table_id, players, 6), 6);
  EXPECT_TRUE(View(table_id, "ana", players[0].token).ok());
  EXPECT_EQ(rating.held(), 1);
  // The result is claimed, its attempt not yet counted: the send is still out.
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_outbox WHERE attempts = 0 AND ",
                               "delivered_us IS NULL AND next_attempt_us > ", common::kNowUsSql)),
            1);

  rating.Release();
  via_ = nullptr;
  host.reset();
  rating_server->Shutdown();
}

}  // namespace
}  // namespace kahve::table
