#ifndef KAHVE_TESTS_SERVICES_TABLE_TABLE_STORE_TEST_UTIL_H_
#define KAHVE_TESTS_SERVICES_TABLE_TABLE_STORE_TEST_UTIL_H_

// Helpers of the table store's tests: waiting for a write's outcome, reading the database
// directly (the tests check the rows themselves, not only what the store says) and reading
// metrics from a registry.

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "pqxx/pqxx"
#include "prometheus/registry.h"
#include "services/table/table_store_types.h"

namespace kahve::table::testing {

// Entries are opaque bytes: these carry NUL and high bytes, which must survive the round trip.
inline std::string EntryBytes(const std::string& table_id, int64_t seq) {
  return absl::StrCat(table_id, std::string("\0\xff", 2), seq);
}

// A Liar's dice table's row as a test creates it.
inline TableRow Row(const std::string& table_id, const std::string& match_id) {
  return TableRow{.table_id = table_id,
                  .match_id = match_id,
                  .ruleset = "liars_dice",
                  .created_us = 1'700'000'000'000'000};
}

// A Done and the future it fulfils; a second call would throw on the writer thread (and so abort
// the test), which is what "called once" should cost.
inline std::pair<Done, std::future<WriteOutcome>> Awaitable() {
  auto promise = std::make_shared<std::promise<WriteOutcome>>();
  std::future<WriteOutcome> future = promise->get_future();
  return {[promise](const WriteOutcome& outcome) { promise->set_value(outcome); },
          std::move(future)};
}

// The outcome, or DeadlineExceeded when none comes within `seconds`.
inline WriteOutcome Await(std::future<WriteOutcome>& future, int seconds = 30) {
  if (future.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
    return absl::DeadlineExceededError("no outcome in time");
  }
  return future.get();
}

// Runs `sql` on a connection of its own.
inline pqxx::result Query(const std::string& url, const std::string& sql) {
  pqxx::connection connection(url);
  pqxx::nontransaction tx(connection);
  return tx.exec(sql);
}

inline int64_t CountOf(const std::string& url, const std::string& sql) {
  return Query(url, sql)[0][0].as<int64_t>();
}

// The unlabelled histogram `name` in `registry`.
inline prometheus::ClientMetric::Histogram HistogramOf(prometheus::Registry& registry,
                                                       const std::string& name) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name == name && !family.metric.empty()) return family.metric[0].histogram;
  }
  return {};
}

inline double GaugeOf(prometheus::Registry& registry, const std::string& name) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name == name && !family.metric.empty()) return family.metric[0].gauge.value;
  }
  return -1;
}

}  // namespace kahve::table::testing

#endif  // KAHVE_TESTS_SERVICES_TABLE_TABLE_STORE_TEST_UTIL_H_
