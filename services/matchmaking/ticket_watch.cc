#include "services/matchmaking/ticket_watch.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/time_util.h"
#include "services/common/connection_gate.h"
#include "services/common/logging.h"
#include "services/common/status.h"

namespace kahve::matchmaking {
namespace {

// Queue size and expected wait change with every pass; a waiting client needs them now and then,
// not a write per pass (with thousands waiting, those writes were most of the service's work).
constexpr absl::Duration kQueuedRefresh = absl::Seconds(2);

}  // namespace

class TicketWatchers::Stream : public grpc::ServerWriteReactor<v1::TicketUpdate> {
 public:
  Stream(TicketWatchers* owner, std::string ticket_id, std::string player, std::string peer)
      : owner_(owner),
        ticket_id(std::move(ticket_id)),
        player(std::move(player)),
        peer(std::move(peer)) {}

  // Writes the update unless it repeats the last one, or only refreshes the queue figures of a
  // QUEUED written less than kQueuedRefresh ago; an update offered while a write is in flight
  // replaces any other still waiting (only the newest state matters).
  void Offer(const v1::TicketUpdate& update, absl::Time now) {
    bool write_now = false;
    {
      absl::MutexLock lock(&mu_);
      if (done_) return;
      const bool queued = update.state() == v1::TicketUpdate::QUEUED;
      if (queued && last_queued_ + kQueuedRefresh > now) return;
      const std::string bytes = update.SerializeAsString();
      if (bytes == last_offered_) return;
      last_offered_ = bytes;
      if (queued) last_queued_ = now;
      if (writing_) {
        pending_ = update;
      } else {
        writing_ = write_now = true;
        current_ = update;
      }
    }
    if (write_now) StartWrite(&current_);
  }

  // Ends the stream (after the write in flight, if any).
  void End(const grpc::Status& status) {
    {
      absl::MutexLock lock(&mu_);
      if (done_) return;
      done_ = true;
      if (writing_) {
        end_status_ = status;
        return;
      }
    }
    Finish(status);
  }

  void OnWriteDone(bool ok) override {
    std::optional<grpc::Status> finish;
    bool write_next = false;
    {
      absl::MutexLock lock(&mu_);
      writing_ = false;
      if (!ok) {
        done_ = true;
        finish = grpc::Status(grpc::StatusCode::CANCELLED, "stream closed");
      } else if (end_status_.has_value()) {
        finish = end_status_;
      } else if (IsFinal(current_.state())) {
        done_ = true;
        finish = grpc::Status::OK;
      } else if (pending_.has_value()) {
        current_ = *std::move(pending_);
        pending_.reset();
        writing_ = write_next = true;
      }
    }
    if (finish.has_value()) {
      Finish(*finish);
    } else if (write_next) {
      StartWrite(&current_);
    }
  }

  void OnCancel() override { End(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled")); }

  void OnDone() override {
    owner_->Remove(this);
    delete this;
  }

  TicketWatchers* const owner_;
  const std::string ticket_id;
  const std::string player;
  // The client connection, whose stream budget the stream holds until OnDone.
  const std::string peer;

 private:
  static bool IsFinal(v1::TicketUpdate::State state) {
    return state == v1::TicketUpdate::MATCHED || state == v1::TicketUpdate::EXPIRED ||
           state == v1::TicketUpdate::CANCELLED;
  }

  absl::Mutex mu_;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  std::string last_offered_ ABSL_GUARDED_BY(mu_);
  absl::Time last_queued_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  // Written only while no write is in flight; gRPC reads it during the write.
  v1::TicketUpdate current_;
  std::optional<v1::TicketUpdate> pending_ ABSL_GUARDED_BY(mu_);
  std::optional<grpc::Status> end_status_ ABSL_GUARDED_BY(mu_);
};

QueueFigures ReadQueueFigures(MatchmakingStore& store, const std::string& queue_key,
                              absl::Time since) {
  auto sizes = store.queues.Sizes(queue_key);
  auto expected = store.queues.ExpectedWaitSeconds(queue_key, since);
  return {.size = sizes.ok() ? sizes->waiting + sizes->placing : 0,
          .expected_wait_seconds = expected.ok() ? *expected : 0};
}

v1::TicketUpdate UpdateFor(const TicketRecord& ticket, const std::string& player,
                           const QueueFigures& figures) {
  v1::TicketUpdate update;
  update.set_ticket_id(ticket.ticket_id);
  *update.mutable_enqueued_at() =
      google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(ticket.enqueued_us);
  if (ticket.state == kWaiting || ticket.state == kPlacing) {
    update.set_state(v1::TicketUpdate::QUEUED);
    update.set_queue_size(figures.size);
    update.set_expected_wait_seconds(figures.expected_wait_seconds);
  } else if (ticket.state == kMatched) {
    update.set_state(v1::TicketUpdate::MATCHED);
    v1::Assignment& assignment = *update.mutable_assignment();
    assignment.set_table_id(ticket.table_id);
    assignment.set_table_endpoint(ticket.endpoint);
    assignment.set_match_id(ticket.match_id);
    for (size_t i = 0; i < ticket.players.size(); ++i) {
      if (ticket.players[i] != player) continue;
      assignment.set_seat(ticket.seats[i]);
      assignment.set_seat_token(ticket.seat_tokens[i]);
    }
  } else if (ticket.state == kExpired) {
    update.set_state(v1::TicketUpdate::EXPIRED);
  } else {
    update.set_state(v1::TicketUpdate::CANCELLED);
  }
  return update;
}

grpc::ServerWriteReactor<v1::TicketUpdate>* RefusedWatch(const grpc::Status& status) {
  class Refusal : public grpc::ServerWriteReactor<v1::TicketUpdate> {
   public:
    explicit Refusal(const grpc::Status& refusal) { Finish(refusal); }
    void OnDone() override { delete this; }
  };
  return new Refusal(status);
}

TicketWatchers::TicketWatchers(MatchmakingStore* store, absl::Duration poll, absl::Duration recent,
                               common::StreamBudget* budget, common::Clock* clock)
    : store_(store), budget_(budget), clock_(clock), poll_(poll), recent_(recent) {
  thread_ = std::thread([this] { Loop(); });
}

TicketWatchers::~TicketWatchers() { Shutdown(); }

std::string TicketWatchers::ConnectionKey(const grpc::ServerContextBase& context,
                                          const std::string& player) const {
  return common::StreamConnectionKey(budget_, context, player);
}

grpc::ServerWriteReactor<v1::TicketUpdate>* TicketWatchers::Open(const std::string& ticket_id,
                                                                 const std::string& player,
                                                                 const std::string& peer) {
  if (budget_ != nullptr) {
    if (absl::Status taken = budget_->Acquire(player, peer); !taken.ok()) {
      return RefusedWatch(common::ToGrpcStatus(taken));
    }
  }
  // From here the stream holds its budget, which its OnDone gives back.
  auto* stream = new Stream(this, ticket_id, player, peer);
  absl::MutexLock lock(&mu_);
  if (stopping_) {
    stream->End(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server shutting down"));
    return stream;
  }
  streams_.insert(stream);
  fresh_.insert(stream);
  return stream;
}

void TicketWatchers::Poke() {
  absl::MutexLock lock(&mu_);
  poked_ = true;
}

void TicketWatchers::Shutdown() {
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) return;
    stopping_ = true;
    for (Stream* stream : streams_) {
      stream->End(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                               "server shutting down; watch again to resume"));
    }
  }
  thread_.join();
}

int TicketWatchers::streams() {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(streams_.size());
}

void TicketWatchers::Remove(Stream* stream) {
  {
    absl::MutexLock lock(&mu_);
    streams_.erase(stream);
    fresh_.erase(stream);
  }
  if (budget_ != nullptr) budget_->Release(stream->player, stream->peer);
}

void TicketWatchers::Loop() {
  while (true) {
    std::vector<std::string> ticket_ids;
    {
      absl::MutexLock lock(&mu_);
      auto wake = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return poked_ || !fresh_.empty() || stopping_;
      };
      const bool woken = clock_->AwaitWithTimeout(&mu_, absl::Condition(&wake), poll_);
      if (stopping_) return;
      // New streams alone need only their own tickets read: with thousands of clients watching
      // and more arriving every millisecond, reading everyone's on each arrival was the loop's
      // whole cost. A pass's poke or the poll reads them all.
      const bool all = !woken || poked_;
      for (Stream* stream : all ? streams_ : fresh_) ticket_ids.push_back(stream->ticket_id);
      poked_ = false;
      fresh_.clear();
    }
    if (ticket_ids.empty()) continue;
    std::sort(ticket_ids.begin(), ticket_ids.end());
    ticket_ids.erase(std::unique(ticket_ids.begin(), ticket_ids.end()), ticket_ids.end());
    auto tickets = store_->tickets.GetTickets(ticket_ids);
    if (!tickets.ok()) {
      common::LogWarning("ticket watch poll failed",
                         {{"error", std::string(tickets.status().message())}});
      continue;
    }
    std::map<std::string, const TicketRecord*> by_id;
    const absl::Time now = clock_->Now();
    for (const TicketRecord& ticket : *tickets) {
      by_id[ticket.ticket_id] = &ticket;
      if (ticket.state != kWaiting && ticket.state != kPlacing) continue;
      // Rounds come as fast as streams open; a queue's figures are read at most once a poll.
      ReadFigures& read = figures_[ticket.queue_key];
      if (now - read.read_at < poll_) continue;
      read = {.figures = ReadQueueFigures(*store_, ticket.queue_key, now - recent_),
              .read_at = now};
    }
    // Queues nobody waits in any more are forgotten.
    std::erase_if(figures_,
                  [&](const auto& entry) { return now - entry.second.read_at > absl::Minutes(1); });
    absl::MutexLock lock(&mu_);
    for (Stream* stream : streams_) {
      // A stream opened after the read above is not in it (not NOT_FOUND): its opening poked the
      // loop, so the next round reads its ticket.
      if (!std::binary_search(ticket_ids.begin(), ticket_ids.end(), stream->ticket_id)) continue;
      const auto found = by_id.find(stream->ticket_id);
      if (found == by_id.end()) {
        stream->End(grpc::Status(grpc::StatusCode::NOT_FOUND,
                                 absl::StrCat("no ticket ", stream->ticket_id)));
        continue;
      }
      const TicketRecord& ticket = *found->second;
      if (std::find(ticket.players.begin(), ticket.players.end(), stream->player) ==
          ticket.players.end()) {
        stream->End(grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                                 "only the ticket's own players may watch it"));
        continue;
      }
      const auto read = figures_.find(ticket.queue_key);
      stream->Offer(UpdateFor(ticket, stream->player,
                              read == figures_.end() ? QueueFigures{} : read->second.figures),
                    now);
    }
  }
}

}  // namespace kahve::matchmaking
