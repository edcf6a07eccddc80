// Hidden information never leaks (after OpenSpiel's ResampleInfostateTest): two games that differ
// only in what a seat cannot see, the other seats' dice, must look byte-identical to that seat, in
// views, events, rejections and bot choices, until a challenge reveals the dice.

#include <memory>
#include <vector>

#include "engine/core/registry.h"
#include "engine/liars_dice/liars_dice_game.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace kahve::engine::liars_dice {
namespace {

using google::protobuf::util::MessageDifferencer;

constexpr int kPlayers = 4;
constexpr int kDice = 3;
constexpr int kRounds = kPlayers * kDice;

v1::LiarsDicePreset RandomPreset(Rng& rng, int first_bidder) {
  v1::LiarsDicePreset preset;
  preset.set_first_bidder(first_bidder);
  for (int round = 0; round < kRounds; ++round) {
    v1::LiarsDiceRoll* roll = preset.add_rolls();
    for (int seat = 0; seat < kPlayers; ++seat) {
      auto* dice = roll->add_seats();
      for (int i = 0; i < kDice; ++i) dice->add_dice(rng.RollDie());
    }
  }
  return preset;
}

// The same preset with every seat but `viewer` rerolled from round `from_round` (1-based) on.
v1::LiarsDicePreset Resampled(v1::LiarsDicePreset preset, int viewer, int from_round, Rng& rng) {
  for (int round = from_round - 1; round < kRounds; ++round) {
    for (int seat = 0; seat < kPlayers; ++seat) {
      if (seat == viewer) continue;
      auto* dice = preset.mutable_rolls(round)->mutable_seats(seat);
      for (int i = 0; i < kDice; ++i) dice->set_dice(i, rng.RollDie());
    }
  }
  return preset;
}

std::unique_ptr<Game> Start(uint64_t seed, const v1::LiarsDicePreset& preset) {
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(kPlayers);
  settings.mutable_liars_dice()->set_dice_per_player(kDice);
  v1::Deal deal;
  deal.set_seed(seed);
  *deal.mutable_liars_dice() = preset;
  return std::move(NewGame(settings, deal)).value();
}

void ExpectSameEvents(const std::vector<v1::Event>& a, const std::vector<v1::Event>& b,
                      int viewer) {
  const std::vector<v1::Event> seen_a = VisibleTo(a, viewer);
  const std::vector<v1::Event> seen_b = VisibleTo(b, viewer);
  ASSERT_EQ(seen_a.size(), seen_b.size());
  for (size_t i = 0; i < seen_a.size(); ++i) {
    ASSERT_TRUE(MessageDifferencer::Equals(seen_a[i], seen_b[i]))
        << seen_a[i].DebugString() << " vs " << seen_b[i].DebugString();
  }
}

v1::Move Probe(Rng& rng) {
  switch (rng.Below(4)) {
    case 0:
      return ChallengeMove();
    case 1:
      return DeclarePutanaMove();
    default:
      return BidMove(static_cast<int>(rng.Below(16)) - 1, static_cast<int>(rng.Below(8)));
  }
}

// Plays both games with the same moves until round `round`'s challenge, comparing what `viewer`
// (a seat, or kSpectator) sees.
void CompareUntilReveal(Game& a, Game& b, int viewer, int round, Rng& rng) {
  ExpectSameEvents(a.deal_events(), b.deal_events(), viewer);
  while (!a.IsOver()) {
    ASSERT_TRUE(MessageDifferencer::Equals(a.View(viewer), b.View(viewer)));
    const int seat = a.SeatsToAct()[0];
    ASSERT_EQ(a.SeatsToAct(), b.SeatsToAct());
    if (seat == viewer) {
      const auto bot_a = a.BotMove(seat, "heuristic", 9);
      const auto bot_b = b.BotMove(seat, "heuristic", 9);
      ASSERT_TRUE(MessageDifferencer::Equals(*bot_a, *bot_b)) << "the bot sees only its view";
    }
    // Any seat's probe gets the same answer: legality depends only on public facts.
    const int prober = static_cast<int>(rng.Below(kPlayers));
    const v1::Move probe = Probe(rng);
    const MoveOutcome probe_a = a.DryRun(prober, probe);
    const MoveOutcome probe_b = b.DryRun(prober, probe);
    ASSERT_EQ(probe_a.accepted, probe_b.accepted);
    ASSERT_TRUE(MessageDifferencer::Equals(probe_a.rejection, probe_b.rejection));

    const std::vector<v1::Move> legal = a.LegalMoves(seat);
    ASSERT_EQ(legal.size(), b.LegalMoves(seat).size());
    const v1::Move move = legal[rng.Below(legal.size())];
    const bool reveals =
        move.liars_dice().has_challenge() && a.View(kSpectator).liars_dice().round() == round;
    const MoveOutcome out_a = a.Apply(seat, move);
    const MoveOutcome out_b = b.Apply(seat, move);
    ASSERT_TRUE(out_a.accepted && out_b.accepted);
    if (reveals) return;  // from here on the rules show the dice
    ExpectSameEvents(out_a.events, out_b.events, viewer);
  }
}

TEST(LiarsDiceLeakTest, SeatsAndSpectatorsSeeNothingHiddenBeforeTheReveal) {
  Rng rng(20261129);
  for (int trial = 0; trial < 400; ++trial) {
    const int viewer = static_cast<int>(rng.Below(kPlayers + 1)) - 1;  // -1: spectator
    const int round = 1 + static_cast<int>(rng.Below(4));
    const v1::LiarsDicePreset base = RandomPreset(rng, static_cast<int>(rng.Below(kPlayers)));
    const v1::LiarsDicePreset other = Resampled(base, viewer, round, rng);
    std::unique_ptr<Game> a = Start(trial, base);
    std::unique_ptr<Game> b = Start(trial, other);
    SCOPED_TRACE(::testing::Message()
                 << "trial " << trial << " viewer " << viewer << " round " << round);
    CompareUntilReveal(*a, *b, viewer, round, rng);
    if (HasFatalFailure()) return;
  }
}

// The check above must be able to fail: a viewer that could see another seat's roll would differ.
TEST(LiarsDiceLeakTest, DifferentDiceAreVisibleToTheirOwner) {
  Rng rng(5);
  const v1::LiarsDicePreset base = RandomPreset(rng, 0);
  v1::LiarsDicePreset other = base;
  auto* seat_one = other.mutable_rolls(0)->mutable_seats(1);
  seat_one->set_dice(0, seat_one->dice(0) % 6 + 1);
  std::unique_ptr<Game> a = Start(1, base);
  std::unique_ptr<Game> b = Start(1, other);
  EXPECT_FALSE(MessageDifferencer::Equals(a->View(1), b->View(1)));
  EXPECT_TRUE(MessageDifferencer::Equals(a->View(0), b->View(0)));
  EXPECT_TRUE(MessageDifferencer::Equals(a->View(kSpectator), b->View(kSpectator)));
}

}  // namespace
}  // namespace kahve::engine::liars_dice
