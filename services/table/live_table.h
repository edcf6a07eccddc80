#ifndef KAHVE_SERVICES_TABLE_LIVE_TABLE_H_
#define KAHVE_SERVICES_TABLE_LIVE_TABLE_H_

// One table as its host keeps it, and the helpers its calls share (private to TableHost's files).

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/table/table_host.h"

namespace kahve::table {

struct TableHost::LiveTable {
  absl::Mutex mu;
  std::unique_ptr<TableSession> session ABSL_GUARDED_BY(mu);
  std::string table_id;
  std::string ruleset;
  // Identifies the creation request, for answering CreateTable retries.
  std::string create_fingerprint;
  absl::Time created_at;
  // Every entry up to this seq is committed; the session may be ahead by what is in flight.
  uint64_t durable_seq ABSL_GUARDED_BY(mu) = 0;
  std::vector<UpdateStream*> streams ABSL_GUARDED_BY(mu);
  // Run once durable_seq catches up with the session (views and snapshots wait for that).
  std::vector<std::function<void()>> waiters ABSL_GUARDED_BY(mu);
  absl::Time scheduled_at ABSL_GUARDED_BY(mu) = absl::InfiniteFuture();
  absl::Time finished_at ABSL_GUARDED_BY(mu) = absl::InfiniteFuture();
  // A write to the log was refused: the table takes nothing more until reloaded.
  bool broken ABSL_GUARDED_BY(mu) = false;
};

template <typename Response>
void TableHost::AnswerWhenDurable(const TablePtr& table, const std::optional<AppliedEntry>& applied,
                                  Response response,
                                  std::function<void(absl::StatusOr<Response>)> done) {
  if (!applied.has_value()) {
    // A repeat that changed nothing: answered once what it repeats is durable.
    WhenDurable(table, [done, response] { done(response); });
    return;
  }
  Persist(table, *applied, [done, response](absl::Status status) {
    if (status.ok()) {
      done(response);
    } else {
      done(status);
    }
  });
}

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_LIVE_TABLE_H_
