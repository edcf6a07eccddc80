#include "services/matchmaking/mm_metrics.h"

#include "services/common/metrics.h"

namespace kahve::matchmaking {

MatchmakingMetrics::MatchmakingMetrics(prometheus::Registry& registry)
    : tickets(prometheus::BuildGauge()
                  .Name("kahve_matchmaking_tickets")
                  .Help("Active tickets by queue and state (waiting, placing), as last seen by "
                        "the replica processing the queue.")
                  .Register(registry)),
      wait_seconds(prometheus::BuildHistogram()
                       .Name("kahve_matchmaking_wait_seconds")
                       .Help("Time from enqueue to assignment of matched tickets, in seconds.")
                       .Register(registry)
                       .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 5, 10, 20, 30, 45, 60,
                                                                        90, 120, 180, 300, 600})),
      formed(prometheus::BuildCounter()
                 .Name("kahve_matches_formed_total")
                 .Help("Matches formed, by queue.")
                 .Register(registry)),
      rating_spread(prometheus::BuildHistogram()
                        .Name("kahve_match_rating_spread")
                        .Help("Highest minus lowest display rating among a formed match's "
                              "tickets.")
                        .Register(registry)
                        .Add({}, prometheus::Histogram::BucketBoundaries{0.5, 1, 2, 3, 5, 8, 12, 20,
                                                                         30, 40, 60})),
      pass_seconds(prometheus::BuildHistogram()
                       .Name("kahve_matchmaking_pass_seconds")
                       .Help("Time of one queue's pass (read, match, record, place), in seconds.")
                       .Register(registry)
                       .Add({}, common::LatencyBuckets())) {}

}  // namespace kahve::matchmaking
