// The okey51 bots' figures (issue 7): over 1,000 seeded deals a heuristic bot against three random
// bots finishes at least 60% of them; four heuristic bots end at least 80% with a finish rather
// than an empty deck. Every action is first put to State::Check, so a bot that chose a refused
// action would abort the test.

#include <array>

#include "engine/core/simulation.h"
#include "engine/okey_laying/okey_laying_sim.h"
#include "engine/okey51/okey51.h"
#include "gtest/gtest.h"

namespace kahve::engine::okey51 {
namespace {

using namespace okey_laying;  // NOLINT: the laying core plays okey51

constexpr int kDeals = 1000;

struct Tally {
  std::array<int, kPlayers> finishes{};
  int finished = 0;
  int deals = 0;
};

Tally PlayDeals(const std::array<BotKind, kPlayers>& bots, uint64_t seed) {
  Tally tally;
  State state(RulesFor(Settings{}), GameSeed(seed, 0));
  for (int game = 0; game < kDeals; ++game) {
    const uint64_t game_seed = GameSeed(seed, game);
    state.Reset(game_seed);
    Rng bot_rng(BotSeed(game_seed));
    PlayOut(state, bots.data(), bot_rng, /*checked=*/true);
    state.CheckInvariants();
    const DealRecord& record = state.records().back();
    ++tally.deals;
    if (record.finisher >= 0) {
      ++tally.finished;
      ++tally.finishes[record.finisher];
    }
  }
  return tally;
}

TEST(Okey51BotsTest, HeuristicFinishesMostDealsAgainstThreeRandomBots) {
  const Tally tally =
      PlayDeals({BotKind::kHeuristic, BotKind::kRandom, BotKind::kRandom, BotKind::kRandom}, 51);
  RecordProperty("heuristic_finishes", tally.finishes[0]);
  EXPECT_GE(tally.finishes[0] * 100, 60 * kDeals) << tally.finishes[0] << " of " << kDeals;
}

TEST(Okey51BotsTest, FourHeuristicBotsFinishMostDeals) {
  const Tally tally = PlayDeals(
      {BotKind::kHeuristic, BotKind::kHeuristic, BotKind::kHeuristic, BotKind::kHeuristic}, 52);
  RecordProperty("finished_deals", tally.finished);
  EXPECT_GE(tally.finished * 100, 80 * kDeals) << tally.finished << " of " << kDeals;
}

// Doubling, 2v2 and three deals change what the bots may do; every action they choose is still
// one State::Check accepts (PlayOut aborts otherwise), and every game ends.
TEST(Okey51BotsTest, BotsPlayLegallyUnderEverySetting) {
  const Settings settings{.teams = true, .doubling = true, .deals = 3, .first_starter = 1};
  State state(RulesFor(settings), 1);
  const std::array<BotKind, kPlayers> bots = {BotKind::kHeuristic, BotKind::kRandom,
                                              BotKind::kRandom, BotKind::kHeuristic};
  for (int game = 0; game < 300; ++game) {
    state.Reset(GameSeed(53, game));
    Rng bot_rng(BotSeed(GameSeed(53, game)));
    PlayOut(state, bots.data(), bot_rng, /*checked=*/true);
    state.CheckInvariants();
    ASSERT_TRUE(state.over());
    ASSERT_EQ(state.records().size(), 3u);
    const auto ranks = state.Ranks();
    EXPECT_EQ(ranks[0], ranks[2]) << "partners share their team's rank";
    EXPECT_EQ(ranks[1], ranks[3]);
    // The teams are ranked as teams (the rating service's team mode): 1 and 2, or 1 and 1.
    const int team0 = state.total(0) + state.total(2);
    const int team1 = state.total(1) + state.total(3);
    EXPECT_EQ(ranks[0], team0 <= team1 ? 1 : 2);
    EXPECT_EQ(ranks[1], team1 <= team0 ? 1 : 2);
  }
}

TEST(Okey51BotsTest, ParseBotKind) {
  EXPECT_EQ(*ParseBotKind("random"), BotKind::kRandom);
  EXPECT_EQ(*ParseBotKind("heuristic"), BotKind::kHeuristic);
  EXPECT_EQ(ParseBotKind("smart").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace kahve::engine::okey51
