// okey51 deals played by bots on the engine's fast path (issue 7's figures: random-play deals at
// least 20,000/s on one core, heuristic-bot deals at least 2,000/s), against a baseline measured in
// the same run: dealing alone (shuffle the 106 tiles and deal the four hands). Run with
// --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians.
//
// Counters: deals/s (items_per_second), moves per deal, and a signature (moves over 1,000 fixed
// seeds, untimed) that changes only when what is played changes.

#include <array>

#include "benchmark/benchmark.h"
#include "engine/core/rng.h"
#include "engine/core/simulation.h"
#include "engine/okey/okey_deal.h"
#include "engine/okey_laying/okey_laying_sim.h"
#include "engine/okey51/okey51.h"

namespace kahve::engine::okey51 {
namespace {

using namespace okey_laying;  // NOLINT: the laying core plays okey51

void Deals(benchmark::State& bench, BotKind bot) {
  const std::array<BotKind, kPlayers> bots = {bot, bot, bot, bot};
  State state(RulesFor(Settings{}), 0);
  int64_t signature = 0;
  for (uint64_t fixed = 1; fixed <= 1000; ++fixed) {
    state.Reset(fixed);
    Rng bot_rng(BotSeed(fixed));
    signature += PlayOut(state, bots.data(), bot_rng);
  }
  bench.counters["signature_moves"] = static_cast<double>(signature);
  uint64_t seed = 1;
  int64_t moves = 0;
  for (auto _ : bench) {
    state.Reset(seed);
    Rng bot_rng(BotSeed(seed));
    ++seed;
    moves += PlayOut(state, bots.data(), bot_rng);
  }
  bench.SetItemsProcessed(bench.iterations());
  bench.counters["moves_per_deal"] =
      static_cast<double>(moves) / static_cast<double>(bench.iterations());
}

void BM_RandomDeals(benchmark::State& bench) { Deals(bench, BotKind::kRandom); }
BENCHMARK(BM_RandomDeals);

void BM_HeuristicDeals(benchmark::State& bench) { Deals(bench, BotKind::kHeuristic); }
BENCHMARK(BM_HeuristicDeals);

// Baseline: the chance work of a deal alone.
void BM_BaselineDealOnly(benchmark::State& bench) {
  uint64_t seed = 1;
  for (auto _ : bench) {
    benchmark::DoNotOptimize(okey::DealTiles(seed++, kPlayers, 0, kStarterTiles));
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_BaselineDealOnly);

}  // namespace
}  // namespace kahve::engine::okey51

BENCHMARK_MAIN();
