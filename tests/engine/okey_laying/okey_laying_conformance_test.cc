// okey51 and okey101 through the conformance kit: seeded games of uniformly random listed moves,
// checking after every move that all 106 tiles are accounted for (CheckInvariants), a rejected move
// changes nothing, replay reproduces the state, and every game ends.

#include "engine/core/rng.h"
#include "gtest/gtest.h"
#include "kahve/v1/engine.pb.h"
#include "tests/engine/okey/okey_test_deals.h"
#include "tests/engine/okey_laying/laying_rulesets.h"
#include "tests/engine/ruleset_conformance.h"

namespace kahve::engine {
namespace {

const char* const kNames[] = {"R1",  "R7", "R13", "B2", "B9", "K5",
                              "K12", "Y3", "Y11", "F",  "Q4", ""};

std::string RandomName(Rng& rng) { return testing::RandomTileName(rng, kNames); }

// Moves whose legality LegalMoves decides exactly (draws, discards, additions, a take with an
// addition), plus malformed ones: unknown names, missing parts, lays of random tiles.
v1::Move RandomMove(const testing::LayingRuleset& ruleset, Rng& rng) {
  v1::Move move;
  v1::OkeyLayingMove* okey = ruleset.Move(move);
  auto addition = [&](v1::OkeyAddition* add) {
    add->set_tile(RandomName(rng));
    add->set_meld(static_cast<int>(rng.Below(8)) - 1);
    add->set_place(static_cast<v1::OkeyPlace>(rng.Below(5)));
  };
  switch (rng.Below(9)) {
    case 0:
      okey->mutable_draw();
      break;
    case 1:
    case 2:
      okey->mutable_discard()->set_tile(RandomName(rng));
      break;
    case 3:
      addition(okey->mutable_add_tile());
      break;
    case 4:
      addition(okey->mutable_take_discard()->mutable_add_tile());
      break;
    case 5:
      okey->mutable_take_discard();
      break;
    case 6: {
      // Too few tiles for any meld or opening: always refused, whatever the hand.
      v1::OkeyMeld* meld = okey->mutable_lay_melds()->add_melds();
      for (int i = 0; i < 2; ++i) meld->add_tiles()->set_tile(RandomName(rng));
      break;
    }
    case 7:
      okey->mutable_lay_pairs();
      break;
    default:
      return v1::Move();
  }
  return move;
}

testing::ConformanceOptions Options(const testing::LayingRuleset& ruleset, int games,
                                    uint64_t seed) {
  testing::ConformanceOptions options;
  options.games = games;
  options.seed = seed;
  options.random_move = [ruleset](Rng& rng) { return RandomMove(ruleset, rng); };
  return options;
}

TEST(Okey51ConformanceTest, SoloOneDeal) {
  testing::ConformanceOptions options = Options(testing::kOkey51, 1000, 51);
  options.settings.mutable_okey51();
  testing::RunConformance(options);
}

TEST(Okey51ConformanceTest, TeamsDoublingThreeDeals) {
  testing::ConformanceOptions options = Options(testing::kOkey51, 300, 52);
  v1::Okey51Settings* settings = options.settings.mutable_okey51();
  settings->set_teams(true);
  settings->set_doubling(true);
  settings->set_deals(3);
  settings->set_first_starter(2);
  testing::RunConformance(options);
}

// okey101's games are five deals of 22 and 21 tiles by default: fewer of them cover as many moves.
TEST(Okey101ConformanceTest, SoloFiveDeals) {
  testing::ConformanceOptions options = Options(testing::kOkey101, 500, 101);
  options.settings.mutable_okey101();
  testing::RunConformance(options);
}

TEST(Okey101ConformanceTest, TeamsThreeDeals) {
  testing::ConformanceOptions options = Options(testing::kOkey101, 500, 102);
  v1::Okey101Settings* settings = options.settings.mutable_okey101();
  settings->set_teams(true);
  settings->set_deals(3);
  settings->set_first_dealer(3);
  testing::RunConformance(options);
}

}  // namespace
}  // namespace kahve::engine
