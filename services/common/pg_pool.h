#ifndef KAHVE_SERVICES_COMMON_PG_POOL_H_
#define KAHVE_SERVICES_COMMON_PG_POOL_H_

// A fixed-size pool of PostgreSQL connections (libpqxx 6.4) that survives a database restart:
// broken connections are dropped and reopened on demand; while the database is away requests fail
// fast with Unavailable; nothing crashes. libpqxx exceptions never leave this class: they are
// mapped by CurrentPgError (pg_status.h), the one database edge.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "services/common/pg_status.h"

namespace prometheus {
class Registry;
}

namespace kahve::common {

struct PgPoolSettings {
  // libpq connection string or URL.
  std::string url;
  int size = 8;
  // How long Run waits for a free connection before ResourceExhausted.
  absl::Duration acquire_timeout = absl::Seconds(2);
  // Statements prepared on every new connection: (name, sql).
  std::vector<std::pair<std::string, std::string>> prepared;
  // Label of the pool's metrics (e.g. "rating").
  std::string name = "default";
};

// Settings from --database (required: InvalidArgument when empty) and --db_pool_size.
absl::StatusOr<PgPoolSettings> PgPoolSettingsFromFlags(const std::string& name);

class PgPool {
 public:
  // Connects lazily: construction never fails, the first Run does the work. `registry` (may be
  // null) receives kahve_pg_pool_connections{pool,state}, kahve_pg_pool_waiting{pool},
  // kahve_pg_pool_reconnects_total{pool}, kahve_pg_pool_acquire_seconds{pool}.
  PgPool(PgPoolSettings settings, prometheus::Registry* registry);
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  // Runs `work` on a pooled connection (open transactions are the work's own business). Returns
  // work's status; or Unavailable when the database cannot be reached or the connection broke
  // during the work (the connection is then discarded); Aborted for a serialization failure or
  // deadlock (the caller may retry); ResourceExhausted when no connection frees up in time;
  // Internal, with the SQLSTATE, for any other database error. An idle connection the server has
  // closed meanwhile (restart, pg_terminate_backend) is noticed before `work` runs and replaced.
  // Messages carry the database's own error text: fine for logs, not for untrusted clients.
  absl::Status Run(const std::function<absl::Status(pqxx::connection&)>& work);

  // Run for work that produces a value: `work` returns absl::StatusOr<T>, and so does this, with
  // the same failures as Run. The way to read from the database (no outer variable to fill).
  template <typename Work,
            typename T = typename std::invoke_result_t<Work&, pqxx::connection&>::value_type>
  absl::StatusOr<T> RunReturning(Work&& work) {
    std::optional<T> value;
    const absl::Status status = Run([&](pqxx::connection& connection) -> absl::Status {
      absl::StatusOr<T> result = work(connection);
      if (!result.ok()) return result.status();
      value.emplace(*std::move(result));
      return absl::OkStatus();
    });
    if (!status.ok()) return status;
    return *std::move(value);
  }

  int size() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `url` (a URL or a key=value connection string) with libpq's connect_timeout set to `seconds`,
// unless it already sets one; so a database that is away fails fast instead of hanging.
std::string WithConnectTimeout(const std::string& url, int seconds);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_PG_POOL_H_
