// Enqueue's group commit: a batch of new tickets in one transaction (one WAL flush), answered as
// CreateTicket would answer each in turn. One ticket never fails the others: when the database
// refuses the batch, each ticket is stored on its own.

#include <algorithm>
#include <map>
#include <utility>

#include "services/common/logging.h"
#include "services/common/pg_arrays.h"
#include "services/common/pg_status.h"
#include "services/matchmaking/mm_ticket_store.h"

namespace kahve::matchmaking {
namespace {

using common::HexArrayLiteral;
using common::Int64ArrayLiteral;
using common::TextArrayLiteral;

// Tickets requests made before, by (owner, request id). The request_id <> '' term lets the
// partial index mm_tickets_request answer.
constexpr char kSelectEarlier[] = "mm_select_earlier_tickets";
constexpr char kSelectEarlierSql[] =
    "SELECT t.owner, t.request_id, t.ticket_id, t.queue_key,"
    "       mm_ticket_in_play(t.state, t.match_id) FROM mm_tickets t"
    "  JOIN unnest($1::text[], $2::text[]) AS v(o, r)"
    "    ON t.owner = v.o AND t.request_id = v.r WHERE t.request_id <> ''";

constexpr char kSelectActive[] = "mm_select_active_tickets_of";
constexpr char kSelectActiveSql[] =
    "SELECT player_id, ticket_id FROM mm_ticket_players"
    "  WHERE active AND player_id = ANY($1::text[])";

constexpr char kInsertTickets[] = "mm_insert_tickets";
constexpr char kInsertTicketsSql[] =
    "INSERT INTO mm_tickets (ticket_id, queue_key, owner, request_id, settings, teams,"
    "  longest_wait_us, state, enqueued_us)"
    " SELECT i, q, o, r, decode(s, 'hex'), t::boolean, w, 'waiting', $8"
    "  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],"
    "    $7::bigint[]) AS v(i, q, o, r, s, t, w)";

constexpr char kInsertPlayers[] = "mm_insert_ticket_players";
constexpr char kInsertPlayersSql[] =
    "INSERT INTO mm_ticket_players (ticket_id, player_id, position, active, enqueued_us)"
    " SELECT t, p, n, true, $4 FROM unnest($1::text[], $2::text[], $3::smallint[]) AS v(t, p, n)";

// A ticket a request made before, and whether it is in play (still bound to the request id).
struct EarlierTicket {
  std::string ticket_id;
  std::string queue_key;
  bool in_play = false;
};
// (owner, request id) -> the ticket
using EarlierTickets = std::map<std::pair<std::string, std::string>, EarlierTicket>;

// Tickets these requests made before (retries, or requests whose ticket is over).
EarlierTickets LookUpEarlier(pqxx::work& tx, const std::vector<NewTicket>& tickets) {
  std::vector<std::string> owners, request_ids;
  for (const NewTicket& ticket : tickets) {
    if (ticket.request_id.empty()) continue;
    owners.push_back(ticket.owner);
    request_ids.push_back(ticket.request_id);
  }
  EarlierTickets earlier;
  if (request_ids.empty()) return earlier;
  for (const pqxx::row& row :
       tx.exec_prepared(kSelectEarlier, TextArrayLiteral(owners), TextArrayLiteral(request_ids))) {
    earlier[{row[0].as<std::string>(), row[1].as<std::string>()}] = {
        .ticket_id = row[2].as<std::string>(),
        .queue_key = row[3].as<std::string>(),
        .in_play = row[4].as<bool>()};
  }
  return earlier;
}

// The players' active tickets: player -> ticket.
std::map<std::string, std::string> LookUpActive(pqxx::work& tx,
                                                const std::vector<NewTicket>& tickets) {
  std::vector<std::string> players;
  for (const NewTicket& ticket : tickets) {
    players.insert(players.end(), ticket.players.begin(), ticket.players.end());
  }
  std::map<std::string, std::string> active;
  for (const pqxx::row& row : tx.exec_prepared(kSelectActive, TextArrayLiteral(players))) {
    active[row[0].as<std::string>()] = row[1].as<std::string>();
  }
  return active;
}

// Inserts `tickets` in `tx` (uncommitted), answering each as CreateTicket would in this order.
// Throws what the database raises: a unique violation when another replica took a player or
// request id after the look-ups.
std::vector<absl::StatusOr<std::string>> InsertBatch(pqxx::work& tx,
                                                     const std::vector<NewTicket>& tickets,
                                                     absl::Time now) {
  std::vector<absl::StatusOr<std::string>> answers(tickets.size(),
                                                   absl::InternalError("unanswered"));
  EarlierTickets earlier = LookUpEarlier(tx, tickets);
  std::map<std::string, std::string> active = LookUpActive(tx, tickets);
  // In order, as one by one: a ticket's players are active from the moment it is made.
  std::vector<std::string> ticket_ids, queue_keys, ticket_owners, ticket_requests, teams;
  std::vector<std::string> settings;
  std::vector<int64_t> longest_waits;
  std::vector<std::string> player_tickets, player_ids;
  std::vector<int64_t> positions;
  // Tickets that are over whose request ids the new tickets take.
  std::vector<std::string> released;
  for (size_t i = 0; i < tickets.size(); ++i) {
    const NewTicket& ticket = tickets[i];
    const auto found =
        ticket.request_id.empty() ? earlier.end() : earlier.find({ticket.owner, ticket.request_id});
    if (found != earlier.end() && found->second.in_play) {
      answers[i] = found->second.queue_key == ticket.queue_key
                       ? absl::StatusOr<std::string>(found->second.ticket_id)
                       : RequestIdReused(ticket.request_id, found->second.ticket_id);
      continue;
    }
    const auto busy = std::find_if(ticket.players.begin(), ticket.players.end(),
                                   [&](const std::string& p) { return active.contains(p); });
    if (busy != ticket.players.end()) {
      answers[i] = PlayerHasActiveTicket(*busy, active[*busy]);
      continue;
    }
    const std::string ticket_id = NewId("tk-");
    if (ticket_id.empty()) {
      answers[i] = absl::InternalError("no randomness for a ticket id");
      continue;
    }
    answers[i] = ticket_id;
    if (found != earlier.end()) released.push_back(found->second.ticket_id);
    if (!ticket.request_id.empty()) {
      earlier[{ticket.owner, ticket.request_id}] = {
          .ticket_id = ticket_id, .queue_key = ticket.queue_key, .in_play = true};
    }
    ticket_ids.push_back(ticket_id);
    queue_keys.push_back(ticket.queue_key);
    ticket_owners.push_back(ticket.owner);
    ticket_requests.push_back(ticket.request_id);
    settings.push_back(ticket.settings.SerializeAsString());
    teams.push_back(ticket.teams ? "true" : "false");
    longest_waits.push_back(absl::ToInt64Microseconds(ticket.longest_wait));
    for (size_t position = 0; position < ticket.players.size(); ++position) {
      active[ticket.players[position]] = ticket_id;
      player_tickets.push_back(ticket_id);
      player_ids.push_back(ticket.players[position]);
      positions.push_back(static_cast<int64_t>(position));
    }
  }
  if (ticket_ids.empty()) return answers;
  // Before the inserts: mm_tickets_request is checked row by row.
  ReleaseRequestIds(tx, released);
  std::vector<const std::string*> settings_bytes;
  for (const std::string& bytes : settings) settings_bytes.push_back(&bytes);
  tx.exec_prepared0(kInsertTickets, TextArrayLiteral(ticket_ids), TextArrayLiteral(queue_keys),
                    TextArrayLiteral(ticket_owners), TextArrayLiteral(ticket_requests),
                    HexArrayLiteral(settings_bytes), TextArrayLiteral(teams),
                    Int64ArrayLiteral(longest_waits), Micros(now));
  tx.exec_prepared0(kInsertPlayers, TextArrayLiteral(player_tickets), TextArrayLiteral(player_ids),
                    Int64ArrayLiteral(positions), Micros(now));
  return answers;
}

// The database is away or overloaded, which is no one ticket's fault: storing each ticket on its
// own would only multiply the wait.
bool IsOutage(const absl::Status& status) {
  return absl::IsUnavailable(status) || absl::IsResourceExhausted(status) ||
         absl::IsDeadlineExceeded(status);
}

}  // namespace

NamedStatements TicketBatchStatements() {
  return {{kSelectEarlier, kSelectEarlierSql},
          {kSelectActive, kSelectActiveSql},
          {kInsertTickets, kInsertTicketsSql},
          {kInsertPlayers, kInsertPlayersSql}};
}

std::vector<absl::StatusOr<std::string>> TicketStore::CreateTickets(
    const std::vector<NewTicket>& tickets, absl::Time now) {
  std::vector<absl::StatusOr<std::string>> answers(tickets.size(),
                                                   absl::InternalError("unanswered"));
  // A ticket no text column can hold is answered alone; the others go in the batch.
  std::vector<size_t> in_batch;
  std::vector<NewTicket> batch;
  for (size_t i = 0; i < tickets.size(); ++i) {
    absl::Status storable = CheckStorable(tickets[i]);
    if (storable.ok()) {
      in_batch.push_back(i);
      batch.push_back(tickets[i]);
    } else {
      answers[i] = std::move(storable);
    }
  }
  if (batch.empty()) return answers;
  using Answers = std::vector<absl::StatusOr<std::string>>;
  absl::StatusOr<Answers> batch_answers =
      pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Answers> {
        pqxx::work tx(connection);
        Answers inserted = InsertBatch(tx, batch, now);
        tx.commit();
        return inserted;
      });
  if (batch_answers.ok()) {
    for (size_t k = 0; k < batch.size(); ++k) answers[in_batch[k]] = std::move((*batch_answers)[k]);
    return answers;
  }
  const absl::Status status = batch_answers.status();
  if (IsOutage(status)) {
    for (size_t i : in_batch) answers[i] = status;
    return answers;
  }
  // A race lost to another replica, or a statement the database refused: the batch committed
  // nothing, so each ticket goes again in a transaction of its own. Every caller gets its own
  // ticket's answer, and a ticket the database refuses fails alone.
  if (!common::IsUniqueViolation(status)) {
    common::LogWarning("ticket batch refused; storing its tickets one by one",
                       {{"tickets", static_cast<int64_t>(batch.size())},
                        {"error", std::string(status.message())}});
  }
  for (size_t i : in_batch) answers[i] = CreateTicket(tickets[i], now);
  return answers;
}

}  // namespace kahve::matchmaking
