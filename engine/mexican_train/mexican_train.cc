#include "engine/mexican_train/mexican_train.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "engine/core/check.h"
#include "engine/core/rng.h"

namespace kahve::engine::mexican_train {
namespace {

constexpr std::array<Domino, kTiles> kDominoes = [] {
  std::array<Domino, kTiles> dominoes{};
  int id = 0;
  for (int low = 0; low <= kHighPip; ++low) {
    for (int high = low; high <= kHighPip; ++high) dominoes[id++] = {low, high};
  }
  return dominoes;
}();

}  // namespace

Domino DominoOf(TileId id) { return kDominoes[id]; }

TileId IdOf(int a, int b) {
  const int low = std::min(a, b);
  const int high = std::max(a, b);
  // Rows before `low` hold 13, 12, ... tiles.
  const int before = low * (kHighPip + 1) - low * (low - 1) / 2;
  return static_cast<TileId>(before + high - low);
}

std::string TileName(TileId id) {
  const Domino domino = DominoOf(id);
  return absl::StrCat(domino.low, "-", domino.high);
}

std::optional<TileId> ParseTile(std::string_view name) {
  const size_t dash = name.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  int pips[2] = {0, 0};
  const std::string_view parts[2] = {name.substr(0, dash), name.substr(dash + 1)};
  for (int i = 0; i < 2; ++i) {
    if (parts[i].empty() || parts[i].size() > 2) return std::nullopt;
    for (const char c : parts[i]) {
      if (c < '0' || c > '9') return std::nullopt;
      pips[i] = pips[i] * 10 + (c - '0');
    }
    if (pips[i] > kHighPip || (parts[i].size() == 2 && parts[i][0] == '0')) return std::nullopt;
  }
  // One name per tile, the lower pip first, so that a move names a tile one way only.
  if (pips[0] > pips[1]) return std::nullopt;
  return IdOf(pips[0], pips[1]);
}

int HandSize(int players) {
  if (players <= 4) return 15;
  if (players <= 6) return 12;
  if (players <= 8) return 10;
  return 8;
}

absl::Status ValidateSettings(const Settings& settings) {
  if (settings.players < kMinPlayers || settings.players > kMaxPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("players: ", settings.players, " is outside 2..10"));
  }
  return absl::OkStatus();
}

absl::Status ValidatePreset(const Preset& preset, const Settings& settings) {
  for (size_t r = 0; r < preset.rounds.size(); ++r) {
    const RoundPreset& round = preset.rounds[r];
    if (static_cast<int>(round.hands.size()) != settings.players) {
      return absl::InvalidArgumentError(absl::StrCat("rounds[", r, "].hands: ", round.hands.size(),
                                                     " hands for ", settings.players, " players"));
    }
    std::array<bool, kTiles> named{};
    auto name = [&](TileId tile) {
      if (tile >= kTiles || named[tile]) return false;
      named[tile] = true;
      return true;
    };
    for (size_t seat = 0; seat < round.hands.size(); ++seat) {
      if (static_cast<int>(round.hands[seat].size()) != HandSize(settings.players)) {
        return absl::InvalidArgumentError(absl::StrCat("rounds[", r, "].hands[", seat,
                                                       "]: ", round.hands[seat].size(),
                                                       " tiles, not ", HandSize(settings.players)));
      }
      for (const TileId tile : round.hands[seat]) {
        if (!name(tile)) {
          return absl::InvalidArgumentError(
              absl::StrCat("rounds[", r, "]: a tile named twice or unknown in hands[", seat, "]"));
        }
      }
    }
    for (const TileId tile : round.draws) {
      if (!name(tile)) {
        return absl::InvalidArgumentError(
            absl::StrCat("rounds[", r, "]: a tile named twice or unknown in draws"));
      }
    }
  }
  return absl::OkStatus();
}

State::State(const Settings& settings, uint64_t seed, const Preset* preset, EventLog* events)
    : players_(settings.players),
      seed_(seed),
      preset_rounds_(preset != nullptr ? preset->rounds : std::vector<RoundPreset>{}),
      hands_(settings.players),
      trains_(settings.players),
      had_first_turn_(settings.players),
      totals_(settings.players) {
  StartRound(events);
}

void State::StartRound(EventLog* events) {
  std::vector<TileId> tiles(kTiles);
  std::iota(tiles.begin(), tiles.end(), TileId{0});
  Rng rng(DeriveSeed(seed_, static_cast<uint64_t>(round_)));
  rng.Shuffle(tiles.data(), kTiles);
  const int size = HandSize(players_);
  if (static_cast<size_t>(round_) < preset_rounds_.size()) {
    const RoundPreset& preset = preset_rounds_[round_];
    for (int seat = 0; seat < players_; ++seat) hands_[seat] = preset.hands[seat];
    // The boneyard is drawn from its back: the named draws last, the rest in the seed's order.
    std::array<bool, kTiles> named{};
    for (const auto& hand : preset.hands) {
      for (const TileId tile : hand) named[tile] = true;
    }
    for (const TileId tile : preset.draws) named[tile] = true;
    boneyard_.clear();
    for (const TileId tile : tiles) {
      if (!named[tile]) boneyard_.push_back(tile);
    }
    boneyard_.insert(boneyard_.end(), preset.draws.rbegin(), preset.draws.rend());
  } else {
    size_t next = 0;
    for (int seat = 0; seat < players_; ++seat) {
      hands_[seat].assign(tiles.begin() + static_cast<std::ptrdiff_t>(next),
                          tiles.begin() + static_cast<std::ptrdiff_t>(next + size));
      next += static_cast<size_t>(size);
    }
    // The boneyard is drawn from its back.
    boneyard_.assign(tiles.begin() + static_cast<std::ptrdiff_t>(next), tiles.end());
  }
  for (Train& train : trains_) train = Train{.end = engine()};
  mexican_ = Train{.end = engine()};
  open_doubles_.clear();
  FindEngine();
  std::fill(had_first_turn_.begin(), had_first_turn_.end(), false);
  first_turns_left_ = players_;
  played_this_turn_ = 0;
  drew_ = false;
  bound_ = false;
  to_act_ = (engine_owner_ + 1) % players_;
  if (events != nullptr) {
    events->Add({.kind = EventKind::kRoundStarted, .seat = engine_owner_, .value = round_});
    for (int seat = 0; seat < players_; ++seat) {
      events->Add({.kind = EventKind::kTilesDealt, .seat = seat});
    }
  }
}

void State::FindEngine() {
  const TileId engine_tile = IdOf(engine(), engine());
  auto holder = [&]() {
    for (int seat = 0; seat < players_; ++seat) {
      if (std::find(hands_[seat].begin(), hands_[seat].end(), engine_tile) != hands_[seat].end()) {
        return seat;
      }
    }
    return -1;
  };
  search_draws_.assign(players_, 0);
  int owner = holder();
  // Nobody holds it: every seat draws one tile a pass, from the round's starting seat, and a
  // pass is always completed (a pass the boneyard cannot fill stops when it is empty).
  const int start = round_ % players_;
  while (owner < 0) {
    for (int i = 0; i < players_ && !boneyard_.empty(); ++i) {
      hands_[(start + i) % players_].push_back(boneyard_.back());
      ++search_draws_[(start + i) % players_];
      boneyard_.pop_back();
    }
    owner = holder();
    KAHVE_CHECK(owner >= 0 || !boneyard_.empty(), "the engine is in a hand or the boneyard");
  }
  engine_owner_ = owner;
  std::erase(hands_[owner], engine_tile);
}

bool State::MayUse(int seat, int train) const {
  if (!had_first_turn_[seat]) return train == seat;
  if (bound_) return train == open_doubles_.front();
  if (train == seat || train == kMexicanTrain) return true;
  return trains_[train].marked;
}

bool State::Fits(TileId tile, int train) const { return DominoOf(tile).Has(TrainRef(train).end); }

bool State::HasPlay() const {
  for (const TileId tile : hands_[to_act_]) {
    for (int train = kMexicanTrain; train < players_; ++train) {
      if (MayUse(to_act_, train) && Fits(tile, train)) return true;
    }
  }
  return false;
}

Refusal State::Check(const Action& action) const {
  const int seat = to_act_;
  const bool first_turn = !had_first_turn_[seat];
  switch (action.kind) {
    case ActionKind::kPlay: {
      // A train of no seat is wrong in any state, so it is named before the hand's lack.
      if (action.train < kMexicanTrain || action.train >= players_) {
        return {Reason::kNoSuchTrain, absl::StrCat("no train ", action.train)};
      }
      const std::vector<TileId>& hand = hands_[seat];
      if (action.tile >= kTiles || std::find(hand.begin(), hand.end(), action.tile) == hand.end()) {
        return {Reason::kNotInHand, "the hand holds no such tile"};
      }
      if (first_turn && action.train != seat) {
        return {Reason::kFirstTurnOwnTrainOnly, "a first turn plays on the seat's own train only"};
      }
      if (bound_ && action.train != open_doubles_.front()) {
        return {Reason::kBoundByDouble,
                absl::StrCat("the open double on train ", open_doubles_.front(),
                             " must be satisfied first")};
      }
      if (!MayUse(seat, action.train)) {
        return {Reason::kTrainClosed, "that train is another seat's and carries no marker"};
      }
      if (!Fits(action.tile, action.train)) {
        return {Reason::kDoesNotMatch,
                absl::StrCat(TileName(action.tile), " does not match the train's end ",
                             TrainRef(action.train).end)};
      }
      return {};
    }
    case ActionKind::kDraw:
      if (first_turn) return {Reason::kMayNotDraw, "a first turn has no draw"};
      if (HasPlay()) return {Reason::kMustPlay, "a tile can be played"};
      if (drew_) return {Reason::kAlreadyDrew, "the one draw for this tile is used; pass"};
      if (boneyard_.empty()) return {Reason::kBoneyardEmpty, "the boneyard is empty; pass"};
      return {};
    case ActionKind::kPass:
      if (first_turn && played_this_turn_ > 0) {
        return {Reason::kFirstTurnStarted, "tiles are on the train: end the first turn instead"};
      }
      if (HasPlay()) return {Reason::kMustPlay, "a tile can be played"};
      if (!first_turn && !drew_ && !boneyard_.empty()) {
        return {Reason::kMustDraw, "nothing fits: draw once first"};
      }
      return {};
    case ActionKind::kEndFirstTurn:
      if (!first_turn) return {Reason::kNotInFirstTurn, "the seat's first turn is over"};
      if (played_this_turn_ == 0) {
        return {Reason::kNothingPlayedYet, "a first turn ends after at least one tile"};
      }
      return {};
  }
  return {Reason::kNotInHand, "unknown action"};
}

void State::Apply(const Action& action, EventLog* events) {
  const int seat = to_act_;
  switch (action.kind) {
    case ActionKind::kPlay: {
      std::erase(hands_[seat], action.tile);
      Train& train = TrainRef(action.train);
      const Domino domino = DominoOf(action.tile);
      train.tiles.push_back(action.tile);
      train.end = domino.Other(train.end);
      if (action.train == seat) train.marked = false;
      std::erase(open_doubles_, action.train);  // a tile on an open double satisfies it
      if (domino.IsDouble()) open_doubles_.push_back(action.train);
      ++played_this_turn_;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kTilePlayed,
                     .seat = seat,
                     .tile = action.tile,
                     .train = action.train,
                     .value = train.end,
                     .hand_count = static_cast<int>(hands_[seat].size())});
      }
      if (!had_first_turn_[seat]) {
        // A first turn goes on until the seat ends it or nothing more fits its train.
        const bool more = std::any_of(hands_[seat].begin(), hands_[seat].end(),
                                      [&](TileId tile) { return Fits(tile, seat); });
        if (!more) {
          if (events != nullptr) events->Add({.kind = EventKind::kFirstTurnEnded, .seat = seat});
          EndTurn(events);
        }
        return;
      }
      if (hands_[seat].empty()) {
        EndRound(events);  // a last tile, a double too, empties the hand at once
        return;
      }
      if (!bound_ && domino.IsDouble()) {
        // A double asks for another tile, with a draw of its own.
        drew_ = false;
        return;
      }
      EndTurn(events);
      return;
    }
    case ActionKind::kDraw:
      hands_[seat].push_back(boneyard_.back());
      boneyard_.pop_back();
      drew_ = true;
      if (events != nullptr) {
        events->Add({.kind = EventKind::kDrew, .seat = seat, .value = boneyard_count()});
        events->Add({.kind = EventKind::kTileDrawn, .seat = seat, .tile = hands_[seat].back()});
      }
      return;
    case ActionKind::kPass:
      trains_[seat].marked = true;
      if (events != nullptr) events->Add({.kind = EventKind::kPassed, .seat = seat});
      EndTurn(events);
      return;
    case ActionKind::kEndFirstTurn:
      if (events != nullptr) events->Add({.kind = EventKind::kFirstTurnEnded, .seat = seat});
      EndTurn(events);
      return;
  }
}

void State::EndTurn(EventLog* events) {
  const int seat = to_act_;
  if (!had_first_turn_[seat]) {
    had_first_turn_[seat] = true;
    --first_turns_left_;
  }
  played_this_turn_ = 0;
  drew_ = false;
  bound_ = false;
  to_act_ = (seat + 1) % players_;
  if (RoundOver()) {
    EndRound(events);
    return;
  }
  bound_ = first_turns_left_ == 0 && !open_doubles_.empty();
}

bool State::RoundOver() const {
  // An emptied hand waits for every first turn; a block ends the round at once (RULES.md).
  if (first_turns_left_ == 0) {
    for (const auto& hand : hands_) {
      if (hand.empty()) return true;
    }
  }
  return Blocked();
}

bool State::Blocked() const {
  if (!boneyard_.empty()) return false;
  // A seat still owed its first turn can start its own train with the engine's pip.
  for (int seat = 0; seat < players_; ++seat) {
    if (had_first_turn_[seat]) continue;
    for (const TileId tile : hands_[seat]) {
      if (DominoOf(tile).Has(engine())) return false;
    }
  }
  std::array<bool, kHighPip + 1> wanted{};
  if (!open_doubles_.empty()) {
    wanted[TrainRef(open_doubles_.front()).end] = true;
  } else {
    // Every train counts: passing opens a personal train to everyone.
    for (const Train& train : trains_) wanted[train.end] = true;
    wanted[mexican_.end] = true;
  }
  for (const auto& hand : hands_) {
    for (const TileId tile : hand) {
      const Domino domino = DominoOf(tile);
      if (wanted[domino.low] || wanted[domino.high]) return false;
    }
  }
  return true;
}

void State::EndRound(EventLog* events) {
  RoundRecord record{.engine = engine(), .owner = engine_owner_, .hands = hands_};
  for (int seat = 0; seat < players_; ++seat) {
    int pips = 0;
    for (const TileId tile : hands_[seat]) pips += DominoOf(tile).Pips();
    if (hands_[seat].empty()) record.went_out = seat;
    record.penalties.push_back(pips);
    totals_[seat] += pips;
  }
  record.totals = totals_;
  records_.push_back(std::move(record));
  if (events != nullptr) events->Add({.kind = EventKind::kRoundEnded, .value = round_});
  ++round_;
  if (round_ == kRounds) {
    to_act_ = -1;
    return;
  }
  StartRound(events);
}

std::vector<Action> State::LegalActions() const {
  std::vector<Action> actions;
  if (over()) return actions;
  for (const TileId tile : hands_[to_act_]) {
    for (int train = kMexicanTrain; train < players_; ++train) {
      if (MayUse(to_act_, train) && Fits(tile, train)) {
        actions.push_back({.kind = ActionKind::kPlay, .tile = tile, .train = train});
      }
    }
  }
  const bool first_turn = !had_first_turn_[to_act_];
  if (first_turn) {
    if (played_this_turn_ > 0) {
      actions.push_back({.kind = ActionKind::kEndFirstTurn});
    } else if (actions.empty()) {
      actions.push_back({.kind = ActionKind::kPass});
    }
  } else if (actions.empty()) {
    actions.push_back(
        {.kind = !drew_ && !boneyard_.empty() ? ActionKind::kDraw : ActionKind::kPass});
  }
  return actions;
}

std::vector<int> State::Ranks() const {
  std::vector<int> ranks(players_);
  for (int seat = 0; seat < players_; ++seat) {
    ranks[seat] = 1 + static_cast<int>(std::count_if(totals_.begin(), totals_.end(),
                                                     [&](int t) { return t < totals_[seat]; }));
  }
  return ranks;
}

void State::CheckInvariants() const {
  if (over()) return;
  std::array<int, kTiles> seen{};
  for (const auto& hand : hands_) {
    for (const TileId tile : hand) ++seen[tile];
  }
  for (const TileId tile : boneyard_) ++seen[tile];
  ++seen[IdOf(engine(), engine())];
  for (int t = kMexicanTrain; t < players_; ++t) {
    const Train& train = TrainRef(t);
    int end = engine();
    for (const TileId tile : train.tiles) {
      ++seen[tile];
      KAHVE_CHECK(DominoOf(tile).Has(end), "every train chains from the engine");
      end = DominoOf(tile).Other(end);
    }
    KAHVE_CHECK(end == train.end, "a train's end is its last tile's free pip");
  }
  for (int tile = 0; tile < kTiles; ++tile) {
    KAHVE_CHECK(seen[tile] == 1, "every one of the 91 tiles is in exactly one place");
  }
  for (const int t : open_doubles_) {
    const Train& train = TrainRef(t);
    KAHVE_CHECK(!train.tiles.empty() && DominoOf(train.tiles.back()).IsDouble(),
                "an open double is its train's last tile");
  }
}

bool State::operator==(const State& other) const {
  auto same_train = [](const Train& a, const Train& b) {
    return a.tiles == b.tiles && a.end == b.end && a.marked == b.marked;
  };
  for (int t = kMexicanTrain; t < players_; ++t) {
    if (!same_train(TrainRef(t), other.TrainRef(t))) return false;
  }
  auto same_records = [](const std::vector<RoundRecord>& a, const std::vector<RoundRecord>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].went_out != b[i].went_out || a[i].hands != b[i].hands ||
          a[i].penalties != b[i].penalties || a[i].totals != b[i].totals) {
        return false;
      }
    }
    return true;
  };
  return players_ == other.players_ && seed_ == other.seed_ && round_ == other.round_ &&
         to_act_ == other.to_act_ && engine_owner_ == other.engine_owner_ &&
         hands_ == other.hands_ && boneyard_ == other.boneyard_ &&
         open_doubles_ == other.open_doubles_ && had_first_turn_ == other.had_first_turn_ &&
         first_turns_left_ == other.first_turns_left_ &&
         played_this_turn_ == other.played_this_turn_ && drew_ == other.drew_ &&
         bound_ == other.bound_ && totals_ == other.totals_ &&
         same_records(records_, other.records_);
}

}  // namespace kahve::engine::mexican_train
