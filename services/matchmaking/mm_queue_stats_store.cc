#include "services/matchmaking/mm_queue_stats_store.h"

#include <algorithm>

#include "services/matchmaking/queue_spec.h"

namespace kahve::matchmaking {
namespace {

constexpr char kSizes[] = "mm_queue_sizes";
constexpr char kSizesSql[] =
    "SELECT count(*) FILTER (WHERE state = 'waiting'), count(*) FILTER (WHERE state ="
    "  'placing'), coalesce(min(enqueued_us) FILTER (WHERE state = 'waiting'), 0)"
    "  FROM mm_tickets WHERE queue_key = $1 AND state IN ('waiting', 'placing')";

// $1: waits since, $2: matches counted since, $3: now, $4: the ruleset ('' for all).
constexpr char kStats[] = "mm_queue_stats";
constexpr char kStatsSql[] =
    "WITH active AS ("
    "  SELECT queue_key, count(*) FILTER (WHERE state = 'waiting') AS waiting,"
    "         min(enqueued_us) FILTER (WHERE state = 'waiting') AS oldest"
    "  FROM mm_tickets WHERE state IN ('waiting', 'placing') GROUP BY queue_key"
    "), waits AS ("
    "  SELECT queue_key,"
    "    percentile_cont(0.5) WITHIN GROUP (ORDER BY ended_us - enqueued_us) AS p50,"
    "    percentile_cont(0.95) WITHIN GROUP (ORDER BY ended_us - enqueued_us) AS p95"
    "  FROM mm_tickets WHERE state = 'matched' AND ended_us >= $1 GROUP BY queue_key"
    "), formed AS ("
    "  SELECT queue_key, count(*) AS matches FROM mm_matches WHERE created_us >= $2"
    "  GROUP BY queue_key"
    "), queues AS ("
    "  SELECT queue_key FROM active UNION SELECT queue_key FROM waits"
    "  UNION SELECT queue_key FROM formed"
    ") SELECT q.queue_key, coalesce(a.waiting, 0), coalesce($3 - a.oldest, 0),"
    "    coalesce(f.matches, 0), coalesce(w.p50, 0), coalesce(w.p95, 0)"
    "  FROM queues q LEFT JOIN active a USING (queue_key) LEFT JOIN waits w USING (queue_key)"
    "  LEFT JOIN formed f USING (queue_key)"
    "  WHERE $4 = '' OR substring(q.queue_key FROM '^[a-z0-9_]+') = $4"
    "  ORDER BY q.queue_key";

// The median of the last 1,000 waits at most: bounded work however busy the queue.
constexpr char kExpectedWait[] = "mm_expected_wait";
constexpr char kExpectedWaitSql[] =
    "SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY wait), 0) FROM ("
    "  SELECT ended_us - enqueued_us AS wait FROM mm_tickets"
    "  WHERE queue_key = $1 AND state = 'matched' AND ended_us >= $2"
    "  ORDER BY ended_us DESC LIMIT 1000) recent";

}  // namespace

NamedStatements QueueStatsStore::PreparedStatements() {
  return {{kSizes, kSizesSql}, {kStats, kStatsSql}, {kExpectedWait, kExpectedWaitSql}};
}

absl::StatusOr<QueueSizes> QueueStatsStore::Sizes(const std::string& queue_key) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<QueueSizes> {
    QueueSizes sizes;
    pqxx::read_transaction tx(connection);
    const pqxx::row row = tx.exec_prepared1(kSizes, queue_key);
    sizes.waiting = row[0].as<int>();
    sizes.placing = row[1].as<int>();
    sizes.oldest_enqueued_us = row[2].as<int64_t>();
    return sizes;
  });
}

absl::StatusOr<std::vector<v1::QueueStats>> QueueStatsStore::Stats(const std::string& ruleset,
                                                                   absl::Time since,
                                                                   absl::Time now) {
  // Matches per minute count the last ten minutes: recent enough to follow the day's rhythm,
  // long enough not to jump with every match.
  const absl::Time rate_since = std::max(since, now - absl::Minutes(10));
  using Stats = std::vector<v1::QueueStats>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Stats> {
    pqxx::read_transaction tx(connection);
    const pqxx::result rows =
        tx.exec_prepared(kStats, Micros(since), Micros(rate_since), Micros(now), ruleset);
    const double minutes = std::max(1.0, absl::ToDoubleMinutes(now - rate_since));
    Stats stats;
    for (const pqxx::row& row : rows) {
      v1::QueueStats& queue = stats.emplace_back();
      queue.set_queue(row[0].as<std::string>());
      queue.set_ruleset(RulesetOfKey(queue.queue()));
      queue.set_waiting(row[1].as<int>());
      queue.set_oldest_wait_seconds(static_cast<int>(row[2].as<int64_t>() / 1'000'000));
      queue.set_matches_per_minute(row[3].as<double>() / minutes);
      queue.set_p50_wait_seconds(row[4].as<double>() / 1e6);
      queue.set_p95_wait_seconds(row[5].as<double>() / 1e6);
    }
    return stats;
  });
}

absl::StatusOr<int> QueueStatsStore::ExpectedWaitSeconds(const std::string& queue_key,
                                                         absl::Time since) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::read_transaction tx(connection);
    const pqxx::row row = tx.exec_prepared1(kExpectedWait, queue_key, Micros(since));
    return static_cast<int>(row[0].as<double>() / 1e6 + 0.5);
  });
}

}  // namespace kahve::matchmaking
