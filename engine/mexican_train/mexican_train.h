#ifndef KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_H_
#define KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_H_

// Mexican Train, RULES.md "Mexican Train" (seed 001): the rules state, no protobuf.
//
// A double-twelve set of 91 tiles; 2-10 players; 13 rounds whose engines run from 12-12 down to
// 0-0. Each round deals the hands (15, 12, 10 or 8 tiles by the number of players), finds the
// engine (drawing in full equal passes when nobody holds it) and places it; every seat then takes
// a first turn on its own train, in order from the engine's owner's next seat, the owner last.
// Later turns play one tile on the seat's own train, a marked train or the Mexican train, draw
// once when nothing fits, or pass and mark their own train. A double obliges another tile; open
// doubles bind whoever is to play, oldest first. A round ends on an empty hand or a true block
// (checked whenever a turn ends, first turns included); each seat adds the pips it holds. Lowest
// total after 13 rounds wins.
//
// Settings                 range   default
//   players                2..10   4 (when unset)
//
// Registered as `mexican_train` (engine/registry.cc): mexican_train_game.h is its kahve.v1 edge
// (with hints, always on), mexican_train_bots.h its random and heuristic bots;
// docs/rules/mexican_train.md and tests/scenarios/mexican_train/ describe and prove it rule by
// rule.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace kahve::engine::mexican_train {

inline constexpr int kHighPip = 12;
inline constexpr int kTiles = 91;
inline constexpr int kRounds = 13;
inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 10;

// A tile by id 0..90: ends `low` <= `high`, in order (0-0, 0-1, ..., 0-12, 1-1, ...).
using TileId = uint8_t;
struct Domino {
  int low = 0;
  int high = 0;
  bool IsDouble() const { return low == high; }
  int Pips() const { return low + high; }
  bool Has(int pip) const { return low == pip || high == pip; }
  int Other(int pip) const { return low == pip ? high : low; }
};
Domino DominoOf(TileId id);
TileId IdOf(int a, int b);
// "3-12" (low first).
std::string TileName(TileId id);
// A tile from its name ("3-12": the lower pip first, no leading zeros), or none.
std::optional<TileId> ParseTile(std::string_view name);

// Hand sizes by number of players: 15 (2-4), 12 (5-6), 10 (7-8), 8 (9-10).
int HandSize(int players);

struct Settings {
  int players = 4;
};
absl::Status ValidateSettings(const Settings& settings);

// Where a tile goes: a seat's personal train, or the Mexican train.
inline constexpr int kMexicanTrain = -1;

enum class ActionKind : uint8_t {
  kPlay,          // `tile` on `train`
  kDraw,          // one tile from the boneyard
  kPass,          // nothing fits and no draw is left: the turn ends and the seat's train is marked
  kEndFirstTurn,  // after at least one tile of a first turn
};

struct Action {
  ActionKind kind = ActionKind::kPlay;
  TileId tile = 0;
  int train = kMexicanTrain;
};

enum class Reason : uint8_t {
  kNone,
  kNotInHand,
  kNoSuchTrain,
  kDoesNotMatch,
  kFirstTurnOwnTrainOnly,
  kTrainClosed,    // another seat's unmarked train, or the Mexican train before a first turn
  kBoundByDouble,  // an open double must be satisfied first
  kMustPlay,       // a legal play exists
  kMustDraw,       // nothing fits and the one draw is still there
  kAlreadyDrew,    // one draw per tile owed
  kBoneyardEmpty,
  kMayNotDraw,        // no draw in a first turn, nor while a play is possible
  kNothingPlayedYet,  // a first turn ends after at least one tile
  kNotInFirstTurn,
  kFirstTurnStarted,  // a first turn with tiles on the train ends by kEndFirstTurn, not a pass
};

struct Refusal {
  Reason reason = Reason::kNone;
  std::string message;
};

// A round dealt as given (tests, scenarios): every hand whole, and the first tiles the boneyard
// gives, in draw order; its other tiles come from the round's seed.
struct RoundPreset {
  std::vector<std::vector<TileId>> hands;
  std::vector<TileId> draws;
};
struct Preset {
  std::vector<RoundPreset> rounds;  // rounds past its end come from the seed
};
// InvalidArgument for a wrong hand count or size, or a tile named twice.
absl::Status ValidatePreset(const Preset& preset, const Settings& settings);

struct Train {
  std::vector<TileId> tiles;
  int end = 0;          // the pip a tile must match
  bool marked = false;  // personal trains only
};

enum class EventKind : uint8_t {
  kRoundStarted,    // value = round
  kTilesDealt,      // seat; private
  kTilePlayed,      // seat, tile, train, value = the train's end after it
  kDrew,            // seat, value = boneyard left
  kTileDrawn,       // seat, tile; private
  kPassed,          // seat
  kFirstTurnEnded,  // seat
  kRoundEnded,      // value = round (records()[value])
};

struct Event {
  EventKind kind;
  int seat = -1;
  TileId tile = 0;
  int train = kMexicanTrain;
  int value = 0;
  // TilePlayed: the seat's tiles left after it (public, as every hand's size is).
  int hand_count = 0;
};

// Recorded by the Game wrapper; playouts pass none.
struct EventLog {
  std::vector<Event> items;
  void Add(const Event& event) { items.push_back(event); }
};

struct RoundRecord {
  int engine = 0;
  int owner = 0;
  int went_out = -1;                       // the seat whose hand emptied, -1 for a block
  std::vector<std::vector<TileId>> hands;  // left at the end
  std::vector<int> penalties;
  std::vector<int> totals;
};

class State {
 public:
  // Settings and preset must be valid.
  State(const Settings& settings, uint64_t seed, const Preset* preset = nullptr,
        EventLog* events = nullptr);

  int players() const { return players_; }
  bool over() const { return to_act_ < 0; }
  int to_act() const { return to_act_; }
  int round() const { return round_; }
  int engine() const { return kHighPip - round_; }
  int engine_owner() const { return engine_owner_; }
  bool in_first_turns() const { return first_turns_left_ > 0; }
  const std::vector<TileId>& hand(int seat) const { return hands_[seat]; }
  int boneyard_count() const { return static_cast<int>(boneyard_.size()); }
  // Personal trains by seat, then the Mexican train last.
  const Train& train(int train) const { return TrainRef(train); }
  // Trains whose last tile is a double still unsatisfied, oldest first.
  const std::vector<int>& open_doubles() const { return open_doubles_; }
  int total(int seat) const { return totals_[seat]; }
  const std::vector<RoundRecord>& records() const { return records_; }
  // Tiles each seat drew in this round's engine search.
  const std::vector<int>& search_draws() const { return search_draws_; }
  // The seat to act has used its draw for the tile it owes.
  bool drew() const { return drew_; }
  // The seat to act must satisfy the oldest open double this turn.
  bool bound() const { return bound_; }

  // Why the seat to act may not take `action` (reason kNone: it may).
  Refusal Check(const Action& action) const;
  void Apply(const Action& action, EventLog* events = nullptr);
  // Every legal action of the seat to act.
  std::vector<Action> LegalActions() const;

  // Ranks, 1 best, lowest total; equal totals share. Once over().
  std::vector<int> Ranks() const;
  // Aborts when a redundant fact disagrees: every tile in exactly one place, trains chain.
  void CheckInvariants() const;
  bool operator==(const State& other) const;

 private:
  const Train& TrainRef(int train) const {
    return train == kMexicanTrain ? mexican_ : trains_[train];
  }
  Train& TrainRef(int train) { return train == kMexicanTrain ? mexican_ : trains_[train]; }
  void StartRound(EventLog* events);
  void FindEngine();
  // Whether `seat` may play on `train` now, ignoring the tile.
  bool MayUse(int seat, int train) const;
  bool HasPlay() const;
  bool Fits(TileId tile, int train) const;
  void EndTurn(EventLog* events);
  // The round ends on an empty hand (after the first turns) or a true block (at any turn's end).
  bool RoundOver() const;
  bool Blocked() const;
  void EndRound(EventLog* events);

  int players_ = 4;
  uint64_t seed_ = 0;
  std::vector<RoundPreset> preset_rounds_;
  int round_ = 0;
  int to_act_ = 0;
  int engine_owner_ = 0;
  std::vector<std::vector<TileId>> hands_;
  std::vector<TileId> boneyard_;
  std::vector<int> search_draws_;
  std::vector<Train> trains_;
  Train mexican_;
  std::vector<int> open_doubles_;
  std::vector<bool> had_first_turn_;
  int first_turns_left_ = 0;
  // This turn: tiles played, and whether the one draw for the tile owed is used (a double played
  // this turn owes another tile, with a draw of its own).
  int played_this_turn_ = 0;
  bool drew_ = false;
  // The oldest open double binds the whole turn of the seat to act.
  bool bound_ = false;
  std::vector<int> totals_;
  std::vector<RoundRecord> records_;
};

}  // namespace kahve::engine::mexican_train

#endif  // KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_H_
