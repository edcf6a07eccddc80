#ifndef KAHVE_SERVICES_MATCHMAKING_MM_METRICS_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_METRICS_H_

// Every metric family of the matchmaking service, declared in one place.

#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace kahve::matchmaking {

struct MatchmakingMetrics {
  explicit MatchmakingMetrics(prometheus::Registry& registry);
  // kahve_matchmaking_tickets{queue,state}: active tickets (waiting, placing) of the queues this
  // replica processes.
  prometheus::Family<prometheus::Gauge>& tickets;
  // kahve_matchmaking_wait_seconds: enqueue to assignment, per ticket.
  prometheus::Histogram& wait_seconds;
  // kahve_matches_formed_total{queue}
  prometheus::Family<prometheus::Counter>& formed;
  // kahve_match_rating_spread: highest minus lowest display rating of a formed match.
  prometheus::Histogram& rating_spread;
  // kahve_matchmaking_pass_seconds: one queue's pass (matching, recording, placing).
  prometheus::Histogram& pass_seconds;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_METRICS_H_
