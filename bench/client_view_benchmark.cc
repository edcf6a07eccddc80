// What a with_view stream (docs/api.md section 7) costs the table per update and recipient: the
// seat's view with its legal moves, against the view alone (the baseline, measured in the same
// run), for every ruleset, over states met in bot games. Run with --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true for medians; the ratio of the two is the figure.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/core/registry.h"

namespace kahve::engine {
namespace {

// States of one ruleset's games with the seat to act in each: heuristic bots play seeded games,
// and every position is kept.
struct Position {
  std::unique_ptr<Game> game;
  int seat = 0;
};

v1::GameSettings SettingsOf(const std::string& ruleset) {
  v1::GameSettings settings;
  const Ruleset* found = FindRuleset(ruleset).value();
  settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(found->settings_case));
  return settings;
}

std::vector<Position> PositionsOf(const std::string& ruleset, int wanted) {
  std::vector<Position> positions;
  for (uint64_t seed = 1; static_cast<int>(positions.size()) < wanted; ++seed) {
    v1::Deal deal;
    deal.set_seed(seed);
    std::unique_ptr<Game> game = NewGame(SettingsOf(ruleset), deal).value();
    for (int move = 0; !game->IsOver() && static_cast<int>(positions.size()) < wanted; ++move) {
      const int seat = game->SeatsToAct().front();
      positions.push_back(Position{game->Clone(), seat});
      const v1::Move chosen = game->BotMove(seat, "heuristic", seed * 1000 + move).value();
      if (!game->Apply(seat, chosen).accepted) break;
    }
  }
  return positions;
}

void ViewOnly(benchmark::State& bench, const std::string& ruleset) {
  const std::vector<Position> positions = PositionsOf(ruleset, 500);
  size_t next = 0;
  for (auto _ : bench) {
    const Position& at = positions[next++ % positions.size()];
    benchmark::DoNotOptimize(at.game->View(at.seat));
  }
  bench.SetItemsProcessed(bench.iterations());
}

void ViewWithLegalMoves(benchmark::State& bench, const std::string& ruleset) {
  const std::vector<Position> positions = PositionsOf(ruleset, 500);
  size_t next = 0;
  int64_t moves = 0;
  for (auto _ : bench) {
    const Position& at = positions[next++ % positions.size()];
    benchmark::DoNotOptimize(at.game->View(at.seat));
    const std::vector<v1::Move> legal = at.game->LegalMoves(at.seat);
    moves += static_cast<int64_t>(legal.size());
    benchmark::DoNotOptimize(legal);
  }
  bench.SetItemsProcessed(bench.iterations());
  bench.counters["legal_moves"] =
      static_cast<double>(moves) / static_cast<double>(bench.iterations());
}

void Register() {
  for (const Ruleset& ruleset : Rulesets()) {
    const std::string id(ruleset.id);
    benchmark::RegisterBenchmark(("BM_BaselineViewOnly/" + id).c_str(), ViewOnly, id);
    benchmark::RegisterBenchmark(("BM_ViewWithLegalMoves/" + id).c_str(), ViewWithLegalMoves,
                                 id);
  }
}

}  // namespace
}  // namespace kahve::engine

int main(int argc, char** argv) {
  kahve::engine::Register();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
