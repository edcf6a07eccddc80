#ifndef KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_H_
#define KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_H_

// Liar's dice ("Не верю"), RULES.md "Liar's dice", seed 004.
//
// Every seat rolls its dice in secret. Bids name a quantity of a face over all dice on the table;
// ones are wild. The next seat raises (more of the face, a higher face, or both; to ones at least
// ceil(q/2); from ones at least 2q+1 of another face) or challenges. On a challenge every die is
// revealed: fewer than bid and the bidder loses a die, else the challenger does. A seat reduced to
// one die may once per game declare a Путана round: ones are not wild and the face is fixed. The
// last seat with dice wins; the others rank by elimination order.
//
// Settings                 range   default
//   players                2..10   4
//   dice_per_player        1..5    5
//   max_rounds             0..     0 (play to the end; otherwise stop and rank by dice left)
//
// Chance comes only from the seed: the lot for the first bidder, then each round's roll.

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "engine/core/rng.h"
#include "engine/liars_dice/liars_dice_rules.h"

namespace kahve::engine::liars_dice {

inline constexpr int kMinPlayers = 2;
inline constexpr int kDefaultPlayers = 4;
inline constexpr int kMinDicePerPlayer = 1;
inline constexpr int kDefaultDicePerPlayer = 5;

struct Settings {
  int players = kDefaultPlayers;
  int dice_per_player = kDefaultDicePerPlayer;
  int max_rounds = 0;
};

// InvalidArgument naming the field and its range, or OK.
absl::Status ValidateSettings(const Settings& settings);

// Fixed rolls for scenarios. rolls[r][seat] are the dice of round r+1; a seat's missing dice, and
// rounds past the list, are rolled from the seed.
struct Preset {
  std::vector<std::vector<std::vector<int>>> rolls;
  int first_bidder = -1;  // -1: drawn by lot
};

// Compact events, turned into kahve.v1 messages by the codec; playouts record none.
enum class EventKind : uint8_t {
  kRoundStarted,    // seat = starter
  kDiceRolled,      // seat = roller; private to it
  kPutanaDeclared,  // seat = declarer
  kBidMade,         // seat = bidder, bid
  kChallenged,      // seat = challenger, bid = the challenged bid, other = bidder
  kDiceRevealed,    // value = dice counted for the bid, other = 1 if the bid stood
  kDieLost,         // seat = loser, value = dice left
  kSeatEliminated,  // seat, value = its final rank
  kGameOver,
};

struct Event {
  EventKind kind;
  int seat = -1;
  int other = -1;
  int value = 0;
  Bid bid;
};

// Events of one move; the largest move (a challenge that starts a round) makes 4 + players.
struct EventBuffer {
  std::array<Event, 4 + kMaxPlayers> items;
  int size = 0;
  void Add(const Event& event) { items[size++] = event; }
};

struct PlacedBid {
  int seat;
  Bid bid;
};

// What one seat may know: bots see this, never the State.
struct SeatView {
  int seat = -1;  // -1: spectator
  int players = 0;
  int round = 0;
  int to_act = -1;
  int starter = -1;
  std::array<int, kMaxDicePerPlayer> my_dice{};
  int my_dice_count = 0;
  std::array<int, kMaxPlayers> dice_counts{};
  BiddingState bidding;  // may_declare_putana is about `to_act`
  int bidder = -1;
  std::array<bool, kMaxPlayers> putana_used{};
};

class State {
 public:
  // Deals the game: the lot for the first bidder, then round 1's roll. Settings must be valid
  // (ValidateSettings). The deal's events go to `events` when not null.
  State(const Settings& settings, uint64_t seed, const Preset* preset = nullptr,
        EventBuffer* events = nullptr);

  const Settings& settings() const { return settings_; }
  int players() const { return settings_.players; }
  bool over() const { return to_act_ < 0; }
  // The only seat that may act, or -1 once the game is over.
  int to_act() const { return to_act_; }
  int round() const { return round_; }
  int starter() const { return starter_; }
  int bidder() const { return bidder_; }
  const BiddingState& bidding() const { return bidding_; }
  const std::vector<PlacedBid>& bids() const { return bids_; }
  int dice_count(int seat) const { return dice_count_[seat]; }
  // Dice of `seat`, ascending. Hidden from other seats until a challenge reveals them.
  const std::array<int, kMaxDicePerPlayer>& dice(int seat) const { return dice_[seat]; }
  bool putana_used(int seat) const { return putana_used_[seat]; }
  // The dice the last challenge revealed (counts and faces per seat); has_reveal() is false before
  // the first challenge.
  bool has_reveal() const { return reveal_.has; }
  int revealed_count(int seat) const { return reveal_.counts[seat]; }
  const std::array<int, kMaxDicePerPlayer>& revealed_dice(int seat) const {
    return reveal_.dice[seat];
  }
  int reveal_counted() const { return reveal_.counted; }
  bool reveal_bid_stood() const { return reveal_.bid_stood; }
  // Rank of a seat that is out (1-based), 0 while it has dice.
  int elimination_rank(int seat) const { return elimination_rank_[seat]; }
  int rounds_completed() const { return rounds_completed_; }

  // Writes the legal actions of the seat to act, ascending; returns how many (0 once over).
  int LegalActions(Action* out) const;
  // Why the seat to act may not play `action`, or kNone.
  Reason Check(Action action) const;
  // Deals a new game: as constructing anew, but reusing the buffers (playouts).
  void Reset(uint64_t seed, const Preset* preset = nullptr, EventBuffer* events = nullptr);
  // Plays a legal action for the seat to act; records events when `events` is not null.
  void Apply(Action action, EventBuffer* events);

  SeatView ViewFor(int seat) const;
  // Final ranks (1 best, ties equal) and dice left; meaningful once over().
  std::array<int, kMaxPlayers> Ranks() const;

  // Aborts if a redundant fact disagrees: dice counts, face totals, turn, elimination ranks.
  void CheckInvariants() const;
  bool operator==(const State& other) const;

 private:
  void StartRound(int starter, EventBuffer* events);
  void RollSeat(int seat);
  void ResolveChallenge(int challenger, EventBuffer* events);
  void LoseDie(int seat, EventBuffer* events);
  int NextInPlay(int seat) const;
  int SeatsInPlay() const;
  void EndGame(EventBuffer* events);

  Settings settings_;
  Rng rng_;
  std::vector<std::vector<std::vector<int>>> preset_rolls_;
  int round_ = 0;
  int rounds_completed_ = 0;
  int to_act_ = -1;
  int starter_ = -1;
  int bidder_ = -1;
  // Seat allowed to declare Путана before this round's first bid, or -1.
  int putana_candidate_ = -1;
  BiddingState bidding_;
  std::vector<PlacedBid> bids_;
  std::array<std::array<int, kMaxDicePerPlayer>, kMaxPlayers> dice_{};
  std::array<int, kMaxPlayers> dice_count_{};
  std::array<int, kFaces + 1> face_counts_{};
  std::array<bool, kMaxPlayers> putana_used_{};
  std::array<int, kMaxPlayers> elimination_rank_{};
  struct Reveal {
    bool has = false;
    std::array<std::array<int, kMaxDicePerPlayer>, kMaxPlayers> dice{};
    std::array<int, kMaxPlayers> counts{};
    int counted = 0;
    bool bid_stood = false;
    bool operator==(const Reveal&) const = default;
  };
  Reveal reveal_;
};

}  // namespace kahve::engine::liars_dice

#endif  // KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_H_
