#ifndef KAHVE_TESTS_SERVICES_TABLE_TABLE_FIXTURE_H_
#define KAHVE_TESTS_SERVICES_TABLE_TABLE_FIXTURE_H_

// A real kahve-table (the shipped library: TableHost, TableService, EventLog, a real gRPC server
// on a free port) over a fresh PostgreSQL database, clients that read Connect streams in the
// background, and a player that always knows a legal Liar's dice move.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "engine/liars_dice/liars_dice_game.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/worker_pool.h"
#include "services/table/event_log.h"
#include "services/table/outbox.h"
#include "services/table/table_host.h"
#include "services/table/table_process.h"
#include "services/table/table_service.h"
#include "tests/services/rating/rating_fixture.h"
#include "tests/support/pg_test_env.h"
#include "tests/support/simulated_clock.h"

namespace kahve::table {

// One table host, in-process: the shipped TableProcess, wired from a config built here instead of
// from flags, without its heartbeat and outbox relay (tests write table_hosts and relay results
// themselves when they need to).
class TableServer {
 public:
  // The host settings tests run with unless they say otherwise.
  static TableHostSettings DefaultSettings();
  // The config tests run a host with: no heartbeat, relay or log pruning, a pool of 4.
  static TableConfig Config(const std::string& url, const std::string& host_id,
                            TableHostSettings settings = DefaultSettings(),
                            common::StreamBudgetSettings stream_budget = {});
  // Reloads the unfinished tables of `host_id` before serving, as main does.
  TableServer(const std::string& url, const std::string& host_id,
              TableHostSettings settings = DefaultSettings(),
              common::StreamBudgetSettings stream_budget = {});
  // A host from a config of the tests' own (usually Config, changed).
  explicit TableServer(TableConfig config);

  // The shutdown sequence of main: the server's Shutdown with the host's BeginShutdown hook, then
  // the log. Idempotent.
  void Stop() { process_->Stop(); }

  int port() const { return process_->port(); }
  int metrics_port() const { return process_->metrics_port(); }
  v1::TableService::Stub& stub() { return *stub_; }
  common::Metrics& metrics() { return process_->metrics(); }
  common::PgPool& pool() { return process_->pool(); }
  TableHost& host() { return process_->host(); }

 private:
  std::unique_ptr<TableProcess> process_;
  std::unique_ptr<v1::TableService::Stub> stub_;
};

// A Connect stream read on a thread of its own; every update is kept.
class UpdateReader {
 public:
  UpdateReader(v1::TableService::Stub& stub, const std::string& player,
               const v1::ConnectRequest& request);
  // Cancels the stream if still open.
  ~UpdateReader();

  // Waits until `done(updates)` holds; false on timeout.
  bool WaitUntil(const std::function<bool(const std::vector<v1::TableUpdate>&)>& done,
                 absl::Duration timeout = absl::Seconds(20));
  // Waits until an update with seq >= `seq` arrived.
  bool WaitForSeq(uint64_t seq, absl::Duration timeout = absl::Seconds(20));
  // The stream's final status, once the server ended it; nullopt on timeout.
  std::optional<grpc::Status> WaitFinished(absl::Duration timeout = absl::Seconds(20));
  std::vector<v1::TableUpdate> updates();
  // Closes the stream from the client side and waits for the reading thread.
  void Cancel();

 private:
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReader<v1::TableUpdate>> reader_;
  std::thread thread_;
  absl::Mutex mu_;
  std::vector<v1::TableUpdate> updates_ ABSL_GUARDED_BY(mu_);
  std::optional<grpc::Status> status_ ABSL_GUARDED_BY(mu_);
};

// A human seat as its client knows it.
struct Player {
  std::string id;
  int seat = 0;
  std::string token;
};

// A legal move for the seat to act in `view`. Liar's dice: a challenge when there is a bid to
// doubt, else the smallest opening bid (one two). okey51: draw, then discard the highest tile.
v1::Move ChooseMove(const v1::View& view);
// The moves themselves, as the engine spells them.
using engine::liars_dice::BidMove;
using engine::liars_dice::ChallengeMove;

// The update stream invariants every client relies on: a snapshot first (unless resuming after
// `after_seq`), then consecutive seqs; no event private to another seat. Returns the problem or "".
std::string CheckStream(const std::vector<v1::TableUpdate>& updates, int seat,
                        std::optional<uint64_t> after_seq = std::nullopt);
// Whether the last update carries the game's result.
bool EndsWithResult(const std::vector<v1::TableUpdate>& updates);

class TableServiceTest : public kahve::testing::PgTest {
 protected:
  static constexpr char kHostId[] = "host-a";
  static constexpr char kMatchmaker[] = "matchmaker";
  static constexpr char kAdmin[] = "operator";

  void SetUp() override;
  void TearDown() override;

  // The host the helpers' calls go to: via_, else server_.
  v1::TableService::Stub& stub() { return (via_ != nullptr ? via_ : server_.get())->stub(); }

  // A table for `seats` (a player id, or "bot:<kind>" for a bot seat), created by the matchmaker
  // (service role); the players of its human seats. Liar's dice unless `settings` says otherwise.
  std::vector<Player> CreateTable(const std::vector<std::string>& seats,
                                  const v1::TableOptions& options, std::string* table_id,
                                  std::optional<uint64_t> seed = 42,
                                  const v1::GameSettings* settings = nullptr);
  grpc::Status Create(const v1::CreateTableRequest& request, v1::CreateTableResponse* response,
                      const std::string& role = common::kRoleService);
  // GetView as `player` with `token` (empty: a spectator's view).
  absl::StatusOr<v1::GetViewResponse> View(const std::string& table_id, const std::string& player,
                                           const std::string& token);
  grpc::Status Play(const std::string& table_id, const Player& player, const v1::Move& move,
                    v1::PlayResponse* response, const std::string& request_id = "",
                    bool dry_run = false);
  std::unique_ptr<UpdateReader> Connect(const std::string& table_id, const std::string& player,
                                        const std::string& token,
                                        std::optional<uint64_t> after_seq = std::nullopt);
  // Plays for whichever of `players` is to act (a legal move from its own view) until the game is
  // over, `max_moves` were made (-1: no limit) or `stop()` holds; moves a bot makes meanwhile are
  // fine. Returns the moves the players made.
  int PlayToTheEnd(const std::string& table_id, const std::vector<Player>& players,
                   int max_moves = -1, const std::function<bool()>& stop = nullptr);
  // Rows of `sql` (a count).
  int64_t Count(const std::string& sql);

  // The relay of the fixture's outbox, sending to rating_ when it is up.
  void StartRelay();

  // Simulated time for tests that pass it to a server's settings (settings.clock); a member so
  // that it outlives every server (TearDown stops them).
  kahve::testing::SimulatedClock simulated_clock_;
  std::unique_ptr<TableServer> server_;
  TableServer* via_ = nullptr;
  absl::Mutex rating_mu_;
  std::unique_ptr<rating::RatingServer> rating_ ABSL_GUARDED_BY(rating_mu_);
  std::unique_ptr<Outbox> outbox_;
  std::unique_ptr<OutboxRelay> relay_;
};

// Two hosts over one database: server_ (host-a) and host_b_, neither heartbeating (tests write
// table_hosts as they need it).
class TwoHostTableTest : public TableServiceTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  std::unique_ptr<TableServer> host_b_;
};

}  // namespace kahve::table

#endif  // KAHVE_TESTS_SERVICES_TABLE_TABLE_FIXTURE_H_
