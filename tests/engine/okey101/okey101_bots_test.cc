// okey101's bots on the laying core: every action they choose is one State::Check accepts
// (PlayOut aborts otherwise), every game ends, and the heuristic plays far better than chance.

#include <array>

#include "engine/core/simulation.h"
#include "engine/okey101/okey101.h"
#include "engine/okey_laying/okey_laying_sim.h"
#include "gtest/gtest.h"

namespace kahve::engine::okey101 {
namespace {

using okey_laying::BotKind;
using okey_laying::DealRecord;
using okey_laying::State;

struct Tally {
  int games = 0;
  int first_wins = 0;  // seat 0 ranked first
  int deals = 0;
  int finished_deals = 0;
};

Tally PlayGames(const Settings& settings, const std::array<BotKind, kPlayers>& bots, int games,
                uint64_t seed) {
  Tally tally;
  State state(RulesFor(settings), GameSeed(seed, 0));
  for (int game = 0; game < games; ++game) {
    const uint64_t game_seed = GameSeed(seed, game);
    state.Reset(game_seed);
    Rng bot_rng(BotSeed(game_seed));
    okey_laying::PlayOut(state, bots.data(), bot_rng, /*checked=*/true);
    state.CheckInvariants();
    EXPECT_TRUE(state.over());
    EXPECT_EQ(static_cast<int>(state.records().size()), settings.deals);
    ++tally.games;
    if (state.Ranks()[0] == 1) ++tally.first_wins;
    for (const DealRecord& record : state.records()) {
      ++tally.deals;
      if (record.finisher >= 0) ++tally.finished_deals;
    }
  }
  return tally;
}

TEST(Okey101BotsTest, TheHeuristicWinsMostGamesAgainstThreeRandomBots) {
  const Tally tally = PlayGames(
      Settings{}, {BotKind::kHeuristic, BotKind::kRandom, BotKind::kRandom, BotKind::kRandom}, 200,
      101);
  RecordProperty("heuristic_wins", tally.first_wins);
  // Chance would give a quarter; 80% is far above it and far below the measured 94%.
  EXPECT_GE(tally.first_wins * 100, 80 * tally.games) << tally.first_wins << " of " << tally.games;
}

TEST(Okey101BotsTest, FourHeuristicBotsFinishMostDeals) {
  const Tally tally = PlayGames(
      Settings{},
      {BotKind::kHeuristic, BotKind::kHeuristic, BotKind::kHeuristic, BotKind::kHeuristic}, 200,
      102);
  RecordProperty("finished_deals", tally.finished_deals);
  // okey101's deck holds 20 tiles, five draws a seat, and an opening needs 101: a third of the
  // seats never open and many deals run the deck out. Measured: 59% of deals end with a finish
  // (okey51's 80% is a figure of its own 15-tile game). More than half is this test's bar.
  EXPECT_GE(tally.finished_deals * 100, 50 * tally.deals)
      << tally.finished_deals << " of " << tally.deals;
}

TEST(Okey101BotsTest, BotsPlayLegallyUnderEverySetting) {
  const Settings settings{.teams = true, .hints = true, .deals = 11, .first_dealer = 3};
  PlayGames(settings,
            {BotKind::kHeuristic, BotKind::kRandom, BotKind::kRandom, BotKind::kHeuristic}, 100,
            103);
}

}  // namespace
}  // namespace kahve::engine::okey101
