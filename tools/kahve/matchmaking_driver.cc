#include "tools/kahve/matchmaking_driver.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/status.h"

namespace kahve::tools {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kChannels = kMatchmakingLoadChannels;
constexpr absl::Duration kEnqueueDeadline = absl::Seconds(10);
// A lane whose ticket failed waits this long, so a server that refuses everything is not spun on.
constexpr auto kFailureBackoff = std::chrono::milliseconds(100);
// The queue: 2-player Liar's dice, so two tickets make a table.
constexpr int kSeats = 2;

double MsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// What the run keeps of a ticket once it is gone.
struct TicketEnd {
  int lane = 0;
  std::string ticket_id;  // empty when the Enqueue failed
  std::string bearer;
  Clock::time_point sent;
  bool has_outcome = false;
};

class MatchmakingLoad {
 public:
  explicit MatchmakingLoad(const MatchmakingLoadSettings& settings);
  // Returns once every ticket of the run is destroyed; the stubs (and with them the channels) go
  // with this object, on the caller's thread.
  MatchmakingLoadReport Run();

 private:
  // One virtual player's ticket: Enqueue, then WatchTicket until the stream ends. Deletes itself,
  // then reports its end (see Finish).
  class Ticket;
  struct Leftover {
    std::string ticket_id;
    std::string bearer;
  };

  // Starts each lane whose ticket has ended, until the window closes. On this thread, not in a
  // completion, so no lane recurses through calls that fail at once.
  void Drive() ABSL_LOCKS_EXCLUDED(mu_);
  void Start(int lane, int64_t number);
  void Matched(const Ticket& ticket, const v1::TicketUpdate& update, Clock::time_point at)
      ABSL_LOCKS_EXCLUDED(mu_);
  // A ticket is gone (its contexts destroyed): its lane is free again. The last thing a ticket's
  // callback does with this object.
  void Ended(const TicketEnd& ticket, const grpc::Status& status, const std::string& failure)
      ABSL_LOCKS_EXCLUDED(mu_);
  void CountFailure(const std::string& what, const std::string& message, Clock::time_point at)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool InWindow(Clock::time_point at) const { return at >= window_start_ && at < window_end_; }
  void CancelLeftovers();
  std::string Bearer(const std::string& player) const;
  v1::MatchmakingService::Stub& StubFor(int lane) { return *stubs_[lane % kChannels]; }

  const MatchmakingLoadSettings settings_;
  std::string run_;
  std::vector<std::unique_ptr<v1::MatchmakingService::Stub>> stubs_;
  Clock::time_point window_start_;
  Clock::time_point window_end_;
  // Every call's deadline is at most this, so every lane has ended by then.
  std::chrono::system_clock::time_point stop_at_;

  absl::Mutex mu_;
  int64_t next_player_ ABSL_GUARDED_BY(mu_) = 0;
  // Lanes still running. A lane ends only after its last ticket is destroyed, so at 0 no ticket
  // (no ClientContext, no reactor) of the run is left.
  int lanes_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<int> ready_ ABSL_GUARDED_BY(mu_);
  std::multimap<Clock::time_point, int> delayed_ ABSL_GUARDED_BY(mu_);
  std::set<std::pair<std::string, int>> seats_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> tables_ ABSL_GUARDED_BY(mu_);
  std::vector<Leftover> leftovers_ ABSL_GUARDED_BY(mu_);
  MatchmakingLoadReport report_ ABSL_GUARDED_BY(mu_);
};
class MatchmakingLoad::Ticket : public grpc::ClientReadReactor<v1::TicketUpdate> {
 public:
  Ticket(MatchmakingLoad* owner, int lane, std::string player, std::string bearer)
      : owner_(owner), lane_(lane), player_(std::move(player)), bearer_(std::move(bearer)) {}

  void Enqueue() {
    enqueue_context_.AddMetadata("authorization", bearer_);
    enqueue_context_.set_deadline(
        std::min(owner_->stop_at_,
                 std::chrono::system_clock::now() + absl::ToChronoMilliseconds(kEnqueueDeadline)));
    enqueue_request_.mutable_settings()->mutable_liars_dice()->set_players(kSeats);
    enqueue_request_.set_request_id(player_);
    sent_ = Clock::now();
    owner_->StubFor(lane_).async()->Enqueue(&enqueue_context_, &enqueue_request_,
                                            &enqueue_response_,
                                            [this](grpc::Status status) { OnEnqueued(status); });
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // the stream is over: OnDone has its status
    const auto received = Clock::now();
    const v1::TicketUpdate::State state = update_.state();
    if (state == v1::TicketUpdate::MATCHED && !outcome_) owner_->Matched(*this, update_, received);
    if (state != v1::TicketUpdate::QUEUED && !outcome_) outcome_ = state;
    // The server ends the stream after a final state; reading on sees that end.
    StartRead(&update_);
  }

  void OnDone(const grpc::Status& status) override {
    std::string failure;
    if (outcome_ == v1::TicketUpdate::EXPIRED) {
      failure = "watch:EXPIRED";
    } else if (outcome_ == v1::TicketUpdate::CANCELLED) {
      failure = "watch:CANCELLED";
    } else if (!outcome_ && status.ok()) {
      failure = "watch:ended_without_final_state";
    } else if (!outcome_ && status.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED) {
      // DEADLINE_EXCEEDED is the run's stop (every watch's deadline): unfinished, not failed.
      failure = absl::StrCat("watch:", common::GrpcCodeName(status.error_code()));
    }
    Finish(status, failure);
  }

  const std::string& ticket_id() const { return enqueue_response_.ticket_id(); }
  Clock::time_point sent() const { return sent_; }

 private:
  void OnEnqueued(const grpc::Status& status) {
    if (!status.ok()) {
      Finish(status, absl::StrCat("enqueue:", common::GrpcCodeName(status.error_code())));
      return;
    }
    watch_context_.AddMetadata("authorization", bearer_);
    watch_context_.set_deadline(owner_->stop_at_);
    watch_request_.set_ticket_id(enqueue_response_.ticket_id());
    owner_->StubFor(lane_).async()->WatchTicket(&watch_context_, &watch_request_, this);
    StartRead(&update_);
    StartCall();
  }

  // The ticket's last word. It is destroyed first, then its end reported: once reported, its
  // lane may end, the run return and the load release the channels, so no context of the ticket
  // (each holds a reference to its channel) may be left by then; the last reference dropped here,
  // on a callback thread, would tear down the channel under the callback. `status` and `failure`
  // belong to the caller, not to the ticket.
  void Finish(const grpc::Status& status, const std::string& failure) {
    MatchmakingLoad* const owner = owner_;
    const TicketEnd end{.lane = lane_,
                        .ticket_id = enqueue_response_.ticket_id(),
                        .bearer = bearer_,
                        .sent = sent_,
                        .has_outcome = outcome_ != 0};
    delete this;
    owner->Ended(end, status, failure);
  }

  MatchmakingLoad* const owner_;
  const int lane_;
  const std::string player_;
  const std::string bearer_;
  Clock::time_point sent_;
  grpc::ClientContext enqueue_context_;
  v1::EnqueueRequest enqueue_request_;
  v1::EnqueueResponse enqueue_response_;
  grpc::ClientContext watch_context_;
  v1::WatchTicketRequest watch_request_;
  v1::TicketUpdate update_;
  // The first state other than QUEUED, or 0.
  int outcome_ = 0;
};

MatchmakingLoad::MatchmakingLoad(const MatchmakingLoadSettings& settings) : settings_(settings) {
  absl::BitGen bits;
  // Fresh players every run, so no earlier run's active ticket gets in the way.
  run_ = absl::StrCat(absl::Hex(absl::Uniform<uint32_t>(bits), absl::kZeroPad8));
  for (int i = 0; i < kChannels; ++i) {
    grpc::ChannelArguments args;
    // A channel of its own (not a shared subchannel), and args that differ, so one connection each.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetInt("kahve.load_channel", i);
    stubs_.push_back(v1::MatchmakingService::NewStub(
        OpenLoadChannel(settings_.channel_factory, settings_.target, args)));
  }
}

std::string MatchmakingLoad::Bearer(const std::string& player) const {
  common::TokenClaims claims;
  claims.subject = player;
  // Issuer and audience as the service checks them, when configured.
  claims.issuer = settings_.jwt_issuer;
  claims.audience = settings_.jwt_audience;
  claims.issued_at = absl::Now();
  claims.expires_at = claims.issued_at + absl::Hours(1);
  return absl::StrCat("Bearer ", common::MintHs256Token(settings_.jwt_secret, claims));
}

MatchmakingLoadReport MatchmakingLoad::Run() {
  const auto start = Clock::now();
  window_start_ = start + absl::ToChronoMilliseconds(settings_.warmup);
  window_end_ = window_start_ + absl::ToChronoMilliseconds(settings_.length);
  stop_at_ = std::chrono::system_clock::now() +
             absl::ToChronoMilliseconds(settings_.warmup + settings_.length + settings_.drain);
  {
    absl::MutexLock lock(&mu_);
    lanes_ = settings_.concurrency;
    for (int lane = 0; lane < settings_.concurrency; ++lane) ready_.push_back(lane);
  }
  Drive();
  CancelLeftovers();
  absl::MutexLock lock(&mu_);
  report_.matched.seconds = absl::ToDoubleSeconds(settings_.length);
  report_.tables = static_cast<int64_t>(tables_.size());
  return report_;
}

void MatchmakingLoad::Drive() {
  for (;;) {
    std::vector<std::pair<int, int64_t>> starts;  // (lane, player number)
    {
      absl::MutexLock lock(&mu_);
      if (lanes_ == 0) return;
      mu_.AwaitWithTimeout(absl::Condition(
                               +[](std::vector<int>* ready) { return !ready->empty(); }, &ready_),
                           absl::Milliseconds(5));
      const auto now = Clock::now();
      while (!delayed_.empty() && delayed_.begin()->first <= now) {
        ready_.push_back(delayed_.begin()->second);
        delayed_.erase(delayed_.begin());
      }
      for (const int lane : ready_) {
        if (now >= window_end_) {
          --lanes_;
        } else {
          starts.emplace_back(lane, next_player_++);
        }
      }
      ready_.clear();
      report_.enqueued += static_cast<int64_t>(starts.size());
    }
    for (const auto& [lane, number] : starts) Start(lane, number);
  }
}

void MatchmakingLoad::Start(int lane, int64_t number) {
  std::string player = absl::StrCat("mmload-", run_, "-", number);
  std::string bearer = Bearer(player);
  auto* ticket = new Ticket(this, lane, std::move(player), std::move(bearer));
  ticket->Enqueue();
}

void MatchmakingLoad::Matched(const Ticket& ticket, const v1::TicketUpdate& update,
                              Clock::time_point at) {
  const v1::Assignment& assignment = update.assignment();
  const bool good = update.ticket_id() == ticket.ticket_id() && !assignment.table_id().empty() &&
                    !assignment.table_endpoint().empty() && !assignment.seat_token().empty() &&
                    assignment.seat() >= 0 && assignment.seat() < kSeats;
  const double ms = MsBetween(ticket.sent(), at);
  absl::MutexLock lock(&mu_);
  ++report_.matched_total;
  report_.max_ms = std::max(report_.max_ms, ms);
  if (!good) {
    ++report_.bad_assignments;
    if (report_.first_error.empty()) {
      report_.first_error = absl::StrCat("bad assignment: ", update.ShortDebugString());
    }
  }
  // A seat without a table is a bad assignment already, not also a duplicate.
  if (!assignment.table_id().empty()) {
    if (!seats_.emplace(assignment.table_id(), assignment.seat()).second) ++report_.duplicate_seats;
    tables_.insert(assignment.table_id());
  }
  if (InWindow(at)) {
    ++report_.matched.done;
    report_.matched.latencies_ms.push_back(ms);
  }
}

void MatchmakingLoad::Ended(const TicketEnd& ticket, const grpc::Status& status,
                            const std::string& failure) {
  const auto now = Clock::now();
  absl::MutexLock lock(&mu_);
  if (!failure.empty()) {
    CountFailure(failure, status.error_message(), now);
    delayed_.emplace(now + kFailureBackoff, ticket.lane);
    return;
  }
  ready_.push_back(ticket.lane);
  if (!ticket.has_outcome && !ticket.ticket_id.empty()) {
    ++report_.unfinished;
    report_.oldest_unfinished_ms =
        std::max(report_.oldest_unfinished_ms, MsBetween(ticket.sent, now));
    leftovers_.push_back({ticket.ticket_id, ticket.bearer});
  }
}

void MatchmakingLoad::CountFailure(const std::string& what, const std::string& message,
                                   Clock::time_point at) {
  ++report_.failures[what];
  if (InWindow(at)) ++report_.matched.failed;
  if (report_.first_error.empty()) report_.first_error = absl::StrCat(what, ": ", message);
}

// Takes the tickets still queued out of the queue, so the next pass does not seat them. The calls'
// buffers belong to this frame, which outlives them: a callback's last act is the unlock after
// counting itself done, and this thread destroys the contexts once all have.
void MatchmakingLoad::CancelLeftovers() {
  std::vector<Leftover> leftovers;
  {
    absl::MutexLock lock(&mu_);
    leftovers.swap(leftovers_);
  }
  struct Cancel {
    grpc::ClientContext context;
    v1::CancelTicketRequest request;
    v1::CancelTicketResponse response;
  };
  std::vector<Cancel> cancels(leftovers.size());
  int pending = static_cast<int>(leftovers.size());
  int cancelled = 0;
  for (size_t i = 0; i < leftovers.size(); ++i) {
    Cancel& cancel = cancels[i];
    cancel.context.AddMetadata("authorization", leftovers[i].bearer);
    cancel.context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    cancel.request.set_ticket_id(leftovers[i].ticket_id);
    StubFor(static_cast<int>(i))
        .async()
        ->CancelTicket(&cancel.context, &cancel.request, &cancel.response,
                       [&](grpc::Status status) {
                         absl::MutexLock lock(&mu_);
                         // FAILED_PRECONDITION: a pass took it meanwhile; it is no longer waiting
                         // either way.
                         if (status.ok()) ++cancelled;
                         --pending;
                       });
  }
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](int* left) { return *left == 0; }, &pending));
  report_.cancelled_at_end = cancelled;
}

}  // namespace

MatchmakingLoadReport RunMatchmakingLoad(const MatchmakingLoadSettings& settings) {
  MatchmakingLoad load(settings);
  return load.Run();
}

}  // namespace kahve::tools
