#ifndef KAHVE_ENGINE_OKEY51_OKEY51_H_
#define KAHVE_ENGINE_OKEY51_OKEY51_H_

// okey51, RULES.md "okey51" (seed 000), the online okey most players meet.
//
// Four seats, solo or 2v2 (partners opposite). The starter holds 15 tiles and begins by
// discarding; every other turn begins with a draw from the deck or with taking the previous
// player's discard together with its use. A seat opens once, with runs and sets worth 51 or more
// (with doubling: more than the deal's last run/set opening) or with five pairs; after that it
// lays further melds (or pairs), adds tiles to any meld and takes okeys out with the real tile.
// Penalties during the deal (added tiles, taken okeys, penalty tiles, taken discards) and the
// seed's table of finishes make each deal's score; lowest total wins.
//
// Settings                 range    default
//   teams                  bool     false (2v2)
//   hints                  bool     false (the table serves hints; rules unchanged)
//   doubling               bool     false
//   deals                  1 or 3   1
//   first_starter          0..3     0
//
// Chance comes only from the seed: deal d is shuffled from DeriveSeed(seed, d).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "engine/okey/okey_deal.h"
#include "engine/okey/okey_melds.h"
#include "engine/okey/okey_tiles.h"
#include "engine/okey51/okey51_settlement.h"

namespace kahve::engine::okey51 {

using okey::AddPlace;
using okey::Code;
using okey::CodeName;
using okey::CodeOf;
using okey::CountCodes;
using okey::Face;
using okey::kCodes;
using okey::kFakeCode;
using okey::Meld;
using okey::MeldKind;
using okey::ParseCode;
using okey::PlacedTile;
using okey::SampleTile;
using okey::Tile;

inline constexpr int kPlayers = 4;
inline constexpr int kStarterTiles = 15;
inline constexpr int kOpeningMinimum = 51;
inline constexpr int kPairsToOpen = 5;

struct Settings {
  bool teams = false;
  bool hints = false;
  bool doubling = false;
  int deals = 1;
  int first_starter = 0;
};

// InvalidArgument naming the field and its range, or OK.
absl::Status ValidateSettings(const Settings& settings);

using okey::DealPreset;
struct Preset {
  std::vector<DealPreset> deals;
};
// InvalidArgument when a preset names more copies than exist, a wrong hand size, or a fake okey
// as the indicator.
absl::Status ValidatePreset(const Preset& preset, const Settings& settings);

enum class ActionKind : uint8_t { kDraw, kTakeDiscard, kLayMelds, kLayPairs, kAddTile, kDiscard };

struct Addition {
  Code tile = 0;
  int meld = 0;
  AddPlace place = AddPlace::kRunLow;
};

// A move in the ruleset's own terms; tiles by code (PlacedTile::tile holds SampleTile(code)).
struct Action {
  ActionKind kind = ActionKind::kDraw;
  // kTakeDiscard: how the taken tile is used (kLayMelds, kLayPairs or kAddTile).
  ActionKind use = ActionKind::kDraw;
  Code tile = 0;  // kDiscard
  Addition addition;
  std::vector<std::vector<PlacedTile>> melds;
  std::vector<std::array<Code, 2>> pairs;
};

enum class Reason : uint8_t {
  kNone,
  kUnknownTile,
  kTileNotInHand,
  kMustDraw,
  kAlreadyDrawn,
  kNoDiscardToTake,
  kDiscardNotUsed,
  kInvalidMeld,
  kOpeningTooLow,
  kNotOpened,
  kOpenedWithPairs,
  kOpenedWithMelds,
  kTooFewPairs,
  kNotAPair,
  kNoSuchMeld,
  kDoesNotFit,
  kMustKeepATile,
  kNothingLaid,
  kBadStandIn,
};

struct Refusal {
  Reason reason = Reason::kNone;
  std::string message;
};

// A meld on the table: the seat that laid it and its tiles in order (a run low to high).
struct TableMeld {
  int owner = 0;
  bool pair = false;
  Meld meld;  // runs and sets
  std::vector<PlacedTile> tiles;
  // Sum of the numbers its tiles stand for.
  int Value(const okey::Jokers& jokers) const;
};

enum class PenaltyKind : uint8_t { kTileAdded, kOkeyTaken, kPenaltyTile, kDiscardTaken };

enum class EventKind : uint8_t {
  kDealStarted,    // seat = starter
  kTilesDealt,     // seat; private
  kDrewFromDeck,   // seat
  kTileDrawn,      // seat, code; private
  kDiscardTaken,   // seat, other = discarder, code
  kMeldsLaid,      // seat, first/count = table melds, flag = opening, value = opening sum
  kTileAdded,      // seat, meld = first, addition, flag = an okey was taken out
  kTileDiscarded,  // seat, code
  kPenalty,        // seat = who pays, other = whose move, penalty, value = points
  kDealEnded,      // deal_ended holds the summary
};

struct Event {
  EventKind kind;
  int seat = -1;
  int other = -1;
  int first = 0;
  int count = 0;
  int value = 0;
  bool flag = false;
  Code code = 0;
  Addition addition;
  PenaltyKind penalty = PenaltyKind::kTileAdded;
};

// Recorded by the Game wrapper; playouts pass none.
struct EventLog {
  std::vector<Event> items;
  void Add(const Event& event) { items.push_back(event); }
};

// One finished deal: how it ended and what each seat scored.
struct DealRecord {
  Okey51Finish finish = Okey51Finish::kDeckExhausted;
  int finisher = -1;
  std::array<std::vector<Code>, kPlayers> hands;  // left at the end, sorted
  std::array<Opened, kPlayers> opened{};
  std::array<int, kPlayers> settlement{};
  std::array<int, kPlayers> penalties{};
  std::array<int, kPlayers> scores{};
  std::array<int, kPlayers> totals{};
};

class State {
 public:
  // Deals the first deal. Settings and preset must be valid.
  State(const Settings& settings, uint64_t seed, const Preset* preset = nullptr,
        EventLog* events = nullptr);

  const Settings& settings() const { return settings_; }
  bool over() const { return to_act_ < 0; }
  int to_act() const { return to_act_; }
  // 0-based deal number.
  int deal() const { return deal_; }
  int starter() const { return starter_; }
  Face indicator() const { return indicator_; }
  const okey::Jokers& jokers() const { return jokers_; }
  // Hidden from other seats.
  const std::vector<Tile>& hand(int seat) const { return hands_[seat]; }
  int deck_count() const { return static_cast<int>(deck_.size() - deck_next_); }
  const std::vector<Tile>& discards(int seat) const { return discards_[seat]; }
  // The seat to act has drawn or taken this turn (the starter's first turn counts as drawn).
  bool drawn() const { return drawn_; }
  // The discard the seat to act may take now, if any.
  std::optional<Tile> takeable() const;
  const std::vector<TableMeld>& table() const { return table_; }
  Opened opened(int seat) const { return opened_[seat]; }
  // What a run/set opening must reach now.
  int OpeningNeeds() const;
  int penalties(int seat) const { return penalties_[seat]; }
  const std::vector<DealRecord>& records() const { return records_; }
  int total(int seat) const { return totals_[seat]; }
  bool Partners(int a, int b) const { return a == b || (settings_.teams && a % 2 == b % 2); }

  // Why the seat to act may not play `action` (reason kNone: it may).
  Refusal Check(const Action& action) const;
  // Plays an action Check accepted, for the seat to act.
  void Apply(const Action& action, EventLog* events);
  // Deals a new game as constructing anew, reusing the buffers (playouts).
  void Reset(uint64_t seed, const Preset* preset = nullptr, EventLog* events = nullptr);

  // Ranks (1 best, ties equal) by total, lowest best; in 2v2 by team sums. Once over().
  std::array<int, kPlayers> Ranks() const;

  // Aborts if a redundant fact disagrees: all 106 tiles in exactly one place, melds valid, scores.
  void CheckInvariants() const;
  bool operator==(const State& other) const;

 private:
  void StartDeal(EventLog* events);
  void EndDeal(Okey51Finish finish, int finisher, EventLog* events);
  void Charge(int seat, PenaltyKind kind, int points, int by, EventLog* events);
  // Checks a lay (or a take's use) against `pool`, the codes the seat may lay from.
  Refusal CheckLay(const Action& lay, ActionKind kind, const std::array<uint8_t, kCodes>& pool,
                   int hand_size, std::optional<Code> must_use) const;
  // Lays for the seat to act; returns the value the tile `used` (when set) plays as in it.
  int ApplyLay(const Action& lay, ActionKind kind, std::optional<Code> used, EventLog* events);
  Tile TakeFromHand(int seat, Code code);
  int NextSeat(int seat) const { return (seat + 1) % kPlayers; }

  Settings settings_;
  uint64_t seed_ = 0;
  std::vector<DealPreset> preset_deals_;
  int deal_ = 0;
  int starter_ = 0;
  int to_act_ = -1;
  bool drawn_ = false;
  bool discard_takeable_ = false;
  Face indicator_ = 0;
  Tile indicator_tile_ = 0;
  okey::Jokers jokers_{0};
  std::array<std::vector<Tile>, kPlayers> hands_;
  std::vector<Tile> deck_;
  size_t deck_next_ = 0;
  std::array<std::vector<Tile>, kPlayers> discards_;
  // Discards made this deal (taken ones included): none yet only in the starter's first turn.
  int discards_this_deal_ = 0;
  std::vector<TableMeld> table_;
  std::array<Opened, kPlayers> opened_{};
  // The last run/set opening's sum this deal (the doubling chain), 0 before any.
  int chain_ = 0;
  std::array<int, kPlayers> penalties_{};
  std::array<int, kPlayers> totals_{};
  std::vector<DealRecord> records_;
};

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_H_
