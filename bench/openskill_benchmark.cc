// Rating updates of the rating model (services/rating/openskill.h), against a baseline measured in
// the same run. Issue figure: at least 2,000,000 four-player updates per second on one core. Run
// with --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians.
//
// Counters: updates/s (items_per_second) and a signature of the ratings a fixed set of matches
// produces, so a speed-up that changes the numbers shows.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "benchmark/benchmark.h"
#include "services/rating/openskill.h"

namespace kahve::rating {
namespace {

// A power of two, so the timed loop picks a match with a mask. Cycling through many matches keeps
// the branch predictor from learning one rank order.
constexpr int kMatches = 256;
constexpr int kMaxBenchPlayers = 4;

struct Match {
  Rating ratings[kMaxBenchPlayers];
  int team_of[kMaxBenchPlayers];
  double ranks[kMaxBenchPlayers];
  int num_players;
  int num_teams;
};

// splitmix64: our own generator, so the matches (and the signature) are the same everywhere.
class SplitMix {
 public:
  explicit SplitMix(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double Uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(Next() >> 11) * 0x1.0p-53;
  }

 private:
  uint64_t state_;
};

// Random ratings (mu 10..40, sigma 0.5..9) and places 1..num_teams, so about a quarter of the
// 4-team matches hold a tie.
std::vector<Match> FixedMatches(int num_teams, int per_team) {
  SplitMix rng(/*seed=*/2011);
  std::vector<Match> matches(kMatches);
  for (Match& match : matches) {
    match.num_teams = num_teams;
    match.num_players = num_teams * per_team;
    for (int p = 0; p < match.num_players; ++p) {
      match.ratings[p] = Rating{rng.Uniform(10, 40), rng.Uniform(0.5, 9)};
      match.team_of[p] = p / per_team;
    }
    for (int t = 0; t < num_teams; ++t) {
      match.ranks[t] = static_cast<double>(1 + rng.Next() % static_cast<uint64_t>(num_teams));
    }
  }
  return matches;
}

// FNV-1a over every result rounded to 1e-9 (the reference tolerance), reduced to six digits so the
// console shows all of it: rounding-level changes leave it alone, real ones change it.
double Signature(const std::vector<Match>& matches) {
  uint64_t hash = 14695981039346656037ULL;
  for (const Match& match : matches) {
    Rating work[kMaxBenchPlayers];
    std::copy(match.ratings, match.ratings + match.num_players, work);
    if (!RateInPlace(std::span(work, match.num_players),
                     std::span(match.team_of, match.num_players),
                     std::span(match.ranks, match.num_teams))
             .ok()) {
      return -1;
    }
    for (int p = 0; p < match.num_players; ++p) {
      for (const double value : {work[p].mu, work[p].sigma}) {
        hash = (hash ^ static_cast<uint64_t>(std::llround(value * 1e9))) * 1099511628211ULL;
      }
    }
  }
  return static_cast<double>(hash % 1000000);
}

void RateMatches(benchmark::State& bench, int num_teams, int per_team) {
  const std::vector<Match> matches = FixedMatches(num_teams, per_team);
  bench.counters["signature"] = Signature(matches);
  uint32_t i = 0;
  for (auto _ : bench) {
    const Match& match = matches[i++ & (kMatches - 1)];
    // A copy per update, so every iteration rates the same inputs (the baseline pays it too).
    Rating work[kMaxBenchPlayers];
    std::copy(match.ratings, match.ratings + match.num_players, work);
    const absl::Status status =
        RateInPlace(std::span(work, match.num_players), std::span(match.team_of, match.num_players),
                    std::span(match.ranks, match.num_teams));
    if (!status.ok()) bench.SkipWithError("rating failed");
    benchmark::DoNotOptimize(work);
  }
  bench.SetItemsProcessed(bench.iterations());
}

// The figure: four players, each for themselves.
void BM_FreeForAll4(benchmark::State& bench) {
  RateMatches(bench, /*num_teams=*/4, /*per_team=*/1);
}
BENCHMARK(BM_FreeForAll4);

void BM_TwoVsTwo(benchmark::State& bench) { RateMatches(bench, /*num_teams=*/2, /*per_team=*/2); }
BENCHMARK(BM_TwoVsTwo);

// The vector API the service calls: the same math plus building the input and result vectors.
void BM_FreeForAll4RateTeams(benchmark::State& bench) {
  const std::vector<Match> matches = FixedMatches(/*num_teams=*/4, /*per_team=*/1);
  uint32_t i = 0;
  for (auto _ : bench) {
    const Match& match = matches[i++ & (kMatches - 1)];
    const std::vector<std::vector<Rating>> teams = {
        {match.ratings[0]}, {match.ratings[1]}, {match.ratings[2]}, {match.ratings[3]}};
    auto rated = RateTeams(teams, std::span(match.ranks, match.num_teams));
    if (!rated.ok()) bench.SkipWithError("rating failed");
    benchmark::DoNotOptimize(rated);
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_FreeForAll4RateTeams);

// Baseline: pick the match, copy its four ratings and read each one's ordinal, which is the
// memory traffic of an update without the model. The update's ratio to this is the math's cost.
void BM_BaselineCopyAndOrdinals4(benchmark::State& bench) {
  const std::vector<Match> matches = FixedMatches(/*num_teams=*/4, /*per_team=*/1);
  uint32_t i = 0;
  for (auto _ : bench) {
    const Match& match = matches[i++ & (kMatches - 1)];
    Rating work[kMaxBenchPlayers];
    std::copy(match.ratings, match.ratings + match.num_players, work);
    double sum = 0;
    for (int p = 0; p < match.num_players; ++p) sum += Ordinal(work[p]);
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(work);
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_BaselineCopyAndOrdinals4);

}  // namespace
}  // namespace kahve::rating

BENCHMARK_MAIN();
