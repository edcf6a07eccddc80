// Queue passes and placement: the matchmaker-facing half of MatchmakingStore.

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "services/common/pg_arrays.h"
#include "services/matchmaking/mm_store.h"
#include "services/matchmaking/queue_spec.h"

namespace kahve::matchmaking {
namespace {

using common::HexArrayLiteral;
using common::Int64ArrayLiteral;
using common::TextArrayLiteral;
// Table hosts stamp their heartbeats with the database's clock, so liveness is judged by one
// clock whatever the skew between machines.
using common::kNowUsSql;

}  // namespace

absl::StatusOr<std::map<std::string, int64_t>> MatchmakingStore::ActiveQueues() {
  using Queues = std::map<std::string, int64_t>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Queues> {
    std::map<std::string, int64_t> queues;
    pqxx::read_transaction tx(connection);
    for (const pqxx::row& row :
         tx.exec("SELECT queue_key, count(*) FROM mm_tickets"
                 "  WHERE state IN ('waiting', 'placing') GROUP BY queue_key")) {
      queues[row[0].as<std::string>()] = row[1].as<int64_t>();
    }
    return queues;
  });
}

absl::StatusOr<std::vector<QueuedTicket>> MatchmakingStore::WaitingTickets(
    const std::string& queue_key) {
  using Tickets = std::vector<QueuedTicket>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Tickets> {
    Tickets tickets;
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
    return tickets;
  });
}

absl::StatusOr<int> MatchmakingStore::ExpireTickets(const std::string& queue_key, absl::Time cutoff,
                                                    absl::Time now) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::work tx(connection);
    const pqxx::row row = tx.exec_params1(
        "WITH gone AS (UPDATE mm_tickets SET state = 'expired', ended_us = $3"
        "  WHERE queue_key = $1 AND state = 'waiting' AND enqueued_us < $2 RETURNING ticket_id),"
        " off AS (UPDATE mm_ticket_players p SET active = false FROM gone"
        "  WHERE p.ticket_id = gone.ticket_id)"
        " SELECT count(*) FROM gone",
        queue_key, Micros(cutoff), Micros(now));
    tx.commit();
    return row[0].as<int>();
  });
}

absl::StatusOr<std::vector<PendingMatch>> MatchmakingStore::RecordFormedMatches(
    std::vector<PendingMatch> matches) {
  using Matches = std::vector<PendingMatch>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Matches> {
    Matches recorded;
    std::vector<std::string> ticket_ids;
    for (const PendingMatch& match : matches) {
      ticket_ids.insert(ticket_ids.end(), match.ticket_ids.begin(), match.ticket_ids.end());
    }
    pqxx::work tx(connection);
    // The row locks order this against CancelTicket: a ticket cancelled since the pass read it
    // is not waiting here, and its match is left out (its other tickets wait for the next
    // pass).
    std::set<std::string> waiting;
    for (const pqxx::row& row :
         tx.exec_params("SELECT ticket_id FROM mm_tickets WHERE ticket_id = ANY($1::text[])"
                        "  AND state = 'waiting' ORDER BY ticket_id FOR UPDATE",
                        TextArrayLiteral(ticket_ids))) {
      waiting.insert(row[0].as<std::string>());
    }
    std::vector<std::string> match_ids, queue_keys, host_ids, requests, ticket_matches;
    std::vector<std::string> spreads, created;
    ticket_ids.clear();
    for (PendingMatch& match : matches) {
      const bool all_waiting =
          std::all_of(match.ticket_ids.begin(), match.ticket_ids.end(),
                      [&](const std::string& ticket) { return waiting.contains(ticket); });
      if (!all_waiting) continue;
      match_ids.push_back(match.match_id);
      queue_keys.push_back(match.queue_key);
      host_ids.push_back(match.host_id);
      requests.push_back(match.request.SerializeAsString());
      spreads.push_back(absl::StrFormat("%.17g", match.rating_spread));
      created.push_back(absl::StrCat(match.created_us));
      for (const std::string& ticket : match.ticket_ids) {
        ticket_ids.push_back(ticket);
        ticket_matches.push_back(match.match_id);
      }
      recorded.push_back(std::move(match));
    }
    if (recorded.empty()) return recorded;
    std::vector<const std::string*> request_bytes;
    for (const std::string& request : requests) request_bytes.push_back(&request);
    tx.exec_params0(
        "INSERT INTO mm_matches (match_id, queue_key, state, host_id, request, rating_spread,"
        "  created_us)"
        " SELECT m, q, 'placing', h, decode(r, 'hex'), s::double precision, c::bigint"
        "  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])"
        "    AS v(m, q, h, r, s, c)",
        TextArrayLiteral(match_ids), TextArrayLiteral(queue_keys), TextArrayLiteral(host_ids),
        HexArrayLiteral(request_bytes), TextArrayLiteral(spreads), TextArrayLiteral(created));
    tx.exec_params0(
        "UPDATE mm_tickets t SET state = 'placing', match_id = v.m"
        "  FROM unnest($1::text[], $2::text[]) AS v(t, m) WHERE t.ticket_id = v.t",
        TextArrayLiteral(ticket_ids), TextArrayLiteral(ticket_matches));
    tx.commit();
    return recorded;
  });
}

absl::StatusOr<std::vector<PendingMatch>> MatchmakingStore::PlacingMatches(
    const std::string& queue_key) {
  using Matches = std::vector<PendingMatch>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Matches> {
    Matches matches;
    pqxx::read_transaction tx(connection);
    const pqxx::result rows = tx.exec_params(
        "SELECT m.match_id, m.host_id, encode(m.request, 'hex'), m.rating_spread, m.created_us,"
        "       p.ticket_id, p.player_id"
        "  FROM mm_matches m JOIN mm_tickets t ON t.match_id = m.match_id"
        "  JOIN mm_ticket_players p ON p.ticket_id = t.ticket_id"
        "  WHERE m.queue_key = $1 AND m.state = 'placing'"
        "  ORDER BY m.created_us, m.match_id, p.ticket_id, p.position",
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
      // A player's seat is where the stored request seats them.
      const std::string player = row[6].as<std::string>();
      const auto& seats = match.request.seats();
      const auto seat = std::find_if(seats.begin(), seats.end(), [&](const v1::SeatSpec& spec) {
        return spec.has_player_id() && spec.player_id() == player;
      });
      if (seat == seats.end()) {
        return absl::DataLossError(
            absl::StrCat("match ", match_id, ": player ", player, " has no seat in its request"));
      }
      match.seats.push_back(PendingMatch::Seat{.ticket_id = ticket_id,
                                               .player_id = player,
                                               .seat = static_cast<int>(seat - seats.begin())});
    }
    return matches;
  });
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

absl::StatusOr<int> MatchmakingStore::AbandonMatch(const std::string& match_id,
                                                   const std::string& reason) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::work tx(connection);
    const pqxx::result given_up = tx.exec_params(
        "UPDATE mm_matches SET state = 'abandoned', last_error = $2"
        "  WHERE match_id = $1 AND state = 'placing'",
        match_id, reason);
    if (given_up.affected_rows() == 0) return 0;
    const pqxx::result tickets = tx.exec_params(
        "UPDATE mm_tickets SET state = 'waiting', match_id = NULL"
        "  WHERE match_id = $1 AND state = 'placing'",
        match_id);
    tx.commit();
    return static_cast<int>(tickets.affected_rows());
  });
}

absl::StatusOr<std::vector<absl::Duration>> MatchmakingStore::CompletePlacements(
    const std::vector<Placement>& placements, absl::Time now) {
  using Waits = std::vector<absl::Duration>;
  if (placements.empty()) return Waits();
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Waits> {
    std::vector<std::string> match_ids, table_ids, endpoints;
    for (const Placement& placement : placements) {
      match_ids.push_back(placement.match->match_id);
      table_ids.push_back(placement.table.table_id());
      endpoints.push_back(placement.endpoint);
    }
    pqxx::work tx(connection);
    std::set<std::string> placed;
    for (const pqxx::row& row : tx.exec_params(
             "UPDATE mm_matches m SET state = 'placed', table_id = v.t, endpoint = v.e,"
             "  placed_us = $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS v(m, t, e)"
             "  WHERE m.match_id = v.m AND m.state = 'placing' RETURNING m.match_id",
             TextArrayLiteral(match_ids), TextArrayLiteral(table_ids), TextArrayLiteral(endpoints),
             Micros(now))) {
      placed.insert(row[0].as<std::string>());
    }
    // Matches placed already (a retry's) keep what they have.
    std::vector<std::string> ticket_ids, token_tickets, token_players, tokens;
    std::vector<int64_t> token_seats;
    for (const Placement& placement : placements) {
      const PendingMatch& match = *placement.match;
      if (!placed.contains(match.match_id)) continue;
      ticket_ids.insert(ticket_ids.end(), match.ticket_ids.begin(), match.ticket_ids.end());
      for (const PendingMatch::Seat& seat : match.seats) {
        const auto& grants = placement.table.seats();
        const auto grant = std::find_if(grants.begin(), grants.end(), [&](const auto& g) {
          return g.seat() == seat.seat && g.player_id() == seat.player_id;
        });
        token_tickets.push_back(seat.ticket_id);
        token_players.push_back(seat.player_id);
        token_seats.push_back(seat.seat);
        tokens.push_back(grant == grants.end() ? "" : grant->seat_token());
      }
    }
    if (ticket_ids.empty()) return Waits();
    // Each player's row is written once: seat, token, and no longer active.
    tx.exec_params0(
        "UPDATE mm_ticket_players p SET seat = v.s, seat_token = NULLIF(v.k, ''), active = false"
        "  FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS v(t, p, s, k)"
        "  WHERE p.ticket_id = v.t AND p.player_id = v.p",
        TextArrayLiteral(token_tickets), TextArrayLiteral(token_players),
        Int64ArrayLiteral(token_seats), TextArrayLiteral(tokens));
    const pqxx::result tickets = tx.exec_params(
        "UPDATE mm_tickets SET state = 'matched', ended_us = $2"
        "  WHERE ticket_id = ANY($1::text[]) AND state = 'placing' RETURNING enqueued_us",
        TextArrayLiteral(ticket_ids), Micros(now));
    Waits waits;
    for (const pqxx::row& row : tickets) {
      waits.push_back(now - absl::FromUnixMicros(row[0].as<int64_t>()));
    }
    tx.commit();
    return waits;
  });
}

absl::StatusOr<QueueSizes> MatchmakingStore::Sizes(const std::string& queue_key) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<QueueSizes> {
    QueueSizes sizes;
    pqxx::read_transaction tx(connection);
    const pqxx::row row = tx.exec_params1(
        "SELECT count(*) FILTER (WHERE state = 'waiting'), count(*) FILTER (WHERE state ="
        "  'placing'), coalesce(min(enqueued_us) FILTER (WHERE state = 'waiting'), 0)"
        "  FROM mm_tickets WHERE queue_key = $1 AND state IN ('waiting', 'placing')",
        queue_key);
    sizes.waiting = row[0].as<int>();
    sizes.placing = row[1].as<int>();
    sizes.oldest_enqueued_us = row[2].as<int64_t>();
    return sizes;
  });
}

absl::StatusOr<std::vector<v1::QueueStats>> MatchmakingStore::Stats(const std::string& ruleset,
                                                                    absl::Time since,
                                                                    absl::Time now) {
  // Matches per minute count the last ten minutes: recent enough to follow the day's rhythm,
  // long enough not to jump with every match.
  const absl::Time rate_since = std::max(since, now - absl::Minutes(10));
  using Stats = std::vector<v1::QueueStats>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Stats> {
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
        "  WHERE $4 = '' OR substring(q.queue_key FROM '^[a-z0-9_]+') = $4"
        "  ORDER BY q.queue_key",
        Micros(since), Micros(rate_since), Micros(now), ruleset);
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

absl::StatusOr<int> MatchmakingStore::ExpectedWaitSeconds(const std::string& queue_key,
                                                          absl::Time since) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::read_transaction tx(connection);
    const pqxx::row row = tx.exec_params1(
        "SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY wait), 0) FROM ("
        "  SELECT ended_us - enqueued_us AS wait FROM mm_tickets"
        "  WHERE queue_key = $1 AND state = 'matched' AND ended_us >= $2"
        "  ORDER BY ended_us DESC LIMIT 1000) recent",
        queue_key, Micros(since));
    return static_cast<int>(row[0].as<double>() / 1e6 + 0.5);
  });
}

absl::StatusOr<std::vector<std::string>> MatchmakingStore::UnsettledMatchOfRequest(
    const std::string& owner, const std::string& request_id) {
  using Ids = std::vector<std::string>;
  if (!StorableText(owner) || !StorableText(request_id)) return Ids();
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Ids> {
    pqxx::read_transaction tx(connection);
    Ids ids;
    for (const pqxx::row& row : tx.exec_params(
             "SELECT t.match_id FROM mm_tickets t JOIN mm_matches m ON m.match_id = t.match_id"
             "  WHERE t.owner = $1 AND t.request_id = $2 AND t.state = 'matched'"
             "  AND NOT m.game_over",
             owner, request_id)) {
      ids.push_back(row[0].as<std::string>());
    }
    return ids;
  });
}

absl::StatusOr<std::vector<std::string>> MatchmakingStore::UnsettledMatchesOfPlayer(
    const std::string& player) {
  using Ids = std::vector<std::string>;
  if (!StorableText(player)) return Ids();
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Ids> {
    pqxx::read_transaction tx(connection);
    Ids ids;
    // The tickets TicketInPlay looks at (mm_ticket_players_by_player), no more.
    for (const pqxx::row& row : tx.exec_params(
             "SELECT DISTINCT t.match_id FROM (SELECT ticket_id FROM mm_ticket_players"
             "    WHERE player_id = $1 ORDER BY enqueued_us DESC NULLS LAST LIMIT $2) AS recent"
             "  JOIN mm_tickets t USING (ticket_id)"
             "  JOIN mm_matches m ON m.match_id = t.match_id"
             "  WHERE t.state = 'matched' AND NOT m.game_over",
             player, kRecentTicketsLooked)) {
      ids.push_back(row[0].as<std::string>());
    }
    return ids;
  });
}

absl::Status MatchmakingStore::MarkGamesOver(const std::vector<std::string>& match_ids) {
  if (match_ids.empty()) return absl::OkStatus();
  return pool_->Run([&](pqxx::connection& connection) {
    pqxx::work tx(connection);
    tx.exec_params0(
        "UPDATE mm_matches SET game_over = true"
        " WHERE match_id = ANY($1::text[]) AND NOT game_over",
        common::TextArrayLiteral(match_ids));
    tx.commit();
    return absl::OkStatus();
  });
}

}  // namespace kahve::matchmaking
