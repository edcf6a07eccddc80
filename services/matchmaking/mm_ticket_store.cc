// Tickets and parties: the client-facing half of MatchmakingStore.

#include <openssl/rand.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_arrays.h"
#include "services/common/pg_status.h"
#include "services/common/status.h"
#include "services/matchmaking/mm_store.h"

namespace kahve::matchmaking {
namespace {

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

// Tickets with their players in party order; the match's table once placed.
constexpr char kSelectTickets[] =
    "SELECT t.ticket_id, t.queue_key, t.owner, t.state, t.enqueued_us, t.match_id, m.table_id,"
    "       m.endpoint, p.player_id, p.seat, p.seat_token"
    "  FROM mm_tickets t JOIN mm_ticket_players p USING (ticket_id)"
    "  LEFT JOIN mm_matches m ON m.match_id = t.match_id AND m.state = 'placed'"
    "  WHERE t.ticket_id = ANY($1::text[])"
    "  ORDER BY t.ticket_id, p.position";

// The ticket (owner, request id) names, and whether it is in play (bound to the request id).
constexpr char kSelectByRequest[] =
    "SELECT ticket_id, queue_key, mm_ticket_in_play(state, match_id) FROM mm_tickets"
    " WHERE owner = $1 AND request_id = $2";

constexpr char kReleaseRequestIds[] =
    "UPDATE mm_tickets SET released_request_id = request_id, request_id = ''"
    " WHERE ticket_id = ANY($1::text[]) AND request_id <> ''";

// The newest in play among the player's newest $2 tickets (mm_ticket_players_by_player).
constexpr char kSelectTicketInPlay[] =
    "SELECT t.ticket_id FROM (SELECT ticket_id FROM mm_ticket_players WHERE player_id = $1"
    "    ORDER BY enqueued_us DESC NULLS LAST LIMIT $2) AS recent"
    "  JOIN mm_tickets t USING (ticket_id)"
    "  WHERE mm_ticket_in_play(t.state, t.match_id)"
    "  ORDER BY t.enqueued_us DESC, t.ticket_id LIMIT 1";

// The active ticket that queues party $1 as a party: the one holding more than one of its members.
constexpr char kSelectPartyTicket[] =
    "SELECT p.ticket_id FROM mm_ticket_players p JOIN mm_party_members m USING (player_id)"
    "  WHERE m.party_id = $1 AND p.active"
    "  GROUP BY p.ticket_id HAVING count(*) > 1 LIMIT 1";

// The tickets `ticket_ids` name (all storable), in kSelectTickets' order.
std::vector<TicketRecord> ReadTickets(pqxx::transaction_base& tx,
                                      const std::vector<std::string>& ticket_ids) {
  std::vector<TicketRecord> tickets;
  for (const pqxx::row& row :
       tx.exec_params(kSelectTickets, common::TextArrayLiteral(ticket_ids))) {
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

absl::StatusOr<v1::Party> ReadParty(pqxx::transaction_base& tx, const std::string& party_id) {
  const pqxx::result rows = tx.exec_params(
      "SELECT p.leader, p.invite_code, m.player_id FROM mm_parties p"
      "  JOIN mm_party_members m USING (party_id) WHERE p.party_id = $1"
      "  ORDER BY m.player_id = p.leader DESC, m.joined_us",
      party_id);
  if (rows.empty()) return absl::NotFoundError(absl::StrCat("no party ", party_id));
  v1::Party party;
  party.set_party_id(party_id);
  party.set_leader(rows[0][0].as<std::string>());
  for (const pqxx::row& row : rows) party.add_members(row[2].as<std::string>());
  if (party.members_size() < kMaxPartySize) party.set_invite_code(rows[0][1].as<std::string>());
  return party;
}

// Adds `player` to the party, then reads the party back, in the caller's transaction.
absl::StatusOr<v1::Party> AddMember(pqxx::transaction_base& tx, const std::string& party_id,
                                    const std::string& player, absl::Time now) {
  tx.exec_params0(
      "INSERT INTO mm_party_members (player_id, party_id, joined_us) VALUES ($1, $2, $3)", player,
      party_id, Micros(now));
  return ReadParty(tx, party_id);
}

// AlreadyExists for a player in party `party_id`, naming it (message and CurrentParty detail).
absl::Status AlreadyInParty(const std::string& party_id, bool joining_it) {
  v1::CurrentParty detail;
  detail.set_party_id(party_id);
  return common::WithDetail(
      absl::AlreadyExistsError(
          joining_it ? "already in this party"
                     : absl::StrCat("already in party ", party_id, "; leave it first")),
      detail);
}

// FailedPrecondition for leaving a party that is queued as a party, naming its ticket (message
// and PartyTicket detail).
absl::Status PartyIsQueued(const std::string& party_id, const std::string& ticket_id) {
  v1::PartyTicket detail;
  detail.set_party_id(party_id);
  detail.set_ticket_id(ticket_id);
  return common::WithDetail(absl::FailedPreconditionError(absl::StrCat(
                                "the party is queued (ticket ", ticket_id, "); cancel it first")),
                            detail);
}

}  // namespace

bool StorableText(std::string_view text) { return text.find('\0') == std::string_view::npos; }

absl::Status CheckStorable(const NewTicket& ticket) {
  if (!StorableText(ticket.owner)) return absl::InvalidArgumentError("owner: holds NUL");
  if (!StorableText(ticket.request_id)) return absl::InvalidArgumentError("request_id: holds NUL");
  for (const std::string& player : ticket.players) {
    if (!StorableText(player)) return absl::InvalidArgumentError("players: a player id holds NUL");
  }
  if (!StorableText(ticket.queue_key)) return absl::InvalidArgumentError("queue key holds NUL");
  return absl::OkStatus();
}

absl::Status PlayerHasActiveTicket(const std::string& player_id, const std::string& ticket_id) {
  v1::ActiveTicket detail;
  detail.set_player_id(player_id);
  detail.set_ticket_id(ticket_id);
  return common::WithDetail(absl::AlreadyExistsError(absl::StrCat(
                                "player ", player_id, " already has active ticket ", ticket_id)),
                            detail);
}

absl::Status RequestIdReused(const std::string& request_id, const std::string& ticket_id) {
  v1::RequestIdInUse detail;
  detail.set_request_id(request_id);
  detail.set_ticket_id(ticket_id);
  return common::WithDetail(
      absl::AlreadyExistsError(absl::StrCat("request_id: already used for ticket ", ticket_id,
                                            " of another queue; use a new id")),
      detail);
}

void ReleaseRequestIds(pqxx::transaction_base& tx, const std::vector<std::string>& ticket_ids) {
  if (ticket_ids.empty()) return;
  tx.exec_params0(kReleaseRequestIds, common::TextArrayLiteral(ticket_ids));
}

std::string NewId(const char* prefix) {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) return "";
  return absl::StrCat(prefix, Hex(std::string(reinterpret_cast<char*>(bytes), sizeof(bytes))));
}

std::string NewInviteCode() {
  static constexpr char kAlphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";  // 32 symbols
  unsigned char bytes[10];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) return "";
  std::string code;
  for (unsigned char byte : bytes) code.push_back(kAlphabet[byte % 32]);
  return code;
}

int64_t Micros(absl::Time time) { return absl::ToUnixMicros(time); }

absl::StatusOr<std::string> MatchmakingStore::CreateTicket(const NewTicket& ticket,
                                                           absl::Time now) {
  if (absl::Status storable = CheckStorable(ticket); !storable.ok()) return storable;
  const std::string ticket_id = NewId("tk-");
  if (ticket_id.empty()) return absl::InternalError("no randomness for a ticket id");
  const absl::StatusOr<std::string> created =
      pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<std::string> {
        pqxx::work tx(connection);
        std::vector<std::string> over;
        if (!ticket.request_id.empty()) {
          const pqxx::result earlier =
              tx.exec_params(kSelectByRequest, ticket.owner, ticket.request_id);
          if (!earlier.empty() && earlier[0][2].as<bool>()) return AnswerRepeat(earlier[0], ticket);
          // A ticket that is over gives the id up to this one; rolled back with it on a refusal.
          if (!earlier.empty()) over.push_back(earlier[0][0].as<std::string>());
        }
        ReleaseRequestIds(tx, over);
        tx.exec_params0(
            "INSERT INTO mm_tickets (ticket_id, queue_key, owner, request_id, settings, teams,"
            "  longest_wait_us, state, enqueued_us)"
            " VALUES ($1, $2, $3, $4, decode($5, 'hex'), $6, $7, 'waiting', $8)",
            ticket_id, ticket.queue_key, ticket.owner, ticket.request_id,
            Hex(ticket.settings.SerializeAsString()), ticket.teams,
            absl::ToInt64Microseconds(ticket.longest_wait), Micros(now));
        for (size_t i = 0; i < ticket.players.size(); ++i) {
          tx.exec_params0(
              "INSERT INTO mm_ticket_players (ticket_id, player_id, position, active, enqueued_us)"
              " VALUES ($1, $2, $3, true, $4)",
              ticket_id, ticket.players[i], static_cast<int>(i), Micros(now));
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
          tx.exec_params(kSelectByRequest, ticket.owner, ticket.request_id);
      if (!earlier.empty() && earlier[0][2].as<bool>()) return AnswerRepeat(earlier[0], ticket);
    }
    pqxx::result active;
    for (const std::string& player : ticket.players) {
      active = tx.exec_params(
          "SELECT player_id, ticket_id FROM mm_ticket_players WHERE active AND player_id = $1",
          player);
      if (!active.empty()) break;
    }
    if (active.empty()) return absl::AbortedError("ticket conflict; try again");
    return PlayerHasActiveTicket(active[0][0].as<std::string>(), active[0][1].as<std::string>());
  });
}

absl::StatusOr<TicketRecord> MatchmakingStore::GetTicket(const std::string& ticket_id) {
  auto tickets = GetTickets({ticket_id});
  if (!tickets.ok()) return tickets.status();
  if (tickets->empty()) return absl::NotFoundError(absl::StrCat("no ticket ", ticket_id));
  return std::move(tickets->front());
}

absl::StatusOr<std::vector<TicketRecord>> MatchmakingStore::GetTickets(
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

absl::StatusOr<TicketRecord> MatchmakingStore::TicketInPlay(const std::string& player) {
  const absl::Status not_found = absl::NotFoundError("no ticket in play");
  if (!StorableText(player)) return not_found;
  using Tickets = std::vector<TicketRecord>;
  absl::StatusOr<Tickets> tickets =
      pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Tickets> {
        pqxx::read_transaction tx(connection);
        const pqxx::result found =
            tx.exec_params(kSelectTicketInPlay, player, kRecentTicketsLooked);
        if (found.empty()) return Tickets();
        return ReadTickets(tx, {found[0][0].as<std::string>()});
      });
  if (!tickets.ok()) return tickets.status();
  if (tickets->empty()) return not_found;
  return std::move(tickets->front());
}

absl::StatusOr<std::optional<std::string>> MatchmakingStore::CancelTicket(
    const std::string& ticket_id, const std::string& caller, absl::Time now) {
  if (!StorableText(ticket_id) || !StorableText(caller)) return absl::NotFoundError("no ticket");
  using Cancelled = std::optional<std::string>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Cancelled> {
    pqxx::work tx(connection);
    // The row lock orders this against a pass moving the ticket to placing.
    const pqxx::result ticket = tx.exec_params(
        "SELECT state, EXISTS (SELECT 1 FROM mm_ticket_players p"
        "  WHERE p.ticket_id = t.ticket_id AND p.player_id = $2), queue_key"
        "  FROM mm_tickets t WHERE ticket_id = $1 FOR UPDATE",
        ticket_id, caller);
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
    tx.exec_params0("UPDATE mm_tickets SET state = 'cancelled', ended_us = $2 WHERE ticket_id = $1",
                    ticket_id, Micros(now));
    tx.exec_params0("UPDATE mm_ticket_players SET active = false WHERE ticket_id = $1", ticket_id);
    tx.commit();
    return Cancelled(ticket[0][2].as<std::string>());
  });
}

absl::StatusOr<v1::Party> MatchmakingStore::CreateParty(const std::string& leader, absl::Time now) {
  if (!StorableText(leader)) return absl::InvalidArgumentError("leader: holds NUL");
  const std::string party_id = NewId("pt-");
  const std::string code = NewInviteCode();
  if (party_id.empty() || code.empty()) return absl::InternalError("no randomness for a party");
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::work tx(connection);
    const pqxx::result member =
        tx.exec_params("SELECT party_id FROM mm_party_members WHERE player_id = $1", leader);
    if (!member.empty()) {
      return AlreadyInParty(member[0][0].as<std::string>(), /*joining_it=*/false);
    }
    tx.exec_params0(
        "INSERT INTO mm_parties (party_id, leader, invite_code, created_us) VALUES ($1,$2,$3,$4)",
        party_id, leader, code, Micros(now));
    absl::StatusOr<v1::Party> party = AddMember(tx, party_id, leader, now);
    if (party.ok()) tx.commit();
    return party;
  });
}

absl::StatusOr<v1::Party> MatchmakingStore::JoinParty(const std::string& invite_code,
                                                      const std::string& player, absl::Time now) {
  if (!StorableText(invite_code) || !StorableText(player)) {
    return absl::NotFoundError("no party has this invite code");
  }
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::work tx(connection);
    // Locking the party row serializes two partners racing for the last place.
    const pqxx::result found = tx.exec_params(
        "SELECT party_id FROM mm_parties WHERE invite_code = $1 FOR UPDATE", invite_code);
    if (found.empty()) return absl::NotFoundError("no party has this invite code");
    const std::string party_id = found[0][0].as<std::string>();
    const pqxx::result member =
        tx.exec_params("SELECT party_id FROM mm_party_members WHERE player_id = $1", player);
    if (!member.empty()) {
      const std::string current = member[0][0].as<std::string>();
      return AlreadyInParty(current, /*joining_it=*/current == party_id);
    }
    const pqxx::result size =
        tx.exec_params("SELECT count(*) FROM mm_party_members WHERE party_id = $1", party_id);
    if (size[0][0].as<int>() >= kMaxPartySize) {
      return absl::FailedPreconditionError("this invite code has been used: the party is full");
    }
    absl::StatusOr<v1::Party> party = AddMember(tx, party_id, player, now);
    if (party.ok()) tx.commit();
    return party;
  });
}

absl::Status MatchmakingStore::LeaveParty(const std::string& party_id, const std::string& player) {
  if (!StorableText(party_id) || !StorableText(player)) return absl::NotFoundError("not in party");
  return pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::work tx(connection);
    const pqxx::result party = tx.exec_params(
        "SELECT p.leader FROM mm_parties p JOIN mm_party_members m USING (party_id)"
        "  WHERE p.party_id = $1 AND m.player_id = $2 FOR UPDATE OF p",
        party_id, player);
    if (party.empty()) return absl::NotFoundError(absl::StrCat("not in party ", party_id));
    // A queued party stays as it was queued: its ticket must be cancelled (or end) first. The
    // party's ticket is the active one holding both members; a ticket a member queued alone is
    // that member's own business and keeps nobody in the party.
    const pqxx::result queued = tx.exec_params(kSelectPartyTicket, party_id);
    if (!queued.empty()) return PartyIsQueued(party_id, queued[0][0].as<std::string>());
    if (party[0][0].as<std::string>() == player) {
      // Without its leader the party is gone (members leave with it: ON DELETE CASCADE).
      tx.exec_params0("DELETE FROM mm_parties WHERE party_id = $1", party_id);
    } else {
      tx.exec_params0("DELETE FROM mm_party_members WHERE player_id = $1", player);
    }
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<v1::Party> MatchmakingStore::GetParty(const std::string& party_id) {
  if (!StorableText(party_id)) return absl::NotFoundError("no party");
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::read_transaction tx(connection);
    return ReadParty(tx, party_id);
  });
}

absl::StatusOr<v1::Party> MatchmakingStore::PartyOf(const std::string& player) {
  if (!StorableText(player)) return absl::NotFoundError("not in a party");
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::read_transaction tx(connection);
    const pqxx::result member =
        tx.exec_params("SELECT party_id FROM mm_party_members WHERE player_id = $1", player);
    if (member.empty()) return absl::NotFoundError("not in a party");
    auto read = ReadParty(tx, member[0][0].as<std::string>());
    // The leader ended the party between the two reads: the player is in none now.
    if (absl::IsNotFound(read.status())) return absl::NotFoundError("not in a party");
    return read;
  });
}

}  // namespace kahve::matchmaking
