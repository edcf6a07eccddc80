#include "services/matchmaking/mm_party_store.h"

#include "absl/strings/str_cat.h"
#include "services/common/status.h"

namespace kahve::matchmaking {
namespace {

constexpr char kSelectParty[] = "mm_select_party";
constexpr char kSelectPartySql[] =
    "SELECT p.leader, p.invite_code, m.player_id FROM mm_parties p"
    "  JOIN mm_party_members m USING (party_id) WHERE p.party_id = $1"
    "  ORDER BY m.player_id = p.leader DESC, m.joined_us";

constexpr char kSelectPartyOf[] = "mm_select_party_of";
constexpr char kSelectPartyOfSql[] = "SELECT party_id FROM mm_party_members WHERE player_id = $1";

constexpr char kInsertParty[] = "mm_insert_party";
constexpr char kInsertPartySql[] =
    "INSERT INTO mm_parties (party_id, leader, invite_code, created_us) VALUES ($1, $2, $3, $4)";

constexpr char kInsertMember[] = "mm_insert_party_member";
constexpr char kInsertMemberSql[] =
    "INSERT INTO mm_party_members (player_id, party_id, joined_us) VALUES ($1, $2, $3)";

// Locking the party row serializes two partners racing for the last place.
constexpr char kLockPartyByCode[] = "mm_lock_party_by_code";
constexpr char kLockPartyByCodeSql[] =
    "SELECT party_id FROM mm_parties WHERE invite_code = $1 FOR UPDATE";

constexpr char kCountMembers[] = "mm_count_party_members";
constexpr char kCountMembersSql[] = "SELECT count(*) FROM mm_party_members WHERE party_id = $1";

constexpr char kLockPartyOfMember[] = "mm_lock_party_of_member";
constexpr char kLockPartyOfMemberSql[] =
    "SELECT p.leader FROM mm_parties p JOIN mm_party_members m USING (party_id)"
    "  WHERE p.party_id = $1 AND m.player_id = $2 FOR UPDATE OF p";

// The active ticket that queues party $1 as a party: the one holding more than one of its members.
constexpr char kSelectPartyTicket[] = "mm_select_party_ticket";
constexpr char kSelectPartyTicketSql[] =
    "SELECT p.ticket_id FROM mm_ticket_players p JOIN mm_party_members m USING (player_id)"
    "  WHERE m.party_id = $1 AND p.active"
    "  GROUP BY p.ticket_id HAVING count(*) > 1 LIMIT 1";

// Without its leader the party is gone (members leave with it: ON DELETE CASCADE).
constexpr char kDeleteParty[] = "mm_delete_party";
constexpr char kDeletePartySql[] = "DELETE FROM mm_parties WHERE party_id = $1";

constexpr char kDeleteMember[] = "mm_delete_party_member";
constexpr char kDeleteMemberSql[] = "DELETE FROM mm_party_members WHERE player_id = $1";

absl::StatusOr<v1::Party> ReadParty(pqxx::transaction_base& tx, const std::string& party_id) {
  const pqxx::result rows = tx.exec_prepared(kSelectParty, party_id);
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
  tx.exec_prepared0(kInsertMember, player, party_id, Micros(now));
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

NamedStatements PartyStore::PreparedStatements() {
  return {{kSelectParty, kSelectPartySql},
          {kSelectPartyOf, kSelectPartyOfSql},
          {kInsertParty, kInsertPartySql},
          {kInsertMember, kInsertMemberSql},
          {kLockPartyByCode, kLockPartyByCodeSql},
          {kCountMembers, kCountMembersSql},
          {kLockPartyOfMember, kLockPartyOfMemberSql},
          {kSelectPartyTicket, kSelectPartyTicketSql},
          {kDeleteParty, kDeletePartySql},
          {kDeleteMember, kDeleteMemberSql}};
}

absl::StatusOr<v1::Party> PartyStore::CreateParty(const std::string& leader, absl::Time now) {
  if (!StorableText(leader)) return absl::InvalidArgumentError("leader: holds NUL");
  const std::string party_id = NewId("pt-");
  const std::string code = NewInviteCode();
  if (party_id.empty() || code.empty()) return absl::InternalError("no randomness for a party");
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::work tx(connection);
    const pqxx::result member = tx.exec_prepared(kSelectPartyOf, leader);
    if (!member.empty()) {
      return AlreadyInParty(member[0][0].as<std::string>(), /*joining_it=*/false);
    }
    tx.exec_prepared0(kInsertParty, party_id, leader, code, Micros(now));
    absl::StatusOr<v1::Party> party = AddMember(tx, party_id, leader, now);
    if (party.ok()) tx.commit();
    return party;
  });
}

absl::StatusOr<v1::Party> PartyStore::JoinParty(const std::string& invite_code,
                                                const std::string& player, absl::Time now) {
  if (!StorableText(invite_code) || !StorableText(player)) {
    return absl::NotFoundError("no party has this invite code");
  }
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::work tx(connection);
    const pqxx::result found = tx.exec_prepared(kLockPartyByCode, invite_code);
    if (found.empty()) return absl::NotFoundError("no party has this invite code");
    const std::string party_id = found[0][0].as<std::string>();
    const pqxx::result member = tx.exec_prepared(kSelectPartyOf, player);
    if (!member.empty()) {
      const std::string current = member[0][0].as<std::string>();
      return AlreadyInParty(current, /*joining_it=*/current == party_id);
    }
    const pqxx::result size = tx.exec_prepared(kCountMembers, party_id);
    if (size[0][0].as<int>() >= kMaxPartySize) {
      return absl::FailedPreconditionError("this invite code has been used: the party is full");
    }
    absl::StatusOr<v1::Party> party = AddMember(tx, party_id, player, now);
    if (party.ok()) tx.commit();
    return party;
  });
}

absl::Status PartyStore::LeaveParty(const std::string& party_id, const std::string& player) {
  if (!StorableText(party_id) || !StorableText(player)) return absl::NotFoundError("not in party");
  return pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::work tx(connection);
    const pqxx::result party = tx.exec_prepared(kLockPartyOfMember, party_id, player);
    if (party.empty()) return absl::NotFoundError(absl::StrCat("not in party ", party_id));
    // A queued party stays as it was queued: its ticket must be cancelled (or end) first. The
    // party's ticket is the active one holding both members; a ticket a member queued alone is
    // that member's own business and keeps nobody in the party.
    const pqxx::result queued = tx.exec_prepared(kSelectPartyTicket, party_id);
    if (!queued.empty()) return PartyIsQueued(party_id, queued[0][0].as<std::string>());
    if (party[0][0].as<std::string>() == player) {
      tx.exec_prepared0(kDeleteParty, party_id);
    } else {
      tx.exec_prepared0(kDeleteMember, player);
    }
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<v1::Party> PartyStore::GetParty(const std::string& party_id) {
  if (!StorableText(party_id)) return absl::NotFoundError("no party");
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::read_transaction tx(connection);
    return ReadParty(tx, party_id);
  });
}

absl::StatusOr<v1::Party> PartyStore::PartyOf(const std::string& player) {
  if (!StorableText(player)) return absl::NotFoundError("not in a party");
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<v1::Party> {
    pqxx::read_transaction tx(connection);
    const pqxx::result member = tx.exec_prepared(kSelectPartyOf, player);
    if (member.empty()) return absl::NotFoundError("not in a party");
    auto read = ReadParty(tx, member[0][0].as<std::string>());
    // The leader ended the party between the two reads: the player is in none now.
    if (absl::IsNotFound(read.status())) return absl::NotFoundError("not in a party");
    return read;
  });
}

}  // namespace kahve::matchmaking
