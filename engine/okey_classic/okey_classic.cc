#include "engine/okey_classic/okey_classic.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/check.h"
#include "engine/core/rng.h"
#include "engine/core/seating.h"
#include "engine/okey/okey_arrangement.h"

namespace kahve::engine::okey_classic {
namespace {

using okey::CodeName;
using okey::FaceCounts;
using okey::Jokers;

FaceCounts Faces(const std::vector<Tile>& tiles, const Jokers& jokers) {
  FaceCounts faces;
  for (const Tile tile : tiles) faces.Add(tile, jokers);
  return faces;
}

std::vector<Tile> WithoutOne(std::vector<Tile> tiles, Code code) {
  const auto it =
      std::find_if(tiles.begin(), tiles.end(), [&](Tile tile) { return CodeOf(tile) == code; });
  if (it != tiles.end()) tiles.erase(it);
  return tiles;
}

// Every real tile plays as one colour (red or black only, when asked): okeys then stand for tiles
// of that colour, so some reading of the hand is all one colour.
bool SingleColour(const std::vector<Tile>& hand14, const Jokers& jokers, bool red_black_only) {
  int colour = -1;
  for (const Tile tile : hand14) {
    if (jokers.IsWild(tile)) continue;
    const int own = okey::ColourOf(jokers.PlaysAs(tile));
    if (colour >= 0 && own != colour) return false;
    colour = own;
  }
  if (colour < 0) return false;
  return !red_black_only || colour == okey::kRed || colour == okey::kBlack;
}

}  // namespace

bool IsMeldWin(const std::vector<Tile>& hand14, const Jokers& jokers) {
  return okey::FindCovering(Faces(hand14, jokers), 0, nullptr);
}

bool IsSevenPairs(const std::vector<Tile>& hand14, const Jokers& jokers) {
  return hand14.size() == 14 && okey::MaxPairs(okey::CountCodes(hand14), jokers).size() == 7;
}

absl::Status ValidateSettings(const Settings& settings) {
  if (settings.players < 2 || settings.players > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrCat(
        "players: ", settings.players, " is outside 2..4 (leave it unset for the default, 4)"));
  }
  if (settings.first_starter < 0 || settings.first_starter >= settings.players) {
    return absl::InvalidArgumentError(absl::StrCat("first_starter: ", settings.first_starter,
                                                   " is outside 0..", settings.players - 1));
  }
  if (settings.partners && settings.players != 4) {
    return absl::InvalidArgumentError("partners: a partnership game has 4 players");
  }
  if (settings.partners && settings.elimination) {
    return absl::InvalidArgumentError(
        "elimination: not with partners (a team cannot play on without one of its seats)");
  }
  if (settings.red_black_only && !settings.single_colour) {
    return absl::InvalidArgumentError("single_colour_red_black_only: needs single_colour_doubles");
  }
  if (settings.max_deals < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_deals: ", settings.max_deals, " is negative (0 means no limit)"));
  }
  return absl::OkStatus();
}

absl::Status ValidatePreset(const Preset& preset, const Settings& settings) {
  for (size_t d = 0; d < preset.deals.size(); ++d) {
    const int starter = (settings.first_starter + static_cast<int>(d)) % settings.players;
    KAHVE_RETURN_IF_ERROR(okey::CheckDealPreset(preset.deals[d], settings.players, starter,
                                                kStarterTiles, absl::StrCat("deals[", d, "]")));
    // Its deck-empty rules (the indicator as the last tile) assume every tile is dealt.
    if (preset.deals[d].exact_deck) {
      return absl::InvalidArgumentError(
          absl::StrCat("deals[", d, "].exact_deck: classic okey deals every tile"));
    }
  }
  return absl::OkStatus();
}

State::State(const Settings& settings, uint64_t seed, const Preset* preset, EventLog* events)
    : settings_(settings) {
  Reset(seed, preset, events);
}

void State::Reset(uint64_t seed, const Preset* preset, EventLog* events) {
  seed_ = seed;
  preset_deals_ = preset != nullptr ? preset->deals : std::vector<DealPreset>{};
  deal_ = 0;
  over_ = false;
  points_.fill(kStartingPoints);
  elimination_rank_.fill(0);
  records_.clear();
  starter_ = settings_.first_starter;
  StartDeal(events);
}

int State::NextInPlay(int seat) const {
  for (int step = 1; step <= settings_.players; ++step) {
    const int next = (seat + step) % settings_.players;
    if (in_play(next)) return next;
  }
  return seat;
}

int State::PreviousInPlay(int seat) const {
  for (int step = 1; step < settings_.players; ++step) {
    const int previous = (seat + settings_.players - step) % settings_.players;
    if (in_play(previous)) return previous;
  }
  return seat;
}

int State::SeatsInPlay() const {
  int count = 0;
  for (int seat = 0; seat < settings_.players; ++seat) count += in_play(seat) ? 1 : 0;
  return count;
}

bool State::Opponents(int a, int b) const {
  return a != b && (!settings_.partners || !SameTeam(a, b));
}

void State::StartDeal(EventLog* events) {
  const uint64_t deal_seed = DeriveSeed(seed_, static_cast<uint64_t>(deal_));
  okey::OkeyDeal dealt;
  std::array<std::vector<Tile>, kMaxPlayers> hands;
  if (SeatsInPlay() == settings_.players) {
    dealt = static_cast<size_t>(deal_) < preset_deals_.size()
                ? okey::DealFromPreset(preset_deals_[deal_], deal_seed, settings_.players, starter_,
                                       kStarterTiles)
                : okey::DealTiles(deal_seed, settings_.players, starter_, kStarterTiles);
    for (int seat = 0; seat < settings_.players; ++seat) hands[seat] = std::move(dealt.hands[seat]);
  } else {
    // Seats that left are dealt nothing: the seats in play, from the starter on, take the hands.
    std::vector<int> order = {starter_};
    for (int seat = NextInPlay(starter_); seat != starter_; seat = NextInPlay(seat)) {
      order.push_back(seat);
    }
    dealt = okey::DealTiles(deal_seed, static_cast<int>(order.size()), 0, kStarterTiles);
    for (size_t i = 0; i < order.size(); ++i) hands[order[i]] = std::move(dealt.hands[i]);
  }
  hands_ = std::move(hands);
  indicator_ = dealt.indicator;
  indicator_tile_ = dealt.indicator_tile;
  indicator_drawn_ = false;
  jokers_ = Jokers(dealt.okey());
  deck_ = std::move(dealt.deck);
  deck_next_ = 0;
  for (auto& pile : discards_) pile.clear();
  discards_this_deal_ = 0;
  window_open_ = true;
  twin_shown_ = false;
  to_act_ = starter_;
  // The starter holds 15 and begins by discarding (or winning).
  drawn_ = true;
  if (events != nullptr) {
    events->Add({.kind = EventKind::kDealStarted, .seat = starter_, .value = deal_});
    for (int seat = 0; seat < settings_.players; ++seat) {
      if (in_play(seat)) events->Add({.kind = EventKind::kTilesDealt, .seat = seat});
    }
  }
}

int State::deck_count() const {
  const int drawable_indicator = settings_.indicator_last_tile && !indicator_drawn_ ? 1 : 0;
  return static_cast<int>(deck_.size() - deck_next_) + drawable_indicator;
}

std::optional<Tile> State::takeable() const {
  if (over_ || drawn_ || discards_this_deal_ == 0) return std::nullopt;
  const int previous = PreviousInPlay(to_act_);
  if (discards_[previous].empty()) return std::nullopt;
  return discards_[previous].back();
}

bool State::MayShowIndicator(int seat) const {
  if (over_ || !in_play(seat) || !window_open_ || twin_shown_) return false;
  return std::any_of(hands_[seat].begin(), hands_[seat].end(), [&](Tile tile) {
    return !okey::IsFakeOkey(tile) && okey::PrintedFace(tile) == indicator_;
  });
}

Refusal State::CheckWin(const std::vector<Tile>& hand, const WinClaim& claim) const {
  const bool held = std::any_of(hand.begin(), hand.end(),
                                [&](Tile tile) { return CodeOf(tile) == claim.discard; });
  if (!held) {
    return {Reason::kTileNotInHand, absl::StrCat("the hand holds no ", CodeName(claim.discard))};
  }
  const std::vector<Tile> shown = WithoutOne(hand, claim.discard);
  if (claim.seven_pairs) {
    if (!IsSevenPairs(shown, jokers_)) {
      return {Reason::kNotAWin, "the 14 tiles kept are not seven pairs"};
    }
    return {};
  }
  if (claim.groups.empty()) {
    if (!IsMeldWin(shown, jokers_)) {
      return {Reason::kNotAWin, "the 14 tiles kept are not all in runs and sets"};
    }
    return {};
  }
  std::array<uint8_t, kCodes> grouped{};
  for (const auto& group : claim.groups) {
    for (const Code code : group) ++grouped[code];
  }
  if (grouped != okey::CountCodes(shown)) {
    return {Reason::kGroupsNotTheHand, "the groups are not exactly the 14 tiles kept"};
  }
  for (size_t i = 0; i < claim.groups.size(); ++i) {
    FaceCounts faces;
    for (const Code code : claim.groups[i]) faces.Add(okey::SampleTile(code), jokers_);
    // Each group is one meld (RULES.md: the claim carries the grouping), not several.
    if (!okey::IsOneMeld(faces)) {
      return {Reason::kNotAWin, absl::StrCat("groups[", i, "] is not one run or one set")};
    }
  }
  return {};
}

Refusal State::Check(int seat, const Action& action) const {
  if (action.kind == ActionKind::kShowIndicator) {
    if (!MayShowIndicator(seat)) {
      return {Reason::kCannotShowIndicator,
              "gösterme needs the indicator's twin in hand, once a deal, before its first draw "
              "from the deck"};
    }
    return {};
  }
  if (seat != to_act_) return {Reason::kNotYourTurn, "not this seat's turn"};
  const std::vector<Tile>& hand = hands_[seat];
  switch (action.kind) {
    case ActionKind::kDraw:
      if (drawn_) return {Reason::kAlreadyDrawn, "this turn's draw is done; discard or win"};
      return {};
    case ActionKind::kTakeDiscard: {
      if (discards_this_deal_ == 0) {
        return {Reason::kNoDiscardToTake, "nobody has discarded yet this deal"};
      }
      if (drawn_) return {Reason::kAlreadyDrawn, "this turn's draw is done; discard or win"};
      const std::optional<Tile> taken = takeable();
      if (!taken.has_value()) {
        return {Reason::kNoDiscardToTake, "there is no discard of the previous player to take"};
      }
      if (deck_count() == 0 && !action.with_win) {
        return {Reason::kTakeNeedsAWin,
                "the deck is empty: take the discard only together with a win, or draw to end "
                "the deal"};
      }
      if (!action.with_win) return {};
      std::vector<Tile> with_taken = hand;
      with_taken.push_back(*taken);
      return CheckWin(with_taken, action.win);
    }
    case ActionKind::kDiscard: {
      if (!drawn_) return {Reason::kMustDraw, "draw from the deck or take the discard first"};
      const bool held = std::any_of(hand.begin(), hand.end(),
                                    [&](Tile tile) { return CodeOf(tile) == action.tile; });
      if (!held) {
        return {Reason::kTileNotInHand, absl::StrCat("the hand holds no ", CodeName(action.tile))};
      }
      return {};
    }
    case ActionKind::kWin:
      if (!drawn_) return {Reason::kMustDraw, "draw from the deck or take the discard first"};
      return CheckWin(hand, action.win);
    case ActionKind::kShowIndicator:
      break;
  }
  return {};
}

Tile State::TakeFromHand(int seat, Code code) {
  const std::optional<Tile> tile = okey::TakeCode(hands_[seat], code);
  KAHVE_CHECK(tile.has_value(), "a checked move uses only tiles of the hand");
  return *tile;
}

void State::LosePoints(int seat, int points, EventLog* events) {
  points_[seat] -= points;
  if (events != nullptr) {
    events->Add(
        {.kind = EventKind::kPointsLost, .seat = seat, .other = points_[seat], .value = points});
  }
}

void State::Win(int seat, const WinClaim& claim, EventLog* events) {
  const Tile discarded = TakeFromHand(seat, claim.discard);
  discards_[seat].push_back(discarded);
  ++discards_this_deal_;
  DealRecord record;
  record.winner = seat;
  record.claim = claim;
  record.okey_discard = jokers_.IsWild(discarded);
  record.single_colour =
      settings_.single_colour && SingleColour(hands_[seat], jokers_, settings_.red_black_only);
  if (!claim.seven_pairs && claim.groups.empty()) {
    // Shown as the search groups it.
    okey::Arrangement found;
    okey::FindCovering(Faces(hands_[seat], jokers_), 0, &found);
    for (int i = 0; i < found.meld_count; ++i) {
      std::vector<Code>& group = record.claim.groups.emplace_back();
      for (const okey::PlacedTile& placed : okey::TilesOf(found.melds[i], jokers_)) {
        group.push_back(CodeOf(placed.tile));
      }
    }
  }
  int multiplier = 1;
  if (record.okey_discard) multiplier *= 2;
  if (claim.seven_pairs) multiplier *= 2;
  if (record.single_colour) multiplier *= 2;
  record.points = kWinPoints * multiplier;
  records_.push_back(std::move(record));
  if (events != nullptr) events->Add({.kind = EventKind::kWon, .seat = seat, .value = deal_});
  for (int other = 0; other < settings_.players; ++other) {
    if (in_play(other) && Opponents(seat, other)) {
      LosePoints(other, records_.back().points, events);
    }
  }
  EndDeal(seat, events);
}

void State::Apply(int seat, const Action& action, EventLog* events) {
  switch (action.kind) {
    case ActionKind::kShowIndicator:
      twin_shown_ = true;
      if (events != nullptr) events->Add({.kind = EventKind::kIndicatorShown, .seat = seat});
      for (int other = 0; other < settings_.players; ++other) {
        if (in_play(other) && Opponents(seat, other)) LosePoints(other, 1, events);
      }
      return;
    case ActionKind::kDraw: {
      Tile tile = 0;
      if (deck_next_ < deck_.size()) {
        tile = deck_[deck_next_++];
      } else if (settings_.indicator_last_tile && !indicator_drawn_) {
        tile = indicator_tile_;
        indicator_drawn_ = true;
      } else {
        // Drawing on the empty deck declines the discard: the deal ends with no score.
        records_.push_back(DealRecord{});
        EndDeal(-1, events);
        return;
      }
      hands_[seat].push_back(tile);
      drawn_ = true;
      window_open_ = false;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kDrewFromDeck, .seat = seat, .value = deck_count()});
        events->Add({.kind = EventKind::kTileDrawn, .seat = seat, .code = CodeOf(tile)});
      }
      return;
    }
    case ActionKind::kTakeDiscard: {
      const Tile tile = *takeable();
      const int discarder = PreviousInPlay(seat);
      discards_[discarder].pop_back();
      hands_[seat].push_back(tile);
      drawn_ = true;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kDiscardTaken,
                     .seat = seat,
                     .other = discarder,
                     .code = CodeOf(tile)});
      }
      if (action.with_win) Win(seat, action.win, events);
      return;
    }
    case ActionKind::kDiscard: {
      discards_[seat].push_back(TakeFromHand(seat, action.tile));
      ++discards_this_deal_;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kTileDiscarded, .seat = seat, .code = action.tile});
      }
      drawn_ = false;
      to_act_ = NextInPlay(seat);
      return;
    }
    case ActionKind::kWin:
      Win(seat, action.win, events);
      return;
  }
}

void State::EndDeal(int winner, EventLog* events) {
  DealRecord& record = records_.back();
  record.points_after = points_;
  if (events != nullptr) {
    events->Add({.kind = EventKind::kDealEnded, .seat = winner, .value = deal_});
  }
  ++deal_;
  bool ended = settings_.max_deals > 0 && deal_ >= settings_.max_deals;
  if (settings_.elimination) {
    // Seats at 0 or less leave; those leaving together rank among themselves by points.
    std::vector<int> leaving;
    for (int seat = 0; seat < settings_.players; ++seat) {
      if (in_play(seat) && points_[seat] <= 0) leaving.push_back(seat);
    }
    const int staying = SeatsInPlay() - static_cast<int>(leaving.size());
    for (const int seat : leaving) {
      int better = 0;
      for (const int other : leaving) better += points_[other] > points_[seat] ? 1 : 0;
      elimination_rank_[seat] = staying + 1 + better;
      if (events != nullptr) {
        events->Add(
            {.kind = EventKind::kSeatEliminated, .seat = seat, .value = elimination_rank_[seat]});
      }
    }
    ended = ended || SeatsInPlay() < 2;
  } else {
    ended = ended || std::any_of(points_.begin(), points_.begin() + settings_.players,
                                 [](int points) { return points <= 0; });
  }
  if (ended) {
    over_ = true;
    return;
  }
  starter_ = NextInPlay(starter_);
  StartDeal(events);
}

std::array<int, kMaxPlayers> State::Ranks() const {
  std::array<int, kMaxPlayers> score{};
  for (int seat = 0; seat < settings_.players; ++seat) {
    score[seat] = settings_.partners ? points_[seat] + points_[PartnerOf(seat)] : points_[seat];
  }
  std::array<int, kMaxPlayers> ranks{};
  for (int seat = 0; seat < settings_.players; ++seat) {
    if (!in_play(seat)) {
      ranks[seat] = elimination_rank_[seat];
      continue;
    }
    int better = 0;
    for (int other = 0; other < settings_.players; ++other) {
      // Partners rank as teams: 1 + the teams ahead (only the other team's first seat counts).
      if (settings_.partners && (SameTeam(other, seat) || other >= 2)) continue;
      better += in_play(other) && score[other] > score[seat] ? 1 : 0;
    }
    ranks[seat] = 1 + better;
  }
  return ranks;
}

void State::CheckInvariants() const {
  std::array<int, okey::kTiles> seen{};
  for (int seat = 0; seat < settings_.players; ++seat) {
    for (const Tile tile : hands_[seat]) ++seen[tile];
    for (const Tile tile : discards_[seat]) ++seen[tile];
    // Once over, the final deal's tiles stay where it ended them, leavers' hands included.
    KAHVE_CHECK(over_ || in_play(seat) || hands_[seat].empty(), "a seat that left holds no tiles");
  }
  for (size_t i = deck_next_; i < deck_.size(); ++i) ++seen[deck_[i]];
  if (!indicator_drawn_) ++seen[indicator_tile_];
  for (int tile = 0; tile < okey::kTiles; ++tile) {
    KAHVE_CHECK(seen[tile] == 1, "every one of the 106 tiles is in exactly one place");
  }
  if (!over_) {
    for (int seat = 0; seat < settings_.players; ++seat) {
      if (!in_play(seat)) continue;
      const size_t wanted = seat == to_act_ && drawn_ ? kStarterTiles : kStarterTiles - 1;
      KAHVE_CHECK(hands_[seat].size() == wanted, "14 tiles in hand, 15 for the seat that drew");
    }
  }
  KAHVE_CHECK(static_cast<int>(records_.size()) == deal_, "one record per finished deal");
}

bool State::operator==(const State& other) const {
  auto same_records = [](const std::vector<DealRecord>& a, const std::vector<DealRecord>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].winner != b[i].winner || a[i].points != b[i].points ||
          a[i].points_after != b[i].points_after || a[i].claim.groups != b[i].claim.groups) {
        return false;
      }
    }
    return true;
  };
  return seed_ == other.seed_ && deal_ == other.deal_ && starter_ == other.starter_ &&
         to_act_ == other.to_act_ && over_ == other.over_ && drawn_ == other.drawn_ &&
         discards_this_deal_ == other.discards_this_deal_ &&
         indicator_tile_ == other.indicator_tile_ && indicator_drawn_ == other.indicator_drawn_ &&
         hands_ == other.hands_ && deck_ == other.deck_ && deck_next_ == other.deck_next_ &&
         discards_ == other.discards_ && window_open_ == other.window_open_ &&
         twin_shown_ == other.twin_shown_ && points_ == other.points_ &&
         elimination_rank_ == other.elimination_rank_ && same_records(records_, other.records_);
}

}  // namespace kahve::engine::okey_classic
