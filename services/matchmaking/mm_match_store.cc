// Queue passes and placement: the matchmaker-facing half of MatchmakingStore.

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/matchmaking/mm_store.h"

namespace kahve::matchmaking {
namespace {

// The database's clock in microseconds: table hosts stamp their heartbeats with it, so liveness
// is judged by one clock whatever the skew between machines.
constexpr char kDatabaseNowUs[] = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint";

std::string Hex(const std::string& bytes) { return absl::BytesToHexString(bytes); }

}  // namespace

absl::StatusOr<std::vector<std::string>> MatchmakingStore::ActiveQueues() {
  std::vector<std::string> queues;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    pqxx::read_transaction tx(connection);
    for (const pqxx::row& row :
         tx.exec("SELECT DISTINCT queue_key FROM mm_tickets"
                 "  WHERE state IN ('waiting', 'placing') ORDER BY queue_key")) {
      queues.push_back(row[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return queues;
}

absl::StatusOr<std::vector<QueuedTicket>> MatchmakingStore::WaitingTickets(
    const std::string& queue_key) {
  std::vector<QueuedTicket> tickets;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::read_transaction tx(connection);
    const pqxx::result rows = tx.exec_params(
        "SELECT t.ticket_id, t.enqueued_us, t.longest_wait_us, encode(t.settings, 'hex'),"
        "       t.teams, p.player_id"
        "  FROM mm_tickets t JOIN mm_ticket_players p USING (ticket_id)"
        "  WHERE t.queue_key = $1 AND t.state = 'waiting'"
        "  ORDER BY t.enqueued_us, t.ticket_id, p.position",
        queue_key);
    for (const pqxx::row& row : rows) {
      const std::string ticket_id = row[0].as<std::string>();
      if (tickets.empty() || tickets.back().ticket_id != ticket_id) {
        QueuedTicket& ticket = tickets.emplace_back();
        ticket.ticket_id = ticket_id;
        ticket.enqueued_us = row[1].as<int64_t>();
        ticket.longest_wait_us = row[2].as<int64_t>();
        if (!ticket.settings.ParseFromString(absl::HexStringToBytes(row[3].as<std::string>()))) {
          return absl::DataLossError(absl::StrCat("ticket ", ticket_id, ": settings unreadable"));
        }
        ticket.teams = row[4].as<bool>();
      }
      tickets.back().players.push_back(row[5].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return tickets;
}

absl::StatusOr<int> MatchmakingStore::ExpireTickets(const std::string& queue_key, absl::Time cutoff,
                                                    absl::Time now) {
  int expired = 0;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    pqxx::work tx(connection);
    const pqxx::result rows = tx.exec_params(
        "UPDATE mm_tickets SET state = 'expired', ended_us = $3"
        "  WHERE queue_key = $1 AND state = 'waiting' AND enqueued_us < $2 RETURNING ticket_id",
        queue_key, Micros(cutoff), Micros(now));
    for (const pqxx::row& row : rows) {
      tx.exec_params0("UPDATE mm_ticket_players SET active = false WHERE ticket_id = $1",
                      row[0].as<std::string>());
    }
    tx.commit();
    expired = static_cast<int>(rows.size());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return expired;
}

absl::Status MatchmakingStore::RecordFormedMatch(const PendingMatch& match) {
  return pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::work tx(connection);
    const pqxx::result moved = tx.exec_params(
        "UPDATE mm_tickets SET state = 'placing', match_id = $2"
        "  WHERE ticket_id = ANY(string_to_array($1, ',')) AND state = 'waiting'",
        absl::StrJoin(match.ticket_ids, ","), match.match_id);
    if (moved.affected_rows() != match.ticket_ids.size()) {
      // A ticket was cancelled (or expired) since the pass read it: the match is off, and the
      // others wait for the next pass. Nothing is committed.
      return absl::AbortedError("a ticket of the match is no longer waiting");
    }
    for (const PendingMatch::Seat& seat : match.seats) {
      tx.exec_params0(
          "UPDATE mm_ticket_players SET seat = $3 WHERE ticket_id = $1 AND player_id = $2",
          seat.ticket_id, seat.player_id, seat.seat);
    }
    tx.exec_params0(
        "INSERT INTO mm_matches (match_id, queue_key, state, host_id, request, rating_spread,"
        "  created_us) VALUES ($1, $2, 'placing', $3, decode($4, 'hex'), $5, $6)",
        match.match_id, match.queue_key, match.host_id, Hex(match.request.SerializeAsString()),
        match.rating_spread, match.created_us);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<PendingMatch>> MatchmakingStore::PlacingMatches(
    const std::string& queue_key) {
  std::vector<PendingMatch> matches;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::read_transaction tx(connection);
    const pqxx::result rows = tx.exec_params(
        "SELECT m.match_id, m.host_id, encode(m.request, 'hex'), m.rating_spread, m.created_us,"
        "       p.ticket_id, p.player_id, p.seat"
        "  FROM mm_matches m JOIN mm_tickets t ON t.match_id = m.match_id"
        "  JOIN mm_ticket_players p ON p.ticket_id = t.ticket_id"
        "  WHERE m.queue_key = $1 AND m.state = 'placing'"
        "  ORDER BY m.created_us, m.match_id, p.seat",
        queue_key);
    for (const pqxx::row& row : rows) {
      const std::string match_id = row[0].as<std::string>();
      if (matches.empty() || matches.back().match_id != match_id) {
        PendingMatch& match = matches.emplace_back();
        match.match_id = match_id;
        match.queue_key = queue_key;
        match.host_id = row[1].as<std::string>();
        if (!match.request.ParseFromString(absl::HexStringToBytes(row[2].as<std::string>()))) {
          return absl::DataLossError(absl::StrCat("match ", match_id, ": request unreadable"));
        }
        match.rating_spread = row[3].as<double>();
        match.created_us = row[4].as<int64_t>();
      }
      PendingMatch& match = matches.back();
      const std::string ticket_id = row[5].as<std::string>();
      if (std::find(match.ticket_ids.begin(), match.ticket_ids.end(), ticket_id) ==
          match.ticket_ids.end()) {
        match.ticket_ids.push_back(ticket_id);
      }
      match.seats.push_back(PendingMatch::Seat{
          .ticket_id = ticket_id, .player_id = row[6].as<std::string>(), .seat = row[7].as<int>()});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return matches;
}

absl::Status MatchmakingStore::SetMatchHost(const std::string& match_id, const std::string& host_id,
                                            const std::string& error) {
  return pool_->Run([&](pqxx::connection& connection) {
    pqxx::work tx(connection);
    tx.exec_params0(
        "UPDATE mm_matches SET host_id = $2, attempts = attempts + 1, last_error = NULLIF($3, '')"
        "  WHERE match_id = $1",
        match_id, host_id, error);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<absl::Duration>> MatchmakingStore::CompletePlacement(
    const std::string& match_id, const v1::CreateTableResponse& table, const std::string& endpoint,
    absl::Time now) {
  std::vector<absl::Duration> waits;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::work tx(connection);
    const pqxx::result placed = tx.exec_params(
        "UPDATE mm_matches SET state = 'placed', table_id = $2, endpoint = $3, placed_us = $4"
        "  WHERE match_id = $1 AND state = 'placing'",
        match_id, table.table_id(), endpoint, Micros(now));
    if (placed.affected_rows() == 0) return absl::OkStatus();  // placed already (a retry)
    for (const auto& grant : table.seats()) {
      if (grant.player_id().empty()) continue;  // a bot's seat
      tx.exec_params0(
          "UPDATE mm_ticket_players p SET seat_token = $4 FROM mm_tickets t"
          "  WHERE t.ticket_id = p.ticket_id AND t.match_id = $1 AND p.seat = $2"
          "    AND p.player_id = $3",
          match_id, grant.seat(), grant.player_id(), grant.seat_token());
    }
    const pqxx::result tickets = tx.exec_params(
        "UPDATE mm_tickets SET state = 'matched', ended_us = $2"
        "  WHERE match_id = $1 AND state = 'placing' RETURNING ticket_id, enqueued_us",
        match_id, Micros(now));
    for (const pqxx::row& row : tickets) {
      tx.exec_params0("UPDATE mm_ticket_players SET active = false WHERE ticket_id = $1",
                      row[0].as<std::string>());
      waits.push_back(now - absl::FromUnixMicros(row[1].as<int64_t>()));
    }
    tx.commit();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return waits;
}

absl::StatusOr<QueueSizes> MatchmakingStore::Sizes(const std::string& queue_key) {
  QueueSizes sizes;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    pqxx::read_transaction tx(connection);
    const pqxx::row row = tx.exec_params1(
        "SELECT count(*) FILTER (WHERE state = 'waiting'), count(*) FILTER (WHERE state ="
        "  'placing'), coalesce(min(enqueued_us) FILTER (WHERE state = 'waiting'), 0)"
        "  FROM mm_tickets WHERE queue_key = $1 AND state IN ('waiting', 'placing')",
        queue_key);
    sizes.waiting = row[0].as<int>();
    sizes.placing = row[1].as<int>();
    sizes.oldest_enqueued_us = row[2].as<int64_t>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return sizes;
}

absl::StatusOr<std::vector<v1::QueueStats>> MatchmakingStore::Stats(const std::string& ruleset,
                                                                    absl::Time since,
                                                                    absl::Time now) {
  std::vector<v1::QueueStats> stats;
  // Matches per minute count the last ten minutes: recent enough to follow the day's rhythm,
  // long enough not to jump with every match.
  const absl::Time rate_since = std::max(since, now - absl::Minutes(10));
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    pqxx::read_transaction tx(connection);
    const pqxx::result rows = tx.exec_params(
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
        "  WHERE $4 = '' OR split_part(q.queue_key, ' ', 1) = $4 ORDER BY q.queue_key",
        Micros(since), Micros(rate_since), Micros(now), ruleset);
    const double minutes = std::max(1.0, absl::ToDoubleMinutes(now - rate_since));
    for (const pqxx::row& row : rows) {
      v1::QueueStats& queue = stats.emplace_back();
      queue.set_queue(row[0].as<std::string>());
      queue.set_ruleset(queue.queue().substr(0, queue.queue().find(' ')));
      queue.set_waiting(row[1].as<int>());
      queue.set_oldest_wait_seconds(static_cast<int>(row[2].as<int64_t>() / 1'000'000));
      queue.set_matches_per_minute(row[3].as<double>() / minutes);
      queue.set_p50_wait_seconds(row[4].as<double>() / 1e6);
      queue.set_p95_wait_seconds(row[5].as<double>() / 1e6);
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return stats;
}

absl::StatusOr<int> MatchmakingStore::ExpectedWaitSeconds(const std::string& queue_key,
                                                          absl::Time since) {
  int seconds = 0;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    pqxx::read_transaction tx(connection);
    const pqxx::row row = tx.exec_params1(
        "SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ended_us - enqueued_us), 0)"
        "  FROM mm_tickets WHERE queue_key = $1 AND state = 'matched' AND ended_us >= $2",
        queue_key, Micros(since));
    seconds = static_cast<int>(row[0].as<double>() / 1e6 + 0.5);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return seconds;
}

absl::StatusOr<std::vector<TableHostRow>> MatchmakingStore::LiveHosts(absl::Duration max_age) {
  std::vector<TableHostRow> hosts;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    pqxx::read_transaction tx(connection);
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT host_id, endpoint, live_tables FROM table_hosts"
                                    "  WHERE NOT draining AND heartbeat_us >= ",
                                    kDatabaseNowUs, " - $1 ORDER BY live_tables, host_id"),
                       absl::ToInt64Microseconds(max_age));
    for (const pqxx::row& row : rows) {
      hosts.push_back(TableHostRow{.host_id = row[0].as<std::string>(),
                                   .endpoint = row[1].as<std::string>(),
                                   .live_tables = row[2].as<int>()});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return hosts;
}

absl::StatusOr<std::optional<TableHostRow>> MatchmakingStore::HostHoldingMatch(
    const std::string& match_id) {
  std::optional<TableHostRow> host;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    pqxx::read_transaction tx(connection);
    const pqxx::result rows = tx.exec_params(
        "SELECT h.host_id, h.endpoint, h.live_tables FROM table_tables t"
        "  JOIN table_hosts h ON h.host_id = t.host_id WHERE t.match_id = $1",
        match_id);
    if (!rows.empty()) {
      host = TableHostRow{.host_id = rows[0][0].as<std::string>(),
                          .endpoint = rows[0][1].as<std::string>(),
                          .live_tables = rows[0][2].as<int>()};
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return host;
}

}  // namespace kahve::matchmaking
