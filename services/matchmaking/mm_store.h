#ifndef KAHVE_SERVICES_MATCHMAKING_MM_STORE_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_STORE_H_

// Matchmaking's storage (migrations/0005_matchmaking.sql): tickets, parties and formed matches,
// plus the reads of the table service's host registry that placement needs. Every method is one
// transaction; refusals come back as the gRPC-ready statuses the API documents.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/matchmaking.pb.h"
#include "kahve/v1/table.pb.h"
#include "services/common/pg_pool.h"

namespace kahve::matchmaking {

inline constexpr char kWaiting[] = "waiting";
inline constexpr char kPlacing[] = "placing";
inline constexpr char kMatched[] = "matched";
inline constexpr char kExpired[] = "expired";
inline constexpr char kCancelled[] = "cancelled";

// A party has its leader and at most one partner.
inline constexpr int kMaxPartySize = 2;

struct NewTicket {
  std::string queue_key;
  std::string owner;
  std::string request_id;
  v1::GameSettings settings;
  bool teams = false;
  absl::Duration longest_wait = absl::ZeroDuration();
  // The owner first.
  std::vector<std::string> players;
};

// A ticket as its players see it.
struct TicketRecord {
  std::string ticket_id;
  std::string queue_key;
  std::string owner;
  std::string state;
  int64_t enqueued_us = 0;
  std::vector<std::string> players;
  // Per player, once matched (seat -1 before).
  std::vector<int> seats;
  std::vector<std::string> seat_tokens;
  std::string match_id;
  std::string table_id;
  std::string endpoint;
};

// A waiting ticket as a pass needs it.
struct QueuedTicket {
  std::string ticket_id;
  std::vector<std::string> players;
  int64_t enqueued_us = 0;
  int64_t longest_wait_us = 0;
  v1::GameSettings settings;
  bool teams = false;
};

// A formed match: its tickets' players and seats, and the request that creates its table.
struct PendingMatch {
  std::string match_id;
  std::string queue_key;
  std::string host_id;
  v1::CreateTableRequest request;
  double rating_spread = 0;
  int64_t created_us = 0;
  std::vector<std::string> ticket_ids;
  // Seats: (ticket id, player id, seat) for every human seat.
  struct Seat {
    std::string ticket_id;
    std::string player_id;
    int seat = 0;
  };
  std::vector<Seat> seats;
};

// A match whose table exists, and where.
struct Placement {
  const PendingMatch* match = nullptr;
  v1::CreateTableResponse table;
  std::string endpoint;
};

struct QueueSizes {
  int waiting = 0;
  int placing = 0;
  int64_t oldest_enqueued_us = 0;
};

class MatchmakingStore {
 public:
  explicit MatchmakingStore(common::PgPool* pool) : pool_(pool) {}

  // Tickets and parties (mm_ticket_store.cc). A ticket is in play while it is queued, or matched
  // to a table whose game has not ended (the SQL function mm_ticket_in_play, migrations/0009).
  // CreateTicket returns the ticket id: the earlier one for a repeated (owner, request id) while
  // that ticket is in play, a new one once it is over (the old row gives the request id up in the
  // same transaction). AlreadyExists with an ActiveTicket detail when a player has an active
  // ticket; with a RequestIdInUse detail when the request id is bound to a ticket of another
  // queue.
  absl::StatusOr<std::string> CreateTicket(const NewTicket& ticket, absl::Time now);
  // CreateTicket for each ticket, all in one transaction (mm_ticket_batch.cc), with the same
  // answers as one by one in this order. Should another replica win a race for a player or
  // request id meanwhile, the batch falls back to CreateTicket per ticket.
  std::vector<absl::StatusOr<std::string>> CreateTickets(const std::vector<NewTicket>& tickets,
                                                         absl::Time now);
  absl::StatusOr<TicketRecord> GetTicket(const std::string& ticket_id);
  // The newest of `player`'s kRecentTicketsLooked newest tickets that is in play; NotFound when
  // none is.
  absl::StatusOr<TicketRecord> TicketInPlay(const std::string& player);
  absl::StatusOr<std::vector<TicketRecord>> GetTickets(const std::vector<std::string>& ticket_ids);
  // NotFound, PermissionDenied (the caller is not on the ticket), FailedPrecondition (matched or
  // expired); cancelling a cancelled ticket is OK. Returns the ticket's queue key when this call
  // cancelled it, nullopt when it was cancelled already.
  absl::StatusOr<std::optional<std::string>> CancelTicket(const std::string& ticket_id,
                                                          const std::string& caller,
                                                          absl::Time now);
  // CreateParty and JoinParty: AlreadyExists with a CurrentParty detail when the player is in a
  // party already.
  absl::StatusOr<v1::Party> CreateParty(const std::string& leader, absl::Time now);
  absl::StatusOr<v1::Party> JoinParty(const std::string& invite_code, const std::string& player,
                                      absl::Time now);
  absl::Status LeaveParty(const std::string& party_id, const std::string& player);
  // The party and its members (leader first); NotFound when there is none.
  absl::StatusOr<v1::Party> GetParty(const std::string& party_id);
  // The party `player` is in, as GetParty reads it; NotFound when the player is in none.
  absl::StatusOr<v1::Party> PartyOf(const std::string& player);

  // Queue passes (mm_match_store.cc).
  // Queues with waiting or placing tickets, and how many each has.
  absl::StatusOr<std::map<std::string, int64_t>> ActiveQueues();
  absl::StatusOr<std::vector<QueuedTicket>> WaitingTickets(const std::string& queue_key);
  // Moves waiting tickets enqueued before `cutoff` to expired; returns how many.
  absl::StatusOr<int> ExpireTickets(const std::string& queue_key, absl::Time cutoff,
                                    absl::Time now);
  // In one transaction: each match's row (placing) and its tickets from waiting to placing with
  // their seats. A match with a ticket no longer waiting (cancelled since the pass read it) is
  // left out, its other tickets still waiting. Returns the matches recorded.
  absl::StatusOr<std::vector<PendingMatch>> RecordFormedMatches(std::vector<PendingMatch> matches);
  absl::StatusOr<std::vector<PendingMatch>> PlacingMatches(const std::string& queue_key);
  absl::Status SetMatchHost(const std::string& match_id, const std::string& host_id,
                            const std::string& error);
  // Gives a match still placing up (state abandoned, with the reason) and puts its tickets back
  // to waiting with their enqueue times. Returns how many tickets went back (0: it was placed or
  // given up meanwhile).
  absl::StatusOr<int> AbandonMatch(const std::string& match_id, const std::string& reason);
  // In one transaction, for each match whose table exists: its assignments, and its tickets
  // moved to matched. Matches placed already are left as they are. Returns the tickets' waits.
  absl::StatusOr<std::vector<absl::Duration>> CompletePlacements(
      const std::vector<Placement>& placements, absl::Time now);
  absl::StatusOr<QueueSizes> Sizes(const std::string& queue_key);
  // Stats of every queue with active tickets or matches since `since` (ruleset: "" for all).
  absl::StatusOr<std::vector<v1::QueueStats>> Stats(const std::string& ruleset, absl::Time since,
                                                    absl::Time now);
  // Median wait of the last 1,000 tickets matched since `since`, in seconds (0 when none):
  // bounded work however busy the queue.
  absl::StatusOr<int> ExpectedWaitSeconds(const std::string& queue_key, absl::Time since);

  // Game ends, as the table service tells them (TableDirectory): the placed matches whose game
  // matchmaking does not know to be over yet, of the ticket (owner, request id) names, or among
  // a player's newest kRecentTicketsLooked tickets; and recording that games are over.
  absl::StatusOr<std::vector<std::string>> UnsettledMatchOfRequest(const std::string& owner,
                                                                   const std::string& request_id);
  absl::StatusOr<std::vector<std::string>> UnsettledMatchesOfPlayer(const std::string& player);
  absl::Status MarkGamesOver(const std::vector<std::string>& match_ids);

 private:
  common::PgPool* pool_;
};

// Random identifiers: a prefix and 16 random bytes in hex; empty if the CSPRNG fails.
std::string NewId(const char* prefix);
// An invite code: 10 characters a person can read out (no 0/O, 1/I); empty if the CSPRNG fails.
std::string NewInviteCode();

int64_t Micros(absl::Time time);

// How many of a player's newest tickets TicketInPlay looks at: a bounded read however many games
// the player has played. A table still running behind this many newer tickets is not found.
inline constexpr int kRecentTicketsLooked = 32;

// AlreadyExists naming the player and the active ticket, message and ActiveTicket detail.
absl::Status PlayerHasActiveTicket(const std::string& player_id, const std::string& ticket_id);
// The answer to a request id its owner already used for a ticket of another queue still in play
// (AlreadyExists with a RequestIdInUse detail).
absl::Status RequestIdReused(const std::string& request_id, const std::string& ticket_id);
// In `tx`: the request ids of these tickets, which are over, move to released_request_id, so the
// tickets stored next in `tx` can take them (mm_tickets_request is unique).
void ReleaseRequestIds(pqxx::transaction_base& tx, const std::vector<std::string>& ticket_ids);

// Whether `text` can be a PostgreSQL text value: it cannot hold NUL, and libpq ends a text
// parameter at the first one, so a string with NUL would be stored or matched cut short (a
// shorter request id, someone else's id). The edge refuses such strings (request_checks.h); the
// store refuses them again rather than act on something else.
bool StorableText(std::string_view text);
// InvalidArgument naming the first field of `ticket` that is not StorableText.
absl::Status CheckStorable(const NewTicket& ticket);

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_STORE_H_
