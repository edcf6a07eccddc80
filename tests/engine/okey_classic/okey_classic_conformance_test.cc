// Classic okey through the conformance kit: seeded games of uniformly random legal moves, checking
// after every move that all 106 tiles are accounted for, a rejected move changes nothing, replay
// reproduces the state and every game ends (a deal limit keeps random games finite: random play
// rarely wins, and a deal the deck ends scores nothing).

#include "engine/core/rng.h"
#include "gtest/gtest.h"
#include "kahve/v1/engine.pb.h"
#include "tests/engine/okey/okey_test_deals.h"
#include "tests/engine/ruleset_conformance.h"

namespace kahve::engine {
namespace {

const char* const kOdd[] = {"F", "Q4", "R14", "", "K2", "R1"};

std::string RandomName(Rng& rng) { return testing::RandomTileName(rng, kOdd); }

// Moves whose legality LegalMoves decides exactly (wins name no groups), and malformed ones.
v1::Move RandomMove(Rng& rng) {
  v1::Move move;
  v1::OkeyMove* okey = move.mutable_okey();
  auto win = [&](v1::OkeyWin* claim) {
    claim->set_discard(RandomName(rng));
    claim->set_seven_pairs(rng.Below(2) == 0);
  };
  switch (rng.Below(8)) {
    case 0:
      okey->mutable_draw();
      break;
    case 1:
    case 2:
      okey->mutable_discard()->set_tile(RandomName(rng));
      break;
    case 3:
      okey->mutable_take_discard();
      break;
    case 4:
      win(okey->mutable_take_discard()->mutable_win());
      break;
    case 5:
      win(okey->mutable_win());
      break;
    case 6:
      okey->mutable_show_indicator();
      break;
    default:
      return v1::Move();
  }
  return move;
}

testing::ConformanceOptions Options(int games, uint64_t seed) {
  testing::ConformanceOptions options;
  options.games = games;
  options.seed = seed;
  options.random_move = RandomMove;
  return options;
}

TEST(OkeyConformanceTest, FourPlayers) {
  testing::ConformanceOptions options = Options(60, 61);
  options.settings.mutable_okey()->set_max_deals(3);
  testing::RunConformance(options);
}

TEST(OkeyConformanceTest, TwoPlayersIndicatorLastTile) {
  testing::ConformanceOptions options = Options(30, 62);
  v1::OkeySettings* settings = options.settings.mutable_okey();
  settings->set_players(2);
  settings->set_first_starter(1);
  settings->set_indicator_last_tile(true);
  settings->set_max_deals(3);
  testing::RunConformance(options);
}

TEST(OkeyConformanceTest, PartnersSingleColour) {
  testing::ConformanceOptions options = Options(40, 63);
  v1::OkeySettings* settings = options.settings.mutable_okey();
  settings->set_partners(true);
  settings->set_single_colour_doubles(true);
  settings->set_max_deals(3);
  testing::RunConformance(options);
}

TEST(OkeyConformanceTest, ThreePlayersElimination) {
  testing::ConformanceOptions options = Options(40, 64);
  v1::OkeySettings* settings = options.settings.mutable_okey();
  settings->set_players(3);
  settings->set_elimination(true);
  settings->set_max_deals(3);
  testing::RunConformance(options);
}

}  // namespace
}  // namespace kahve::engine
