#ifndef KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_H_
#define KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_H_

// Classic okey (ruleset id `okey`), RULES.md "okey" (seed 003).
//
// 2-4 players, each starting at 20 points. The starter holds 15 tiles and begins by discarding (or
// winning); every other turn is a draw from the deck or a take of the previous player's last
// discard, then a discard or a win: the 15th tile discarded and the other 14 shown in runs and sets
// or as seven pairs. The others lose 2 points (4 for a win by discarding an okey or with seven
// pairs, 8 for both; the single-colour variant doubles again). Gösterme: showing the indicator's
// twin before the deal's first draw from the deck costs every other player a point. The game ends
// after a deal that leaves a score at 0 or less (elimination variant: those seats leave and the
// rest play on); ranks by points, highest first.
//
// Settings                       range        default
//   players                      2..4         4
//   first_starter                0..players-1 0
//   indicator_last_tile          bool         false
//   partners                     bool         false (4 players)
//   elimination                  bool         false (not with partners)
//   single_colour_doubles        bool         false
//   single_colour_red_black_only bool         false (needs single_colour_doubles)
//   max_deals                    0..          0 (no limit)

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/okey/okey_deal.h"
#include "engine/okey/okey_reasons.h"
#include "engine/okey/okey_tiles.h"

namespace kahve::engine::okey_classic {

using okey::Code;
using okey::CodeOf;
using okey::DealPreset;
using okey::Face;
using okey::kCodes;
using okey::Tile;

inline constexpr int kMaxPlayers = 4;
inline constexpr int kStarterTiles = 15;
inline constexpr int kStartingPoints = 20;
inline constexpr int kWinPoints = 2;

struct Settings {
  int players = 4;
  int first_starter = 0;
  bool indicator_last_tile = false;
  bool partners = false;
  bool elimination = false;
  bool single_colour = false;
  bool red_black_only = false;
  int max_deals = 0;
};

// InvalidArgument naming the field, or OK.
absl::Status ValidateSettings(const Settings& settings);

struct Preset {
  std::vector<DealPreset> deals;
};
// Checks each preset deal against the seats in play at the start (all of them).
absl::Status ValidatePreset(const Preset& preset, const Settings& settings);

enum class ActionKind : uint8_t { kDraw, kTakeDiscard, kDiscard, kWin, kShowIndicator };

// A win: the discard, and how the other 14 are shown. Groups by code; empty: any grouping.
struct WinClaim {
  Code discard = 0;
  bool seven_pairs = false;
  std::vector<std::vector<Code>> groups;
};

struct Action {
  ActionKind kind = ActionKind::kDraw;
  Code tile = 0;          // kDiscard
  bool with_win = false;  // kTakeDiscard: taking and winning in one move
  WinClaim win;           // kWin, and kTakeDiscard with_win
};

using okey::Reason;
using okey::Refusal;

enum class EventKind : uint8_t {
  kDealStarted,     // seat = starter, value = deal
  kTilesDealt,      // seat; private
  kDrewFromDeck,    // seat, value = deck left
  kTileDrawn,       // seat, code; private
  kDiscardTaken,    // seat, other = discarder, code
  kTileDiscarded,   // seat, code
  kIndicatorShown,  // seat
  kWon,             // seat, value = deal (its record holds the claim)
  kPointsLost,      // seat, value = points lost, other = points left
  kDealEnded,       // seat = winner or -1, value = deal
  kSeatEliminated,  // seat, value = rank
};

struct Event {
  EventKind kind;
  int seat = -1;
  int other = -1;
  int value = 0;
  Code code = 0;
};

struct EventLog {
  std::vector<Event> items;
  void Add(const Event& event) { items.push_back(event); }
};

// How a deal ended.
struct DealRecord {
  int winner = -1;
  WinClaim claim;  // the winner's, with its groups as found when the claim named none
  bool okey_discard = false;
  bool single_colour = false;
  int points = 0;  // each loser's loss
  std::array<int, kMaxPlayers> points_after{};
};

class State {
 public:
  State(const Settings& settings, uint64_t seed, const Preset* preset = nullptr,
        EventLog* events = nullptr);

  const Settings& settings() const { return settings_; }
  int players() const { return settings_.players; }
  bool over() const { return over_; }
  int to_act() const { return over_ ? -1 : to_act_; }
  int deal() const { return deal_; }
  int starter() const { return starter_; }
  Face indicator() const { return indicator_; }
  const okey::Jokers& jokers() const { return jokers_; }
  const std::vector<Tile>& hand(int seat) const { return hands_[seat]; }
  // Tiles left to draw, the indicator included once it is drawable (indicator_last_tile).
  int deck_count() const;
  const std::vector<Tile>& discards(int seat) const { return discards_[seat]; }
  bool drawn() const { return drawn_; }
  std::optional<Tile> takeable() const;
  int points(int seat) const { return points_[seat]; }
  bool in_play(int seat) const { return elimination_rank_[seat] == 0; }
  // The seat still in play that moves just before `seat`: the one whose discard it may take.
  int PreviousInPlay(int seat) const;
  int elimination_rank(int seat) const { return elimination_rank_[seat]; }
  const std::vector<DealRecord>& records() const { return records_; }
  // Whether `seat` may show the indicator's twin now (in turn or out of it).
  bool MayShowIndicator(int seat) const;
  // Whether a's win or gösterme costs b points: every other seat, or in partners the two opponents.
  bool Opponents(int a, int b) const;

  // Why `seat` may not play `action` now (kNone: it may). Only gösterme is played out of turn.
  Refusal Check(int seat, const Action& action) const;
  // Plays an action Check accepted.
  void Apply(int seat, const Action& action, EventLog* events);
  void Reset(uint64_t seed, const Preset* preset = nullptr, EventLog* events = nullptr);

  // Ranks (1 best): by points, highest first; partners: the team's rank (1 or 2) by team sums;
  // elimination: those still in by points, then the eliminated, later leavers first. Once over().
  std::array<int, kMaxPlayers> Ranks() const;

  void CheckInvariants() const;
  bool operator==(const State& other) const;

 private:
  void StartDeal(EventLog* events);
  void EndDeal(int winner, EventLog* events);
  void LosePoints(int seat, int points, EventLog* events);
  int NextInPlay(int seat) const;
  int SeatsInPlay() const;
  Tile TakeFromHand(int seat, Code code);
  // The claim for `hand` (15 tiles, the discard among them) made concrete, or why it is no win.
  Refusal CheckWin(const std::vector<Tile>& hand, const WinClaim& claim) const;
  void Win(int seat, const WinClaim& claim, EventLog* events);

  Settings settings_;
  uint64_t seed_ = 0;
  std::vector<DealPreset> preset_deals_;
  int deal_ = 0;
  int starter_ = 0;
  int to_act_ = 0;
  bool over_ = false;
  bool drawn_ = false;
  int discards_this_deal_ = 0;
  Face indicator_ = 0;
  Tile indicator_tile_ = 0;
  bool indicator_drawn_ = false;
  okey::Jokers jokers_{0};
  std::array<std::vector<Tile>, kMaxPlayers> hands_;
  std::vector<Tile> deck_;
  size_t deck_next_ = 0;
  std::array<std::vector<Tile>, kMaxPlayers> discards_;
  // Gösterme: open until the deal's first draw from the deck; the twin is shown once.
  bool window_open_ = true;
  bool twin_shown_ = false;
  std::array<int, kMaxPlayers> points_{};
  std::array<int, kMaxPlayers> elimination_rank_{};
  std::vector<DealRecord> records_;
};

// Whether the 14 tiles are all in runs and sets (groups found by the search), and whether they are
// seven pairs.
bool IsMeldWin(const std::vector<Tile>& hand14, const okey::Jokers& jokers);
bool IsSevenPairs(const std::vector<Tile>& hand14, const okey::Jokers& jokers);

}  // namespace kahve::engine::okey_classic

#endif  // KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_H_
