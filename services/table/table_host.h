#ifndef KAHVE_SERVICES_TABLE_TABLE_HOST_H_
#define KAHVE_SERVICES_TABLE_TABLE_HOST_H_

// The live tables of one kahve-table process and everything that moves them: creation, moves,
// resignations, streams, the clock (turn limits, away seats, bot seats) and the durable log.
//
// Every change follows one path: under the table's lock the session applies it and it is queued on
// the event log; only once the log reports it committed is it sent to the table's streams, in seq
// order, and acknowledged to its caller, once the lock is released (no caller's callback runs
// under a table's lock: TableLock, AnswerAfterUnlock). So nothing a client ever sees can be lost
// by a crash, and a snapshot or view is only ever taken when everything applied is durable
// (durable_seq == seq).
// gRPC-free apart from the stream reactor; TableService adapts calls to it.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "kahve/v1/table.pb.h"
#include "services/common/auth.h"
#include "services/common/budget.h"
#include "services/common/clock.h"
#include "services/table/event_log.h"
#include "services/table/live_table.h"
#include "services/table/practice_budget.h"
#include "services/table/table_metrics.h"
#include "services/table/table_route.h"
#include "services/table/table_session.h"
#include "services/table/table_timers.h"
#include "services/table/update_stream.h"

namespace kahve::table {

struct TableHostSettings {
  // Secret the seat tokens derive from. Every host must have the same: a table moves between
  // hosts, and its tokens with it.
  std::string seat_token_key;
  // A host holds its tables while its heartbeat (table_hosts) is younger than this; past it, any
  // other host may claim them (docs/table.md, "Ownership").
  absl::Duration host_lease = absl::Seconds(5);
  // The most tables one ClaimLapsed pass claims (the passes repeat while they find that many).
  int claim_batch = 200;
  // Finished tables stay in memory this long (late streams, a retried last move, GetReplay), then
  // only in the database; finished practice tables at most kPracticeLinger.
  absl::Duration finished_linger = absl::Seconds(60);
  // While more finished tables than this are in memory, one that finishes (or is loaded finished)
  // is dropped as soon as its streams end, without lingering: a flood of short games, or of calls
  // about finished tables, cannot fill the memory.
  int64_t max_finished_tables = 2000;
  // Writes waiting for the log beyond which new moves are refused (UNAVAILABLE) until it drains.
  int64_t max_pending_writes = 200000;
  // Budgets (docs/operations.md): bytes waiting in one stream's queue, and in every stream's
  // queue together (a slow reader past either is ended; <= 0: unlimited).
  int64_t max_stream_queued_bytes = int64_t{4} << 20;
  int64_t max_streams_queued_bytes = int64_t{256} << 20;
  // Unfinished practice tables one player may hold on this host, and the host may hold in all.
  int max_practice_tables_per_player = 3;
  int max_practice_tables = 5000;
  // A practice table with no entry for this long is resigned for its player; the bots then play
  // it out, and it ends like any other (paused tables would otherwise live for ever).
  absl::Duration practice_idle_expiry = absl::Minutes(30);
  // When the host holds max_practice_tables, a new one closes the table idle longest, if it has
  // been idle at least this long (otherwise the new one is refused).
  absl::Duration practice_min_idle_to_evict = absl::Minutes(2);
  // What turn clocks, away grace, lingering and practice expiry read and wait on (tests pass a
  // simulated one). Not owned; outlives the host.
  common::Clock* clock = common::RealClock();
};

class TableHost {
 public:
  TableHost(TableHostSettings settings, EventLog* log, TableMetrics* metrics);
  // Stops the timers. Call BeginShutdown first to end streams.
  ~TableHost();
  TableHost(const TableHost&) = delete;
  TableHost& operator=(const TableHost&) = delete;

  // At start, before serving: claims anew every unfinished table this host holds, then those no
  // live host holds (ClaimLapsed), and rebuilds each from its log. The claim bumps their epochs: an
  // earlier run of this host id that is stalled rather than dead can no longer write to them.
  absl::Status LoadUnfinished();
  // Where a call about `table_id` is answered, without blocking: kServeHere with the table when
  // this host serves it, else kTakeOver.
  TableRoute Route(const std::string& table_id) const;
  // Where a call about a table this host does not serve is answered, from the database: a
  // finished table is loaded for a while (finished_linger), so a retried last move or a late
  // stream gets its answer; an unfinished one is claimed when no other live host holds it (handed
  // off, or its host silent past the lease). Either way kServeHere. kForward when a live other
  // host holds it; kNotFound when no host has it. UNAVAILABLE when this host drains, or the holder
  // has not said where it serves. Blocks on the database.
  absl::StatusOr<TableRoute> TakeOver(const std::string& table_id);
  // Claims and serves the tables no live host holds (handed off, or their host silent past the
  // lease), up to this host's fair share of them (FairShareOfLapsed), in passes of claim_batch.
  // Returns how many. Blocks on the database.
  absl::StatusOr<int> ClaimLapsed();
  // Lets go of every table the database no longer says this host holds at its epoch (after this
  // host was silent past its lease, another may have claimed some): their streams are told to
  // reconnect. Blocks on the database.
  absl::Status LetGoOfLost();
  // Until `until` (real time), every registered host counts as live for TakeOver: after the
  // database was away, the others' heartbeats look old until each has beaten again (HostLease).
  void HoldClaimsUntil(absl::Time until);

  // What became of a CreateTable: the table, or a refusal. When the match has a table this host
  // does not hold (on another host, or this one before a restart), `existing_table_id` names it
  // and AnswerCreated gives the answer.
  struct CreateOutcome {
    absl::StatusOr<v1::CreateTableResponse> created;
    std::string existing_table_id;
  };
  using CreateDone = std::function<void(CreateOutcome)>;
  // Creates a table once its creation is durable. A retry with the same match id and content gets
  // the same answer (same table, same seat tokens); other content: ALREADY_EXISTS naming the
  // table. `admin` allows an explicit seed or deal.
  void CreateTable(const v1::CreateTableRequest& request, bool admin, CreateDone done);

  // The answer to a CreateTable whose match already has table `table_id` (its outcome's
  // existing_table_id). The same request gets the first answer again (same table, same seat
  // tokens: the key is shared by every host); other content is ALREADY_EXISTS. Blocks on the
  // database.
  absl::StatusOr<v1::CreateTableResponse> AnswerCreated(const v1::CreateTableRequest& request,
                                                        const std::string& table_id);

  // The hosts that take new tables: heartbeat younger than the lease and not draining, least
  // loaded first (ties by id). Blocks on the database.
  absl::StatusOr<std::vector<HostRow>> HostsTakingTables();
  // The tables of those of `match_ids` that have one, on any host. Blocks on the database.
  absl::StatusOr<std::vector<MatchTable>> TablesOfMatches(
      const std::vector<std::string>& match_ids);

  using PracticeCreateDone = std::function<void(absl::StatusOr<v1::CreatePracticeTableResponse>)>;
  // Opens a practice table for `caller` at the seat asked for, bots at the others (a retry with
  // the same request id gets the same table).
  void CreatePracticeTable(const common::Identity& caller,
                           const v1::CreatePracticeTableRequest& request, PracticeCreateDone done);
  // The calls about one table this host serves (Route or TakeOver said kServeHere).
  //
  // Pause, Resume, Undo or Redo (`kind`) at a practice table, answered once durable.
  void Practice(const TableHandle& table, const common::Identity& caller,
                const v1::PracticeRequest& request, v1::PracticeChange::Kind kind,
                std::function<void(absl::StatusOr<v1::PracticeResponse>)> done);

  using PlayDone =
      std::function<void(absl::Status, v1::PlayResponse, std::optional<v1::PlayRejection>)>;
  void Play(const TableHandle& table, const common::Identity& caller,
            const v1::PlayRequest& request, absl::Time received, PlayDone done);
  void Resign(const TableHandle& table, const common::Identity& caller,
              const v1::ResignRequest& request,
              std::function<void(absl::StatusOr<v1::ResignResponse>)> done);
  void GetView(const TableHandle& table, const common::Identity& caller,
               const v1::GetViewRequest& request,
               std::function<void(absl::StatusOr<v1::GetViewResponse>)> done);
  // The caller's seat's hints, as durable as GetView's view.
  void GetHints(const TableHandle& table, const common::Identity& caller,
                const v1::GetHintsRequest& request,
                std::function<void(absl::StatusOr<v1::GetHintsResponse>)> done);

  // Opens a Connect stream: checks the caller, then the stream gets its snapshot (or the updates
  // after after_seq) as soon as the table is durable, then every update. On an error the stream
  // was not attached and the caller finishes it.
  absl::Status Connect(const TableHandle& table, const common::Identity& caller,
                       const v1::ConnectRequest& request, UpdateStream* stream);
  // The stream is over (its reactor's OnDone): the table forgets it; its seat's away grace may
  // start.
  void Disconnect(const std::string& table_id, UpdateStream* stream);

  // Live tables by id, after `after_id`, up to `limit`.
  std::vector<v1::TableSummary> ListTables(const std::string& after_id, int limit);
  // The replay of a finished table (live or stored). FAILED_PRECONDITION before the end unless
  // `admin`; NOT_FOUND for an unknown table. Blocks on the database for stored tables.
  absl::StatusOr<v1::Replay> GetReplay(const std::string& table_id, bool admin);

  int live_tables() const;
  // host:port clients should dial for this host's tables (CreatePracticeTableResponse); known
  // once the server listens.
  void SetEndpoint(std::string endpoint);
  // The byte budgets of this host's streams (each UpdateStream counts against them).
  StreamQueueBudget* stream_queue_budget() { return &stream_queue_budget_; }
  // Stop taking tables and moves, wait until the log has committed what was accepted, hand the
  // unfinished tables off to the other hosts (with `release`), then end every stream with
  // UNAVAILABLE (clients reconnect; the table's next host serves them).
  void BeginShutdown(bool release = true);

 private:
  using TablePtr = TableHandle;

  // CreateTable's work once the caller's rights are checked; `practice` marks the table as one.
  void OpenTable(const v1::CreateTableRequest& request, bool practice, CreateDone done);
  // The answer to a creation this host can give from memory: a refusal while draining, or the
  // first answer again (ALREADY_EXISTS for other content) when the match's table is held here.
  std::optional<CreateOutcome> AnswerHeld(const v1::CreateTableRequest& request,
                                          const std::string& fingerprint);
  TablePtr Find(const std::string& table_id) const;
  // Finds the caller's seat (`seat_token`), then once the table's state is durable answers `done`
  // with `answer(table, seat)`, under the table's lock.
  template <typename Response>
  void AnswerForSeat(
      const TablePtr& table, const common::Identity& caller, const std::string& seat_token,
      std::function<absl::StatusOr<Response>(const LiveTable& table, int seat)> answer,
      std::function<void(absl::StatusOr<Response>)> done);
  absl::StatusOr<int> SeatFor(const LiveTable& table, const common::Identity& caller,
                              const std::string& seat_token) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  void Adopt(TablePtr table);
  absl::StatusOr<TablePtr> AdoptStored(const StoredTable& stored, absl::Time now);
  // TakeOver's database part: claims or loads the table and serves it here, or names its holder.
  absl::StatusOr<TableRoute> ClaimAndServe(const std::string& table_id);
  // Stops serving `table` (another host holds it now): its streams end with UNAVAILABLE, calls
  // waiting for it fail, and it is forgotten unless it was replaced meanwhile.
  void LetGo(const TablePtr& table);
  // Marks the table broken (it takes nothing more), ends its streams with UNAVAILABLE `why`, and
  // fails the calls waiting for it to be durable.
  void Stop(LiveTable& table, std::string_view why) ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // Applies nothing; queues `applied` on the log and, once durable, broadcasts it and runs
  // `then`. Called under the table's lock, in seq order. `then`, like every continuation (the
  // waiters of WhenDurable), runs under the table's lock; the answers it gives a caller go
  // through AnswerAfterUnlock, so they run once the lock is released.
  void Persist(const TablePtr& table, const AppliedEntry& applied,
               std::function<void(absl::Status)> then) ABSL_EXCLUSIVE_LOCKS_REQUIRED(table->mu);
  void OnDurable(const TablePtr& table, const AppliedEntry& applied, const WriteOutcome& written,
                 const std::function<void(absl::Status)>& then);
  // A write of `table` the log refused (not fenced): the table stops, and `then` hears so.
  void Refused(LiveTable& table, const absl::Status& refusal,
               const std::function<void(absl::Status)>& then)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // Sets what `table` adds to kahve_players_at_tables to `players`.
  void CountPlayers(LiveTable& table, int players) ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // Runs `fn` under the table's lock once everything applied is durable (OK), or once the table
  // stops (UNAVAILABLE).
  void WhenDurable(const TablePtr& table, std::function<void(absl::Status)> fn)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table->mu);
  // A change a seat's player asks for (a resignation, a practice call) and the answer to give.
  template <typename Response>
  struct SeatChangeAnswer {
    // Empty when the call changed nothing (a repeat): answered once the table is durable.
    std::optional<AppliedEntry> applied;
    Response response;
  };
  // Finds the caller's seat; unless the table is broken or the host drains, has `change` apply
  // the change under the table's lock, then answers `done` once it is durable.
  template <typename Response>
  void ChangeForSeat(
      const TablePtr& table, const common::Identity& caller, const std::string& seat_token,
      std::function<absl::StatusOr<SeatChangeAnswer<Response>>(TableSession& session, int seat)>
          change,
      std::function<void(absl::StatusOr<Response>)> done);
  void Reschedule(const TablePtr& table);
  void RunDue(const TablePtr& table, absl::Time now);
  // Drops `table` from the live tables unless another object has replaced it under its id.
  void Forget(const TablePtr& table);
  // Counts a table that is over among the finished tables in memory (once).
  void CountFinished(LiveTable& table) ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // How long a finished table stays in memory (see max_finished_tables).
  absl::Duration LingerFor(const LiveTable& table) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);
  // Closes (PRACTICE_EVICTED) the unfinished practice table idle longest, if idle at least
  // practice_min_idle_to_evict; returns whether one was closed (its place is free then).
  bool EvictIdlestPractice(absl::Time now);
  // Resigns the player of a practice table idle past practice_idle_expiry. Under the table's lock.
  void ExpireIdlePractice(const TablePtr& table, absl::Time now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table->mu);

  const TableHostSettings settings_;
  common::Clock* const clock_;
  EventLog* log_;
  TableMetrics* metrics_;

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, TablePtr> tables_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> table_of_match_ ABSL_GUARDED_BY(mu_);
  std::string endpoint_ ABSL_GUARDED_BY(mu_);
  // The tables TakeOver is claiming and loading now, so concurrent calls claim a table once.
  absl::Mutex takeover_mu_;
  absl::flat_hash_set<std::string> claiming_ ABSL_GUARDED_BY(takeover_mu_);
  // Set by BeginShutdown. Atomic so calls can read it under a table's lock (mu_ is taken before
  // a table's lock, never after): a call that sees it clear attaches its stream before
  // BeginShutdown visits the table, so no stream or move slips past the drain.
  std::atomic<bool> draining_{false};
  // HoldClaimsUntil's moment, in Unix microseconds.
  std::atomic<int64_t> claims_held_until_us_{0};
  StreamQueueBudget stream_queue_budget_;
  // Finished tables in memory now (CountFinished).
  std::atomic<int64_t> finished_in_memory_{0};
  PracticeBudget practice_budget_;

  // Declared last: its thread runs RunDue, which reads every member above.
  TableTimers timers_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_HOST_H_
