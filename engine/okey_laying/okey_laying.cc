#include "engine/okey_laying/okey_laying.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/check.h"
#include "engine/core/rng.h"
#include "engine/okey/okey_deal.h"

namespace kahve::engine::okey_laying {
namespace {

using okey::Jokers;
using okey::NumberOf;

int StarterOf(const Rules& rules, int deal) { return (rules.first_starter + deal) % kPlayers; }

// The number a laid tile stands for: a wild in a run names its face, in a set it is the set's
// number; anything else is what it plays as.
int LaidNumber(const PlacedTile& placed, const Meld& meld, const Jokers& jokers) {
  if (!jokers.IsWild(placed.tile)) return NumberOf(jokers.PlaysAs(placed.tile));
  if (meld.kind == MeldKind::kSet) return meld.number;
  return NumberOf(placed.stands_for);
}

// A pair's tiles: the same code, or an okey with anything.
bool IsPair(Code first, Code second, const Jokers& jokers) {
  const Code okey = jokers.okey();
  return first == second || first == okey || second == okey;
}

// The number a pair's tile counts: an okey counts as its partner (two okeys: the okey's own).
int PairNumber(Code tile, Code partner, const Jokers& jokers) {
  const Code okey = jokers.okey();
  const Code counted = tile == okey && partner != okey ? partner : tile;
  return NumberOf(jokers.PlaysAs(SampleTile(counted)));
}

// The wild of `tiles` named for `face`, or end().
std::vector<PlacedTile>::iterator FindWild(std::vector<PlacedTile>& tiles, Face face,
                                           const Jokers& jokers) {
  return std::find_if(tiles.begin(), tiles.end(), [&](const PlacedTile& placed) {
    return jokers.IsWild(placed.tile) && !placed.open_colour && placed.stands_for == face;
  });
}

bool FitsARunOrSet(const std::vector<TableMeld>& table, Tile tile, const Jokers& jokers) {
  for (const TableMeld& laid : table) {
    if (laid.pair) continue;
    for (const AddPlace place : okey::PlacesFor(laid.meld, tile, jokers)) {
      if (place != AddPlace::kReplaceWild) return true;
    }
  }
  return false;
}

}  // namespace

Finish FinishOf(bool last_tile_was_okey, bool finisher_opened_with_pairs) {
  if (last_tile_was_okey) return Finish::kOkeyDiscard;
  return finisher_opened_with_pairs ? Finish::kPairs : Finish::kFromHand;
}

absl::Status ValidatePreset(const Preset& preset, const Rules& rules) {
  for (size_t d = 0; d < preset.deals.size(); ++d) {
    KAHVE_RETURN_IF_ERROR(
        okey::CheckDealPreset(preset.deals[d], kPlayers, StarterOf(rules, static_cast<int>(d)),
                              rules.starter_tiles, absl::StrCat("deals[", d, "]")));
  }
  return absl::OkStatus();
}

int TableMeld::Value(const Jokers& jokers) const {
  if (!pair) return meld.Value();
  const Code first = CodeOf(tiles[0].tile);
  const Code second = CodeOf(tiles[1].tile);
  return PairNumber(first, second, jokers) + PairNumber(second, first, jokers);
}

State::State(const Rules& rules, uint64_t seed, const Preset* preset, EventLog* events)
    : rules_(rules) {
  Reset(seed, preset, events);
}

void State::Reset(uint64_t seed, const Preset* preset, EventLog* events) {
  seed_ = seed;
  if (preset != nullptr) {
    preset_deals_ = preset->deals;
  } else {
    preset_deals_.clear();
  }
  deal_ = 0;
  dealt_ = 0;
  voided_ = {};
  totals_.fill(0);
  records_.clear();
  StartDeal(events);
}

void State::StartDeal(EventLog* events, bool redeal) {
  starter_ = StarterOf(rules_, deal_);
  const uint64_t deal_seed = DeriveSeed(seed_, static_cast<uint64_t>(dealt_));
  okey::OkeyDeal dealt;
  // A preset gives each deal's first dealing; a void deal's redeal comes from the seed.
  if (!redeal && static_cast<size_t>(deal_) < preset_deals_.size()) {
    dealt = okey::DealFromPreset(preset_deals_[deal_], deal_seed, kPlayers, starter_,
                                 rules_.starter_tiles);
  } else {
    dealt = okey::DealTiles(deal_seed, kPlayers, starter_, rules_.starter_tiles);
  }
  ++dealt_;
  indicator_ = dealt.indicator;
  indicator_tile_ = dealt.indicator_tile;
  jokers_ = Jokers(dealt.okey());
  for (int seat = 0; seat < kPlayers; ++seat) {
    hands_[seat] = std::move(dealt.hands[seat]);
    codes_[seat] = CountCodes(hands_[seat]);
    discards_[seat].clear();
  }
  deck_ = std::move(dealt.deck);
  deck_next_ = 0;
  out_of_play_ = std::move(dealt.out_of_play);
  discards_this_deal_ = 0;
  table_.clear();
  opened_.fill(Opened::kNo);
  chain_ = 0;
  opened_this_turn_ = false;
  penalties_.fill(0);
  to_act_ = starter_;
  // The starter's first turn has no draw: it holds a tile more and begins by discarding.
  drawn_ = true;
  discard_takeable_ = false;
  if (events != nullptr) {
    events->Add({.kind = EventKind::kDealStarted, .seat = starter_, .value = deal_});
    for (int seat = 0; seat < kPlayers; ++seat) {
      events->Add({.kind = EventKind::kTilesDealt, .seat = seat});
    }
  }
}

std::optional<Tile> State::takeable() const {
  if (over() || drawn_ || !discard_takeable_) return std::nullopt;
  const std::vector<Tile>& pile = discards_[(to_act_ + kPlayers - 1) % kPlayers];
  if (pile.empty()) return std::nullopt;
  return pile.back();
}

int State::OpeningNeeds() const {
  return rules_.doubling && chain_ > 0 ? std::max(rules_.opening_minimum, chain_ + 1)
                                       : rules_.opening_minimum;
}

Refusal State::Check(const Action& action) const {
  const int hand_size = static_cast<int>(hands_[to_act_].size());
  switch (action.kind) {
    case ActionKind::kDraw:
      if (drawn_) return {Reason::kAlreadyDrawn, "this turn's draw is done; lay tiles or discard"};
      return {};
    case ActionKind::kTakeDiscard: {
      if (discards_this_deal_ == 0) {
        return {Reason::kNoDiscardToTake, "nobody has discarded yet this deal; discard to begin"};
      }
      if (drawn_) return {Reason::kAlreadyDrawn, "this turn's draw is done; lay tiles or discard"};
      const std::optional<Tile> taken = takeable();
      if (!taken.has_value()) {
        return {Reason::kNoDiscardToTake, "there is no discard of the previous player to take"};
      }
      if (!action.further.empty()) return CheckTakeWithLays(action, *taken);
      std::array<uint8_t, kCodes> pool = codes_[to_act_];
      ++pool[CodeOf(*taken)];
      return CheckLay(action, action.use, pool, hand_size + 1, CodeOf(*taken));
    }
    case ActionKind::kLayMelds:
    case ActionKind::kLayPairs:
    case ActionKind::kAddTile:
      if (!drawn_) return {Reason::kMustDraw, "draw from the deck or take the discard first"};
      return CheckLay(action, action.kind, codes_[to_act_], hand_size, std::nullopt);
    case ActionKind::kDiscard: {
      if (!drawn_) return {Reason::kMustDraw, "draw from the deck or take the discard first"};
      if (action.tile >= kCodes || codes_[to_act_][action.tile] == 0) {
        return {Reason::kTileNotInHand, absl::StrCat("the hand holds no ", CodeName(action.tile))};
      }
      return {};
    }
  }
  return {Reason::kNothingLaid, "unknown action"};
}

Refusal State::CheckTakeWithLays(const Action& take, Tile taken) const {
  const Code code = CodeOf(taken);
  // Not opened, the opening (the use) holds it; okey51 always asks it of the use.
  const bool in_use = !rules_.take_used_in_any_lay || opened_[to_act_] == Opened::kNo;
  State trial = *this;
  trial.TakeDiscard(nullptr);
  bool used = false;
  for (size_t i = 0; i <= take.further.size(); ++i) {
    const Action& lay = i == 0 ? take : take.further[i - 1];
    const ActionKind kind = i == 0 ? take.use : lay.kind;
    const std::optional<Code> must_use =
        i == 0 && in_use ? std::optional<Code>(code) : std::nullopt;
    Refusal refusal = trial.CheckLay(lay, kind, trial.codes_[to_act_],
                                     static_cast<int>(trial.hands_[to_act_].size()), must_use);
    if (refusal.reason != Reason::kNone) {
      if (i > 0) refusal.message = absl::StrCat("further_lays[", i - 1, "]: ", refusal.message);
      return refusal;
    }
    if (trial.ApplyLay(lay, kind, used ? std::nullopt : std::optional<Code>(code), nullptr) > 0) {
      used = true;
    }
  }
  if (!used) {
    return {Reason::kDiscardNotUsed,
            absl::StrCat("the taken ", CodeName(code), " must reach the table in this move")};
  }
  return {};
}

Refusal State::CheckLay(const Action& lay, ActionKind kind, const std::array<uint8_t, kCodes>& pool,
                        int hand_size, std::optional<Code> must_use) const {
  const Opened opened = opened_[to_act_];
  std::array<uint8_t, kCodes> used{};
  int laid = 0;
  auto use = [&](Code code) {
    ++used[code];
    ++laid;
  };
  auto check_counts = [&]() -> Refusal {
    for (int code = 0; code < kCodes; ++code) {
      if (used[code] > pool[code]) {
        return {Reason::kTileNotInHand,
                absl::StrCat("the move lays ", used[code], " ", CodeName(static_cast<Code>(code)),
                             "; the hand holds ", pool[code])};
      }
    }
    if (laid > hand_size - 1) {
      return {Reason::kMustKeepATile, "a lay must leave a tile in the hand to discard"};
    }
    if (must_use.has_value() && used[*must_use] == 0) {
      return {Reason::kDiscardNotUsed, absl::StrCat("the taken ", CodeName(*must_use),
                                                    " must reach the table in this move")};
    }
    return {};
  };

  switch (kind) {
    case ActionKind::kLayMelds: {
      if (opened == Opened::kPairs) {
        return {Reason::kOpenedWithPairs, "a pairs opener lays only pairs"};
      }
      if (lay.melds.empty()) return {Reason::kNothingLaid, "the lay holds no melds"};
      int sum = 0;
      for (size_t i = 0; i < lay.melds.size(); ++i) {
        for (const PlacedTile& placed : lay.melds[i]) use(CodeOf(placed.tile));
        const okey::MeldCheck check = okey::CheckMeld(lay.melds[i], jokers_);
        if (check.error != okey::MeldError::kNone) {
          return {check.error == okey::MeldError::kBadStandIn ? Reason::kBadStandIn
                                                              : Reason::kInvalidMeld,
                  absl::StrCat("melds[", i, "]: ", okey::MeldErrorText(check.error))};
        }
        sum += check.meld.Value();
      }
      if (Refusal counts = check_counts(); counts.reason != Reason::kNone) return counts;
      if (opened == Opened::kNo && sum < OpeningNeeds()) {
        return {Reason::kOpeningTooLow,
                absl::StrCat("the opening sums ", sum, "; it needs ", OpeningNeeds(),
                             OpeningNeeds() > rules_.opening_minimum
                                 ? absl::StrCat(" (the last opening was ", chain_, ")")
                                 : std::string())};
      }
      return {};
    }
    case ActionKind::kLayPairs: {
      if (opened == Opened::kMelds) {
        return {Reason::kOpenedWithMelds, "a run/set opener never lays pairs"};
      }
      if (lay.pairs.empty()) return {Reason::kNothingLaid, "the lay holds no pairs"};
      for (size_t i = 0; i < lay.pairs.size(); ++i) {
        const auto& [first, second] = lay.pairs[i];
        use(first);
        use(second);
        if (!IsPair(first, second, jokers_)) {
          return {Reason::kNotAPair, absl::StrCat("pairs[", i, "]: ", CodeName(first), " and ",
                                                  CodeName(second), " are not a pair")};
        }
      }
      if (Refusal counts = check_counts(); counts.reason != Reason::kNone) return counts;
      if (opened == Opened::kNo && static_cast<int>(lay.pairs.size()) < kPairsToOpen) {
        return {Reason::kTooFewPairs, absl::StrCat("a pairs opening needs ", kPairsToOpen,
                                                   " pairs; the lay holds ", lay.pairs.size())};
      }
      return {};
    }
    case ActionKind::kAddTile: {
      if (opened == Opened::kPairs && !rules_.pairs_openers_add) {
        return {Reason::kOpenedWithPairs, "a pairs opener adds no tiles"};
      }
      if (opened == Opened::kNo) {
        return {Reason::kNotOpened, rules_.pairs_openers_add
                                        ? "additions need an opening first"
                                        : "additions need a run/set opening first"};
      }
      const Addition& addition = lay.addition;
      if (addition.meld < 0 || addition.meld >= static_cast<int>(table_.size())) {
        return {Reason::kNoSuchMeld, absl::StrCat("the table has no meld ", addition.meld)};
      }
      const TableMeld& target = table_[addition.meld];
      if (target.pair) return {Reason::kDoesNotFit, "pairs take no additions"};
      use(addition.tile);
      // Taking an okey out gives a tile back: the hand keeps its size.
      if (addition.place == AddPlace::kReplaceWild) ++hand_size;
      if (Refusal counts = check_counts(); counts.reason != Reason::kNone) return counts;
      if (!okey::PlacesFor(target.meld, SampleTile(addition.tile), jokers_).Has(addition.place)) {
        return {Reason::kDoesNotFit,
                absl::StrCat(CodeName(addition.tile), " does not go at that place of meld ",
                             addition.meld)};
      }
      return {};
    }
    default:
      return {Reason::kNothingLaid, "not a lay"};
  }
}

void State::AddToHand(int seat, Tile tile) {
  hands_[seat].push_back(tile);
  ++codes_[seat][CodeOf(tile)];
}

Tile State::TakeFromHand(int seat, Code code) {
  const std::optional<Tile> tile = okey::TakeCode(hands_[seat], code);
  --codes_[seat][code];
  KAHVE_CHECK(tile.has_value(), "a checked move uses only tiles of the hand");
  return *tile;
}

void State::Charge(int seat, PenaltyKind kind, int points, int by, EventLog* events) {
  penalties_[seat] += points;
  if (events != nullptr) {
    events->Add(
        {.kind = EventKind::kPenalty, .seat = seat, .other = by, .value = points, .penalty = kind});
  }
}

int State::ApplyLay(const Action& lay, ActionKind kind, std::optional<Code> used,
                    EventLog* events) {
  const int seat = to_act_;
  int used_value = 0;
  bool found_used = false;
  switch (kind) {
    case ActionKind::kLayMelds: {
      const bool opening = opened_[seat] == Opened::kNo;
      const int first = static_cast<int>(table_.size());
      int sum = 0;
      for (const std::vector<PlacedTile>& tiles : lay.melds) {
        TableMeld laid{.owner = seat, .pair = false};
        laid.meld = okey::CheckMeld(tiles, jokers_).meld;
        for (const PlacedTile& placed : tiles) {
          const Code code = CodeOf(placed.tile);
          laid.tiles.push_back({TakeFromHand(seat, code), placed.stands_for, placed.open_colour});
          if (used.has_value() && !found_used && code == *used) {
            found_used = true;
            used_value = LaidNumber(placed, laid.meld, jokers_);
          }
        }
        sum += laid.meld.Value();
        table_.push_back(std::move(laid));
      }
      if (opening) {
        opened_[seat] = Opened::kMelds;
        opened_this_turn_ = true;
        chain_ = sum;
      }
      if (events != nullptr) {
        events->Add({.kind = EventKind::kMeldsLaid,
                     .seat = seat,
                     .first = first,
                     .count = static_cast<int>(lay.melds.size()),
                     .value = opening ? sum : 0,
                     .flag = opening});
      }
      break;
    }
    case ActionKind::kLayPairs: {
      const bool opening = opened_[seat] == Opened::kNo;
      const int first = static_cast<int>(table_.size());
      for (const auto& [a, b] : lay.pairs) {
        TableMeld laid{.owner = seat, .pair = true};
        laid.tiles.push_back({TakeFromHand(seat, a)});
        laid.tiles.push_back({TakeFromHand(seat, b)});
        if (used.has_value() && !found_used && (a == *used || b == *used)) {
          found_used = true;
          used_value = a == *used ? PairNumber(a, b, jokers_) : PairNumber(b, a, jokers_);
        }
        table_.push_back(std::move(laid));
      }
      if (opening) {
        opened_[seat] = Opened::kPairs;
        opened_this_turn_ = true;
      }
      if (events != nullptr) {
        events->Add({.kind = EventKind::kMeldsLaid,
                     .seat = seat,
                     .first = first,
                     .count = static_cast<int>(lay.pairs.size()),
                     .flag = opening});
      }
      break;
    }
    case ActionKind::kAddTile: {
      const Addition& addition = lay.addition;
      TableMeld& target = table_[addition.meld];
      const Tile tile = TakeFromHand(seat, addition.tile);
      const bool wild = jokers_.IsWild(tile);
      const Meld before = target.meld;
      bool okey_taken = false;
      int value = 0;
      switch (addition.place) {
        case AddPlace::kRunLow:
          target.tiles.insert(target.tiles.begin(), {tile, before.FaceAt(before.low - 1)});
          value = NumberOf(before.FaceAt(before.low - 1));
          break;
        case AddPlace::kRunHigh:
          target.tiles.push_back({tile, before.FaceAt(before.high + 1)});
          value = NumberOf(before.FaceAt(before.high + 1));
          break;
        case AddPlace::kSetColour:
          if (!wild) {
            // An okey named as this colour now stands for any colour still missing.
            const auto named = FindWild(target.tiles, jokers_.PlaysAs(tile), jokers_);
            if (named != target.tiles.end()) *named = {named->tile, 0, true};
          }
          target.tiles.push_back({tile, 0, wild});
          value = before.number;
          break;
        case AddPlace::kReplaceWild: {
          const Face face = jokers_.PlaysAs(tile);
          // The wild named for this face; in a set else an open one, else (WithTile's choice)
          // the one named as the lowest colour.
          auto it = FindWild(target.tiles, face, jokers_);
          if (it == target.tiles.end()) {
            it = std::find_if(target.tiles.begin(), target.tiles.end(), [&](const PlacedTile& p) {
              return jokers_.IsWild(p.tile) && p.open_colour;
            });
          }
          if (it == target.tiles.end() && before.kind == MeldKind::kSet) {
            const uint8_t colour = okey::SetWildTakenOut(before, face);
            for (int c = 0; c < okey::kColours; ++c) {
              if ((colour >> c & 1u) != 0) {
                it = FindWild(target.tiles, okey::MakeFace(c, before.number), jokers_);
              }
            }
          }
          KAHVE_CHECK(it != target.tiles.end(), "a checked replacement finds its okey");
          AddToHand(seat, it->tile);
          *it = PlacedTile{tile};
          okey_taken = true;
          value = NumberOf(face);
          break;
        }
      }
      target.meld = okey::WithTile(before, tile, addition.place, jokers_);
      if (used.has_value() && addition.tile == *used) used_value = value;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kTileAdded,
                     .seat = seat,
                     .first = addition.meld,
                     .flag = okey_taken,
                     .code = addition.tile,
                     .addition = addition});
      }
      if (rules_.charge_additions && !Partners(seat, target.owner)) {
        Charge(target.owner, okey_taken ? PenaltyKind::kOkeyTaken : PenaltyKind::kTileAdded,
               okey_taken ? 100 + value * 10 : value * 10, seat, events);
      }
      break;
    }
    default:
      break;
  }
  return used_value;
}

Tile State::TakeDiscard(EventLog* events) {
  const int seat = to_act_;
  const int discarder = (seat + kPlayers - 1) % kPlayers;
  const Tile tile = discards_[discarder].back();
  discards_[discarder].pop_back();
  AddToHand(seat, tile);
  drawn_ = true;
  discard_takeable_ = false;
  if (events != nullptr) {
    events->Add(
        {.kind = EventKind::kDiscardTaken, .seat = seat, .other = discarder, .code = CodeOf(tile)});
  }
  return tile;
}

void State::Apply(const Action& action, EventLog* events) {
  const int seat = to_act_;
  switch (action.kind) {
    case ActionKind::kDraw: {
      if (deck_next_ == deck_.size()) {
        // Drawing on the empty deck declines the discard: the deal ends with no finisher.
        EndDeal(Finish::kDeckExhausted, -1, events);
        return;
      }
      const Tile tile = deck_[deck_next_++];
      AddToHand(seat, tile);
      drawn_ = true;
      discard_takeable_ = false;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kDrewFromDeck, .seat = seat, .value = deck_count()});
        events->Add({.kind = EventKind::kTileDrawn, .seat = seat, .code = CodeOf(tile)});
      }
      return;
    }
    case ActionKind::kTakeDiscard: {
      const int discarder = (seat + kPlayers - 1) % kPlayers;
      const Code taken = CodeOf(TakeDiscard(events));
      bool used = false;
      for (size_t i = 0; i <= action.further.size(); ++i) {
        const Action& lay = i == 0 ? action : action.further[i - 1];
        const int value = ApplyLay(lay, i == 0 ? action.use : lay.kind,
                                   used ? std::nullopt : std::optional<Code>(taken), events);
        if (used || value == 0) continue;
        used = true;
        // Charged right after the lay that used it.
        if (rules_.charge_taken_discard) {
          Charge(discarder, PenaltyKind::kDiscardTaken, value * 10, seat, events);
        }
      }
      KAHVE_CHECK(used, "a checked take uses the taken tile");
      VoidIfAllOpenedWithPairs(events);
      return;
    }
    case ActionKind::kLayMelds:
    case ActionKind::kLayPairs:
    case ActionKind::kAddTile:
      ApplyLay(action, action.kind, std::nullopt, events);
      VoidIfAllOpenedWithPairs(events);
      return;
    case ActionKind::kDiscard: {
      const Tile tile = TakeFromHand(seat, action.tile);
      discards_[seat].push_back(tile);
      ++discards_this_deal_;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kTileDiscarded,
                     .seat = seat,
                     .value = static_cast<int>(hands_[seat].size()),
                     .code = action.tile});
      }
      if (hands_[seat].empty()) {
        // The last tile finishes the deal; that discard is never a penalty tile.
        EndDeal(FinishOf(jokers_.IsWild(tile), opened_[seat] == Opened::kPairs), seat, events);
        return;
      }
      if (rules_.okey_discard_points > 0 && jokers_.IsWild(tile)) {
        // okey101: an okey discard costs once, whether or not it also fits a meld.
        Charge(seat, PenaltyKind::kOkeyDiscarded, rules_.okey_discard_points, seat, events);
      } else if (FitsARunOrSet(table_, tile, jokers_)) {
        Charge(seat, PenaltyKind::kPenaltyTile, rules_.penalty_tile_points, seat, events);
      }
      to_act_ = NextSeat(seat);
      opened_this_turn_ = false;
      drawn_ = false;
      discard_takeable_ = true;
      return;
    }
  }
}

void State::VoidIfAllOpenedWithPairs(EventLog* events) {
  if (!rules_.void_when_all_open_pairs || over()) return;
  for (const Opened opened : opened_) {
    if (opened != Opened::kPairs) return;
  }
  // The deal never counted: its penalties go with it and the same starter deals again.
  voided_ = {.table = table_, .jokers = jokers_};
  if (events != nullptr) events->Add({.kind = EventKind::kDealVoided, .value = deal_});
  StartDeal(events, /*redeal=*/true);
}

void State::EndDeal(Finish finish, int finisher, EventLog* events) {
  DealEnd end{.finish = finish, .finisher = finisher};
  end.one_turn = finisher >= 0 && opened_this_turn_;
  for (int seat = 0; seat < kPlayers; ++seat) {
    if (seat != finisher && opened_[seat] != Opened::kNo) end.one_turn = false;
  }
  DealRecord record;
  record.finish = finish;
  record.finisher = finisher;
  record.one_turn = end.one_turn;
  for (int seat = 0; seat < kPlayers; ++seat) {
    SeatAtEnd& at_end = end.seats[seat];
    at_end.opened = opened_[seat];
    for (const Tile tile : hands_[seat]) at_end.hand.Add(tile, jokers_);
    at_end.finished = seat == finisher;
    at_end.partner_of_finisher = finisher >= 0 && seat != finisher && Partners(seat, finisher);
    for (const Tile tile : hands_[seat]) record.hands[seat].push_back(CodeOf(tile));
    std::sort(record.hands[seat].begin(), record.hands[seat].end());
  }
  const Settlement settlement = rules_.settle(end);
  record.multiplier = settlement.multiplier;
  for (int seat = 0; seat < kPlayers; ++seat) {
    record.opened[seat] = opened_[seat];
    record.settlement[seat] = settlement.points[seat];
    record.penalties[seat] = penalties_[seat];
    record.scores[seat] = settlement.points[seat] + penalties_[seat];
    totals_[seat] += record.scores[seat];
    record.totals[seat] = totals_[seat];
  }
  records_.push_back(std::move(record));
  if (events != nullptr) {
    events->Add({.kind = EventKind::kDealEnded, .seat = finisher, .value = deal_});
  }
  ++deal_;
  if (deal_ < rules_.deals) {
    StartDeal(events);
  } else {
    to_act_ = -1;
  }
}

std::array<int, kPlayers> State::Ranks() const {
  std::array<int, kPlayers> ranks{};
  for (int seat = 0; seat < kPlayers; ++seat) {
    int better = 0;
    if (rules_.teams) {
      // Teams rank as teams: 1, or 2 behind a lower team sum (ties share 1).
      const int own = totals_[seat] + totals_[(seat + 2) % kPlayers];
      const int other = totals_[(seat + 1) % kPlayers] + totals_[(seat + 3) % kPlayers];
      better = other < own ? 1 : 0;
    } else {
      better = static_cast<int>(std::count_if(totals_.begin(), totals_.end(),
                                              [&](int total) { return total < totals_[seat]; }));
    }
    ranks[seat] = 1 + better;
  }
  return ranks;
}

void State::CheckInvariants() const {
  std::array<int, okey::kTiles> seen{};
  for (int seat = 0; seat < kPlayers; ++seat) {
    KAHVE_CHECK(codes_[seat] == CountCodes(hands_[seat]), "each hand's code counts are its own");
    for (const Tile tile : hands_[seat]) ++seen[tile];
    for (const Tile tile : discards_[seat]) ++seen[tile];
  }
  for (size_t i = deck_next_; i < deck_.size(); ++i) ++seen[deck_[i]];
  for (const Tile tile : out_of_play_) ++seen[tile];
  // Drawn tiles are in hands; the deck's front before deck_next_ is history.
  for (const TableMeld& laid : table_) {
    for (const PlacedTile& placed : laid.tiles) ++seen[placed.tile];
    if (!laid.pair) {
      const okey::MeldCheck check = okey::CheckMeld(laid.tiles, jokers_);
      KAHVE_CHECK(check.error == okey::MeldError::kNone && check.meld == laid.meld,
                  "every meld on the table is valid and as recorded");
      KAHVE_CHECK(opened_[laid.owner] == Opened::kMelds, "runs and sets belong to run/set openers");
    } else {
      KAHVE_CHECK(laid.tiles.size() == 2 &&
                      IsPair(CodeOf(laid.tiles[0].tile), CodeOf(laid.tiles[1].tile), jokers_),
                  "every pair on the table is a pair");
      KAHVE_CHECK(opened_[laid.owner] == Opened::kPairs, "pairs belong to pairs openers");
    }
  }
  ++seen[indicator_tile_];
  KAHVE_CHECK(
      okey::PrintedFace(indicator_tile_) == indicator_ && !okey::IsFakeOkey(indicator_tile_),
      "the indicator is a numbered tile");
  for (int tile = 0; tile < okey::kTiles; ++tile) {
    KAHVE_CHECK(seen[tile] == 1, "every one of the 106 tiles is in exactly one place");
  }
  for (int seat = 0; seat < kPlayers && !over(); ++seat) {
    KAHVE_CHECK(!hands_[seat].empty(), "a seat in a deal always holds a tile");
  }
  size_t in_piles = 0;
  for (const auto& pile : discards_) in_piles += pile.size();
  KAHVE_CHECK(in_piles <= static_cast<size_t>(discards_this_deal_),
              "every tile in a discard pile was discarded this deal");
  std::array<int, kPlayers> totals{};
  for (const DealRecord& record : records_) {
    for (int seat = 0; seat < kPlayers; ++seat) {
      KAHVE_CHECK(record.scores[seat] == record.settlement[seat] + record.penalties[seat],
                  "a deal's score is its settlement plus its penalties");
      totals[seat] += record.scores[seat];
    }
  }
  KAHVE_CHECK(totals == totals_, "totals are the sums of the deals' scores");
  KAHVE_CHECK(static_cast<int>(records_.size()) == deal_, "one record per finished deal");
}

bool State::operator==(const State& other) const {
  auto same_table = [](const std::vector<TableMeld>& a, const std::vector<TableMeld>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].owner != b[i].owner || a[i].pair != b[i].pair || !(a[i].meld == b[i].meld) ||
          a[i].tiles != b[i].tiles) {
        return false;
      }
    }
    return true;
  };
  auto same_records = [](const std::vector<DealRecord>& a, const std::vector<DealRecord>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].finish != b[i].finish || a[i].finisher != b[i].finisher ||
          a[i].one_turn != b[i].one_turn || a[i].multiplier != b[i].multiplier ||
          a[i].hands != b[i].hands || a[i].opened != b[i].opened || a[i].scores != b[i].scores ||
          a[i].settlement != b[i].settlement) {
        return false;
      }
    }
    return true;
  };
  return rules_.teams == other.rules_.teams && rules_.deals == other.rules_.deals &&
         rules_.doubling == other.rules_.doubling &&
         rules_.opening_minimum == other.rules_.opening_minimum && seed_ == other.seed_ &&
         deal_ == other.deal_ && dealt_ == other.dealt_ &&
         opened_this_turn_ == other.opened_this_turn_ && starter_ == other.starter_ &&
         to_act_ == other.to_act_ && drawn_ == other.drawn_ &&
         discard_takeable_ == other.discard_takeable_ && indicator_tile_ == other.indicator_tile_ &&
         hands_ == other.hands_ && deck_ == other.deck_ && deck_next_ == other.deck_next_ &&
         out_of_play_ == other.out_of_play_ && discards_ == other.discards_ &&
         discards_this_deal_ == other.discards_this_deal_ && same_table(table_, other.table_) &&
         opened_ == other.opened_ && chain_ == other.chain_ && penalties_ == other.penalties_ &&
         totals_ == other.totals_ && same_records(records_, other.records_);
}

}  // namespace kahve::engine::okey_laying
