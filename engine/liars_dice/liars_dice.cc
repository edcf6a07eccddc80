#include "engine/liars_dice/liars_dice.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/core/check.h"

namespace kahve::engine::liars_dice {
namespace {

absl::Status OutOfRange(const char* field, int value, int low, int high) {
  return absl::InvalidArgumentError(
      absl::StrCat("liars_dice.", field, " must be in ", low, "..", high, ", got ", value));
}

}  // namespace

absl::Status ValidateSettings(const Settings& settings) {
  if (settings.players < kMinPlayers || settings.players > kMaxPlayers) {
    return OutOfRange("players", settings.players, kMinPlayers, kMaxPlayers);
  }
  if (settings.dice_per_player < kMinDicePerPlayer ||
      settings.dice_per_player > kMaxDicePerPlayer) {
    return OutOfRange("dice_per_player", settings.dice_per_player, kMinDicePerPlayer,
                      kMaxDicePerPlayer);
  }
  if (settings.max_rounds < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("liars_dice.max_rounds must be >= 0, got ", settings.max_rounds));
  }
  return absl::OkStatus();
}

State::State(const Settings& settings, uint64_t seed, const Preset* preset, EventBuffer* events)
    : settings_(settings) {
  Reset(seed, preset, events);
}

void State::Reset(uint64_t seed, const Preset* preset, EventBuffer* events) {
  rng_.Reseed(seed);
  if (preset != nullptr) {
    preset_rolls_ = preset->rolls;
  } else {
    preset_rolls_.clear();
  }
  round_ = 0;
  rounds_completed_ = 0;
  putana_candidate_ = -1;
  bidder_ = -1;
  putana_used_.fill(false);
  elimination_rank_.fill(0);
  dice_count_.fill(0);
  for (int seat = 0; seat < players(); ++seat) dice_count_[seat] = settings_.dice_per_player;
  reveal_ = Reveal{};
  // RULES.md: the first bidder of the first round is drawn by lot, before the first roll.
  const bool fixed_first = preset != nullptr && preset->first_bidder >= 0;
  const int first = fixed_first ? preset->first_bidder : static_cast<int>(rng_.Below(players()));
  StartRound(first, events);
}

namespace {

// Sorts five dice with a fixed network of compare-exchanges: no data-dependent branches.
void SortFive(std::array<int, kMaxDicePerPlayer>& d) {
  auto exchange = [&d](int i, int j) {
    const int low = std::min(d[i], d[j]);
    d[j] = std::max(d[i], d[j]);
    d[i] = low;
  };
  exchange(0, 1), exchange(3, 4), exchange(2, 4), exchange(2, 3), exchange(0, 3);
  exchange(0, 2), exchange(1, 4), exchange(1, 3), exchange(1, 2);
}

}  // namespace

void State::RollSeat(int seat) {
  static_assert(kMaxDicePerPlayer == 5, "SortFive sorts exactly five dice");
  const int count = dice_count_[seat];
  const size_t round_index = static_cast<size_t>(round_ - 1);
  const std::vector<int>* fixed = nullptr;
  if (round_index < preset_rolls_.size() &&
      static_cast<size_t>(seat) < preset_rolls_[round_index].size()) {
    fixed = &preset_rolls_[round_index][seat];
  }
  const int fixed_count = fixed == nullptr ? 0 : std::min<int>(count, fixed->size());
  // Empty slots hold a sentinel above every face while sorting, so they sort last.
  constexpr int kEmpty = kFaces + 1;
  auto& dice = dice_[seat];
  for (int i = 0; i < kMaxDicePerPlayer; ++i) {
    dice[i] = i < fixed_count ? (*fixed)[i] : i < count ? rng_.RollDie() : kEmpty;
  }
  SortFive(dice);
  for (int i = 0; i < kMaxDicePerPlayer; ++i) {
    if (i < count) ++face_counts_[dice[i]];
    if (dice[i] == kEmpty) dice[i] = 0;
  }
}

void State::StartRound(int starter, EventBuffer* events) {
  ++round_;
  starter_ = starter;
  to_act_ = starter;
  bidder_ = -1;
  bids_.clear();
  face_counts_.fill(0);
  int on_table = 0;
  for (int seat = 0; seat < players(); ++seat) {
    RollSeat(seat);
    on_table += dice_count_[seat];
  }
  // RULES.md: the seat just reduced to one die starts this round and may open it as Путана.
  bidding_ = BiddingState{.current = Bid{},
                          .putana_round = false,
                          .dice_on_table = on_table,
                          .may_declare_putana = putana_candidate_ == starter};
  if (events != nullptr) {
    events->Add({.kind = EventKind::kRoundStarted, .seat = starter, .value = round_});
    for (int seat = 0; seat < players(); ++seat) {
      if (dice_count_[seat] > 0) events->Add({.kind = EventKind::kDiceRolled, .seat = seat});
    }
  }
}

int State::LegalActions(Action* out) const {
  if (over()) return 0;
  return liars_dice::LegalActions(bidding_, out);
}

Reason State::Check(Action action) const { return CheckAction(bidding_, action); }

void State::Apply(Action action, EventBuffer* events) {
  assert(!over() && Check(action) == Reason::kNone);
  const int seat = to_act_;
  if (action == kChallenge) {
    ResolveChallenge(seat, events);
    return;
  }
  bidding_.may_declare_putana = false;
  putana_candidate_ = -1;
  if (action == kDeclarePutana) {
    putana_used_[seat] = true;
    bidding_.putana_round = true;
    if (events != nullptr) events->Add({.kind = EventKind::kPutanaDeclared, .seat = seat});
    return;  // the declarer still opens the bidding
  }
  const Bid bid = ActionBid(action);
  bids_.push_back({seat, bid});
  bidding_.current = bid;
  bidder_ = seat;
  to_act_ = NextInPlay(seat);
  if (events != nullptr) events->Add({.kind = EventKind::kBidMade, .seat = seat, .bid = bid});
}

void State::ResolveChallenge(int challenger, EventBuffer* events) {
  const Bid bid = bidding_.current;
  // Ones are wild except in a Путана round; for a bid of ones they count once.
  const int counted = CountForBid(face_counts_.data(), bid.face, !bidding_.putana_round);
  const bool stood = counted >= bid.quantity;
  reveal_.has = true;
  reveal_.dice = dice_;
  reveal_.counts = dice_count_;
  reveal_.counted = counted;
  reveal_.bid_stood = stood;
  if (events != nullptr) {
    events->Add({.kind = EventKind::kChallenged, .seat = challenger, .other = bidder_, .bid = bid});
    events->Add({.kind = EventKind::kDiceRevealed, .other = stood ? 1 : 0, .value = counted});
  }
  const int loser = stood ? challenger : bidder_;
  LoseDie(loser, events);
  ++rounds_completed_;
  if (SeatsInPlay() == 1 ||
      (settings_.max_rounds > 0 && rounds_completed_ >= settings_.max_rounds)) {
    EndGame(events);
    return;
  }
  // The loser starts the next round, or the next seat still in if the loser is out.
  StartRound(dice_count_[loser] > 0 ? loser : NextInPlay(loser), events);
}

void State::LoseDie(int seat, EventBuffer* events) {
  int& count = dice_count_[seat];
  --face_counts_[dice_[seat][count - 1]];
  dice_[seat][count - 1] = 0;
  --count;
  --bidding_.dice_on_table;
  if (events != nullptr) events->Add({.kind = EventKind::kDieLost, .seat = seat, .value = count});
  // Only a seat that goes from two dice to one is "just reduced to one die"; with one die per
  // player from the start nobody is, so that game has no Путана.
  putana_candidate_ = count == 1 ? seat : -1;
  if (count == 0) {
    elimination_rank_[seat] = SeatsInPlay() + 1;
    if (events != nullptr) {
      events->Add(
          {.kind = EventKind::kSeatEliminated, .seat = seat, .value = elimination_rank_[seat]});
    }
  }
}

void State::EndGame(EventBuffer* events) {
  to_act_ = -1;
  bidding_.may_declare_putana = false;
  putana_candidate_ = -1;
  if (events != nullptr) events->Add({.kind = EventKind::kGameOver});
}

int State::NextInPlay(int seat) const {
  for (int step = 1; step <= players(); ++step) {
    const int next = (seat + step) % players();
    if (dice_count_[next] > 0) return next;
  }
  return -1;
}

int State::SeatsInPlay() const {
  int in_play = 0;
  for (int seat = 0; seat < players(); ++seat) in_play += dice_count_[seat] > 0 ? 1 : 0;
  return in_play;
}

SeatView State::ViewFor(int seat) const {
  SeatView view;
  view.seat = seat;
  view.players = players();
  view.round = round_;
  view.to_act = to_act_;
  view.starter = starter_;
  if (seat >= 0) {
    view.my_dice = dice_[seat];
    view.my_dice_count = dice_count_[seat];
  }
  view.dice_counts = dice_count_;
  view.bidding = bidding_;
  view.bidder = bidder_;
  view.putana_used = putana_used_;
  return view;
}

std::array<int, kMaxPlayers> State::Ranks() const {
  std::array<int, kMaxPlayers> ranks{};
  for (int seat = 0; seat < players(); ++seat) {
    if (dice_count_[seat] == 0) {
      ranks[seat] = elimination_rank_[seat];
      continue;
    }
    // Seats still in rank by dice left, equal counts sharing a rank (only a round limit leaves
    // several).
    int better = 0;
    for (int other = 0; other < players(); ++other) {
      better += dice_count_[other] > dice_count_[seat] ? 1 : 0;
    }
    ranks[seat] = better + 1;
  }
  return ranks;
}

void State::CheckInvariants() const {
  std::array<int, kFaces + 1> faces{};
  int on_table = 0;
  for (int seat = 0; seat < players(); ++seat) {
    const int count = dice_count_[seat];
    KAHVE_CHECK(count >= 0 && count <= settings_.dice_per_player, "dice count in range");
    for (int i = 0; i < kMaxDicePerPlayer; ++i) {
      const int face = dice_[seat][i];
      KAHVE_CHECK(i < count ? face >= 1 && face <= kFaces : face == 0, "dice slots hold dice");
      if (i < count) ++faces[face];
      if (i > 0 && i < count) KAHVE_CHECK(dice_[seat][i - 1] <= face, "dice sorted");
    }
    on_table += count;
    KAHVE_CHECK((count == 0) == (elimination_rank_[seat] != 0), "out iff ranked");
  }
  KAHVE_CHECK(faces == face_counts_, "face totals match the dice");
  // Every challenge costs exactly one die.
  KAHVE_CHECK(players() * settings_.dice_per_player - on_table == rounds_completed_,
              "one die lost per completed round");
  const int in_play = SeatsInPlay();
  const bool limit_hit = settings_.max_rounds > 0 && rounds_completed_ >= settings_.max_rounds;
  KAHVE_CHECK(over() == (in_play == 1 || limit_hit), "over iff one seat left or round limit");
  KAHVE_CHECK(bidding_.dice_on_table == on_table, "dice on table");
  if (over()) return;
  KAHVE_CHECK(dice_count_[to_act_] > 0, "the seat to act has dice");
  KAHVE_CHECK(rounds_completed_ + 1 == round_, "one round in progress");
  BiddingState replay{
      .current = Bid{}, .putana_round = bidding_.putana_round, .dice_on_table = on_table};
  for (const PlacedBid& placed : bids_) {
    KAHVE_CHECK(CheckBid(replay, placed.bid) == Reason::kNone,
                "every bid of the round beat the last");
    replay.current = placed.bid;
  }
  KAHVE_CHECK(replay.current == bidding_.current, "current bid is the last placed");
  KAHVE_CHECK(bids_.empty() ? bidder_ == -1 : bidder_ == bids_.back().seat, "bidder");
  KAHVE_CHECK(!bidding_.may_declare_putana || (bids_.empty() && to_act_ == putana_candidate_ &&
                                               dice_count_[to_act_] == 1 && !putana_used_[to_act_]),
              "Путана only for a seat just reduced to one die, before the first bid");
}

bool State::operator==(const State& other) const {
  auto bids_equal = [](const std::vector<PlacedBid>& a, const std::vector<PlacedBid>& b) {
    return std::equal(
        a.begin(), a.end(), b.begin(), b.end(),
        [](const PlacedBid& x, const PlacedBid& y) { return x.seat == y.seat && x.bid == y.bid; });
  };
  return settings_.players == other.settings_.players &&
         settings_.dice_per_player == other.settings_.dice_per_player &&
         settings_.max_rounds == other.settings_.max_rounds && rng_ == other.rng_ &&
         preset_rolls_ == other.preset_rolls_ && round_ == other.round_ &&
         rounds_completed_ == other.rounds_completed_ && to_act_ == other.to_act_ &&
         starter_ == other.starter_ && bidder_ == other.bidder_ &&
         putana_candidate_ == other.putana_candidate_ &&
         bidding_.current == other.bidding_.current &&
         bidding_.putana_round == other.bidding_.putana_round &&
         bidding_.dice_on_table == other.bidding_.dice_on_table &&
         bidding_.may_declare_putana == other.bidding_.may_declare_putana &&
         bids_equal(bids_, other.bids_) && dice_ == other.dice_ &&
         dice_count_ == other.dice_count_ && face_counts_ == other.face_counts_ &&
         putana_used_ == other.putana_used_ && elimination_rank_ == other.elimination_rank_ &&
         reveal_ == other.reveal_;
}

}  // namespace kahve::engine::liars_dice
