#include "services/matchmaking/mm_match_store.h"

#include <algorithm>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "services/common/pg_arrays.h"

namespace kahve::matchmaking {
namespace {

using common::HexArrayLiteral;
using common::Int64ArrayLiteral;
using common::TextArrayLiteral;

constexpr char kActiveQueues[] = "mm_active_queues";
constexpr char kActiveQueuesSql[] =
    "SELECT queue_key, count(*) FROM mm_tickets"
    "  WHERE state IN ('waiting', 'placing') GROUP BY queue_key";

constexpr char kWaitingTickets[] = "mm_waiting_tickets";
constexpr char kWaitingTicketsSql[] =
    "SELECT t.ticket_id, t.enqueued_us, t.longest_wait_us, encode(t.settings, 'hex'),"
    "       t.teams, p.player_id"
    "  FROM mm_tickets t JOIN mm_ticket_players p USING (ticket_id)"
    "  WHERE t.queue_key = $1 AND t.state = 'waiting'"
    "  ORDER BY t.enqueued_us, t.ticket_id, p.position";

constexpr char kExpireTickets[] = "mm_expire_tickets";
constexpr char kExpireTicketsSql[] =
    "WITH gone AS (UPDATE mm_tickets SET state = 'expired', ended_us = $3"
    "  WHERE queue_key = $1 AND state = 'waiting' AND enqueued_us < $2 RETURNING ticket_id),"
    " off AS (UPDATE mm_ticket_players p SET active = false FROM gone"
    "  WHERE p.ticket_id = gone.ticket_id)"
    " SELECT count(*) FROM gone";

// The row locks order a pass against CancelTicket.
constexpr char kLockWaiting[] = "mm_lock_waiting_tickets";
constexpr char kLockWaitingSql[] =
    "SELECT ticket_id FROM mm_tickets WHERE ticket_id = ANY($1::text[])"
    "  AND state = 'waiting' ORDER BY ticket_id FOR UPDATE";

constexpr char kInsertMatches[] = "mm_insert_matches";
constexpr char kInsertMatchesSql[] =
    "INSERT INTO mm_matches (match_id, queue_key, state, host_id, request, rating_spread,"
    "  created_us)"
    " SELECT m, q, 'placing', h, decode(r, 'hex'), s::double precision, c::bigint"
    "  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])"
    "    AS v(m, q, h, r, s, c)";

constexpr char kTicketsToPlacing[] = "mm_tickets_to_placing";
constexpr char kTicketsToPlacingSql[] =
    "UPDATE mm_tickets t SET state = 'placing', match_id = v.m"
    "  FROM unnest($1::text[], $2::text[]) AS v(t, m) WHERE t.ticket_id = v.t";

constexpr char kPlacingMatches[] = "mm_placing_matches";
constexpr char kPlacingMatchesSql[] =
    "SELECT m.match_id, m.host_id, encode(m.request, 'hex'), m.rating_spread, m.created_us,"
    "       p.ticket_id, p.player_id"
    "  FROM mm_matches m JOIN mm_tickets t ON t.match_id = m.match_id"
    "  JOIN mm_ticket_players p ON p.ticket_id = t.ticket_id"
    "  WHERE m.queue_key = $1 AND m.state = 'placing'"
    "  ORDER BY m.created_us, m.match_id, p.ticket_id, p.position";

constexpr char kSetMatchHost[] = "mm_set_match_host";
constexpr char kSetMatchHostSql[] =
    "UPDATE mm_matches SET host_id = $2, attempts = attempts + 1, last_error = NULLIF($3, '')"
    "  WHERE match_id = $1";

constexpr char kAbandonMatch[] = "mm_abandon_match";
constexpr char kAbandonMatchSql[] =
    "UPDATE mm_matches SET state = 'abandoned', last_error = $2"
    "  WHERE match_id = $1 AND state = 'placing'";

constexpr char kTicketsBackToWaiting[] = "mm_tickets_back_to_waiting";
constexpr char kTicketsBackToWaitingSql[] =
    "UPDATE mm_tickets SET state = 'waiting', match_id = NULL"
    "  WHERE match_id = $1 AND state = 'placing'";

constexpr char kPlaceMatches[] = "mm_place_matches";
constexpr char kPlaceMatchesSql[] =
    "UPDATE mm_matches m SET state = 'placed', table_id = v.t, endpoint = v.e,"
    "  placed_us = $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS v(m, t, e)"
    "  WHERE m.match_id = v.m AND m.state = 'placing' RETURNING m.match_id";

// Each player's row is written once: seat, token, and no longer active.
constexpr char kSeatPlayers[] = "mm_seat_ticket_players";
constexpr char kSeatPlayersSql[] =
    "UPDATE mm_ticket_players p SET seat = v.s, seat_token = NULLIF(v.k, ''), active = false"
    "  FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS v(t, p, s, k)"
    "  WHERE p.ticket_id = v.t AND p.player_id = v.p";

constexpr char kTicketsToMatched[] = "mm_tickets_to_matched";
constexpr char kTicketsToMatchedSql[] =
    "UPDATE mm_tickets SET state = 'matched', ended_us = $2"
    "  WHERE ticket_id = ANY($1::text[]) AND state = 'placing' RETURNING enqueued_us";

}  // namespace

NamedStatements MatchStore::PreparedStatements() {
  return {
      {kActiveQueues, kActiveQueuesSql},        {kWaitingTickets, kWaitingTicketsSql},
      {kExpireTickets, kExpireTicketsSql},      {kLockWaiting, kLockWaitingSql},
      {kInsertMatches, kInsertMatchesSql},      {kTicketsToPlacing, kTicketsToPlacingSql},
      {kPlacingMatches, kPlacingMatchesSql},    {kSetMatchHost, kSetMatchHostSql},
      {kAbandonMatch, kAbandonMatchSql},        {kTicketsBackToWaiting, kTicketsBackToWaitingSql},
      {kPlaceMatches, kPlaceMatchesSql},        {kSeatPlayers, kSeatPlayersSql},
      {kTicketsToMatched, kTicketsToMatchedSql}};
}

absl::StatusOr<std::map<std::string, int64_t>> MatchStore::ActiveQueues() {
  using Queues = std::map<std::string, int64_t>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Queues> {
    std::map<std::string, int64_t> queues;
    pqxx::read_transaction tx(connection);
    for (const pqxx::row& row : tx.exec_prepared(kActiveQueues)) {
      queues[row[0].as<std::string>()] = row[1].as<int64_t>();
    }
    return queues;
  });
}

absl::StatusOr<std::vector<QueuedTicket>> MatchStore::WaitingTickets(const std::string& queue_key) {
  using Tickets = std::vector<QueuedTicket>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Tickets> {
    Tickets tickets;
    pqxx::read_transaction tx(connection);
    for (const pqxx::row& row : tx.exec_prepared(kWaitingTickets, queue_key)) {
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

absl::StatusOr<int> MatchStore::ExpireTickets(const std::string& queue_key, absl::Time cutoff,
                                              absl::Time now) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::work tx(connection);
    const pqxx::row row = tx.exec_prepared1(kExpireTickets, queue_key, Micros(cutoff), Micros(now));
    tx.commit();
    return row[0].as<int>();
  });
}

absl::StatusOr<std::vector<PendingMatch>> MatchStore::RecordFormedMatches(
    std::vector<PendingMatch> matches) {
  using Matches = std::vector<PendingMatch>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Matches> {
    Matches recorded;
    std::vector<std::string> ticket_ids;
    for (const PendingMatch& match : matches) {
      ticket_ids.insert(ticket_ids.end(), match.ticket_ids.begin(), match.ticket_ids.end());
    }
    pqxx::work tx(connection);
    // A ticket cancelled since the pass read it is not waiting here, and its match is left out
    // (its other tickets wait for the next pass).
    std::set<std::string> waiting;
    for (const pqxx::row& row : tx.exec_prepared(kLockWaiting, TextArrayLiteral(ticket_ids))) {
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
    tx.exec_prepared0(kInsertMatches, TextArrayLiteral(match_ids), TextArrayLiteral(queue_keys),
                      TextArrayLiteral(host_ids), HexArrayLiteral(request_bytes),
                      TextArrayLiteral(spreads), TextArrayLiteral(created));
    tx.exec_prepared0(kTicketsToPlacing, TextArrayLiteral(ticket_ids),
                      TextArrayLiteral(ticket_matches));
    tx.commit();
    return recorded;
  });
}

absl::StatusOr<std::vector<PendingMatch>> MatchStore::PlacingMatches(const std::string& queue_key) {
  using Matches = std::vector<PendingMatch>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Matches> {
    Matches matches;
    pqxx::read_transaction tx(connection);
    const pqxx::result rows = tx.exec_prepared(kPlacingMatches, queue_key);
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

absl::Status MatchStore::SetMatchHost(const std::string& match_id, const std::string& host_id,
                                      const std::string& error) {
  return pool_->Run([&](pqxx::connection& connection) {
    pqxx::work tx(connection);
    tx.exec_prepared0(kSetMatchHost, match_id, host_id, error);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<int> MatchStore::AbandonMatch(const std::string& match_id,
                                             const std::string& reason) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::work tx(connection);
    const pqxx::result given_up = tx.exec_prepared(kAbandonMatch, match_id, reason);
    if (given_up.affected_rows() == 0) return 0;
    const pqxx::result tickets = tx.exec_prepared(kTicketsBackToWaiting, match_id);
    tx.commit();
    return static_cast<int>(tickets.affected_rows());
  });
}

absl::StatusOr<std::vector<absl::Duration>> MatchStore::CompletePlacements(
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
    for (const pqxx::row& row :
         tx.exec_prepared(kPlaceMatches, TextArrayLiteral(match_ids), TextArrayLiteral(table_ids),
                          TextArrayLiteral(endpoints), Micros(now))) {
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
    tx.exec_prepared0(kSeatPlayers, TextArrayLiteral(token_tickets),
                      TextArrayLiteral(token_players), Int64ArrayLiteral(token_seats),
                      TextArrayLiteral(tokens));
    const pqxx::result tickets =
        tx.exec_prepared(kTicketsToMatched, TextArrayLiteral(ticket_ids), Micros(now));
    Waits waits;
    for (const pqxx::row& row : tickets) {
      waits.push_back(now - absl::FromUnixMicros(row[0].as<int64_t>()));
    }
    tx.commit();
    return waits;
  });
}

}  // namespace kahve::matchmaking
