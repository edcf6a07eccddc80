#ifndef KAHVE_SERVICES_MATCHMAKING_MM_METRICS_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_METRICS_H_

// Every metric family of the matchmaking service, declared in one place.

#include <string>

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
  // kahve_matchmaking_wait_seconds{ruleset,mode}: enqueue to assignment, per ticket; series
  // through WaitSeconds, which gives them their buckets.
  prometheus::Family<prometheus::Histogram>& wait_seconds;
  // kahve_matches_formed_total{queue}
  prometheus::Family<prometheus::Counter>& formed;
  // kahve_match_rating_spread: highest minus lowest display rating of a formed match.
  prometheus::Histogram& rating_spread;
  // kahve_matchmaking_pass_seconds: one queue's pass (matching, recording, placing).
  prometheus::Histogram& pass_seconds;
  // kahve_matchmaking_tickets_ended_total{ruleset,mode,reason}: tickets this replica ended
  // unmatched, reason kExpired or kCancelled.
  prometheus::Family<prometheus::Counter>& tickets_ended;
  // kahve_matchmaking_bot_seats_total{ruleset,mode}: seats bots take in the matches this replica
  // formed.
  prometheus::Family<prometheus::Counter>& bot_seats;

  // The series of the queue with this key: its ruleset and mode as labels (RulesetOfKey,
  // ModeOfKey), never the whole key.
  prometheus::Histogram& WaitSeconds(const std::string& queue_key);
  prometheus::Counter& TicketsEnded(const std::string& queue_key, const std::string& reason);
  prometheus::Counter& BotSeats(const std::string& queue_key);
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_METRICS_H_
