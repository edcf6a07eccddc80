#ifndef KAHVE_SERVICES_MATCHMAKING_MATCHMAKER_H_
#define KAHVE_SERVICES_MATCHMAKING_MATCHMAKER_H_

// The matchmaker's loop: every pass interval, for each queue with active tickets that this
// replica holds, finish the matches left placing, expire old tickets, run MatchPass over the
// waiting tickets, record each formed match durably and place it.
//
// One replica at a time processes a queue: it holds the queue's PostgreSQL advisory lock, on the
// one connection that holds all its queue locks (queue_locks.h). When the replica dies its
// connection closes, the locks go with it, and another replica's next pass takes the queues over
// (and first finishes what was placing). Correctness does not rest on the lock: a ticket moves
// out of waiting only in the transaction that records its match, so even two passes at once
// cannot put a ticket in two matches.

#include <functional>
#include <set>
#include <string>
#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "services/common/clock.h"
#include "services/matchmaking/matcher.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/mm_store.h"
#include "services/matchmaking/placer.h"
#include "services/matchmaking/queue_budget.h"
#include "services/matchmaking/queue_locks.h"
#include "services/matchmaking/queue_spec.h"
#include "services/matchmaking/rating_cache.h"
#include "services/matchmaking/table_directory.h"

namespace kahve::matchmaking {

struct MatchmakerSettings {
  // For the queue locks' own connection.
  std::string database_url;
  absl::Duration pass_interval = absl::Seconds(1);
  // A table smaller than preferred (down to the ruleset's minimum) may start after this wait.
  absl::Duration shrink_after = absl::Seconds(30);
  // Bots take the empty seats after this wait (a ticket may ask for less), where allowed.
  absl::Duration longest_wait = absl::Seconds(60);
  bool bot_fill = true;
  std::string bot_kind = "heuristic";
  // A ticket still waiting after this long expires.
  absl::Duration ticket_ttl = absl::Minutes(10);
  // A match still not placed this long after it was formed, that has no table, is
  // given up: its tickets wait again (first in line), so no player is stuck behind a table that
  // cannot be made.
  absl::Duration placement_timeout = absl::Minutes(1);
  SkillWindow window;
  v1::TableOptions table_options;
  // What passes, ticket expiry and the placement timeout read and wait on. Not owned.
  common::Clock* clock = common::RealClock();
};

class Matchmaker {
 public:
  // `budget` (may be null) gets the active queues' counts at the start of every pass.
  Matchmaker(MatchmakerSettings settings, MatchmakingStore* store, RatingCache* ratings,
             Placer* placer, TableDirectory* tables, MatchmakingMetrics* metrics,
             QueueBudget* budget = nullptr);
  // Stop().
  ~Matchmaker();

  // Runs passes on a thread of its own until Stop. `on_change` (may be empty) is called after a
  // pass that changed tickets, so watchers can look right away.
  void Start(std::function<void()> on_change);
  // Joins the thread and releases every queue lock. Idempotent.
  void Stop();
  // One pass over every active queue this replica can hold (the thread's body; tests call it).
  // Returns the number of tickets whose state changed.
  int RunOnce();
  // The queues whose locks this replica holds (pass thread or tests only, as RunOnce).
  const std::set<std::string>& held_queues() const { return locks_.held(); }

 private:
  int ProcessQueue(const std::string& queue_key);
  // Removes the tickets gauges of the queues this replica no longer holds.
  void ForgetGauges();
  int FormMatches(const std::string& queue_key, const std::vector<QueuedTicket>& waiting,
                  absl::Time now);
  // The match `match` of the pass makes of `waiting`, to be placed on `host_id`: its seats (a
  // party side by side, partners opposite), bots at the empty ones, and its CreateTable request.
  PendingMatch PendingFor(const FormedMatch& match, const std::vector<QueuedTicket>& waiting,
                          const QueueSpec& spec, const std::string& queue_key,
                          const std::string& host_id, absl::Time now) const;
  // Places a recorded match; the number of tickets matched.
  int PlaceMatch(const PendingMatch& match);
  // After a failed placement: gives the match up once it is older than the placement timeout
  // and it has no table. Returns the tickets put back to waiting.
  int GiveUpIfStuck(const PendingMatch& match);

  const MatchmakerSettings settings_;
  MatchmakingStore* store_;
  RatingCache* ratings_;
  Placer* placer_;
  TableDirectory* tables_;
  MatchmakingMetrics* metrics_;
  QueueBudget* budget_;
  // Only the pass thread (or a test's RunOnce, never both) touches these.
  QueueLocks locks_;
  // Queues whose tickets gauges this replica set: removed once it no longer holds the queue, so
  // the `queue` label has a series only for queues held now (bounded by the queue budget).
  std::set<std::string> gauged_;
  std::thread thread_;
  absl::Notification stop_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MATCHMAKER_H_
