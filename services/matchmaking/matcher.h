#ifndef KAHVE_SERVICES_MATCHMAKING_MATCHER_H_
#define KAHVE_SERVICES_MATCHMAKING_MATCHER_H_

// One matching pass over one queue's waiting tickets: which tickets sit down together. Pure logic
// (no database, no network, no clock of its own), so a pass is a function of (tickets, rules, now)
// and tests and the benchmark drive it directly. docs/matchmaking.md states the rules.
//
// Oldest first: each unmatched ticket in order of enqueue time anchors a table and takes the
// nearest unmatched tickets by rating, all within the anchor's skill window, which widens with
// the anchor's wait. A ticket is in one match at most.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace kahve::matchmaking {

struct WaitingTicket {
  // Members: one player, or a party of two (partners in 2v2; friends at one table otherwise).
  int party_size = 1;
  // The party's skill: the mean display rating (mu - 3 sigma) of its members.
  double rating = 0;
  // Any member provisional (few rated games): their rating says little, so the window is wider.
  bool provisional = false;
  absl::Time enqueued;
  // The ticket's own longest wait, after which it accepts bots where allowed (InfiniteDuration:
  // the queue's).
  absl::Duration longest_wait = absl::InfiniteDuration();
};

// How far apart in display rating tickets may be matched: base + per_second * wait, capped at
// max, plus provisional_extra when either side is provisional.
struct SkillWindow {
  double base = 3;
  double per_second = 0.5;
  double max = 40;
  double provisional_extra = 10;
  double At(absl::Duration wait) const;
};

struct QueueRules {
  // Seats of a full table, and the fewest a table may start with after shrink_after of waiting
  // (Liar's dice and Mexican Train; equal for Okey).
  int preferred_seats = 4;
  int min_seats = 4;
  absl::Duration shrink_after = absl::Seconds(30);
  // 2v2: two teams of two; a party of two is one team.
  bool teams = false;
  // Seats left empty after the longest wait are given to bots, where the settings allow it.
  bool bot_fill = false;
  absl::Duration longest_wait = absl::Seconds(60);
  SkillWindow window;
};

struct FormedMatch {
  // Indices into the pass's tickets, in seat order of their first seat: a party takes
  // consecutive seats, except in teams, where seats {0, 2} are one team and {1, 3} the other.
  std::vector<int> tickets;
  // Seats after the players' that bots take.
  int bots = 0;
  // Player seats: seat_of[i] is the first seat of tickets[i] (a party of two also takes the
  // seat after it, or in teams the seat two further).
  std::vector<int> seat_of;
  // Highest minus lowest rating among the tickets.
  double rating_spread = 0;
};

// Matches as many tickets as the rules allow at `now`. Deterministic: the same tickets give the
// same matches. O(n log n) for n tickets.
std::vector<FormedMatch> MatchPass(const std::vector<WaitingTicket>& tickets,
                                   const QueueRules& rules, absl::Time now);

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MATCHER_H_
