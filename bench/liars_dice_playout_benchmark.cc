// Random playouts of Liar's dice on the engine's fast path, against a baseline measured in the same
// run. Run with --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians.
//
// Counters: playouts/s (items_per_second) and moves per playout, so a speed-up that changes what is
// played shows up as a changed move count (Stockfish's bench signature).

#include <memory>

#include "benchmark/benchmark.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/liars_dice/liars_dice.h"
#include "engine/liars_dice/liars_dice_game.h"
#include "engine/liars_dice/liars_dice_sim.h"

namespace kahve::engine::liars_dice {
namespace {

void Playouts(benchmark::State& bench, const Settings& settings, BotKind bot) {
  State state(settings, 0);
  const BotKind bots[kMaxPlayers] = {bot, bot, bot, bot, bot, bot, bot, bot, bot, bot};
  // The signature: moves over a fixed set of 1,000 seeds, untimed. It changes only if what is
  // played changes, whatever the speed.
  int64_t signature = 0;
  for (uint64_t fixed = 1; fixed <= 1000; ++fixed) {
    state.Reset(fixed);
    Rng bot_rng(BotSeed(fixed));
    signature += PlayOut(state, bots, bot_rng);
  }
  bench.counters["signature_moves"] = static_cast<double>(signature);
  uint64_t seed = 1;
  int64_t moves = 0;
  for (auto _ : bench) {
    state.Reset(seed);
    Rng bot_rng(BotSeed(seed));
    ++seed;
    moves += PlayOut(state, bots, bot_rng);
  }
  bench.SetItemsProcessed(bench.iterations());
  bench.counters["moves_per_playout"] =
      static_cast<double>(moves) / static_cast<double>(bench.iterations());
}

// Issue 2's figure: single-round (until the first challenge) 2-player, 5-dice random playouts,
// the same work as `kahve sim --rounds 1 --players 2 --dice 5 --bots random,random`.
void BM_SingleRound2p5dRandom(benchmark::State& bench) {
  Playouts(bench, {.players = 2, .dice_per_player = 5, .max_rounds = 1}, BotKind::kRandom);
}
BENCHMARK(BM_SingleRound2p5dRandom);

void BM_FullGame4p5dRandom(benchmark::State& bench) {
  Playouts(bench, {.players = 4, .dice_per_player = 5}, BotKind::kRandom);
}
BENCHMARK(BM_FullGame4p5dRandom);

void BM_FullGame4p5dHeuristic(benchmark::State& bench) {
  Playouts(bench, {.players = 4, .dice_per_player = 5}, BotKind::kHeuristic);
}
BENCHMARK(BM_FullGame4p5dHeuristic);

// Baseline: the chance work alone of a 2-player, 5-dice round (seed the generator, draw the first
// bidder, roll ten dice). The playout's ratio to this is the engine's own overhead.
void BM_BaselineRollTenDice(benchmark::State& bench) {
  uint64_t seed = 1;
  for (auto _ : bench) {
    Rng rng(seed++);
    int sum = static_cast<int>(rng.Below(2));
    for (int die = 0; die < 10; ++die) sum += rng.RollDie();
    benchmark::DoNotOptimize(sum);
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_BaselineRollTenDice);

// The same single-round playouts through the kahve.v1 edge (what the table service pays per move).
void BM_SingleRound2p5dThroughProtoEdge(benchmark::State& bench) {
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(2);
  settings.mutable_liars_dice()->set_max_rounds(1);
  uint64_t seed = 1;
  for (auto _ : bench) {
    v1::Deal deal;
    deal.set_seed(seed);
    std::unique_ptr<Game> game = std::move(engine::NewGame(settings, deal)).value();
    Rng rng(seed++);
    while (!game->IsOver()) {
      const int seat = game->SeatsToAct()[0];
      const std::vector<v1::Move> legal = game->LegalMoves(seat);
      game->Apply(seat, legal[rng.Below(legal.size())]);
    }
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_SingleRound2p5dThroughProtoEdge);

}  // namespace
}  // namespace kahve::engine::liars_dice

BENCHMARK_MAIN();
