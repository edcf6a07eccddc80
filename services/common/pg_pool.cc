#include "services/common/pg_pool.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "services/common/pg_status.h"

ABSL_FLAG(std::string, database, "",
          "PostgreSQL connection URL, e.g. postgresql://kahve@db:5432/kahve (required by services "
          "and by kahve migrate / load).");
ABSL_FLAG(int32_t, db_pool_size, 8,
          "Database connections of the process (also its number of worker threads).");

namespace kahve::common {
namespace {

constexpr int kConnectTimeoutSeconds = 2;
// How often an idle connection's socket is drained before it counts as healthy; a closed
// connection shows up by the second read at the latest (its last message, then end of file).
constexpr int kHealthCheckReads = 4;

// libpqxx 6 silently reconnects a broken connection when the next transaction begins. The pool
// wants to see every break (to discard the connection, fail fast and count the reconnect), so
// that is switched off; the API is deprecated but it is the only switch 6.4 has.
void InhibitReactivation(pqxx::connection& connection) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  connection.inhibit_reactivation(true);
#pragma GCC diagnostic pop
}

// Whether an idle connection still has its server. An idle connection has nothing to read, so a
// readable socket means the server sent something: a notice (consumed here) or its goodbye
// (57P01 on shutdown or pg_terminate_backend) followed by end of file, which breaks the
// connection. Costs one poll() for a healthy connection.
bool StillConnected(pqxx::connection& connection) {
  for (int read = 0; read < kHealthCheckReads; ++read) {
    if (!connection.is_open()) return false;
    pollfd descriptor{connection.sock(), POLLIN, 0};
    const int ready = poll(&descriptor, 1, /*timeout=*/0);
    if (ready == 0) return true;
    if (ready < 0) return errno == EINTR;
    if ((descriptor.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) return false;
    try {
      connection.get_notifs();
    } catch (const std::exception&) {
      return false;
    }
  }
  return connection.is_open();
}

const prometheus::Histogram::BucketBoundaries& AcquireBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
      0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
  return *buckets;
}

}  // namespace

struct PgPool::Impl {
  struct Metrics {
    prometheus::Gauge* idle = nullptr;
    prometheus::Gauge* busy = nullptr;
    prometheus::Gauge* waiting = nullptr;
    prometheus::Counter* reconnects = nullptr;
    prometheus::Histogram* acquire_seconds = nullptr;
  };

  Impl(PgPoolSettings pool_settings, prometheus::Registry* registry)
      : settings(std::move(pool_settings)),
        url(WithConnectTimeout(settings.url, kConnectTimeoutSeconds)),
        size(std::max(1, settings.size)) {
    if (registry != nullptr) RegisterMetrics(*registry);
  }

  void RegisterMetrics(prometheus::Registry& registry) {
    const std::string& pool = settings.name;
    auto& connections = prometheus::BuildGauge()
                            .Name("kahve_pg_pool_connections")
                            .Help("Open PostgreSQL connections of the pool, by state.")
                            .Register(registry);
    metrics.idle = &connections.Add({{"pool", pool}, {"state", "idle"}});
    metrics.busy = &connections.Add({{"pool", pool}, {"state", "busy"}});
    metrics.waiting = &prometheus::BuildGauge()
                           .Name("kahve_pg_pool_waiting")
                           .Help("Callers waiting for a free connection.")
                           .Register(registry)
                           .Add({{"pool", pool}});
    metrics.reconnects = &prometheus::BuildCounter()
                              .Name("kahve_pg_pool_reconnects_total")
                              .Help("Connections opened to replace broken ones.")
                              .Register(registry)
                              .Add({{"pool", pool}});
    metrics.acquire_seconds = &prometheus::BuildHistogram()
                                   .Name("kahve_pg_pool_acquire_seconds")
                                   .Help("Time to get a connection slot from the pool.")
                                   .Register(registry)
                                   .Add({{"pool", pool}}, AcquireBuckets());
  }

  void UpdateGauges() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    if (metrics.idle == nullptr) return;
    metrics.idle->Set(static_cast<double>(idle.size()));
    metrics.busy->Set(busy);
    metrics.waiting->Set(waiting);
  }

  // Takes a slot: an idle connection (`*connection` set) or the right to open one (left null).
  absl::Status TakeSlot(std::unique_ptr<pqxx::connection>* connection) {
    const absl::Time start = absl::Now();
    const absl::Time deadline = start + settings.acquire_timeout;
    absl::MutexLock lock(&mu);
    auto full = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) { return idle.empty() && busy >= size; };
    if (full()) {
      ++waiting;
      UpdateGauges();
      while (full() && !cv.WaitWithDeadline(&mu, deadline)) {
      }
      --waiting;
    }
    const bool got_slot = !full();
    if (got_slot) {
      ++busy;
      if (!idle.empty()) {
        *connection = std::move(idle.back());
        idle.pop_back();
      }
    }
    UpdateGauges();
    if (metrics.acquire_seconds != nullptr) {
      metrics.acquire_seconds->Observe(absl::ToDoubleSeconds(absl::Now() - start));
    }
    if (!got_slot) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "no database connection free within ", absl::FormatDuration(settings.acquire_timeout),
          " (pool ", settings.name, ", size ", size, ")"));
    }
    return absl::OkStatus();
  }

  // Opens a connection and prepares the pool's statements on it.
  absl::StatusOr<std::unique_ptr<pqxx::connection>> Open() {
    try {
      auto connection = std::make_unique<pqxx::connection>(url);
      InhibitReactivation(*connection);
      for (const auto& [name, sql] : settings.prepared) {
        connection->prepare(name, sql);
        connection->prepare_now(name);
      }
      {
        absl::MutexLock lock(&mu);
        if (lost > 0) {
          --lost;
          if (metrics.reconnects != nullptr) metrics.reconnects->Increment();
        }
      }
      return connection;
    } catch (...) {
      return CurrentPgError().status;
    }
  }

  // A slot with a live connection, or why there is none.
  absl::StatusOr<std::unique_ptr<pqxx::connection>> Acquire() {
    std::unique_ptr<pqxx::connection> connection;
    const absl::Status slot = TakeSlot(&connection);
    if (!slot.ok()) return slot;
    if (connection != nullptr && !StillConnected(*connection)) {
      Release(std::move(connection), /*keep=*/false, /*free_slot=*/false);
    }
    if (connection == nullptr) {
      auto opened = Open();
      if (!opened.ok()) {
        Release(nullptr, /*keep=*/false, /*free_slot=*/true);
        return opened.status();
      }
      connection = std::move(opened).value();
    }
    return connection;
  }

  // Gives a connection back: kept idle, or closed (counted as lost) when `keep` is false. With
  // `free_slot` false the caller keeps the slot (to open a replacement).
  void Release(std::unique_ptr<pqxx::connection> connection, bool keep, bool free_slot) {
    std::unique_ptr<pqxx::connection> to_close;
    {
      absl::MutexLock lock(&mu);
      if (connection != nullptr) {
        if (keep) {
          idle.push_back(std::move(connection));
        } else {
          ++lost;
          to_close = std::move(connection);
        }
      }
      if (free_slot) --busy;
      UpdateGauges();
      cv.Signal();
    }
    // Closing (PQfinish) may touch the network: outside the lock.
    to_close.reset();
  }

  const PgPoolSettings settings;
  const std::string url;
  const int size;
  Metrics metrics;

  absl::Mutex mu;
  absl::CondVar cv;
  std::vector<std::unique_ptr<pqxx::connection>> idle ABSL_GUARDED_BY(mu);
  // Slots in use: connections lent out or being opened. idle.size() + busy <= size.
  int busy ABSL_GUARDED_BY(mu) = 0;
  int waiting ABSL_GUARDED_BY(mu) = 0;
  // Connections discarded as broken and not replaced yet (each replacement counts a reconnect).
  int lost ABSL_GUARDED_BY(mu) = 0;
};

PgPool::PgPool(PgPoolSettings settings, prometheus::Registry* registry)
    : impl_(std::make_unique<Impl>(std::move(settings), registry)) {}

PgPool::~PgPool() {
  std::vector<std::unique_ptr<pqxx::connection>> to_close;
  {
    absl::MutexLock lock(&impl_->mu);
    // Work still running on other threads finishes first.
    impl_->mu.Await(absl::Condition(
        +[](int* busy) { return *busy == 0; }, &impl_->busy));
    to_close.swap(impl_->idle);
    impl_->UpdateGauges();
  }
}

absl::Status PgPool::Run(const std::function<absl::Status(pqxx::connection&)>& work) {
  auto acquired = impl_->Acquire();
  if (!acquired.ok()) return acquired.status();
  std::unique_ptr<pqxx::connection> connection = std::move(acquired).value();
  absl::Status status;
  bool lost = false;
  try {
    status = work(*connection);
  } catch (...) {
    PgError error = CurrentPgError();
    status = std::move(error.status);
    lost = error.connection_lost;
  }
  if (!connection->is_open()) {
    // Whatever failed, it failed because the connection went away.
    if (!status.ok() && !lost && status.code() == absl::StatusCode::kInternal) {
      status = ConnectionLost(status);
    }
    lost = true;
  }
  impl_->Release(std::move(connection), /*keep=*/!lost, /*free_slot=*/true);
  return status;
}

int PgPool::size() const { return impl_->size; }

std::string WithConnectTimeout(const std::string& url, int seconds) {
  if (absl::StrContains(url, "connect_timeout")) return url;
  if (absl::StartsWith(url, "postgresql://") || absl::StartsWith(url, "postgres://")) {
    return absl::StrCat(url, absl::StrContains(url, "?") ? "&" : "?", "connect_timeout=", seconds);
  }
  return absl::StrCat(url, url.empty() ? "" : " ", "connect_timeout=", seconds);
}

absl::StatusOr<PgPoolSettings> PgPoolSettingsFromFlags(const std::string& name) {
  PgPoolSettings settings;
  settings.url = absl::GetFlag(FLAGS_database);
  if (settings.url.empty()) {
    return absl::InvalidArgumentError("--database (KAHVE_DATABASE) is required");
  }
  settings.size = absl::GetFlag(FLAGS_db_pool_size);
  if (settings.size < 1) return absl::InvalidArgumentError("--db_pool_size must be at least 1");
  settings.name = name;
  return settings;
}

}  // namespace kahve::common
