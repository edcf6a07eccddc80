#include "services/matchmaking/mm_metrics.h"

#include "services/common/metrics.h"
#include "services/matchmaking/queue_spec.h"

namespace kahve::matchmaking {
namespace {

const prometheus::Histogram::BucketBoundaries kWaitBuckets = {1,  2,  5,   10,  20,  30, 45,
                                                              60, 90, 120, 180, 300, 600};

prometheus::Labels QueueLabels(const std::string& queue_key) {
  return {{"ruleset", RulesetOfKey(queue_key)}, {"mode", ModeOfKey(queue_key)}};
}

}  // namespace

MatchmakingMetrics::MatchmakingMetrics(prometheus::Registry& registry)
    : tickets(prometheus::BuildGauge()
                  .Name("kahve_matchmaking_tickets")
                  .Help("Active tickets by queue and state (waiting, placing), as last seen by "
                        "the replica processing the queue.")
                  .Register(registry)),
      wait_seconds(prometheus::BuildHistogram()
                       .Name("kahve_matchmaking_wait_seconds")
                       .Help("Time from enqueue to assignment of matched tickets, by ruleset and "
                             "mode, in seconds.")
                       .Register(registry)),
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
                       .Add({}, common::LatencyBuckets())),
      tickets_ended(prometheus::BuildCounter()
                        .Name("kahve_matchmaking_tickets_ended_total")
                        .Help("Tickets ended without a match, by ruleset, mode and reason "
                              "(expired, cancelled); counted by the replica that ended them.")
                        .Register(registry)),
      bot_seats(prometheus::BuildCounter()
                    .Name("kahve_matchmaking_bot_seats_total")
                    .Help("Seats of formed matches given to bots, by ruleset and mode.")
                    .Register(registry)) {}

prometheus::Histogram& MatchmakingMetrics::WaitSeconds(const std::string& queue_key) {
  return wait_seconds.Add(QueueLabels(queue_key), kWaitBuckets);
}

prometheus::Counter& MatchmakingMetrics::TicketsEnded(const std::string& queue_key,
                                                      const std::string& reason) {
  prometheus::Labels labels = QueueLabels(queue_key);
  labels["reason"] = reason;
  return tickets_ended.Add(labels);
}

prometheus::Counter& MatchmakingMetrics::BotSeats(const std::string& queue_key) {
  return bot_seats.Add(QueueLabels(queue_key));
}

}  // namespace kahve::matchmaking
