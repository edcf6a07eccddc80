#include "tools/kahve/table_driver.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "engine/core/rng.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/status.h"
#include "tools/kahve/matchmaking_seating.h"
#include "tools/kahve/table_bot.h"

namespace kahve::tools {
namespace {

using Clock = std::chrono::steady_clock;

// Long enough for a group commit under load; short enough that a call lost with a killed server
// is retried soon.
constexpr auto kCallDeadline = std::chrono::seconds(5);
constexpr absl::Duration kFirstBackoff = absl::Milliseconds(50);
constexpr absl::Duration kMaxBackoff = absl::Seconds(1);
constexpr absl::Duration kRetire = absl::InfiniteDuration();
// A slot refused this many times in a row is given up rather than looping on a bug.
constexpr int kMaxRefusals = 10;
// No Connect streams are opened, so without this the seats would count as away after the default
// 10 s and server bots would play them.
constexpr int kAwayGraceSeconds = 3600;
// Separate HTTP/2 connections, so the server spreads their calls over its threads.
constexpr int kChannels = 4;

bool Retryable(grpc::StatusCode code) {
  return code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED ||
         code == grpc::StatusCode::RESOURCE_EXHAUSTED;
}

// One call's buffers, alive until its completion callback, which deletes them before it hands the
// answer on (see TableDriver::Requeue).
template <typename Request, typename Response>
struct Call {
  explicit Call(const std::string& bearer) {
    context.AddMetadata("authorization", bearer);
    context.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
  }
  grpc::ClientContext context;
  Request request;
  Response response;
  Clock::time_point began = Clock::now();
};

class TableDriver {
 public:
  explicit TableDriver(const TableDriverSettings& settings);
  // Joins the seating threads.
  ~TableDriver();
  TableDriverReport Run();

 private:
  void NewGame(Slot& slot);
  // Starts the calls of ready slots while there is room.
  void Launch() ABSL_LOCKS_EXCLUDED(mu_);
  // Takes the slots Launch starts and counts them in flight.
  std::vector<Slot*> TakeStarts() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Starts the calls of slots counted in flight.
  void StartCalls(const std::vector<Slot*>& starting);
  void Create(Slot* slot);
  // Create's way with matchmaking: blocking calls, on a thread of their own.
  void SeatThroughMatchmaking(Slot* slot);
  void Sync(Slot* slot);
  void Play(Slot* slot);
  void OnCreated(Slot* slot, const grpc::Status& status, const v1::CreateTableResponse& response);
  void OnSynced(Slot* slot, const grpc::Status& status, const v1::GetViewResponse& response);
  void OnPlayed(Slot* slot, const grpc::Status& status, const v1::PlayResponse& response,
                double ms);
  void Failed(Slot* slot, const grpc::Status& status);
  void GameDone(Slot* slot);
  // The slot's call is over: it lines up again after `delay`, or (kRetire) makes no more. The
  // last thing a completion does with the driver: once no call is in flight, Run may return and
  // the driver (its stubs and channels, its mutex) go, so a completion touches nothing after it
  // unless it has started calls, which keep the driver.
  void Requeue(Slot* slot, absl::Duration delay) ABSL_LOCKS_EXCLUDED(mu_);
  void Place(Slot* slot) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Bump(int64_t TableDriverReport::*counter) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    ++(report_.*counter);
  }
  v1::TableService::Stub& StubFor(const Slot& slot) { return *stubs_[slot.index % kChannels]; }
  v1::TableService::Stub& CreateStubFor(const Slot& slot) {
    if (create_stubs_.empty()) return StubFor(slot);
    return *create_stubs_[slot.index % create_stubs_.size()];
  }

  const TableDriverSettings settings_;
  const std::string run_;
  std::string service_bearer_;
  std::vector<std::unique_ptr<v1::TableService::Stub>> stubs_;
  std::vector<std::unique_ptr<v1::TableService::Stub>> create_stubs_;
  std::vector<Slot> slots_;
  std::unique_ptr<MatchmakingSeater> seater_;

  absl::Mutex mu_;
  std::deque<Slot*> ready_ ABSL_GUARDED_BY(mu_);
  std::multimap<absl::Time, Slot*> delayed_ ABSL_GUARDED_BY(mu_);
  // Ready to play, waiting for every table to exist before the measured window opens.
  std::vector<Slot*> parked_ ABSL_GUARDED_BY(mu_);
  bool window_open_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  int retired_ ABSL_GUARDED_BY(mu_) = 0;
  FILE* ack_log_ ABSL_GUARDED_BY(mu_) = nullptr;
  TableDriverReport report_ ABSL_GUARDED_BY(mu_);
  // Each ends with its slot's Requeue, as a call's completion does.
  std::vector<std::thread> seating_ ABSL_GUARDED_BY(mu_);
};

std::string Bearer(const std::string& secret, const std::string& subject, const char* role) {
  common::TokenClaims claims;
  claims.subject = subject;
  claims.role = role;
  return absl::StrCat("Bearer ", common::MintHs256Token(secret, claims));
}

TableDriver::TableDriver(const TableDriverSettings& settings)
    : settings_(settings), run_(absl::StrCat(absl::ToUnixMicros(absl::Now()))) {
  service_bearer_ = Bearer(settings_.jwt_secret, "kahve-load", common::kRoleService);
  grpc::ChannelArguments args;
  // Reconnect quickly after a server restart instead of gRPC's default backoff (1 s, growing).
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 500);
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  for (int i = 0; i < kChannels; ++i) {
    stubs_.push_back(v1::TableService::NewStub(
        OpenLoadChannel(settings_.channel_factory, settings_.target, args)));
  }
  for (const std::string& target : settings_.create_targets) {
    create_stubs_.push_back(v1::TableService::NewStub(
        OpenLoadChannel(settings_.channel_factory, target, args)));
  }
  if (!settings_.matchmaking_target.empty()) {
    seater_ = std::make_unique<MatchmakingSeater>(
        OpenLoadChannel(settings_.channel_factory, settings_.matchmaking_target, args));
  }
  slots_.resize(settings_.tables);
  for (int i = 0; i < settings_.tables; ++i) {
    Slot& slot = slots_[i];
    slot.index = i;
    // A party of two fills a 2-player table alone; CreateTable varies the size.
    slot.seats = seater_ != nullptr ? 2 : 2 + i % 3;
    slot.rng.Reseed(engine::DeriveSeed(absl::ToUnixMicros(absl::Now()), i));
    for (int seat = 0; seat < slot.seats; ++seat) {
      slot.bearers.push_back(
          Bearer(settings_.jwt_secret, absl::StrCat("load-", run_, "-", i, "-", seat), ""));
    }
    NewGame(slot);
  }
}

TableDriver::~TableDriver() {
  std::vector<std::thread> seating;
  {
    absl::MutexLock lock(&mu_);
    seating.swap(seating_);
  }
  for (std::thread& thread : seating) thread.join();
}

void TableDriver::NewGame(Slot& slot) {
  slot.match_id = absl::StrCat("load-", run_, "-", slot.index, "-", slot.games++);
  slot.table_id.clear();
  slot.state = {};
  slot.step = Slot::Step::kCreate;
  slot.pending.reset();
}

TableDriverReport TableDriver::Run() {
  const absl::Time start = absl::Now();
  absl::Time window_start;
  {
    absl::MutexLock lock(&mu_);
    if (!settings_.ack_log.empty()) {
      ack_log_ = std::fopen(settings_.ack_log.c_str(), "w");
      // Line by line, so a reader (the kill -9 test) sees every acknowledgement as it happens.
      if (ack_log_ != nullptr) std::setvbuf(ack_log_, nullptr, _IOLBF, 0);
    }
    for (Slot& slot : slots_) ready_.push_back(&slot);
  }
  const int tables = settings_.tables;
  for (;;) {
    Launch();
    absl::SleepFor(absl::Milliseconds(1));
    absl::MutexLock lock(&mu_);
    const absl::Time now = absl::Now();
    while (!delayed_.empty() && delayed_.begin()->first <= now) {
      Slot* slot = delayed_.begin()->second;
      delayed_.erase(delayed_.begin());
      Place(slot);
    }
    // A server that never answers some creations does not hold the run up for ever.
    const bool setup_over = static_cast<int>(parked_.size()) + retired_ == tables ||
                            now - start > std::max(settings_.length, absl::Seconds(60));
    if (!window_open_ && setup_over) {
      // Every table exists: moves are measured from here.
      window_open_ = true;
      window_start = now;
      report_.setup_seconds = absl::ToDoubleSeconds(now - start);
      ready_.insert(ready_.end(), parked_.begin(), parked_.end());
      parked_.clear();
    }
    if (window_open_ && !stopping_) {
      const bool time_up = now >= window_start + settings_.length;
      if (retired_ == tables || time_up) {
        stopping_ = true;
        report_.complete = settings_.games_per_table == 0 || retired_ == tables;
      }
    }
    if (stopping_ && in_flight_ == 0) {
      report_.moves.seconds = absl::ToDoubleSeconds(absl::Now() - window_start);
      break;
    }
  }
  absl::MutexLock lock(&mu_);
  if (ack_log_ != nullptr) std::fclose(ack_log_);
  ack_log_ = nullptr;
  return report_;
}

void TableDriver::Place(Slot* slot) {
  if (slot->step == Slot::Step::kPlay && !window_open_) {
    parked_.push_back(slot);
  } else {
    ready_.push_back(slot);
  }
}

void TableDriver::Launch() {
  std::vector<Slot*> starting;
  {
    absl::MutexLock lock(&mu_);
    starting = TakeStarts();
  }
  StartCalls(starting);
}

std::vector<Slot*> TableDriver::TakeStarts() {
  std::vector<Slot*> starting;
  while (!stopping_ && in_flight_ < settings_.concurrency && !ready_.empty()) {
    starting.push_back(ready_.front());
    ready_.pop_front();
    ++in_flight_;
  }
  return starting;
}

void TableDriver::StartCalls(const std::vector<Slot*>& starting) {
  for (Slot* slot : starting) {
    if (slot->step == Slot::Step::kCreate) {
      Create(slot);
    } else if (slot->step == Slot::Step::kSync) {
      Sync(slot);
    } else {
      Play(slot);
    }
  }
}

void TableDriver::Requeue(Slot* slot, absl::Duration delay) {
  std::vector<Slot*> starting;
  {
    absl::MutexLock lock(&mu_);
    --in_flight_;
    if (delay == kRetire) {
      ++retired_;
    } else if (delay > absl::ZeroDuration()) {
      delayed_.emplace(absl::Now() + delay, slot);
    } else {
      Place(slot);
    }
    // Taken (and counted in flight) under the same lock as the decrement: when nothing is taken,
    // the driver may be gone as soon as the lock is released.
    starting = TakeStarts();
  }
  if (!starting.empty()) StartCalls(starting);
}

void TableDriver::SeatThroughMatchmaking(Slot* slot) {
  // The match id names the game: a repeated Enqueue of it gets the same ticket.
  auto seated = seater_->Seat(slot->bearers, slot->match_id, slot->party_id, absl::Seconds(60));
  if (!seated.ok()) return OnCreated(slot, common::ToGrpcStatus(seated.status()), {});
  OnCreated(slot, grpc::Status::OK, *seated);
}

void TableDriver::Create(Slot* slot) {
  if (seater_ != nullptr) {
    absl::MutexLock lock(&mu_);
    seating_.emplace_back([this, slot] { SeatThroughMatchmaking(slot); });
    return;
  }
  auto* call = new Call<v1::CreateTableRequest, v1::CreateTableResponse>(service_bearer_);
  v1::CreateTableRequest& request = call->request;
  request.set_match_id(slot->match_id);
  request.mutable_settings()->mutable_liars_dice()->set_players(slot->seats);
  request.mutable_options()->set_turn_seconds(0);
  request.mutable_options()->set_away_grace_seconds(kAwayGraceSeconds);
  for (int seat = 0; seat < slot->seats; ++seat) {
    request.add_seats()->set_player_id(absl::StrCat("load-", run_, "-", slot->index, "-", seat));
  }
  CreateStubFor(*slot).async()->CreateTable(
      &call->context, &call->request, &call->response, [this, slot, call](grpc::Status status) {
        const v1::CreateTableResponse response = std::move(call->response);
        delete call;
        OnCreated(slot, status, response);
      });
}

void TableDriver::OnCreated(Slot* slot, const grpc::Status& status,
                            const v1::CreateTableResponse& response) {
  if (!status.ok()) return Failed(slot, status);
  slot->table_id = response.table_id();
  slot->tokens.assign(slot->seats, "");
  for (const auto& grant : response.seats()) {
    if (grant.seat() >= 0 && grant.seat() < slot->seats)
      slot->tokens[grant.seat()] = grant.seat_token();
  }
  slot->backoffs = slot->refusals = 0;
  Bump(&TableDriverReport::tables_created);
  if (settings_.idle) return Requeue(slot, kRetire);
  slot->step = Slot::Step::kSync;
  Requeue(slot, absl::ZeroDuration());
}

void TableDriver::Sync(Slot* slot) {
  auto* call = new Call<v1::GetViewRequest, v1::GetViewResponse>(slot->bearers[0]);
  call->request.set_table_id(slot->table_id);
  call->request.set_seat_token(slot->tokens[0]);
  StubFor(*slot).async()->GetView(&call->context, &call->request, &call->response,
                                  [this, slot, call](grpc::Status status) {
                                    const v1::GetViewResponse response = std::move(call->response);
                                    delete call;
                                    OnSynced(slot, status, response);
                                  });
}

void TableDriver::OnSynced(Slot* slot, const grpc::Status& status,
                           const v1::GetViewResponse& response) {
  if (!status.ok()) return Failed(slot, status);
  slot->backoffs = 0;
  slot->state.FromView(response.view());
  if (slot->state.over) return GameDone(slot);
  // A view with nobody to act (cannot happen in Liar's dice) is asked again shortly.
  if (slot->state.to_act < 0) return Requeue(slot, kFirstBackoff);
  slot->step = Slot::Step::kPlay;
  Requeue(slot, absl::ZeroDuration());
}

void TableDriver::Play(Slot* slot) {
  if (!slot->pending.has_value()) {
    const int seat = slot->state.to_act;
    v1::PlayRequest& request = slot->pending.emplace();
    request.set_table_id(slot->table_id);
    request.set_seat_token(slot->tokens[seat]);
    *request.mutable_move() = ChooseMove(slot->state, slot->rng);
    request.set_request_id(absl::StrCat("m", ++slot->moves));
    slot->pending_seat = seat;
  }
  auto* call = new Call<v1::PlayRequest, v1::PlayResponse>(slot->bearers[slot->pending_seat]);
  call->request = *slot->pending;
  StubFor(*slot).async()->Play(
      &call->context, &call->request, &call->response, [this, slot, call](grpc::Status status) {
        const double ms =
            std::chrono::duration<double, std::milli>(Clock::now() - call->began).count();
        const v1::PlayResponse response = std::move(call->response);
        delete call;
        OnPlayed(slot, status, response, ms);
      });
}

void TableDriver::OnPlayed(Slot* slot, const grpc::Status& status, const v1::PlayResponse& response,
                           double ms) {
  if (!status.ok()) return Failed(slot, status);
  for (const v1::Event& event : response.events()) slot->state.Apply(event);
  slot->pending.reset();
  slot->backoffs = slot->refusals = 0;
  {
    absl::MutexLock lock(&mu_);
    ++report_.moves.done;
    report_.moves.latencies_ms.push_back(ms);
    if (ack_log_ != nullptr) {
      std::fprintf(ack_log_, "%s %llu\n", slot->table_id.c_str(),
                   static_cast<unsigned long long>(response.seq()));
    }
  }
  if (slot->state.over) return GameDone(slot);
  if (slot->state.to_act < 0) slot->step = Slot::Step::kSync;
  Requeue(slot, absl::ZeroDuration());
}

void TableDriver::Failed(Slot* slot, const grpc::Status& status) {
  if (Retryable(status.error_code())) {
    // The same call again after a pause: a Play keeps its request id, so a move the server
    // already stored is answered, not played twice.
    ++slot->backoffs;
    Bump(&TableDriverReport::retries);
    const absl::Duration delay =
        std::min(kMaxBackoff, kFirstBackoff * (1 << std::min(slot->backoffs - 1, 5)));
    return Requeue(slot, delay);
  }
  if (status.error_code() == grpc::StatusCode::NOT_FOUND && slot->step != Slot::Step::kCreate) {
    // The table is gone: it finished before a restart (finished tables are not reloaded) with
    // its last move unacknowledged.
    Bump(&TableDriverReport::unconfirmed_games);
    return GameDone(slot);
  }
  bool give_up = false;
  {
    absl::MutexLock lock(&mu_);
    ++report_.moves.failed;
    if (report_.first_error.empty()) {
      report_.first_error =
          absl::StrCat("code ", status.error_code(), ": ", status.error_message());
    }
    if (slot->step == Slot::Step::kPlay) ++report_.resyncs;
    give_up = ++slot->refusals >= kMaxRefusals;
    if (give_up) ++report_.abandoned;
  }
  if (give_up) return Requeue(slot, kRetire);
  if (slot->step == Slot::Step::kCreate) {
    NewGame(*slot);
  } else {
    slot->pending.reset();
    slot->step = Slot::Step::kSync;
  }
  Requeue(slot, kFirstBackoff);
}

void TableDriver::GameDone(Slot* slot) {
  bool last = false;
  {
    absl::MutexLock lock(&mu_);
    ++report_.games_finished;
    last = settings_.games_per_table > 0 && ++slot->games_done >= settings_.games_per_table;
  }
  if (last) return Requeue(slot, kRetire);
  NewGame(*slot);
  Requeue(slot, absl::ZeroDuration());
}

}  // namespace

TableDriverReport RunTableLoad(const TableDriverSettings& settings) {
  TableDriver driver(settings);
  return driver.Run();
}

}  // namespace kahve::tools
