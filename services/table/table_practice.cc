// TableHost's practice calls: opening a practice table for a player, and pausing, resuming,
// undoing and redoing at one (docs/practice.md); and the closing of idle practice tables (expiry,
// and eviction when the host's budget is full). The session does the work; this file checks the
// caller and answers once the change is durable, like every other change.

#include <utility>
#include <vector>

#include "services/common/logging.h"
#include "services/table/table_creation.h"
#include "services/table/table_host.h"
#include "services/table/table_seat_change.h"
#include "services/table/table_session.h"

namespace kahve::table {

void TableHost::SetEndpoint(std::string endpoint) {
  absl::MutexLock lock(&mu_);
  endpoint_ = std::move(endpoint);
}

void TableHost::CreatePracticeTable(const common::Identity& caller,
                                    const v1::CreatePracticeTableRequest& request,
                                    PracticeCreateDone done) {
  absl::StatusOr<v1::CreateTableRequest> table = PracticeTableRequest(caller, request);
  if (!table.ok()) {
    done(table.status());
    return;
  }
  std::string endpoint;
  {
    absl::MutexLock lock(&mu_);
    endpoint = endpoint_;
  }
  // Counted from before its creation, so a flood of creations cannot pass the budget.
  if (absl::Status reserved =
          practice_budget_.Reserve(caller.subject, table->match_id(), /*force=*/false,
                                   [this] { return EvictIdlestPractice(clock_->Now()); });
      !reserved.ok()) {
    done(reserved);
    return;
  }
  OpenTable(*table, /*practice=*/true,
            [this, done, endpoint, player = caller.subject, match_id = table->match_id(),
             seat = request.seat()](CreateOutcome outcome) {
              absl::StatusOr<v1::CreateTableResponse>& created = outcome.created;
              if (!created.ok()) {
                // Not created. ALREADY_EXISTS: another request under the same request id holds
                // the table, and the place it counts in.
                if (!absl::IsAlreadyExists(created.status())) {
                  practice_budget_.Release(player, match_id);
                }
                done(created.status());
                return;
              }
              v1::CreatePracticeTableResponse response;
              response.set_table_id(created->table_id());
              for (const auto& grant : created->seats()) {
                if (grant.seat_token().empty()) continue;  // a bot's seat
                *response.add_seats() = grant;
                if (grant.seat() != seat) continue;
                response.set_seat(grant.seat());
                response.set_seat_token(grant.seat_token());
              }
              response.set_table_endpoint(endpoint);
              done(std::move(response));
            });
}

void TableHost::Practice(const TablePtr& table, const common::Identity& caller,
                         const v1::PracticeRequest& request, v1::PracticeChange::Kind kind,
                         std::function<void(absl::StatusOr<v1::PracticeResponse>)> done) {
  const std::optional<uint64_t> expected_seq =
      request.has_expected_seq() ? std::optional<uint64_t>(request.expected_seq()) : std::nullopt;
  ChangeForSeat<v1::PracticeResponse>(
      table, caller, request.seat_token(),
      [kind, expected_seq, clock = clock_](TableSession& session, int seat)
          -> absl::StatusOr<SeatChangeAnswer<v1::PracticeResponse>> {
        auto changed = session.Practice(seat, kind, expected_seq, clock->Now());
        if (!changed.ok()) return changed.status();
        SeatChangeAnswer<v1::PracticeResponse> answer;
        answer.applied = std::move(changed->applied);
        answer.response.set_seq(changed->seq);
        *answer.response.mutable_view() = session.game().View(seat);
        *answer.response.mutable_practice() = session.PracticeState();
        return answer;
      },
      std::move(done));
}

void TableHost::ExpireIdlePractice(const TablePtr& table, absl::Time now) {
  TableSession& session = *table->session;
  if (!session.practice() || session.over() || table->practice_seat < 0) return;
  if (now < session.last_entry_at() + settings_.practice_idle_expiry) return;
  // Closed, not resigned: bots playing out a game nobody watches would only fill the log.
  auto closed = session.Close(v1::TableClosed::PRACTICE_EXPIRED, now);
  if (!closed.ok()) return;
  metrics_->practice_expired.Increment();
  common::LogInfo("idle practice table closed", {{"table", table->table_id}});
  Persist(table, *closed, nullptr);
}

bool TableHost::EvictIdlestPractice(absl::Time now) {
  std::vector<TablePtr> tables;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, table] : tables_) {
      if (!table->practice_player.empty()) tables.push_back(table);
    }
  }
  TablePtr idlest;
  absl::Time idle_since = now - settings_.practice_min_idle_to_evict;
  for (const TablePtr& table : tables) {
    TableLock lock(*table);
    if (table->broken || table->session->over()) continue;
    if (table->session->last_entry_at() < idle_since) {
      idle_since = table->session->last_entry_at();
      idlest = table;
    }
  }
  if (idlest == nullptr) return false;
  {
    TableLock lock(*idlest);
    // It may have moved or ended since it was picked: then look no further this time.
    if (idlest->broken || idlest->session->over() ||
        idlest->session->last_entry_at() != idle_since) {
      return false;
    }
    auto closed = idlest->session->Close(v1::TableClosed::PRACTICE_EVICTED, now);
    if (!closed.ok()) return false;
    common::LogInfo("idle practice table closed to make room", {{"table", idlest->table_id}});
    Persist(idlest, *closed, nullptr);  // releases its place in the practice budget at once
  }
  Reschedule(idlest);  // the clock forgets it once its linger is over
  return true;
}

}  // namespace kahve::table
