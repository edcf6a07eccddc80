// TableHost's calls from clients: moves, resignations, views and streams.

#include "absl/strings/str_cat.h"
#include "services/table/table_broadcast.h"
#include "services/table/table_host.h"
#include "services/table/table_seat_change.h"

namespace kahve::table {
namespace {

absl::Status Draining() {
  return absl::UnavailableError("the table host is shutting down; reconnect with after_seq");
}

// A move's outcome label for kahve_moves_total.
const char* Outcome(const PlayResult& result) {
  if (result.status.ok()) return "accepted";
  return result.rejection.has_value() ? "rejected" : "invalid";
}

}  // namespace

absl::StatusOr<int> TableHost::SeatFor(const LiveTable& table, const common::Identity& caller,
                                       const std::string& seat_token) const {
  auto seat = table.session->SeatOf(seat_token);
  if (!seat.ok()) return seat.status();
  const absl::Status allowed = table.session->CheckPlayer(*seat, caller.subject);
  if (!allowed.ok()) return allowed;
  return seat;
}

void TableHost::Play(const TablePtr& table, const common::Identity& caller,
                     const v1::PlayRequest& request, absl::Time received, PlayDone caller_done) {
  const PlayDone done = AnswerAfterUnlock(table, std::move(caller_done));
  {
    TableLock lock(*table);
    if (table->broken) {
      done(absl::UnavailableError("the table is unavailable"), {}, std::nullopt);
      return;
    }
    auto seat = SeatFor(*table, caller, request.seat_token());
    if (!seat.ok()) {
      done(seat.status(), {}, std::nullopt);
      return;
    }
    // A draining host takes no more moves (BeginShutdown): the table's next host will.
    if (!request.dry_run() && draining_) {
      done(Draining(), {}, std::nullopt);
      return;
    }
    if (!request.dry_run() && log_->PendingWrites() > settings_.max_pending_writes) {
      done(absl::UnavailableError("the table host is overloaded; retry shortly"), {}, std::nullopt);
      return;
    }
    PlayResult result = table->session->Play(
        *seat, request.move(), request.request_id(),
        request.has_expected_seq() ? std::optional<uint64_t>(request.expected_seq()) : std::nullopt,
        request.dry_run(), clock_->Now());
    if (!request.dry_run() && !result.duplicate) {
      metrics_->moves.Add({{"ruleset", table->ruleset}, {"outcome", Outcome(result)}}).Increment();
    }
    v1::PlayResponse response;
    response.set_seq(result.seq);
    for (v1::Event& event : result.events) *response.add_events() = std::move(event);
    response.set_preview_truncated(result.preview_truncated);
    if (!result.status.ok()) {
      std::optional<v1::PlayRejection> rejection;
      if (result.rejection.has_value()) {
        rejection.emplace();
        *rejection->mutable_rejection() = *result.rejection;
        rejection->set_seq(result.seq);
      }
      done(result.status, {}, rejection);
      return;
    }
    if (request.dry_run()) {
      done(absl::OkStatus(), std::move(response), std::nullopt);
      return;
    }
    if (result.applied.has_value()) {
      Persist(table, *result.applied, [this, received, done, response](absl::Status status) {
        if (status.ok()) {
          // Real time, like `received`: the histogram measures the machine, not the game.
          metrics_->move_seconds.Observe(absl::ToDoubleSeconds(absl::Now() - received));
        }
        done(status, status.ok() ? response : v1::PlayResponse(), std::nullopt);
      });
    } else {
      // A retry: answered once the original is durable.
      WhenDurable(table, [done, response](absl::Status durable) {
        done(durable, durable.ok() ? response : v1::PlayResponse(), std::nullopt);
      });
    }
  }
  Reschedule(table);
}

void TableHost::Resign(const TablePtr& table, const common::Identity& caller,
                       const v1::ResignRequest& request,
                       std::function<void(absl::StatusOr<v1::ResignResponse>)> done) {
  ChangeForSeat<v1::ResignResponse>(
      table, caller, request.seat_token(),
      [clock = clock_](TableSession& session,
                       int seat) -> absl::StatusOr<SeatChangeAnswer<v1::ResignResponse>> {
        auto resigned = session.Resign(seat, clock->Now());
        if (!resigned.ok()) return resigned.status();
        SeatChangeAnswer<v1::ResignResponse> answer;
        answer.applied = std::move(resigned->applied);
        answer.response.set_seq(resigned->seq);
        return answer;
      },
      std::move(done));
}

template <typename Response>
void TableHost::AnswerForSeat(
    const TablePtr& table, const common::Identity& caller, const std::string& seat_token,
    std::function<absl::StatusOr<Response>(const LiveTable& table, int seat)> answer,
    std::function<void(absl::StatusOr<Response>)> caller_done) {
  const auto done = AnswerAfterUnlock(table, std::move(caller_done));
  TableLock lock(*table);
  auto seat = SeatFor(*table, caller, seat_token);
  if (!seat.ok()) {
    done(seat.status());
    return;
  }
  WhenDurable(table, [table, seat = *seat, answer = std::move(answer),
                      done = std::move(done)](absl::Status durable)
                         ABSL_EXCLUSIVE_LOCKS_REQUIRED(table->mu) {
    if (durable.ok()) {
      done(answer(*table, seat));
    } else {
      done(durable);
    }
  });
}

void TableHost::GetView(const TablePtr& table, const common::Identity& caller,
                        const v1::GetViewRequest& request,
                        std::function<void(absl::StatusOr<v1::GetViewResponse>)> done) {
  AnswerForSeat<v1::GetViewResponse>(
      table, caller, request.seat_token(),
      [](const LiveTable& table, int seat) ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu) {
        v1::GetViewResponse response;
        RecipientView now = table.session->ViewFor(seat);
        *response.mutable_view() = std::move(now.view);
        *response.mutable_legal_moves() = std::move(now.legal_moves);
        response.set_seq(table.session->seq());
        for (v1::SeatStatus& status : table.session->SeatStatuses()) {
          *response.add_seats() = std::move(status);
        }
        if (table.session->practice()) {
          *response.mutable_practice() = table.session->PracticeState();
        }
        if (const v1::DealCommitment* commitment = table.session->commitment()) {
          *response.mutable_commitment() = *commitment;
        }
        if (std::optional<v1::DealReveal> reveal = table.session->reveal()) {
          *response.mutable_reveal() = *std::move(reveal);
        }
        if (table.session->closed().has_value()) {
          *response.mutable_closed() = *table.session->closed();
        }
        return absl::StatusOr<v1::GetViewResponse>(std::move(response));
      },
      std::move(done));
}

void TableHost::GetHints(const TablePtr& table, const common::Identity& caller,
                         const v1::GetHintsRequest& request,
                         std::function<void(absl::StatusOr<v1::GetHintsResponse>)> done) {
  AnswerForSeat<v1::GetHintsResponse>(
      table, caller, request.seat_token(),
      [](const LiveTable& table, int seat)
          ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu) -> absl::StatusOr<v1::GetHintsResponse> {
            absl::StatusOr<v1::Hints> hints = table.session->game().Hints(seat);
            if (!hints.ok()) return hints.status();
            v1::GetHintsResponse response;
            *response.mutable_hints() = std::move(hints).value();
            response.set_seq(table.session->seq());
            return response;
          },
      std::move(done));
}

absl::Status TableHost::Connect(const TablePtr& table, const common::Identity& caller,
                                const v1::ConnectRequest& request, UpdateStream* stream) {
  {
    TableLock lock(*table);
    if (table->broken) return absl::UnavailableError("the table is unavailable");
    auto seat = SeatFor(*table, caller, request.seat_token());
    if (!seat.ok()) return seat.status();
    // BeginShutdown has ended this table's streams already, or will once this lock is released.
    if (draining_) return Draining();
    stream->set_seat(*seat);
    if (request.has_after_seq() && request.after_seq() > table->session->seq()) {
      return absl::OutOfRangeError(absl::StrCat("after_seq ", request.after_seq(),
                                                " is ahead of the table (seq ",
                                                table->session->seq(), ")"));
    }
    if (request.has_after_seq()) stream->after_seq = request.after_seq();
    stream->with_view = request.with_view();
    table->streams.push_back(stream);
    metrics_->streams_active.Increment();
    const absl::Time now = clock_->Now();
    if (auto back = table->session->StreamOpened(stream->seat(), stream->with_view, now)) {
      Persist(table, *back, nullptr);
    }
    // A table that stops first has ended the stream already.
    WhenDurable(table, [table, stream](absl::Status durable)
                           ABSL_EXCLUSIVE_LOCKS_REQUIRED(table->mu) {
      if (durable.ok()) StartStream(*table, stream);
    });
  }
  Reschedule(table);
  return absl::OkStatus();
}

void TableHost::Disconnect(const std::string& table_id, UpdateStream* stream) {
  const TablePtr table = Find(table_id);
  if (table == nullptr) return;
  {
    TableLock lock(*table);
    auto& streams = table->streams;
    const auto found = std::find(streams.begin(), streams.end(), stream);
    if (found == streams.end()) return;
    streams.erase(found);
    metrics_->streams_active.Decrement();
    table->session->StreamClosed(stream->seat(), stream->with_view, clock_->Now());
  }
  Reschedule(table);
}

}  // namespace kahve::table
