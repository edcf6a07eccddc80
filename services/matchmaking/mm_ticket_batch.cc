// Enqueue's group commit: a batch of new tickets in one transaction (one WAL flush), answered as
// CreateTicket would answer each in turn.

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "services/common/pg_arrays.h"
#include "services/matchmaking/mm_store.h"

namespace kahve::matchmaking {
namespace {

using common::HexArrayLiteral;
using common::Int64ArrayLiteral;
using common::TextArrayLiteral;

}  // namespace

std::vector<absl::StatusOr<std::string>> MatchmakingStore::CreateTickets(
    const std::vector<NewTicket>& tickets, absl::Time now) {
  std::vector<absl::StatusOr<std::string>> answers;
  bool lost_race = false;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) {
    answers.assign(tickets.size(), absl::InternalError("unanswered"));
    std::vector<std::string> owners, request_ids, players;
    for (const NewTicket& ticket : tickets) {
      if (!ticket.request_id.empty()) {
        owners.push_back(ticket.owner);
        request_ids.push_back(ticket.request_id);
      }
      players.insert(players.end(), ticket.players.begin(), ticket.players.end());
    }
    pqxx::work tx(connection);
    // Tickets these requests made before (retries), and the players' active tickets.
    // (owner, request id) -> (ticket, queue key)
    std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> earlier;
    if (!request_ids.empty()) {
      // The request_id <> '' term lets the partial index mm_tickets_request answer.
      for (const pqxx::row& row :
           tx.exec_params("SELECT t.owner, t.request_id, t.ticket_id, t.queue_key FROM mm_tickets t"
                          "  JOIN unnest($1::text[], $2::text[]) AS v(o, r)"
                          "    ON t.owner = v.o AND t.request_id = v.r WHERE t.request_id <> ''",
                          TextArrayLiteral(owners), TextArrayLiteral(request_ids))) {
        earlier[{row[0].as<std::string>(), row[1].as<std::string>()}] = {row[2].as<std::string>(),
                                                                         row[3].as<std::string>()};
      }
    }
    std::map<std::string, std::string> active;  // player -> ticket
    for (const pqxx::row& row : tx.exec_params("SELECT player_id, ticket_id FROM mm_ticket_players"
                                               "  WHERE active AND player_id = ANY($1::text[])",
                                               TextArrayLiteral(players))) {
      active[row[0].as<std::string>()] = row[1].as<std::string>();
    }
    // In order, as one by one: a ticket's players are active from the moment it is made.
    std::vector<std::string> ticket_ids, queue_keys, ticket_owners, ticket_requests, teams;
    std::vector<std::string> settings;
    std::vector<int64_t> longest_waits;
    std::vector<std::string> player_tickets, player_ids;
    std::vector<int64_t> positions;
    for (size_t i = 0; i < tickets.size(); ++i) {
      const NewTicket& ticket = tickets[i];
      if (!ticket.request_id.empty()) {
        const auto found = earlier.find({ticket.owner, ticket.request_id});
        if (found != earlier.end()) {
          answers[i] = found->second.second == ticket.queue_key
                           ? absl::StatusOr<std::string>(found->second.first)
                           : RequestIdReused(found->second.first);
          continue;
        }
      }
      const auto busy = std::find_if(ticket.players.begin(), ticket.players.end(),
                                     [&](const std::string& p) { return active.contains(p); });
      if (busy != ticket.players.end()) {
        answers[i] = absl::AlreadyExistsError(
            absl::StrCat("player ", *busy, " already has active ticket ", active[*busy]));
        continue;
      }
      const std::string ticket_id = NewId("tk-");
      if (ticket_id.empty()) {
        answers[i] = absl::InternalError("no randomness for a ticket id");
        continue;
      }
      answers[i] = ticket_id;
      if (!ticket.request_id.empty()) {
        earlier[{ticket.owner, ticket.request_id}] = {ticket_id, ticket.queue_key};
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
    if (ticket_ids.empty()) return absl::OkStatus();
    std::vector<const std::string*> settings_bytes;
    for (const std::string& bytes : settings) settings_bytes.push_back(&bytes);
    try {
      tx.exec_params0(
          "INSERT INTO mm_tickets (ticket_id, queue_key, owner, request_id, settings, teams,"
          "  longest_wait_us, state, enqueued_us)"
          " SELECT i, q, o, r, decode(s, 'hex'), t::boolean, w, 'waiting', $8"
          "  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],"
          "    $7::bigint[]) AS v(i, q, o, r, s, t, w)",
          TextArrayLiteral(ticket_ids), TextArrayLiteral(queue_keys),
          TextArrayLiteral(ticket_owners), TextArrayLiteral(ticket_requests),
          HexArrayLiteral(settings_bytes), TextArrayLiteral(teams),
          Int64ArrayLiteral(longest_waits), Micros(now));
      tx.exec_params0(
          "INSERT INTO mm_ticket_players (ticket_id, player_id, position, active)"
          " SELECT t, p, n, true FROM unnest($1::text[], $2::text[], $3::smallint[]) AS v(t, p, n)",
          TextArrayLiteral(player_tickets), TextArrayLiteral(player_ids),
          Int64ArrayLiteral(positions));
      tx.commit();
    } catch (const pqxx::unique_violation&) {
      // Another replica took a player or request id after this batch looked.
      lost_race = true;
    }
    return absl::OkStatus();
  });
  if (lost_race) {
    answers.clear();
    for (const NewTicket& ticket : tickets) answers.push_back(CreateTicket(ticket, now));
    return answers;
  }
  if (!status.ok()) answers.assign(tickets.size(), status);
  return answers;
}

}  // namespace kahve::matchmaking
