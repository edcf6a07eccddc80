#include "services/matchmaking/mm_ticket_store.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_arrays.h"
#include "services/common/pg_status.h"

namespace kahve::matchmaking {
namespace {

// Tickets with their players in party order; the match's table once placed.
constexpr char kSelectTickets[] = "mm_select_tickets";
constexpr char kSelectTicketsSql[] =
    "SELECT t.ticket_id, t.queue_key, t.owner, t.state, t.enqueued_us, t.match_id, m.table_id,"
    "       m.endpoint, p.player_id, p.seat, p.seat_token"
    "  FROM mm_tickets t JOIN mm_ticket_players p USING (ticket_id)"
    "  LEFT JOIN mm_matches m ON m.match_id = t.match_id AND m.state = 'placed'"
    "  WHERE t.ticket_id = ANY($1::text[])"
    "  ORDER BY t.ticket_id, p.position";

// The ticket (owner, request id) names, and whether it is in play (bound to the request id).
constexpr char kSelectByRequest[] = "mm_select_ticket_by_request";
constexpr char kSelectByRequestSql[] =
    "SELECT ticket_id, queue_key, mm_ticket_in_play(state, match_id) FROM mm_tickets"
    " WHERE owner = $1 AND request_id = $2";

constexpr char kReleaseRequestIds[] = "mm_release_request_ids";
constexpr char kReleaseRequestIdsSql[] =
    "UPDATE mm_tickets SET released_request_id = request_id, request_id = ''"
    " WHERE ticket_id = ANY($1::text[]) AND request_id <> ''";

// The newest in play among the player's newest $2 tickets (mm_ticket_players_by_player).
constexpr char kSelectTicketInPlay[] = "mm_select_ticket_in_play";
constexpr char kSelectTicketInPlaySql[] =
    "SELECT t.ticket_id FROM (SELECT ticket_id FROM mm_ticket_players WHERE player_id = $1"
    "    ORDER BY enqueued_us DESC NULLS LAST LIMIT $2) AS recent"
    "  JOIN mm_tickets t USING (ticket_id)"
    "  WHERE mm_ticket_in_play(t.state, t.match_id)"
    "  ORDER BY t.enqueued_us DESC, t.ticket_id LIMIT 1";

constexpr char kInsertTicket[] = "mm_insert_ticket";
constexpr char kInsertTicketSql[] =
    "INSERT INTO mm_tickets (ticket_id, queue_key, owner, request_id, settings, teams,"
    "  longest_wait_us, state, enqueued_us)"
    " VALUES ($1, $2, $3, $4, decode($5, 'hex'), $6, $7, 'waiting', $8)";

constexpr char kInsertTicketPlayer[] = "mm_insert_ticket_player";
constexpr char kInsertTicketPlayerSql[] =
    "INSERT INTO mm_ticket_players (ticket_id, player_id, position, active, enqueued_us)"
    " VALUES ($1, $2, $3, true, $4)";

constexpr char kSelectActiveTicketOf[] = "mm_select_active_ticket_of";
constexpr char kSelectActiveTicketOfSql[] =
    "SELECT player_id, ticket_id FROM mm_ticket_players WHERE active AND player_id = $1";

// The row lock orders a cancel against a pass moving the ticket to placing.
constexpr char kLockTicketToCancel[] = "mm_lock_ticket_to_cancel";
constexpr char kLockTicketToCancelSql[] =
    "SELECT state, EXISTS (SELECT 1 FROM mm_ticket_players p"
    "  WHERE p.ticket_id = t.ticket_id AND p.player_id = $2), queue_key"
    "  FROM mm_tickets t WHERE ticket_id = $1 FOR UPDATE";

constexpr char kCancelTicket[] = "mm_cancel_ticket";
constexpr char kCancelTicketSql[] =
    "UPDATE mm_tickets SET state = 'cancelled', ended_us = $2 WHERE ticket_id = $1";

constexpr char kDeactivatePlayers[] = "mm_deactivate_ticket_players";
constexpr char kDeactivatePlayersSql[] =
    "UPDATE mm_ticket_players SET active = false WHERE ticket_id = $1";

std::string Hex(const std::string& bytes) { return absl::BytesToHexString(bytes); }

// Adds a row of kSelectTickets (one player of a ticket) to the ticket it belongs to.
void AddTicketRow(const pqxx::row& row, TicketRecord& ticket) {
  if (ticket.ticket_id.empty()) {
    ticket.ticket_id = row["ticket_id"].as<std::string>();
    ticket.queue_key = row["queue_key"].as<std::string>();
    ticket.owner = row["owner"].as<std::string>();
    ticket.state = row["state"].as<std::string>();
    ticket.enqueued_us = row["enqueued_us"].as<int64_t>();
    ticket.match_id = row["match_id"].is_null() ? "" : row["match_id"].as<std::string>();
    ticket.table_id = row["table_id"].is_null() ? "" : row["table_id"].as<std::string>();
    ticket.endpoint = row["endpoint"].is_null() ? "" : row["endpoint"].as<std::string>();
  }
  ticket.players.push_back(row["player_id"].as<std::string>());
  ticket.seats.push_back(row["seat"].is_null() ? -1 : row["seat"].as<int>());
  ticket.seat_tokens.push_back(row["seat_token"].is_null() ? ""
                                                           : row["seat_token"].as<std::string>());
}

// The tickets `ticket_ids` name (all storable), in kSelectTickets' order.
std::vector<TicketRecord> ReadTickets(pqxx::transaction_base& tx,
                                      const std::vector<std::string>& ticket_ids) {
  std::vector<TicketRecord> tickets;
  for (const pqxx::row& row :
       tx.exec_prepared(kSelectTickets, common::TextArrayLiteral(ticket_ids))) {
    if (tickets.empty() || tickets.back().ticket_id != row["ticket_id"].as<std::string>()) {
      tickets.emplace_back();
    }
    AddTicketRow(row, tickets.back());
  }
  return tickets;
}

// The answer to a repeated (owner, request id) whose ticket is in play: that ticket, or the
// refusal when it waits in another queue than `ticket` asks for.
absl::StatusOr<std::string> AnswerRepeat(const pqxx::row& earlier, const NewTicket& ticket) {
  const std::string earlier_id = earlier[0].as<std::string>();
  if (earlier[1].as<std::string>() != ticket.queue_key) {
    return RequestIdReused(ticket.request_id, earlier_id);
  }
  return earlier_id;
}

}  // namespace

NamedStatements TicketStore::PreparedStatements() {
  NamedStatements statements = {{kSelectTickets, kSelectTicketsSql},
                                {kSelectByRequest, kSelectByRequestSql},
                                {kReleaseRequestIds, kReleaseRequestIdsSql},
                                {kSelectTicketInPlay, kSelectTicketInPlaySql},
                                {kInsertTicket, kInsertTicketSql},
                                {kInsertTicketPlayer, kInsertTicketPlayerSql},
                                {kSelectActiveTicketOf, kSelectActiveTicketOfSql},
                                {kLockTicketToCancel, kLockTicketToCancelSql},
                                {kCancelTicket, kCancelTicketSql},
                                {kDeactivatePlayers, kDeactivatePlayersSql}};
  for (auto& statement : TicketBatchStatements()) statements.push_back(std::move(statement));
  return statements;
}

void ReleaseRequestIds(pqxx::transaction_base& tx, const std::vector<std::string>& ticket_ids) {
  if (ticket_ids.empty()) return;
  tx.exec_prepared0(kReleaseRequestIds, common::TextArrayLiteral(ticket_ids));
}

absl::StatusOr<std::string> TicketStore::CreateTicket(const NewTicket& ticket, absl::Time now) {
  if (absl::Status storable = CheckStorable(ticket); !storable.ok()) return storable;
  const std::string ticket_id = NewId("tk-");
  if (ticket_id.empty()) return absl::InternalError("no randomness for a ticket id");
  const absl::StatusOr<std::string> created =
      pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<std::string> {
        pqxx::work tx(connection);
        std::vector<std::string> over;
        if (!ticket.request_id.empty()) {
          const pqxx::result earlier =
              tx.exec_prepared(kSelectByRequest, ticket.owner, ticket.request_id);
          if (!earlier.empty() && earlier[0][2].as<bool>()) return AnswerRepeat(earlier[0], ticket);
          // A ticket that is over gives the id up to this one; rolled back with it on a refusal.
          if (!earlier.empty()) over.push_back(earlier[0][0].as<std::string>());
        }
        ReleaseRequestIds(tx, over);
        tx.exec_prepared0(kInsertTicket, ticket_id, ticket.queue_key, ticket.owner,
                          ticket.request_id, Hex(ticket.settings.SerializeAsString()), ticket.teams,
                          absl::ToInt64Microseconds(ticket.longest_wait), Micros(now));
        for (size_t i = 0; i < ticket.players.size(); ++i) {
          tx.exec_prepared0(kInsertTicketPlayer, ticket_id, ticket.players[i], static_cast<int>(i),
                            Micros(now));
        }
        tx.commit();
        return ticket_id;
      });
  // A unique violation: a player already has an active ticket, or the same request id raced
  // this one.
  if (!common::IsUniqueViolation(created.status())) return created;
  // Name what is in the way, from a fresh transaction (the failed one is aborted).
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<std::string> {
    pqxx::read_transaction tx(connection);
    if (!ticket.request_id.empty()) {
      const pqxx::result earlier =
          tx.exec_prepared(kSelectByRequest, ticket.owner, ticket.request_id);
      if (!earlier.empty() && earlier[0][2].as<bool>()) return AnswerRepeat(earlier[0], ticket);
    }
    pqxx::result active;
    for (const std::string& player : ticket.players) {
      active = tx.exec_prepared(kSelectActiveTicketOf, player);
      if (!active.empty()) break;
    }
    if (active.empty()) return absl::AbortedError("ticket conflict; try again");
    return PlayerHasActiveTicket(active[0][0].as<std::string>(), active[0][1].as<std::string>());
  });
}

absl::StatusOr<TicketRecord> TicketStore::GetTicket(const std::string& ticket_id) {
  auto tickets = GetTickets({ticket_id});
  if (!tickets.ok()) return tickets.status();
  if (tickets->empty()) return absl::NotFoundError(absl::StrCat("no ticket ", ticket_id));
  return std::move(tickets->front());
}

absl::StatusOr<std::vector<TicketRecord>> TicketStore::GetTickets(
    const std::vector<std::string>& ticket_ids) {
  // An id no text can hold names no ticket; left in, it would cut the whole array short.
  std::vector<std::string> storable;
  for (const std::string& id : ticket_ids) {
    if (StorableText(id)) storable.push_back(id);
  }
  using Tickets = std::vector<TicketRecord>;
  if (storable.empty()) return Tickets();
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Tickets> {
    pqxx::read_transaction tx(connection);
    return ReadTickets(tx, storable);
  });
}

absl::StatusOr<TicketRecord> TicketStore::TicketInPlay(const std::string& player) {
  const absl::Status not_found = absl::NotFoundError("no ticket in play");
  if (!StorableText(player)) return not_found;
  using Tickets = std::vector<TicketRecord>;
  absl::StatusOr<Tickets> tickets =
      pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Tickets> {
        pqxx::read_transaction tx(connection);
        const pqxx::result found =
            tx.exec_prepared(kSelectTicketInPlay, player, kRecentTicketsLooked);
        if (found.empty()) return Tickets();
        return ReadTickets(tx, {found[0][0].as<std::string>()});
      });
  if (!tickets.ok()) return tickets.status();
  if (tickets->empty()) return not_found;
  return std::move(tickets->front());
}

absl::StatusOr<std::optional<std::string>> TicketStore::CancelTicket(const std::string& ticket_id,
                                                                     const std::string& caller,
                                                                     absl::Time now) {
  if (!StorableText(ticket_id) || !StorableText(caller)) return absl::NotFoundError("no ticket");
  using Cancelled = std::optional<std::string>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Cancelled> {
    pqxx::work tx(connection);
    const pqxx::result ticket = tx.exec_prepared(kLockTicketToCancel, ticket_id, caller);
    if (ticket.empty()) return absl::NotFoundError(absl::StrCat("no ticket ", ticket_id));
    if (!ticket[0][1].as<bool>()) {
      return absl::PermissionDeniedError("only the ticket's own players may cancel it");
    }
    const std::string state = ticket[0][0].as<std::string>();
    if (state == kCancelled) return Cancelled();
    if (state != kWaiting) {
      return absl::FailedPreconditionError(absl::StrCat("ticket ", ticket_id, " is ", state,
                                                        "; only a waiting ticket can be "
                                                        "cancelled"));
    }
    tx.exec_prepared0(kCancelTicket, ticket_id, Micros(now));
    tx.exec_prepared0(kDeactivatePlayers, ticket_id);
    tx.commit();
    return Cancelled(ticket[0][2].as<std::string>());
  });
}

}  // namespace kahve::matchmaking
