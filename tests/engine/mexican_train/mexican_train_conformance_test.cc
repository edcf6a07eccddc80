// Mexican Train through the conformance kit: seeded matches of uniformly random legal moves,
// checking after every move that all 91 tiles are accounted for (CheckInvariants), a rejected
// move changes nothing, replay reproduces the state, and every match of 13 rounds ends. Random
// moves: plays of any tile on any train (most of them refused), draws, passes, first turns
// ended, and malformed moves.

#include <string>

#include "engine/core/rng.h"
#include "gtest/gtest.h"
#include "kahve/v1/engine.pb.h"
#include "tests/engine/ruleset_conformance.h"

namespace kahve::engine {
namespace {

v1::Move RandomMove(Rng& rng) {
  v1::Move move;
  v1::MexicanTrainMove* train = move.mutable_mexican_train();
  switch (rng.Below(7)) {
    case 0:
      train->mutable_draw();
      break;
    case 1:
      train->mutable_pass();
      break;
    case 2:
      train->mutable_end_first_turn();
      break;
    case 3: {
      static const char* const kOdd[] = {"13-1", "x", "", "3-", "07-1", "12-12"};
      train->mutable_play()->set_tile(kOdd[rng.Below(6)]);
      train->mutable_play()->set_train(static_cast<int>(rng.Below(6)) - 1);
      break;
    }
    case 4:
      return v1::Move();
    default:
      train->mutable_play()->set_tile(std::to_string(rng.Below(13)) + "-" +
                                      std::to_string(rng.Below(13)));
      train->mutable_play()->set_train(static_cast<int>(rng.Below(7)) - 2);
  }
  return move;
}

testing::ConformanceOptions Options(int players, int games) {
  testing::ConformanceOptions options;
  options.settings.mutable_mexican_train()->set_players(players);
  options.games = games;
  options.seed = static_cast<uint64_t>(players);
  options.random_move = RandomMove;
  return options;
}

TEST(MexicanTrainConformanceTest, FourPlayers) { testing::RunConformance(Options(4, 60)); }
TEST(MexicanTrainConformanceTest, TwoPlayers) { testing::RunConformance(Options(2, 60)); }
TEST(MexicanTrainConformanceTest, TenPlayers) { testing::RunConformance(Options(10, 30)); }

}  // namespace
}  // namespace kahve::engine
