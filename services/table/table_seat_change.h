#ifndef KAHVE_SERVICES_TABLE_TABLE_SEAT_CHANGE_H_
#define KAHVE_SERVICES_TABLE_TABLE_SEAT_CHANGE_H_

// TableHost::ChangeForSeat, the path a seat's own change (a resignation, a practice call) takes:
// a template, so the files that use it include it (private to TableHost's files).

#include <functional>
#include <optional>
#include <string>

#include "absl/synchronization/mutex.h"
#include "services/table/live_table.h"
#include "services/table/table_host.h"

namespace kahve::table {

template <typename Response>
void TableHost::ChangeForSeat(
    const TablePtr& table, const common::Identity& caller, const std::string& seat_token,
    std::function<absl::StatusOr<SeatChangeAnswer<Response>>(TableSession& session, int seat)>
        change,
    std::function<void(absl::StatusOr<Response>)> caller_done) {
  const auto done = AnswerAfterUnlock(table, std::move(caller_done));
  {
    TableLock lock(*table);
    if (table->broken) {
      done(absl::UnavailableError("the table is unavailable"));
      return;
    }
    auto seat = SeatFor(*table, caller, seat_token);
    if (!seat.ok()) {
      done(seat.status());
      return;
    }
    if (draining_) {
      done(absl::UnavailableError("the table host is shutting down; try again shortly"));
      return;
    }
    absl::StatusOr<SeatChangeAnswer<Response>> changed = change(*table->session, *seat);
    if (!changed.ok()) {
      done(changed.status());
      return;
    }
    if (!changed->applied.has_value()) {
      // A repeat that changed nothing: answered once what it repeats is durable.
      WhenDurable(table, [done, response = changed->response](absl::Status durable) {
        if (durable.ok()) {
          done(response);
        } else {
          done(durable);
        }
      });
    } else {
      Persist(table, *changed->applied, [done, response = changed->response](absl::Status status) {
        if (status.ok()) {
          done(response);
        } else {
          done(status);
        }
      });
    }
  }
  Reschedule(table);
}

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_SEAT_CHANGE_H_
