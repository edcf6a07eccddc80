#include "engine/liars_dice/liars_dice_game.h"
#include "gtest/gtest.h"
#include "tests/engine/ruleset_conformance.h"

namespace kahve::engine::liars_dice {
namespace {

// Bids across and beyond every range, challenges, declarations and malformed moves.
v1::Move RandomMove(Rng& rng) {
  switch (rng.Below(8)) {
    case 0:
      return ChallengeMove();
    case 1:
      return DeclarePutanaMove();
    case 2: {
      v1::Move empty_action;
      empty_action.mutable_liars_dice();
      return empty_action;
    }
    case 3:
      return v1::Move();
    default:
      return BidMove(static_cast<int>(rng.Below(56)) - 2, static_cast<int>(rng.Below(10)) - 1);
  }
}

testing::ConformanceOptions Options(int players, int dice, int games) {
  testing::ConformanceOptions options;
  options.settings.mutable_liars_dice()->set_players(players);
  options.settings.mutable_liars_dice()->set_dice_per_player(dice);
  options.games = games;
  options.seed = static_cast<uint64_t>(players * 100 + dice);
  options.random_move = RandomMove;
  return options;
}

TEST(LiarsDiceConformanceTest, FourPlayersFiveDice) { testing::RunConformance(Options(4, 5, 600)); }
TEST(LiarsDiceConformanceTest, TwoPlayersOneDie) { testing::RunConformance(Options(2, 1, 1500)); }
TEST(LiarsDiceConformanceTest, TwoPlayersFiveDice) { testing::RunConformance(Options(2, 5, 1000)); }
TEST(LiarsDiceConformanceTest, ThreePlayersTwoDice) {
  testing::RunConformance(Options(3, 2, 1500));
}
TEST(LiarsDiceConformanceTest, TenPlayersFiveDice) { testing::RunConformance(Options(10, 5, 40)); }

TEST(LiarsDiceConformanceTest, RoundLimit) {
  testing::ConformanceOptions options = Options(5, 3, 500);
  options.settings.mutable_liars_dice()->set_max_rounds(3);
  testing::RunConformance(options);
}

}  // namespace
}  // namespace kahve::engine::liars_dice
