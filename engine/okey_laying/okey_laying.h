#ifndef KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_H_
#define KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_H_

// The okeys played by opening and laying melds: okey51 (RULES.md "okey51", seed 000) and okey101
// (RULES.md "okey101", seed 003). One State plays both; `Rules` says where they differ.
//
// Four seats, solo or 2v2 (partners opposite). The starter holds one tile more than the others
// and begins by discarding; every other turn begins with a draw from the deck or with taking the
// previous player's discard together with its use (one atomic move, which may lay more after the
// use: the taken tile reaches the table in it). A seat opens once, with runs and sets reaching the
// ruleset's sum (okey51 with doubling: more than the deal's last run/set opening) or with five
// pairs; after that it lays further melds (or pairs), adds tiles to any meld and takes okeys out
// with the real tile. Penalties during the deal and the ruleset's settlement make each deal's
// score; lowest total wins.
//
// Chance comes only from the seed: the n-th deal dealt (void deals count) is shuffled from
// DeriveSeed(seed, n).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "engine/core/seating.h"
#include "engine/okey/okey_deal.h"
#include "engine/okey/okey_melds.h"
#include "engine/okey/okey_reasons.h"
#include "engine/okey/okey_tiles.h"

namespace kahve::engine::okey_laying {

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

using okey::FaceCounts;

inline constexpr int kPlayers = 4;
inline constexpr int kPairsToOpen = 5;

enum class Opened : uint8_t { kNo, kMelds, kPairs };

// How a deal ended: by discarding an okey as the last tile, by a pairs opener's last tile, any
// other last tile, or with nobody finishing (a decline on the empty deck).
enum class Finish : uint8_t { kFromHand, kPairs, kOkeyDiscard, kDeckExhausted };

// An okey last tile names the finish even for a pairs opener (the seeds' okey finish).
Finish FinishOf(bool last_tile_was_okey, bool finisher_opened_with_pairs);

struct SeatAtEnd {
  Opened opened = Opened::kNo;
  FaceCounts hand;  // what is left, okeys as wilds, fake okeys under the okey's face
  bool finished = false;
  bool partner_of_finisher = false;  // 2v2 only
};

struct DealEnd {
  Finish finish = Finish::kDeckExhausted;
  int finisher = -1;
  // The finisher opened in its finishing turn while no other seat had opened.
  bool one_turn = false;
  std::array<SeatAtEnd, kPlayers> seats;
};

// A ruleset's end of a deal: what each seat adds to its deal score, and the multiplier the
// events report.
struct Settlement {
  std::array<int, kPlayers> points{};
  int multiplier = 1;
};
using SettleFunction = Settlement (*)(const DealEnd& end);

// Where okey51 and okey101 differ, and a table's settings.
struct Rules {
  // Settings.
  bool teams = false;
  bool hints = false;
  bool doubling = false;  // the doubling chain of openings
  int deals = 1;
  int first_starter = 0;
  // The ruleset.
  int starter_tiles = 15;
  int opening_minimum = 51;
  // Additions (and okeys taken out) are open to pairs openers too, not to run/set openers only.
  bool pairs_openers_add = false;
  // okey51's penalties paid to the owner of a meld an opponent adds to, and by a seat whose
  // discard the next player takes.
  bool charge_additions = false;
  bool charge_taken_discard = false;
  // Discarding a tile that fits a run or set on the table.
  int penalty_tile_points = 100;
  // Discarding an okey, not as the last tile, costs this (0: only where it fits a meld).
  int okey_discard_points = 0;
  // The fourth pairs opening of a deal voids it and the same starter deals again.
  bool void_when_all_open_pairs = false;
  // okey101: an opened seat's taken discard may reach the table in any lay of the take's move,
  // not only in its first use (RULES.md okey101: "a tile of that identity enters a meld this
  // turn"; okey51's text asks for the take's own move).
  bool take_used_in_any_lay = false;
  SettleFunction settle = nullptr;
};

// InvalidArgument for a preset that names more copies than exist, a wrong hand size, or a fake
// okey as the indicator.
using okey::DealPreset;
struct Preset {
  std::vector<DealPreset> deals;
};
absl::Status ValidatePreset(const Preset& preset, const Rules& rules);

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
  // kTakeDiscard: lays of the same move after the use, in order (kind kLayMelds, kLayPairs or
  // kAddTile each).
  std::vector<Action> further;
};

using okey::Reason;
using okey::Refusal;

// A meld on the table: the seat that laid it and its tiles in order (a run low to high).
struct TableMeld {
  int owner = 0;
  bool pair = false;
  Meld meld;  // runs and sets
  std::vector<PlacedTile> tiles;
  // Sum of the numbers its tiles stand for.
  int Value(const okey::Jokers& jokers) const;
};

enum class PenaltyKind : uint8_t {
  kTileAdded,
  kOkeyTaken,
  kPenaltyTile,
  kDiscardTaken,
  kOkeyDiscarded,
};

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
  kDealVoided,     // value = deal
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
  Finish finish = Finish::kDeckExhausted;
  int finisher = -1;
  bool one_turn = false;
  int multiplier = 1;
  std::array<std::vector<Code>, kPlayers> hands;  // left at the end, sorted
  std::array<Opened, kPlayers> opened{};
  std::array<int, kPlayers> settlement{};
  std::array<int, kPlayers> penalties{};
  std::array<int, kPlayers> scores{};
  std::array<int, kPlayers> totals{};
};

// okey101: what a void deal left on the table, for the events of the move that voided it.
struct VoidedDeal {
  std::vector<TableMeld> table;
  okey::Jokers jokers{0};
};

class State {
 public:
  // Deals the first deal. Rules and preset must be valid.
  State(const Rules& rules, uint64_t seed, const Preset* preset = nullptr,
        EventLog* events = nullptr);

  const Rules& rules() const { return rules_; }
  bool over() const { return to_act_ < 0; }
  int to_act() const { return to_act_; }
  // 0-based deal number.
  int deal() const { return deal_; }
  int starter() const { return starter_; }
  Face indicator() const { return indicator_; }
  const okey::Jokers& jokers() const { return jokers_; }
  // Hidden from other seats.
  const std::vector<Tile>& hand(int seat) const { return hands_[seat]; }
  // The hand counted by code (hidden as the hand is).
  const std::array<uint8_t, kCodes>& codes(int seat) const { return codes_[seat]; }
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
  // The last void deal's table (okey101); empty before any.
  const VoidedDeal& voided() const { return voided_; }
  int total(int seat) const { return totals_[seat]; }
  bool Partners(int a, int b) const { return a == b || (rules_.teams && SameTeam(a, b)); }

  // Why the seat to act may not play `action` (reason kNone: it may).
  Refusal Check(const Action& action) const;
  // Plays an action Check accepted, for the seat to act.
  void Apply(const Action& action, EventLog* events);
  // Deals a new game as constructing anew, reusing the buffers (playouts).
  void Reset(uint64_t seed, const Preset* preset = nullptr, EventLog* events = nullptr);

  // Ranks (1 best, ties equal) by total, lowest best; in 2v2 each seat has its team's rank (1 or
  // 2) by team sums. Once over().
  std::array<int, kPlayers> Ranks() const;

  // Aborts if a redundant fact disagrees: all 106 tiles in exactly one place, melds valid, scores.
  void CheckInvariants() const;
  bool operator==(const State& other) const;

 private:
  void StartDeal(EventLog* events, bool redeal = false);
  void EndDeal(Finish finish, int finisher, EventLog* events);
  // okey101: the fourth pairs opening voids the deal.
  void VoidIfAllOpenedWithPairs(EventLog* events);
  void Charge(int seat, PenaltyKind kind, int points, int by, EventLog* events);
  // Moves the previous seat's last discard to the hand of the seat to act; returns it.
  Tile TakeDiscard(EventLog* events);
  // Checks a take whose move lays more after its use, on a copy of the state.
  Refusal CheckTakeWithLays(const Action& take, Tile taken) const;
  // Checks a lay (or a take's use) against `pool`, the codes the seat may lay from.
  Refusal CheckLay(const Action& lay, ActionKind kind, const std::array<uint8_t, kCodes>& pool,
                   int hand_size, std::optional<Code> must_use) const;
  // Lays for the seat to act; returns the value the tile `used` (when set) plays as in it, 0
  // when the lay holds no such tile.
  int ApplyLay(const Action& lay, ActionKind kind, std::optional<Code> used, EventLog* events);
  Tile TakeFromHand(int seat, Code code);
  void AddToHand(int seat, Tile tile);
  int NextSeat(int seat) const { return (seat + 1) % kPlayers; }

  Rules rules_;
  uint64_t seed_ = 0;
  std::vector<DealPreset> preset_deals_;
  int deal_ = 0;
  // Deals dealt, void ones included: the next dealing's seed.
  int dealt_ = 0;
  int starter_ = 0;
  int to_act_ = -1;
  bool drawn_ = false;
  bool discard_takeable_ = false;
  Face indicator_ = 0;
  Tile indicator_tile_ = 0;
  okey::Jokers jokers_{0};
  std::array<std::vector<Tile>, kPlayers> hands_;
  // hands_ counted by code, kept in step with them (the legal moves read them often).
  std::array<std::array<uint8_t, kCodes>, kPlayers> codes_{};
  std::vector<Tile> deck_;
  size_t deck_next_ = 0;
  // A preset's exact deck leaves these out of play (scenarios).
  std::vector<Tile> out_of_play_;
  std::array<std::vector<Tile>, kPlayers> discards_;
  // Discards made this deal (taken ones included): none yet only in the starter's first turn.
  int discards_this_deal_ = 0;
  std::vector<TableMeld> table_;
  std::array<Opened, kPlayers> opened_{};
  // The last run/set opening's sum this deal (the doubling chain), 0 before any.
  int chain_ = 0;
  // The seat to act opened this turn (a one-turn finish).
  bool opened_this_turn_ = false;
  std::array<int, kPlayers> penalties_{};
  std::array<int, kPlayers> totals_{};
  std::vector<DealRecord> records_;
  VoidedDeal voided_;
};

}  // namespace kahve::engine::okey_laying

#endif  // KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_H_
