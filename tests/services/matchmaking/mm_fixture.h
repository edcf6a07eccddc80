#ifndef KAHVE_TESTS_SERVICES_MATCHMAKING_MM_FIXTURE_H_
#define KAHVE_TESTS_SERVICES_MATCHMAKING_MM_FIXTURE_H_

// A real kahve-matchmaking (the shipped library: store, matchmaker, placer, watchers, a real gRPC
// server on a free port) next to a real table service and rating service, over one fresh
// PostgreSQL database.

#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "services/common/budget.h"
#include "services/common/metrics.h"
#include "services/matchmaking/matchmaking_process.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::matchmaking {

// The budgets of a replica; the flags' defaults unless a test says otherwise.
struct MatchmakerBudgets {
  QueueBudgetSettings queues;
  common::StreamBudgetSettings streams;
};

// Where a replica finds the services it calls.
struct PeerPorts {
  int rating = 0;
  // Any table host: ListHosts and GetMatchStates go there.
  int table = 0;
};

// One matchmaking replica, in-process, wired by the shipped MatchmakingProcess from a config
// built here instead of from flags.
class MatchmakerServer {
 public:
  // Passes start at once unless `start_passes` is false (tests then call RunOnce). Every part
  // reads and waits on `settings.clock`.
  // `table_client_endpoint`: what assignments name as the table's address (empty: its host's).
  MatchmakerServer(const std::string& url, const MatchmakerSettings& settings, PeerPorts peers,
                   bool start_passes = true, const MatchmakerBudgets& budgets = {},
                   const std::string& table_client_endpoint = "");
  // As main on SIGTERM: passes stop (releasing the queue locks), streams end, the server stops.
  void Stop() { process_->Stop(); }

  int port() const { return process_->port(); }
  int metrics_port() const { return process_->metrics_port(); }
  common::Metrics& metrics() { return process_->metrics(); }
  MatchmakingStore& store() { return process_->store(); }
  TicketWatchers& watchers() { return process_->watchers(); }
  v1::MatchmakingService::Stub& stub() { return *stub_; }
  Matchmaker& matchmaker() { return process_->matchmaker(); }

 private:
  std::unique_ptr<MatchmakingProcess> process_;
  std::unique_ptr<v1::MatchmakingService::Stub> stub_;
};

class MatchmakingTest : public table::TableServiceTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Quick passes; a window that never widens (base 3) unless a test says otherwise; no bots and
  // no smaller tables within a test's time unless a test says otherwise.
  MatchmakerSettings Settings();
  void StartMatchmaker(const MatchmakerSettings& settings, const MatchmakerBudgets& budgets = {},
                       const std::string& table_client_endpoint = "");
  // StartMatchmaker with `settings` on the simulated clock: waits, windows and expiries pass
  // only when the test moves it (AdvanceAndSettle).
  void StartOnSimulatedTime(MatchmakerSettings settings);
  // Moves the simulated clock `by` and returns once the passes it woke are over. Two threads wait
  // on the clock between passes: the pass loop and the ticket watchers' poll. Advance takes a
  // woken thread off the clock's waiters until it waits again, so once both wait the pass that
  // time woke (placement included) is over. A pass runs only when `by` reaches the pass loop's
  // next wake: its pass interval (Settings(): 50 ms) after the previous pass.
  void AdvanceAndSettle(absl::Duration by);
  int RatingPort();
  // The rating service's port and the table host's.
  PeerPorts Peers();
  MatchmakerServer& mm() { return *mm_; }

  // A table_hosts row kept fresh (heartbeat every 200 ms) until UnregisterHost.
  void RegisterHost(const std::string& host_id, const std::string& endpoint, int live_tables);
  void UnregisterHost(const std::string& host_id);
  // A rated (not provisional) Liar's dice solo rating with this display rating.
  void SetRating(const std::string& player, double display);

  static v1::EnqueueRequest LiarsDice(int players);
  // An okey51 queue, 2v2 when `teams`.
  static v1::EnqueueRequest Okey51(bool teams);
  static v1::EnqueueRequest Okey101(bool teams);
  grpc::Status Enqueue(const std::string& player, const v1::EnqueueRequest& request,
                       std::string* ticket_id);
  grpc::Status Cancel(const std::string& player, const std::string& ticket_id);
  grpc::Status CreateParty(const std::string& player, v1::Party* party);
  // JoinParty with `code` as `player`; the party joined in `party` (may be null).
  grpc::Status JoinParty(const std::string& player, const std::string& code,
                         v1::Party* party = nullptr);
  // Watches the ticket until an update in `state` arrives (or the stream ends); the updates seen
  // and the stream's status.
  struct Watched {
    std::vector<v1::TicketUpdate> updates;
    grpc::Status status;
  };
  Watched WatchUntil(const std::string& player, const std::string& ticket_id,
                     v1::TicketUpdate::State state, absl::Duration timeout = absl::Seconds(20));
  // The last update of WatchUntil(MATCHED), failing the test if it is not an assignment.
  v1::Assignment AwaitAssignment(const std::string& player, const std::string& ticket_id);
  // Tickets in `state` (mm_tickets).
  int64_t TicketsIn(const std::string& state);
  // kahve::testing::MetricSum over mm()'s registry.
  double Metric(const std::string& family, const std::map<std::string, std::string>& labels);
  // Metric once it is `value`, or what it is after `timeout`: a pass counts some things just
  // after the change they count became visible to watchers.
  double AwaitMetric(const std::string& family, const std::map<std::string, std::string>& labels,
                     double value, absl::Duration timeout = absl::Seconds(10));

  std::unique_ptr<MatchmakerServer> mm_;

 private:
  void Heartbeats();
  static void WriteHeartbeats(pqxx::connection& connection,
                              const std::map<std::string, std::pair<std::string, int>>& hosts);

  absl::Mutex hosts_mu_;
  std::map<std::string, std::pair<std::string, int>> hosts_ ABSL_GUARDED_BY(hosts_mu_);
  absl::Notification stop_heartbeats_;
  std::thread heartbeats_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_TESTS_SERVICES_MATCHMAKING_MM_FIXTURE_H_
