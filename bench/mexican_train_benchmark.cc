// Mexican Train play speed (issue 8's figures): whole 4-player matches of 13 rounds on one core,
// with random bots and with heuristic bots, beside the deal of one round alone as a baseline.

#include <array>

#include "benchmark/benchmark.h"
#include "engine/core/rng.h"
#include "engine/core/simulation.h"
#include "engine/mexican_train/mexican_train_bots.h"

namespace kahve::engine::mexican_train {
namespace {

void Matches(benchmark::State& bench, BotKind bot) {
  uint64_t match = 0;
  int64_t actions = 0;
  for (auto _ : bench) {
    const uint64_t seed = GameSeed(1, match++);
    State state({.players = 4}, seed);
    Rng rng(BotSeed(seed));
    while (!state.over()) {
      state.Apply(ChooseAction(bot, SeatView(state, state.to_act()), rng));
      ++actions;
    }
    benchmark::DoNotOptimize(state.total(0));
  }
  bench.SetItemsProcessed(static_cast<int64_t>(match));
  bench.counters["actions_per_match"] =
      benchmark::Counter(static_cast<double>(actions) / static_cast<double>(match));
}

void BM_RandomMatches(benchmark::State& bench) { Matches(bench, BotKind::kRandom); }
BENCHMARK(BM_RandomMatches)->Unit(benchmark::kMicrosecond);

void BM_HeuristicMatches(benchmark::State& bench) { Matches(bench, BotKind::kHeuristic); }
BENCHMARK(BM_HeuristicMatches)->Unit(benchmark::kMicrosecond);

// Baseline: a new match's first round dealt and its engine found, no play.
void BM_BaselineDealOnly(benchmark::State& bench) {
  uint64_t match = 0;
  for (auto _ : bench) {
    State state({.players = 4}, GameSeed(1, match++));
    benchmark::DoNotOptimize(state.to_act());
  }
  bench.SetItemsProcessed(static_cast<int64_t>(match));
}
BENCHMARK(BM_BaselineDealOnly);

}  // namespace
}  // namespace kahve::engine::mexican_train

BENCHMARK_MAIN();
