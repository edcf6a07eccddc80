// One matching pass over a queue of waiting tickets (issue figure: 100,000 tickets under 100 ms on
// one core). Ratings normal around 20 (sd 8), waits up to two minutes, a fifth of tickets parties
// of two, a tenth provisional. Baseline in the same run: sorting the same tickets by rating, the
// least any rating-ordered pass must do.

#include <algorithm>
#include <random>

#include "benchmark/benchmark.h"
#include "services/matchmaking/matcher.h"

namespace {

using kahve::matchmaking::QueueRules;
using kahve::matchmaking::WaitingTicket;

const absl::Time kNow = absl::FromUnixSeconds(1'700'000'000);

std::vector<WaitingTicket> Queue(int n) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> rating(20, 8);
  std::uniform_int_distribution<int> waited_ms(0, 120'000);
  std::bernoulli_distribution party(0.2), provisional(0.1);
  std::vector<WaitingTicket> tickets(n);
  for (WaitingTicket& ticket : tickets) {
    ticket.rating = rating(random);
    ticket.enqueued = kNow - absl::Milliseconds(waited_ms(random));
    ticket.party_size = party(random) ? 2 : 1;
    ticket.provisional = provisional(random);
  }
  return tickets;
}

void BM_MatchPass(benchmark::State& state) {
  const std::vector<WaitingTicket> tickets = Queue(static_cast<int>(state.range(0)));
  QueueRules rules;
  rules.teams = state.range(1) == 1;
  size_t matches = 0;
  for (auto _ : state) {
    matches = kahve::matchmaking::MatchPass(tickets, rules, kNow).size();
    benchmark::DoNotOptimize(matches);
  }
  state.counters["matches"] = static_cast<double>(matches);
  state.counters["tickets_per_second"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MatchPass)->Args({100'000, 0})->Args({100'000, 1})->Unit(benchmark::kMillisecond);

void BM_SortByRatingBaseline(benchmark::State& state) {
  const std::vector<WaitingTicket> tickets = Queue(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::vector<int> order(tickets.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return tickets[a].rating < tickets[b].rating; });
    benchmark::DoNotOptimize(order.data());
  }
}
BENCHMARK(BM_SortByRatingBaseline)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
