#ifndef KAHVE_SERVICES_MATCHMAKING_MM_RECORDS_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_RECORDS_H_

// What matchmaking's stores (mm_store.h) read and write: tickets, formed matches and their
// placements, and the checks and refusals they share.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/table.pb.h"

namespace kahve::matchmaking {

// A store's named statements, (name, sql): prepared on every connection of the pool it uses
// (PgPoolSettings::prepared; MatchmakingStore::PreparedStatements gathers them).
using NamedStatements = std::vector<std::pair<std::string, std::string>>;

inline constexpr char kWaiting[] = "waiting";
inline constexpr char kPlacing[] = "placing";
inline constexpr char kMatched[] = "matched";
inline constexpr char kExpired[] = "expired";
inline constexpr char kCancelled[] = "cancelled";

// A party has its leader and at most one partner.
inline constexpr int kMaxPartySize = 2;

// How many of a player's newest tickets TicketInPlay looks at: a bounded read however many games
// the player has played. A table still running behind this many newer tickets is not found.
inline constexpr int kRecentTicketsLooked = 32;

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

// Random identifiers: a prefix and 16 random bytes in hex; empty if the CSPRNG fails.
std::string NewId(const char* prefix);
// An invite code: 10 characters a person can read out (no 0/O, 1/I); empty if the CSPRNG fails.
std::string NewInviteCode();

int64_t Micros(absl::Time time);

// AlreadyExists naming the player and the active ticket, message and ActiveTicket detail.
absl::Status PlayerHasActiveTicket(const std::string& player_id, const std::string& ticket_id);
// The answer to a request id its owner already used for a ticket of another queue still in play
// (AlreadyExists with a RequestIdInUse detail).
absl::Status RequestIdReused(const std::string& request_id, const std::string& ticket_id);

// Whether `text` can be a PostgreSQL text value: it cannot hold NUL, and libpq ends a text
// parameter at the first one, so a string with NUL would be stored or matched cut short (a
// shorter request id, someone else's id). The edge refuses such strings (request_checks.h); the
// stores refuse them again rather than act on something else.
bool StorableText(std::string_view text);
// InvalidArgument naming the first field of `ticket` that is not StorableText.
absl::Status CheckStorable(const NewTicket& ticket);

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_RECORDS_H_
