#include "services/table/table_host.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/table/live_table.h"
#include "services/table/match_result.h"
#include "services/table/table_broadcast.h"
#include "services/table/table_creation.h"
#include "services/table/table_observations.h"

namespace kahve::table {
namespace {

int64_t Micros(absl::Time time) { return absl::ToUnixMicros(time); }

// A table's session rebuilt from its stored log: the creation, then every entry replayed.
absl::StatusOr<std::unique_ptr<TableSession>> SessionFromLog(const StoredTable& stored) {
  v1::TableLogEntry created;
  if (stored.entries.empty() || !created.ParseFromString(stored.entries[0])) {
    return absl::DataLossError(
        absl::StrCat("table ", stored.row.table_id, ": creation unreadable"));
  }
  auto session = TableSession::Create(created);
  if (!session.ok()) return session.status();
  for (size_t seq = 1; seq < stored.entries.size(); ++seq) {
    v1::TableLogEntry entry;
    if (!entry.ParseFromString(stored.entries[seq])) {
      return absl::DataLossError(
          absl::StrCat("table ", stored.row.table_id, ": entry ", seq, " unreadable"));
    }
    const absl::Status replayed = (*session)->Replay(entry);
    if (!replayed.ok()) return replayed;
  }
  return session;
}

}  // namespace

TableHost::TableHost(TableHostSettings settings, EventLog* log, TableMetrics* metrics)
    : settings_(std::move(settings)),
      clock_(settings_.clock),
      log_(log),
      metrics_(metrics),
      stream_queue_budget_(settings_.max_stream_queued_bytes, settings_.max_streams_queued_bytes,
                           &metrics->budgets),
      practice_budget_(settings_.max_practice_tables_per_player, settings_.max_practice_tables,
                       metrics->budgets),
      timers_(clock_, [this](const std::string& table_id, absl::Time now) {
        if (const TablePtr table = Find(table_id)) RunDue(table, now);
      }) {}

TableHost::~TableHost() = default;

int TableHost::live_tables() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(tables_.size());
}

TableHost::TablePtr TableHost::Find(const std::string& table_id) const {
  absl::MutexLock lock(&mu_);
  const auto found = tables_.find(table_id);
  return found == tables_.end() ? nullptr : found->second;
}

void TableHost::Adopt(TablePtr table) {
  {
    absl::MutexLock lock(&mu_);
    TableLock table_lock(*table);
    if (table->session->practice()) {
      const std::vector<v1::SeatStatus> seats = table->session->SeatStatuses();
      for (int seat = 0; seat < static_cast<int>(seats.size()); ++seat) {
        if (seats[seat].player_id().empty()) continue;
        table->practice_player = seats[seat].player_id();
        table->practice_seat = seat;
      }
      // Counted already when this host created it; a reloaded one counts from here.
      if (!table->session->over()) {
        practice_budget_
            .Reserve(table->practice_player, table->session->match_id(), /*force=*/true,
                     /*make_room=*/nullptr)
            .IgnoreError();
      }
    }
    if (table->session->over()) CountFinished(*table);
    table_of_match_[table->session->match_id()] = table->table_id;
    tables_[table->table_id] = table;
  }
  metrics_->tables_active.Add({{"ruleset", table->ruleset}}).Increment();
  {
    TableLock table_lock(*table);
    CountPlayers(*table, table->session->SeatedPlayers());
  }
  Reschedule(table);
}

void TableHost::Forget(const TablePtr& table) {
  {
    absl::MutexLock lock(&mu_);
    const auto found = tables_.find(table->table_id);
    // Replaced meanwhile (claimed again): the newer one stays.
    if (found == tables_.end() || found->second != table) return;
    tables_.erase(found);
    TableLock table_lock(*table);
    table_of_match_.erase(table->session->match_id());
    if (table->session->practice()) {
      practice_budget_.Release(table->practice_player, table->session->match_id());
    }
    CountPlayers(*table, 0);
    if (table->counted_finished) {
      table->counted_finished = false;
      finished_in_memory_.fetch_sub(1);
      metrics_->tables_finished_in_memory.Decrement();
    }
  }
  metrics_->tables_active.Add({{"ruleset", table->ruleset}}).Decrement();
}

void TableHost::CountFinished(LiveTable& table) {
  if (table.counted_finished) return;
  table.counted_finished = true;
  finished_in_memory_.fetch_add(1);
  metrics_->tables_finished_in_memory.Increment();
}

absl::Duration TableHost::LingerFor(const LiveTable& table) const {
  // A practice game's player saw its end at once; a retry of its last call is answered from the
  // database.
  constexpr absl::Duration kPracticeLinger = absl::Seconds(5);
  if (settings_.max_finished_tables > 0 &&
      finished_in_memory_.load() > settings_.max_finished_tables) {
    return absl::ZeroDuration();
  }
  if (table.session->practice()) return std::min(settings_.finished_linger, kPracticeLinger);
  return settings_.finished_linger;
}

absl::Status TableHost::LoadUnfinished() {
  auto stored = log_->ClaimOwn();
  if (!stored.ok()) return stored.status();
  const absl::Time now = clock_->Now();
  for (const StoredTable& one : *stored) {
    if (auto adopted = AdoptStored(one, now); !adopted.ok()) return adopted.status();
  }
  common::LogInfo("tables reloaded", {{"tables", absl::StrCat(stored->size())}});
  // Then the tables nobody holds: those handed off by a drained host (the last host to stop
  // hands its tables to whoever starts next), and those of hosts silent past the lease.
  return ClaimLapsed().status();
}

absl::StatusOr<TableHost::TablePtr> TableHost::AdoptStored(const StoredTable& stored,
                                                           absl::Time now) {
  auto session = SessionFromLog(stored);
  if (!session.ok()) return session.status();
  (*session)->RestartClocks(now);
  auto table = std::make_shared<LiveTable>();
  table->table_id = stored.row.table_id;
  table->ruleset = stored.row.ruleset;
  table->created_at = absl::FromUnixMicros(stored.row.created_us);
  table->owner_epoch = stored.row.owner_epoch;
  v1::TableLogEntry created;
  created.ParseFromString(stored.entries[0]);  // SessionFromLog read it already
  table->create_fingerprint =
      CreateFingerprint(created.created().match_id(), created.created().settings(),
                        created.created().options(), created.created().seats());
  {
    TableLock lock(*table);
    table->durable_seq = (*session)->seq();
    if (stored.row.finished_us.has_value()) {
      table->finished_at = absl::FromUnixMicros(*stored.row.finished_us);
    }
    table->session = std::move(session).value();
  }
  Adopt(table);
  return table;
}

TableRoute TableHost::Route(const std::string& table_id) const {
  if (TablePtr table = Find(table_id)) return TableRoute::ServeHere(std::move(table));
  return TableRoute::TakeOver();
}

absl::StatusOr<TableRoute> TableHost::TakeOver(const std::string& table_id) {
  if (TablePtr table = Find(table_id)) return TableRoute::ServeHere(std::move(table));
  if (draining_) {
    return absl::UnavailableError("the table host is shutting down; reconnect with after_seq");
  }
  // One takeover of a table at a time: a second call for it waits, then finds it here. Calls for
  // other tables (a client probing unknown ids, say) never wait for this one.
  {
    absl::MutexLock lock(&takeover_mu_);
    auto free = [this, &table_id]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(takeover_mu_) {
      return !claiming_.contains(table_id);
    };
    takeover_mu_.Await(absl::Condition(&free));
    if (TablePtr table = Find(table_id)) return TableRoute::ServeHere(std::move(table));
    claiming_.insert(table_id);
  }
  absl::StatusOr<TableRoute> route = ClaimAndServe(table_id);
  {
    absl::MutexLock lock(&takeover_mu_);
    claiming_.erase(table_id);
  }
  return route;
}

void TableHost::HoldClaimsUntil(absl::Time until) {
  claims_held_until_us_.store(absl::ToUnixMicros(until));
}

absl::StatusOr<TableRoute> TableHost::ClaimAndServe(const std::string& table_id) {
  // While claims are held, a lease no registered host outlives: only tables handed off, or whose
  // host left the registry, are claimed; the rest are forwarded to their holder.
  const bool held = absl::ToUnixMicros(absl::Now()) < claims_held_until_us_.load();
  const absl::Duration lease = held ? absl::Hours(24 * 365) : settings_.host_lease;
  auto claim = log_->ClaimTable(table_id, lease);
  if (absl::IsNotFound(claim.status())) return TableRoute::NotFound();
  if (!claim.ok()) return claim.status();
  if (!claim->stored.has_value()) {
    // The endpoint is for routing only: addresses inside the cluster are no caller's business.
    if (claim->holder_endpoint.empty()) {
      return absl::UnavailableError(
          absl::StrCat("table ", table_id, " is served by another host; retry shortly"));
    }
    return TableRoute::Forward(std::move(claim->holder_endpoint));
  }
  const StoredTable& stored = *claim->stored;
  // The database compares text as a whole, but the id must be exactly the one asked for.
  if (stored.row.table_id != table_id) return TableRoute::NotFound();
  const bool claimed = !stored.row.finished_us.has_value();
  absl::StatusOr<TablePtr> adopted = AdoptStored(stored, clock_->Now());
  if (!adopted.ok()) return adopted.status();
  if (claimed) {
    metrics_->takeovers.Add({{"reason", "on_call"}}).Increment();
    common::LogInfo("table claimed for a call",
                    {{"table", table_id}, {"epoch", absl::StrCat(stored.row.owner_epoch)}});
  }
  return TableRoute::ServeHere(*std::move(adopted));
}

absl::StatusOr<int> TableHost::ClaimLapsed() {
  auto share = log_->FairShareOfLapsed(settings_.host_lease);
  if (!share.ok()) return share.status();
  int total = 0;
  while (!draining_ && total < *share) {
    const int batch = std::min(settings_.claim_batch, *share - total);
    auto claimed = log_->ClaimLapsed(settings_.host_lease, batch);
    if (!claimed.ok()) return claimed.status();
    const absl::Time now = clock_->Now();
    for (const ClaimedTable& one : *claimed) {
      if (const TablePtr stale = Find(one.stored.row.table_id)) LetGo(stale);
      if (auto adopted = AdoptStored(one.stored, now); !adopted.ok()) {
        // Held here now but unplayable: every host would fail the same way. Kept claimed (not
        // passed around), and loud.
        common::LogError("claimed table could not be rebuilt",
                         {{"table", one.stored.row.table_id},
                          {"error", std::string(adopted.status().message())}});
        continue;
      }
      const bool handed_off = one.previous_host.empty();
      metrics_->takeovers.Add({{"reason", handed_off ? "handed_off" : "lapsed"}}).Increment();
      if (one.silent_for.has_value()) {
        metrics_->takeover_silence_seconds.Observe(absl::ToDoubleSeconds(*one.silent_for));
      }
      common::LogInfo("table claimed", {{"table", one.stored.row.table_id},
                                        {"from", handed_off ? "(handed off)" : one.previous_host},
                                        {"epoch", absl::StrCat(one.stored.row.owner_epoch)}});
    }
    total += static_cast<int>(claimed->size());
    if (static_cast<int>(claimed->size()) < batch) break;
  }
  return total;
}

absl::Status TableHost::LetGoOfLost() {
  auto held = log_->Held();
  if (!held.ok()) return held.status();
  std::vector<TablePtr> lost;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, table] : tables_) {
      const auto found = held->find(id);
      if (found != held->end() && found->second == table->owner_epoch) continue;
      TableLock table_lock(*table);
      // Finished tables need no holder: they stay for their linger.
      if (!table->session->over()) lost.push_back(table);
    }
  }
  for (const TablePtr& table : lost) LetGo(table);
  return absl::OkStatus();
}

void TableHost::LetGo(const TablePtr& table) {
  {
    TableLock lock(*table);
    if (!table->broken) {
      metrics_->tables_lost.Increment();
      common::LogWarning("table lost to another host; its streams are told to reconnect",
                         {{"table", table->table_id}});
    }
    Stop(*table, "the table moved to another host; reconnect with after_seq");
    // Forgotten below: the streams' ends would find no table to leave.
    metrics_->streams_active.Decrement(static_cast<double>(table->streams.size()));
    table->streams.clear();
  }
  Forget(table);
}

void TableHost::Stop(LiveTable& table, std::string_view why) {
  table.broken = true;
  for (UpdateStream* stream : table.streams) {
    stream->End(grpc::Status(grpc::StatusCode::UNAVAILABLE, std::string(why)));
  }
  std::vector<std::function<void(absl::Status)>> waiters;
  waiters.swap(table.waiters);
  for (auto& waiter : waiters) waiter(absl::UnavailableError(std::string(why)));
}

void TableHost::CreateTable(const v1::CreateTableRequest& request, bool admin, CreateDone done) {
  if (!admin && (request.has_seed() || request.has_deal())) {
    done({.created =
              absl::PermissionDeniedError("seed and deal: only the admin role may set them")});
    return;
  }
  if (request.has_seed() && request.has_deal()) {
    // Either would silently override the other's seed.
    done({.created = absl::InvalidArgumentError("seed: set at most one of seed and deal")});
    return;
  }
  OpenTable(request, /*practice=*/false, std::move(done));
}

absl::StatusOr<v1::CreateTableResponse> TableHost::AnswerCreated(
    const v1::CreateTableRequest& request, const std::string& table_id) {
  // Only the creation entry matters, and it never changes: whichever host holds the table now,
  // the stored entry and the shared seat key give the first answer again.
  auto stored = log_->LoadTable(table_id);
  if (!stored.ok()) return stored.status();
  v1::TableLogEntry entry;
  if (stored->entries.empty() || !entry.ParseFromString(stored->entries[0]) ||
      !entry.has_created()) {
    return absl::DataLossError(absl::StrCat("table ", table_id, " has no creation entry"));
  }
  const v1::TableCreated& created = entry.created();
  if (CreateFingerprint(created.match_id(), created.settings(), created.options(),
                        created.seats()) !=
      CreateFingerprint(request.match_id(), request.settings(), request.options(),
                        request.seats())) {
    return absl::AlreadyExistsError(absl::StrCat("match ", request.match_id(),
                                                 " already has table ", table_id,
                                                 " with other settings or seats"));
  }
  auto session = TableSession::Create(entry);
  if (!session.ok()) return session.status();
  return CreateAnswer(settings_.seat_token_key, table_id, **session);
}

absl::StatusOr<std::vector<HostRow>> TableHost::HostsTakingTables() {
  auto hosts = log_->LiveHosts(settings_.host_lease);
  if (!hosts.ok()) return hosts.status();
  std::erase_if(*hosts, [](const HostRow& host) { return host.draining; });
  std::stable_sort(hosts->begin(), hosts->end(), [](const HostRow& a, const HostRow& b) {
    return a.live_tables < b.live_tables;
  });
  return hosts;
}

absl::StatusOr<std::vector<MatchTable>> TableHost::TablesOfMatches(
    const std::vector<std::string>& match_ids) {
  return log_->TablesOfMatches(match_ids);
}

void TableHost::OpenTable(const v1::CreateTableRequest& request, bool practice, CreateDone done) {
  const std::string fingerprint =
      CreateFingerprint(request.match_id(), request.settings(), request.options(), request.seats());
  // A retry of a creation this host holds: the first answer again, given outside the locks.
  if (std::optional<CreateOutcome> retry = AnswerHeld(request, fingerprint)) {
    done(*std::move(retry));
    return;
  }
  const std::string table_id = NewTableId();
  if (table_id.empty()) {
    done({.created = absl::InternalError("no randomness for a table id")});
    return;
  }
  const absl::Time now = clock_->Now();
  absl::StatusOr<v1::TableLogEntry> entry =
      CreationEntry(request, practice, table_id, settings_.seat_token_key, now);
  if (!entry.ok()) {
    done({.created = entry.status()});
    return;
  }
  auto session = TableSession::Create(*entry);
  if (!session.ok()) {
    // The session names fields of the creation entry ("created.seats[1]..."); the caller wrote
    // the request, whose fields carry the same names without the prefix.
    std::string message(session.status().message());
    if (message.rfind("created.", 0) == 0) message.erase(0, 8);
    done({.created = absl::Status(session.status().code(), message)});
    return;
  }
  auto table = std::make_shared<LiveTable>();
  table->table_id = table_id;
  table->ruleset = std::string(engine::RulesetOf(request.settings()).value()->id);
  table->create_fingerprint = fingerprint;
  table->created_at = now;
  v1::CreateTableResponse response = CreateAnswer(settings_.seat_token_key, table_id, **session);
  {
    TableLock lock(*table);
    table->session = std::move(session).value();
  }
  const TableRow row{.table_id = table_id,
                     .match_id = request.match_id(),
                     .ruleset = table->ruleset,
                     .created_us = Micros(now),
                     .practice = practice};
  log_->CreateTable(
      row, entry->SerializeAsString(),
      [this, table, practice, response = std::move(response), done](const WriteOutcome& written) {
        if (!written.ok()) {
          done({.created = written.status, .existing_table_id = written.existing_table_id});
          return;
        }
        Adopt(table);
        // Counted once created for good: a retry is answered before reaching here.
        if (practice) metrics_->practice_opened.Add({{"ruleset", table->ruleset}}).Increment();
        done({.created = response});
      });
}

std::optional<TableHost::CreateOutcome> TableHost::AnswerHeld(const v1::CreateTableRequest& request,
                                                              const std::string& fingerprint) {
  absl::MutexLock lock(&mu_);
  if (draining_) {
    return CreateOutcome{
        .created = absl::UnavailableError("this table host is shutting down; try another")};
  }
  if (request.match_id().empty()) return std::nullopt;
  const auto existing = table_of_match_.find(request.match_id());
  if (existing == table_of_match_.end()) return std::nullopt;
  const TablePtr table = tables_.at(existing->second);
  if (table->create_fingerprint != fingerprint) {
    return CreateOutcome{.created = absl::AlreadyExistsError(
                             absl::StrCat("match ", request.match_id(), " already has table ",
                                          table->table_id, " with other settings or seats"))};
  }
  TableLock table_lock(*table);
  return CreateOutcome{
      .created = CreateAnswer(settings_.seat_token_key, table->table_id, *table->session)};
}

void TableHost::Persist(const TablePtr& table, const AppliedEntry& applied,
                        std::function<void(absl::Status)> then) {
  std::optional<Finished> finished;
  if (applied.result.has_value() || applied.entry.has_closed()) {
    const absl::Time ended = FromTimestamp(applied.entry.at());
    // A practice game is never rated: nothing goes to the outbox.
    finished =
        Finished{.finished_us = Micros(ended),
                 .match_id = table->session->match_id(),
                 .record_match_request_bytes =
                     table->session->practice()
                         ? std::string()
                         : MatchResultOf(*table->session, table->ruleset, table->created_at, ended)
                               .SerializeAsString()};
    table->finished_at = ended;
    CountFinished(*table);
    if (table->session->practice()) {
      practice_budget_.Release(table->practice_player, table->session->match_id());
    }
  }
  const absl::Status queued = log_->Append(
      table->table_id, table->owner_epoch, applied.entry.seq(), applied.entry.SerializeAsString(),
      finished, [this, table, applied, then](const WriteOutcome& written) {
        OnDurable(table, applied, written, then);
      });
  // The log is shut down: nothing was queued, and nothing will call back.
  if (!queued.ok()) Refused(*table, queued, then);
}

void TableHost::Refused(LiveTable& table, const absl::Status& refusal,
                        const std::function<void(absl::Status)>& then) {
  if (!table.broken) {
    common::LogError("table log write refused; the table stops",
                     {{"table", table.table_id}, {"error", std::string(refusal.message())}});
  }
  Stop(table, "the table is unavailable");
  if (then) then(absl::UnavailableError("the table could not store the move"));
}

void TableHost::OnDurable(const TablePtr& table, const AppliedEntry& applied,
                          const WriteOutcome& written,
                          const std::function<void(absl::Status)>& then) {
  const absl::Status& status = written.status;
  if (written.fenced) {
    // Another host claimed the table: it serves the move's retry from the log it replayed. The
    // caller hears of it once this host has let the table go, so a retry here finds it gone.
    LetGo(table);
    if (then) {
      TableLock lock(*table);  // where every continuation runs (its answer waits for the release)
      then(absl::UnavailableError("the table moved to another host; retry"));
    }
    return;
  }
  TableLock lock(*table);
  if (!status.ok()) {
    Refused(*table, status, then);
    return;
  }
  table->durable_seq = applied.entry.seq();
  CountEntry(*metrics_, table->ruleset, applied);
  if (applied.result.has_value()) {
    CountFinishedGame(*metrics_, table->ruleset, table->session->practice(), *applied.result,
                      table->session->SeatOutcomes(),
                      FromTimestamp(applied.entry.at()) - table->created_at);
  }
  CountPlayers(*table, table->session->SeatedPlayers());
  Broadcast(*table, applied);
  if (then) then(absl::OkStatus());
  if (table->durable_seq == table->session->seq()) {
    std::vector<std::function<void(absl::Status)>> waiters;
    waiters.swap(table->waiters);
    for (auto& waiter : waiters) waiter(absl::OkStatus());
  }
}

void TableHost::CountPlayers(LiveTable& table, int players) {
  if (players == table.players_counted) return;
  prometheus::Gauge& gauge = metrics_->players_at_tables.Add({{"ruleset", table.ruleset}});
  if (players > table.players_counted) {
    gauge.Increment(players - table.players_counted);
  } else {
    gauge.Decrement(table.players_counted - players);
  }
  table.players_counted = players;
}

void TableHost::WhenDurable(const TablePtr& table, std::function<void(absl::Status)> fn) {
  if (table->broken) {
    fn(absl::UnavailableError("the table is unavailable"));
  } else if (table->durable_seq == table->session->seq()) {
    fn(absl::OkStatus());
  } else {
    table->waiters.push_back(std::move(fn));
  }
}

void TableHost::Reschedule(const TablePtr& table) {
  absl::Time next;
  {
    TableLock lock(*table);
    next = table->session->over() ? table->finished_at + LingerFor(*table)
                                  : table->session->NextDeadline();
    if (table->session->practice() && !table->session->over()) {
      // At most one look a second once due: an expiry that changes nothing (a seat resigned
      // already) must not spin the clock thread.
      const absl::Time expiry = std::max(
          table->session->last_entry_at() + settings_.practice_idle_expiry,
          std::min(next, clock_->Now() + absl::Seconds(1)));
      next = std::min(next, expiry);
    }
    // A finished table is forgotten only once its last stream is gone and its end is durable;
    // until then look again later rather than at once (a past time would spin the clock thread).
    if (table->session->over() &&
        (!table->streams.empty() || table->durable_seq != table->session->seq())) {
      next = std::max(next, clock_->Now() + absl::Seconds(1));
    }
    if (table->broken || next == table->scheduled_at) return;
    table->scheduled_at = next;
  }
  if (next == absl::InfiniteFuture()) return;
  timers_.Schedule(next, table->table_id);
}

void TableHost::RunDue(const TablePtr& table, absl::Time now) {
  bool forget = false;
  {
    TableLock lock(*table);
    if (table->scheduled_at > now) return;  // a stale wakeup: a later one is queued
    table->scheduled_at = absl::InfiniteFuture();
    if (table->broken) return;
    if (table->session->over()) {
      // Only once its end is durable: the calls waiting for it are answered from here.
      forget = now >= table->finished_at + LingerFor(*table) && table->streams.empty() &&
               table->durable_seq == table->session->seq();
    } else {
      ExpireIdlePractice(table, now);
      for (const AppliedEntry& applied : table->session->Due(now)) Persist(table, applied, nullptr);
    }
  }
  if (forget) {
    Forget(table);
    return;
  }
  Reschedule(table);
}

void TableHost::BeginShutdown(bool release) {
  draining_ = true;
  timers_.Stop();
  // What was accepted is committed before the streams end, so nothing sent is ever lost. Real
  // time, not clock_: this waits on the database, and a simulated clock would never let it end.
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (log_->PendingWrites() > 0 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(5));
  // Handed off once nothing more can be written: the hosts that claim them replay complete logs.
  if (release) {
    if (auto released = log_->Release(); released.ok()) {
      common::LogInfo("tables handed off", {{"tables", absl::StrCat(*released)}});
    } else {
      // They are claimed once this host's lease lapses instead.
      common::LogWarning("handing off tables failed",
                         {{"error", std::string(released.status().message())}});
    }
  }
  std::vector<TablePtr> tables;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, table] : tables_) tables.push_back(table);
  }
  for (const TablePtr& table : tables) {
    TableLock lock(*table);
    for (UpdateStream* stream : table->streams) {
      stream->End(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                               "the table host is shutting down; reconnect with after_seq"));
    }
  }
}

std::vector<v1::TableSummary> TableHost::ListTables(const std::string& after_id, int limit) {
  std::vector<TablePtr> tables;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, table] : tables_) {
      if (id > after_id) tables.push_back(table);
    }
  }
  std::sort(tables.begin(), tables.end(),
            [](const TablePtr& a, const TablePtr& b) { return a->table_id < b->table_id; });
  if (tables.size() > static_cast<size_t>(limit)) tables.resize(limit);
  std::vector<v1::TableSummary> out;
  for (const TablePtr& table : tables) {
    TableLock lock(*table);
    out.push_back(table->session->Summary());
  }
  return out;
}

absl::StatusOr<v1::Replay> TableHost::GetReplay(const std::string& table_id, bool admin) {
  if (const TablePtr table = Find(table_id)) {
    TableLock lock(*table);
    if (!table->session->over() && !admin) {
      return absl::FailedPreconditionError("the game is not over; its replay comes at the end");
    }
    return table->session->ReplayRecord();
  }
  auto stored = log_->LoadTable(table_id);
  if (!stored.ok()) return stored.status();
  auto session = SessionFromLog(*stored);
  if (!session.ok()) return session.status();
  if (!(*session)->over() && !admin) {
    return absl::FailedPreconditionError("the game is not over; its replay comes at the end");
  }
  return (*session)->ReplayRecord();
}

}  // namespace kahve::table
