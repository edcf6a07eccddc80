// `kahve demo` plays every ruleset of the engine, each with a client that chooses from its own
// seat's view: every ruleset has such a client, and its choices are legal moves to the game's end.

#include "tools/kahve/demo_clients.h"

#include <set>
#include <string>

#include "engine/core/registry.h"
#include "gtest/gtest.h"

namespace kahve::tools {
namespace {

TEST(DemoClientsTest, EveryRulesetOfTheEngineHasExactlyOne) {
  std::multiset<std::string> demo;
  for (const DemoClient& client : DemoClients()) demo.insert(std::string(client.ruleset));
  std::multiset<std::string> engine_ids;
  for (const engine::Ruleset& ruleset : engine::Rulesets()) {
    engine_ids.insert(std::string(ruleset.id));
  }
  EXPECT_EQ(demo, engine_ids);
}

TEST(DemoClientsTest, SettingsNameTheirRulesetAndTableSize) {
  for (const DemoClient& client : DemoClients()) {
    SCOPED_TRACE(std::string(client.ruleset));
    auto ruleset = engine::RulesetOf(client.settings);
    ASSERT_TRUE(ruleset.ok()) << ruleset.status();
    EXPECT_EQ((*ruleset)->id, client.ruleset);
    v1::Deal deal;
    deal.set_seed(1);
    auto game = engine::NewGame(client.settings, deal);
    ASSERT_TRUE(game.ok()) << game.status();
    EXPECT_EQ((*game)->num_seats(), client.players);
  }
}

// The client sees only View(seat); the engine, as referee, must accept every move it picks.
TEST(DemoClientsTest, ChoicesFromTheSeatsViewAreLegalUntilTheGameEnds) {
  constexpr int kGames = 200;
  constexpr int kMoveLimit = 100000;
  for (const DemoClient& client : DemoClients()) {
    SCOPED_TRACE(std::string(client.ruleset));
    for (uint64_t seed = 1; seed <= kGames; ++seed) {
      v1::Deal deal;
      deal.set_seed(seed);
      auto game = engine::NewGame(client.settings, deal);
      ASSERT_TRUE(game.ok()) << game.status();
      engine::Rng rng(seed);
      int moves = 0;
      while (!(*game)->IsOver() && moves < kMoveLimit) {
        const int seat = (*game)->SeatsToAct().front();
        const v1::Move move = client.choose((*game)->View(seat), rng);
        const engine::MoveOutcome outcome = (*game)->Apply(seat, move);
        ASSERT_TRUE(outcome.accepted)
            << "game " << seed << " move " << moves << ": " << move.ShortDebugString()
            << " refused: " << outcome.rejection.ShortDebugString();
        ++moves;
      }
      EXPECT_TRUE((*game)->IsOver()) << "game " << seed << " still going after " << moves;
    }
  }
}

}  // namespace
}  // namespace kahve::tools
