#include "services/matchmaking/matcher.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "engine/core/seating.h"

namespace kahve::matchmaking {
namespace {

// Candidates an anchor looks at, nearest first, before giving up for this pass: bounds a pass
// at O(n) work after sorting even when many nearby tickets do not fit (parties of two, say).
constexpr int kMaxScan = 64;

// Positions in rating order not yet matched, skipped in near-constant time: next[p] leads to the
// first free position at or after p (path halving), prev likewise before.
class FreePositions {
 public:
  explicit FreePositions(int n) : next_(n + 2), prev_(n + 2) {
    for (int p = 0; p < n + 2; ++p) next_[p] = prev_[p] = p;
  }
  // Free positions are 1..n in the arrays (0 and n+1 are sentinels, always "free").
  int NextFree(int p) {
    while (next_[p] != p) p = next_[p] = next_[next_[p]];
    return p;
  }
  int PrevFree(int p) {
    while (prev_[p] != p) p = prev_[p] = prev_[prev_[p]];
    return p;
  }
  void Take(int p) {
    next_[p] = p + 1;
    prev_[p] = p - 1;
  }

 private:
  std::vector<int> next_;
  std::vector<int> prev_;
};

// Seats for a teams table of four: parties of two take {0, 2} then {1, 3}; singles the seats left,
// split so the two teams' rating sums are as close as they can be.
void SeatTeams(const std::vector<WaitingTicket>& tickets, FormedMatch* match) {
  std::vector<int> pairs, singles;
  for (int t : match->tickets) (tickets[t].party_size == 2 ? pairs : singles).push_back(t);
  std::vector<int> order;
  std::vector<int> seats;
  int next_pair_seat = 0;
  for (int t : pairs) {
    order.push_back(t);
    seats.push_back(next_pair_seat++);
  }
  if (pairs.empty() && singles.size() == 4) {
    // Team {0, 2} keeps the first single (the anchor's side); pick its partner for balance.
    const auto rating = [&](int i) { return tickets[singles[i]].rating; };
    int best = 1;
    double best_gap = INFINITY;
    for (int partner = 1; partner < 4; ++partner) {
      double ours = rating(0) + rating(partner), theirs = 0;
      for (int other = 1; other < 4; ++other) {
        if (other != partner) theirs += rating(other);
      }
      if (std::abs(ours - theirs) < best_gap) {
        best_gap = std::abs(ours - theirs);
        best = partner;
      }
    }
    std::vector<int> rest;
    for (int other = 1; other < 4; ++other) {
      if (other != best) rest.push_back(singles[other]);
    }
    order = {singles[0], rest[0], singles[best], rest[1]};
    seats = {0, 1, 2, 3};
  } else {
    std::vector<bool> taken(engine::kPartnershipSeats, false);
    for (int seat : seats) taken[seat] = taken[engine::PartnerOf(seat)] = true;
    for (int t : singles) {
      int seat = 0;
      while (taken[seat]) ++seat;
      taken[seat] = true;
      order.push_back(t);
      seats.push_back(seat);
    }
  }
  match->tickets = order;
  match->seat_of = seats;
}

// How many bots fill the table of `seats` seats the ticket `anchor` found after `wait`: none when
// it is full, or may start smaller; all the empty seats once the anchor has waited its longest
// (where the queue takes bots); nullopt while it should wait for more players.
std::optional<int> BotsToFill(const WaitingTicket& anchor, int seats, absl::Duration wait,
                              const QueueRules& rules) {
  if (seats >= rules.preferred_seats) return 0;
  // A smaller table now rather than a full one later.
  if (!rules.teams && seats >= rules.min_seats && wait >= rules.shrink_after) return 0;
  const absl::Duration longest = std::min(anchor.longest_wait, rules.longest_wait);
  if (rules.bot_fill && wait >= longest) return rules.preferred_seats - seats;
  return std::nullopt;
}

// Seats the match's tickets one after another, each party's players side by side.
void SeatSideBySide(const std::vector<WaitingTicket>& tickets, FormedMatch* match) {
  int seat = 0;
  for (int t : match->tickets) {
    match->seat_of.push_back(seat);
    seat += tickets[t].party_size;
  }
}

}  // namespace

double SkillWindow::At(absl::Duration wait) const {
  return std::min(max, base + per_second * std::max(0.0, absl::ToDoubleSeconds(wait)));
}

std::vector<FormedMatch> MatchPass(const std::vector<WaitingTicket>& tickets,
                                   const QueueRules& rules, absl::Time now) {
  const int n = static_cast<int>(tickets.size());
  std::vector<int> by_age(n), by_rating(n), position(n);
  std::iota(by_age.begin(), by_age.end(), 0);
  std::iota(by_rating.begin(), by_rating.end(), 0);
  std::sort(by_age.begin(), by_age.end(), [&](int a, int b) {
    return tickets[a].enqueued != tickets[b].enqueued ? tickets[a].enqueued < tickets[b].enqueued
                                                      : a < b;
  });
  // Equal ratings in order of age, so that between equally close candidates the older one wins.
  std::sort(by_rating.begin(), by_rating.end(), [&](int a, int b) {
    if (tickets[a].rating != tickets[b].rating) return tickets[a].rating < tickets[b].rating;
    if (tickets[a].enqueued != tickets[b].enqueued)
      return tickets[a].enqueued < tickets[b].enqueued;
    return a < b;
  });
  // Arrays of FreePositions are 1-based; 0 and n + 1 are the ends.
  for (int p = 0; p < n; ++p) position[by_rating[p]] = p + 1;
  const auto at = [&](int p) { return by_rating[p - 1]; };
  FreePositions free(n);
  std::vector<FormedMatch> matches;

  for (const int anchor : by_age) {
    const int anchor_position = position[anchor];
    if (free.NextFree(anchor_position) != anchor_position) continue;  // matched already
    const WaitingTicket& mine = tickets[anchor];
    const absl::Duration wait = now - mine.enqueued;
    const double window = rules.window.At(wait);
    const auto within = [&](int other) {
      const double allowed =
          window +
          (mine.provisional || tickets[other].provisional ? rules.window.provisional_extra : 0);
      return std::abs(tickets[other].rating - mine.rating) <= allowed;
    };

    std::vector<int> chosen = {anchor};
    int seats = mine.party_size;
    int left = free.PrevFree(anchor_position - 1);
    int right = free.NextFree(anchor_position + 1);
    for (int scanned = 0; scanned < kMaxScan && seats < rules.preferred_seats; ++scanned) {
      const bool left_ok = left >= 1 && within(at(left));
      const bool right_ok = right <= n && within(at(right));
      if (!left_ok && !right_ok) break;
      bool take_left = left_ok;
      if (left_ok && right_ok) {
        take_left =
            mine.rating - tickets[at(left)].rating <= tickets[at(right)].rating - mine.rating;
      }
      const int candidate = take_left ? at(left) : at(right);
      if (take_left) {
        left = free.PrevFree(left - 1);
      } else {
        right = free.NextFree(right + 1);
      }
      if (seats + tickets[candidate].party_size > rules.preferred_seats) continue;
      chosen.push_back(candidate);
      seats += tickets[candidate].party_size;
    }

    const std::optional<int> bots = BotsToFill(mine, seats, wait, rules);
    if (!bots.has_value()) continue;  // not yet: the anchor waits, its candidates stay free

    FormedMatch match;
    match.tickets = chosen;
    match.bots = *bots;
    double low = mine.rating, high = mine.rating;
    for (int t : chosen) {
      free.Take(position[t]);
      low = std::min(low, tickets[t].rating);
      high = std::max(high, tickets[t].rating);
    }
    match.rating_spread = high - low;
    if (rules.teams) {
      SeatTeams(tickets, &match);
    } else {
      SeatSideBySide(tickets, &match);
    }
    matches.push_back(std::move(match));
  }
  return matches;
}

}  // namespace kahve::matchmaking
