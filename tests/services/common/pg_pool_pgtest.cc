#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/common/pg_pool.h"
#include "tests/support/pg_test_env.h"

namespace kahve::common {
namespace {

using ::kahve::testing::PgTest;
using ::kahve::testing::PgTestServer;
using ::testing::HasSubstr;

constexpr char kPoolName[] = "test";
// Upper bound for anything that should be quick; generous for a loaded CI machine.
constexpr absl::Duration kQuick = absl::Seconds(5);

// The value of the series of `family` labelled pool="test" plus `labels` (histograms: the count).
double MetricValue(prometheus::Registry& registry, const std::string& family,
                   const std::map<std::string, std::string>& labels = {}) {
  for (const prometheus::MetricFamily& collected : registry.Collect()) {
    if (collected.name != family) continue;
    for (const prometheus::ClientMetric& metric : collected.metric) {
      std::map<std::string, std::string> have;
      for (const auto& label : metric.label) have[label.name] = label.value;
      if (have["pool"] != kPoolName) continue;
      const bool match = std::all_of(labels.begin(), labels.end(), [&](const auto& label) {
        return have[label.first] == label.second;
      });
      if (!match) continue;
      switch (collected.type) {
        case prometheus::MetricType::Counter:
          return metric.counter.value;
        case prometheus::MetricType::Gauge:
          return metric.gauge.value;
        case prometheus::MetricType::Histogram:
          return static_cast<double>(metric.histogram.sample_count);
        default:
          return -1;
      }
    }
  }
  ADD_FAILURE() << "no series " << family;
  return -1;
}

absl::Status SelectOne(pqxx::connection& connection) {
  pqxx::nontransaction tx(connection);
  return tx.exec1("SELECT 1")[0].as<int>() == 1 ? absl::OkStatus() : absl::InternalError("not 1");
}

absl::StatusOr<int> BackendPid(PgPool& pool) {
  return pool.RunReturning([](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::nontransaction tx(connection);
    return tx.exec1("SELECT pg_backend_pid()")[0].as<int>();
  });
}

// Terminates a backend from a connection of its own and waits until it is gone.
void Terminate(const std::string& url, int pid) {
  pqxx::connection admin(url);
  pqxx::nontransaction tx(admin);
  ASSERT_TRUE(tx.exec_params1("SELECT pg_terminate_backend($1, 5000)", pid)[0].as<bool>());
}

// Waits (bounded) until backend `pid` is running a statement.
void AwaitActive(const std::string& url, int pid) {
  pqxx::connection admin(url);
  const absl::Time deadline = absl::Now() + kQuick;
  while (absl::Now() < deadline) {
    pqxx::nontransaction tx(admin);
    if (!tx.exec_params("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND "
                        "query LIKE 'SELECT pg_sleep%'",
                        pid)
             .empty()) {
      return;
    }
    absl::SleepFor(absl::Milliseconds(1));
  }
  FAIL() << "backend " << pid << " never got busy";
}

class PgPoolTest : public PgTest {
 protected:
  PgPoolSettings Settings(int size) const {
    PgPoolSettings settings;
    settings.url = url();
    settings.size = size;
    settings.name = kPoolName;
    return settings;
  }

  prometheus::Registry registry_;
};

TEST_F(PgPoolTest, RunsQueries) {
  PgPool pool(Settings(2), &registry_);
  EXPECT_EQ(pool.size(), 2);
  int sum = 0;
  ASSERT_TRUE(pool.Run([&](pqxx::connection& connection) {
                    pqxx::work tx(connection);
                    tx.exec0("CREATE TABLE numbers (n int)");
                    tx.exec0("INSERT INTO numbers SELECT generate_series(1, 10)");
                    sum = tx.exec1("SELECT sum(n) FROM numbers")[0].as<int>();
                    tx.commit();
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_EQ(sum, 55);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "idle"}}), 1);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "busy"}}), 0);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_acquire_seconds"), 1);
}

TEST_F(PgPoolTest, ReturnsTheWorksOwnStatusAndKeepsTheConnection) {
  PgPool pool(Settings(1), &registry_);
  const absl::StatusOr<int> before = BackendPid(pool);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(pool.Run([](pqxx::connection&) { return absl::NotFoundError("no such player"); }),
            absl::NotFoundError("no such player"));
  EXPECT_EQ(BackendPid(pool).value_or(0), *before);
}

TEST_F(PgPoolTest, PreparesStatementsOnEveryNewConnection) {
  PgPoolSettings settings = Settings(1);
  settings.prepared = {{"add", "SELECT $1::int + $2::int"}};
  PgPool pool(settings, &registry_);
  auto add = [&](int* sum, int* prepared) {
    return pool.Run([&](pqxx::connection& connection) {
      pqxx::work tx(connection);
      // Prepared when the connection opened, not on first use.
      *prepared =
          tx.exec1("SELECT count(*) FROM pg_prepared_statements WHERE name = 'add'")[0].as<int>();
      *sum = tx.exec_prepared1("add", 2, 3)[0].as<int>();
      tx.commit();
      return absl::OkStatus();
    });
  };
  int sum = 0;
  int prepared = 0;
  ASSERT_TRUE(add(&sum, &prepared).ok());
  EXPECT_EQ(sum, 5);
  EXPECT_EQ(prepared, 1);

  const absl::StatusOr<int> pid = BackendPid(pool);
  ASSERT_TRUE(pid.ok());
  Terminate(url(), *pid);
  sum = prepared = 0;
  ASSERT_TRUE(add(&sum, &prepared).ok());
  EXPECT_EQ(sum, 5);
  EXPECT_EQ(prepared, 1);
  EXPECT_NE(BackendPid(pool).value_or(*pid), *pid);
}

TEST_F(PgPoolTest, BrokenPreparedStatementIsInternal) {
  PgPoolSettings settings = Settings(1);
  settings.prepared = {{"broken", "SELECT * FROM no_such_table"}};
  PgPool pool(settings, &registry_);
  const absl::Status status = pool.Run(SelectOne);
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << status;
  EXPECT_EQ(SqlStateOf(status), "42P01");
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "busy"}}), 0);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "idle"}}), 0);
}

TEST_F(PgPoolTest, SqlErrorIsInternalWithSqlStateAndKeepsTheConnection) {
  PgPool pool(Settings(1), &registry_);
  const absl::StatusOr<int> before = BackendPid(pool);
  ASSERT_TRUE(before.ok());
  const absl::Status status = pool.Run([](pqxx::connection& connection) {
    pqxx::work tx(connection);
    tx.exec("SELECT * FROM no_such_table");
    return absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << status;
  EXPECT_EQ(SqlStateOf(status), "42P01");
  EXPECT_THAT(status.message(), HasSubstr("42P01"));
  EXPECT_FALSE(IsRetryable(status));
  EXPECT_EQ(BackendPid(pool).value_or(0), *before);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_reconnects_total"), 0);
}

TEST_F(PgPoolTest, UniqueViolationCarriesItsSqlState) {
  PgPool pool(Settings(1), nullptr);
  const absl::Status status = pool.Run([](pqxx::connection& connection) {
    pqxx::work tx(connection);
    tx.exec0("CREATE TEMP TABLE once (id int PRIMARY KEY)");
    tx.exec0("INSERT INTO once VALUES (1), (1)");
    return absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(SqlStateOf(status), "23505");
  EXPECT_TRUE(IsUniqueViolation(status));
  EXPECT_TRUE(IsDataError(status));
}

TEST_F(PgPoolTest, RunReturningGivesTheWorksValueOrItsError) {
  PgPool pool(Settings(1), nullptr);
  const absl::StatusOr<std::string> value =
      pool.RunReturning([](pqxx::connection& connection) -> absl::StatusOr<std::string> {
        pqxx::nontransaction tx(connection);
        return tx.exec1("SELECT 'kahve'")[0].as<std::string>();
      });
  EXPECT_EQ(value.value_or(""), "kahve");
  const absl::StatusOr<int> refused = pool.RunReturning(
      [](pqxx::connection&) -> absl::StatusOr<int> { return absl::NotFoundError("no such row"); });
  EXPECT_EQ(refused.status(), absl::NotFoundError("no such row"));
  const absl::StatusOr<int> thrown =
      pool.RunReturning([](pqxx::connection& connection) -> absl::StatusOr<int> {
        pqxx::nontransaction tx(connection);
        return tx.exec1("SELECT * FROM no_such_table")[0].as<int>();
      });
  EXPECT_EQ(thrown.status().code(), absl::StatusCode::kInternal) << thrown.status();
  EXPECT_EQ(SqlStateOf(thrown.status()), "42P01");
  EXPECT_TRUE(pool.Run(SelectOne).ok());
}

TEST_F(PgPoolTest, ExceptionFromTheWorkIsInternal) {
  PgPool pool(Settings(1), nullptr);
  const absl::Status status =
      pool.Run([](pqxx::connection&) -> absl::Status { throw std::runtime_error("oops"); });
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(status.message(), HasSubstr("oops"));
  EXPECT_EQ(SqlStateOf(status), "");
  EXPECT_TRUE(pool.Run(SelectOne).ok());
}

TEST_F(PgPoolTest, RaisedSerializationFailureAndDeadlockAreAborted) {
  PgPool pool(Settings(1), nullptr);
  for (const std::string code : {"serialization_failure", "deadlock_detected"}) {
    const absl::Status status = pool.Run([&](pqxx::connection& connection) {
      pqxx::work tx(connection);
      tx.exec("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '" + code + "'; END $$");
      tx.commit();
      return absl::OkStatus();
    });
    EXPECT_EQ(status.code(), absl::StatusCode::kAborted) << code << ": " << status;
    EXPECT_TRUE(IsRetryable(status));
    EXPECT_EQ(SqlStateOf(status), code == "serialization_failure" ? "40001" : "40P01");
  }
  EXPECT_TRUE(pool.Run(SelectOne).ok());
}

// Write skew under SERIALIZABLE: each transaction reads both rows and clears the other one's, so
// one of them must fail (PostgreSQL's documented on-call doctors example).
TEST_F(PgPoolTest, SerializationConflictIsAborted) {
  PgPool pool(Settings(2), nullptr);
  ASSERT_TRUE(pool.Run([](pqxx::connection& connection) {
                    pqxx::work tx(connection);
                    tx.exec0("CREATE TABLE doctors (id int PRIMARY KEY, on_call bool NOT NULL)");
                    tx.exec0("INSERT INTO doctors VALUES (1, true), (2, true)");
                    tx.commit();
                    return absl::OkStatus();
                  })
                  .ok());
  absl::Notification first_read;
  absl::Notification second_read;
  absl::Notification first_committed;
  auto go_off_call = [&](int id, absl::Notification* read, absl::Notification* wait_for,
                         absl::Notification* committed) {
    return pool.Run([&](pqxx::connection& connection) -> absl::Status {
      pqxx::transaction<pqxx::isolation_level::serializable> tx(connection);
      tx.exec1("SELECT count(*) FROM doctors WHERE on_call");
      read->Notify();
      if (!wait_for->WaitForNotificationWithTimeout(kQuick)) return absl::DeadlineExceededError("");
      tx.exec_params0("UPDATE doctors SET on_call = false WHERE id = $1", id);
      tx.commit();
      if (committed != nullptr) committed->Notify();
      return absl::OkStatus();
    });
  };
  absl::Status first;
  absl::Status second;
  // The second reads, then writes only after the first has committed.
  std::thread thread([&] { first = go_off_call(1, &first_read, &second_read, &first_committed); });
  ASSERT_TRUE(first_read.WaitForNotificationWithTimeout(kQuick));
  std::thread second_thread(
      [&] { second = go_off_call(2, &second_read, &first_committed, /*committed=*/nullptr); });
  thread.join();
  second_thread.join();
  EXPECT_TRUE(first.ok()) << first;
  EXPECT_EQ(second.code(), absl::StatusCode::kAborted) << second;
  EXPECT_EQ(SqlStateOf(second), "40001");
  EXPECT_TRUE(pool.Run(SelectOne).ok());
}

TEST_F(PgPoolTest, ManyThreadsShareFewConnections) {
  constexpr int kSize = 3;
  constexpr int kThreads = 8;
  constexpr int kRunsPerThread = 25;
  PgPoolSettings settings = Settings(kSize);
  settings.acquire_timeout = absl::Seconds(30);
  PgPool pool(settings, &registry_);
  std::atomic<int> in_flight{0};
  std::atomic<int> most_in_flight{0};
  std::atomic<int> most_busy{0};
  std::mutex pids_mutex;
  std::set<int> pids;
  std::vector<absl::Status> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kRunsPerThread; ++i) {
        const absl::Status status = pool.Run([&](pqxx::connection& connection) {
          const int now = ++in_flight;
          int seen = most_in_flight.load();
          while (now > seen && !most_in_flight.compare_exchange_weak(seen, now)) {
          }
          const int busy = static_cast<int>(
              MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "busy"}}));
          int most = most_busy.load();
          while (busy > most && !most_busy.compare_exchange_weak(most, busy)) {
          }
          pqxx::nontransaction tx(connection);
          const int pid = tx.exec1("SELECT pg_backend_pid() FROM pg_sleep(0.001)")[0].as<int>();
          {
            std::lock_guard<std::mutex> lock(pids_mutex);
            pids.insert(pid);
          }
          --in_flight;
          return absl::OkStatus();
        });
        if (!status.ok()) {
          std::lock_guard<std::mutex> lock(pids_mutex);
          failures.push_back(status);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_TRUE(failures.empty()) << failures.front();
  EXPECT_LE(most_in_flight.load(), kSize);
  EXPECT_GE(most_in_flight.load(), 2);
  EXPECT_LE(most_busy.load(), kSize);
  EXPECT_LE(pids.size(), static_cast<size_t>(kSize));
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "busy"}}), 0);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "idle"}}),
            static_cast<double>(pids.size()));
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_waiting"), 0);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_acquire_seconds"), kThreads * kRunsPerThread);
}

TEST_F(PgPoolTest, AcquireTimeoutIsResourceExhausted) {
  PgPoolSettings settings = Settings(1);
  settings.acquire_timeout = absl::Milliseconds(100);
  PgPool pool(settings, &registry_);
  absl::Notification holding;
  absl::Notification release;
  absl::Status holder;
  std::thread thread([&] {
    holder = pool.Run([&](pqxx::connection&) {
      holding.Notify();
      release.WaitForNotificationWithTimeout(kQuick);
      return absl::OkStatus();
    });
  });
  ASSERT_TRUE(holding.WaitForNotificationWithTimeout(kQuick));
  const absl::Time start = absl::Now();
  const absl::Status status = pool.Run(SelectOne);
  const absl::Duration waited = absl::Now() - start;
  release.Notify();
  thread.join();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_GE(waited, absl::Milliseconds(90));
  EXPECT_LT(waited, kQuick);
  EXPECT_TRUE(holder.ok());
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_waiting"), 0);
  EXPECT_TRUE(pool.Run(SelectOne).ok());
}

TEST_F(PgPoolTest, WaiterGetsTheReleasedConnection) {
  PgPoolSettings settings = Settings(1);
  settings.acquire_timeout = absl::Seconds(30);
  PgPool pool(settings, &registry_);
  absl::Notification holding;
  absl::Notification release;
  std::thread holder([&] {
    EXPECT_TRUE(pool.Run([&](pqxx::connection&) {
                      holding.Notify();
                      release.WaitForNotificationWithTimeout(kQuick);
                      return absl::OkStatus();
                    })
                    .ok());
  });
  ASSERT_TRUE(holding.WaitForNotificationWithTimeout(kQuick));
  absl::Status waiter_status = absl::UnknownError("not run");
  std::thread waiter([&] { waiter_status = pool.Run(SelectOne); });
  const absl::Time deadline = absl::Now() + kQuick;
  while (MetricValue(registry_, "kahve_pg_pool_waiting") < 1 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(1));
  }
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_waiting"), 1);
  release.Notify();
  holder.join();
  waiter.join();
  EXPECT_TRUE(waiter_status.ok()) << waiter_status;
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "idle"}}), 1);
}

TEST_F(PgPoolTest, BackendKilledDuringWorkIsUnavailableThenRecovers) {
  PgPool pool(Settings(1), &registry_);
  std::atomic<int> pid{0};
  absl::Notification started;
  absl::Status status;
  std::thread thread([&] {
    status = pool.Run([&](pqxx::connection& connection) {
      pqxx::nontransaction tx(connection);
      pid = tx.exec1("SELECT pg_backend_pid()")[0].as<int>();
      started.Notify();
      tx.exec("SELECT pg_sleep(30)");
      return absl::OkStatus();
    });
  });
  ASSERT_TRUE(started.WaitForNotificationWithTimeout(kQuick));
  AwaitActive(url(), pid);
  Terminate(url(), pid);
  thread.join();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_FALSE(IsRetryable(status));
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_connections", {{"state", "idle"}}), 0);

  const absl::StatusOr<int> next = BackendPid(pool);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_NE(*next, pid.load());
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_reconnects_total"), 1);
}

TEST_F(PgPoolTest, IdleConnectionKilledIsReplacedBeforeUse) {
  PgPool pool(Settings(1), &registry_);
  const absl::StatusOr<int> before = BackendPid(pool);
  ASSERT_TRUE(before.ok());
  Terminate(url(), *before);
  // The pool notices the dead idle connection when handing it out and opens another instead of
  // failing the request.
  const absl::StatusOr<int> after = BackendPid(pool);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_NE(*after, *before);
  EXPECT_EQ(MetricValue(registry_, "kahve_pg_pool_reconnects_total"), 1);
}

TEST(PgPoolNoServerTest, UnreachableDatabaseIsUnavailableQuickly) {
  // A port nobody listens on: bound, then closed.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  close(fd);
  PgPoolSettings settings;
  settings.url =
      "postgresql://postgres@127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/postgres";
  settings.size = 2;
  PgPool pool(settings, nullptr);
  for (int i = 0; i < 3; ++i) {
    const absl::Time start = absl::Now();
    const absl::Status status = pool.Run(SelectOne);
    EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
    EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  }
}

// Stops and restarts a server of the test's own under a pool in use: a query in flight and every
// request while the server is away fail with Unavailable, quickly; nothing crashes; afterwards the
// pool reconnects by itself.
TEST(PgPoolRestartTest, SurvivesDatabaseRestart) {
  std::unique_ptr<PgTestServer> server = PgTestServer::StartPrivate();
  const std::string url = server->CreateDatabase("restart");
  prometheus::Registry registry;
  PgPoolSettings settings;
  settings.url = url;
  settings.size = 3;
  settings.name = kPoolName;
  PgPool pool(settings, &registry);
  ASSERT_TRUE(pool.Run(SelectOne).ok());

  // Background load through the whole restart.
  std::atomic<bool> stop_load{false};
  std::mutex codes_mutex;
  std::map<absl::StatusCode, int> load_codes;
  absl::Duration slowest_failure;
  std::thread load([&] {
    while (!stop_load) {
      const absl::Time start = absl::Now();
      const absl::Status status = pool.Run(SelectOne);
      std::lock_guard<std::mutex> lock(codes_mutex);
      ++load_codes[status.code()];
      if (!status.ok()) slowest_failure = std::max(slowest_failure, absl::Now() - start);
    }
  });

  // A long query in flight when the server goes down.
  std::atomic<int> pid{0};
  absl::Notification started;
  absl::Status in_flight;
  absl::Time in_flight_end;
  std::thread sleeper([&] {
    in_flight = pool.Run([&](pqxx::connection& connection) {
      pqxx::nontransaction tx(connection);
      pid = tx.exec1("SELECT pg_backend_pid()")[0].as<int>();
      started.Notify();
      tx.exec("SELECT pg_sleep(30)");
      return absl::OkStatus();
    });
    in_flight_end = absl::Now();
  });
  ASSERT_TRUE(started.WaitForNotificationWithTimeout(kQuick));
  AwaitActive(url, pid);

  const absl::Time stop_start = absl::Now();
  server->Stop();
  sleeper.join();
  EXPECT_EQ(in_flight.code(), absl::StatusCode::kUnavailable) << in_flight;
  EXPECT_LT(in_flight_end - stop_start, kQuick);

  for (int i = 0; i < 5; ++i) {
    const absl::Time start = absl::Now();
    const absl::Status status = pool.Run(SelectOne);
    EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
    EXPECT_LT(absl::Now() - start, absl::Seconds(3));
  }
  const double reconnects_while_down = MetricValue(registry, "kahve_pg_pool_reconnects_total");

  server->Start();
  const absl::Time deadline = absl::Now() + kQuick;
  absl::Status status = pool.Run(SelectOne);
  while (!status.ok() && absl::Now() < deadline) status = pool.Run(SelectOne);
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_TRUE(pool.Run(SelectOne).ok());
  stop_load = true;
  load.join();

  EXPECT_EQ(reconnects_while_down, 0);
  EXPECT_GE(MetricValue(registry, "kahve_pg_pool_reconnects_total"), 1);
  EXPECT_LE(MetricValue(registry, "kahve_pg_pool_reconnects_total"), settings.size);
  for (const auto& [code, count] : load_codes) {
    EXPECT_TRUE(code == absl::StatusCode::kOk || code == absl::StatusCode::kUnavailable)
        << absl::StatusCodeToString(code) << " x" << count;
  }
  EXPECT_GT(load_codes[absl::StatusCode::kUnavailable], 0);
  EXPECT_LT(slowest_failure, absl::Seconds(3));
}

TEST(WithConnectTimeoutTest, AddsTheTimeoutUnlessPresent) {
  EXPECT_EQ(WithConnectTimeout("postgresql://u@h:5/db", 2),
            "postgresql://u@h:5/db?connect_timeout=2");
  EXPECT_EQ(WithConnectTimeout("postgres://h/db?sslmode=disable", 3),
            "postgres://h/db?sslmode=disable&connect_timeout=3");
  EXPECT_EQ(WithConnectTimeout("host=h dbname=db", 2), "host=h dbname=db connect_timeout=2");
  EXPECT_EQ(WithConnectTimeout("", 2), "connect_timeout=2");
  EXPECT_EQ(WithConnectTimeout("postgresql://h/db?connect_timeout=9", 2),
            "postgresql://h/db?connect_timeout=9");
}

}  // namespace
}  // namespace kahve::common
