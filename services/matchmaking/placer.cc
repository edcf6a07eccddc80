#include "services/matchmaking/placer.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "services/common/logging.h"
#include "services/common/status.h"

namespace kahve::matchmaking {

Placer::Placer(PlacerSettings settings, MatchStore* store, TableDirectory* tables)
    : settings_(std::move(settings)), store_(store), tables_(tables) {}

std::string Placer::ClientEndpointFor(const std::string& host_endpoint) const {
  return settings_.client_endpoint.empty() ? host_endpoint : settings_.client_endpoint;
}

std::shared_ptr<v1::TableService::Stub> Placer::StubFor(const std::string& endpoint) {
  return stubs_.For(endpoint);
}

void Placer::Authorize(grpc::ClientContext& context) const {
  context.AddMetadata("authorization", absl::StrCat("Bearer ", settings_.bearer));
  context.set_deadline(std::chrono::system_clock::now() +
                       absl::ToChronoMilliseconds(settings_.call_timeout));
}

std::vector<absl::Duration> Placer::PlaceNew(const std::vector<PendingMatch>& matches,
                                             const std::vector<TableHostRow>& hosts) {
  struct Call {
    grpc::ClientContext context;
    Placement placement;
    grpc::Status status;
  };
  // The counters are shared with the callbacks, so that none can outlive the mutex it unlocks
  // last: the last holder, this function or a callback finishing its unlock, frees them.
  struct Batch {
    absl::Mutex mu;
    int in_flight ABSL_GUARDED_BY(mu) = 0;
    size_t finished ABSL_GUARDED_BY(mu) = 0;
  };
  const auto batch = std::make_shared<Batch>();
  // The calls are not: this frame outlives them (it waits until every callback is done with its
  // call) and destroys their contexts itself. A context holds a reference to its channel, and
  // the last reference dropped in a callback, were the placer's stubs gone meanwhile, would tear
  // the channel down under gRPC's own callback thread.
  std::vector<Call> calls(matches.size());
  for (size_t i = 0; i < matches.size(); ++i) {
    const auto host = std::find_if(hosts.begin(), hosts.end(), [&](const TableHostRow& h) {
      return h.host_id == matches[i].host_id;
    });
    Call& call = calls[i];
    call.placement.match = &matches[i];
    if (host == hosts.end()) {
      // Not one of this pass's hosts (cannot happen as the matchmaker calls it); Place decides.
      call.status = grpc::Status(grpc::StatusCode::NOT_FOUND, "host not among the live ones");
      absl::MutexLock lock(&batch->mu);
      ++batch->finished;
      continue;
    }
    call.placement.endpoint = ClientEndpointFor(host->endpoint);
    {
      absl::MutexLock lock(&batch->mu);
      auto room = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(batch->mu) {
        return batch->in_flight < settings_.max_in_flight;
      };
      batch->mu.Await(absl::Condition(&room));
      ++batch->in_flight;
    }
    Authorize(call.context);
    StubFor(host->endpoint)
        ->async()
        ->CreateTable(&call.context, &matches[i].request, &call.placement.table,
                      [batch, &call](grpc::Status status) {
                        // The last use of `call`: once finished is counted, this frame may go on.
                        call.status = std::move(status);
                        absl::MutexLock lock(&batch->mu);
                        --batch->in_flight;
                        ++batch->finished;
                      });
  }
  {
    absl::MutexLock lock(&batch->mu);
    auto all_done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(batch->mu) {
      return batch->finished == matches.size();
    };
    batch->mu.Await(absl::Condition(&all_done));
  }
  std::vector<Placement> placed;
  std::vector<const PendingMatch*> retry;
  for (Call& call : calls) {
    if (call.status.ok()) {
      placed.push_back(std::move(call.placement));
    } else {
      retry.push_back(call.placement.match);
    }
  }
  return Settle(placed, retry);
}

std::vector<absl::Duration> Placer::Settle(const std::vector<Placement>& placed,
                                           const std::vector<const PendingMatch*>& retry) {
  std::vector<absl::Duration> waits;
  auto stored = store_->CompletePlacements(placed, settings_.clock->Now());
  if (stored.ok()) {
    waits = std::move(stored).value();
  } else {
    // The tables exist; the matches stay placing and the next pass stores them (CreateTable
    // answers the same match id with the same table).
    common::LogWarning("placements not stored yet",
                       {{"matches", std::to_string(placed.size())},
                        {"error", std::string(stored.status().message())}});
  }
  for (const PendingMatch* match : retry) {
    auto placed_one = Place(*match);
    if (!placed_one.ok()) {
      common::LogWarning(
          "match not placed yet",
          {{"match_id", match->match_id}, {"error", std::string(placed_one.status().message())}});
      continue;
    }
    waits.insert(waits.end(), placed_one->begin(), placed_one->end());
  }
  return waits;
}

absl::StatusOr<std::vector<absl::Duration>> Placer::Place(const PendingMatch& match) {
  std::set<std::string> tried;
  std::string host_id = match.host_id;
  absl::Status last = absl::UnavailableError("no live table host");
  for (int attempt = 0; attempt < settings_.max_hosts; ++attempt) {
    // The table may exist already (an earlier attempt whose answer was lost): any host answers
    // for it, so the choice only matters for a new table.
    auto live = tables_->Hosts();
    if (!live.ok()) return live.status();
    TableHostRow host;
    const auto chosen = std::find_if(live->begin(), live->end(),
                                     [&](const TableHostRow& h) { return h.host_id == host_id; });
    if (chosen != live->end() && !tried.contains(host_id)) {
      host = *chosen;
    } else {
      // Hosts lists the least loaded first.
      const auto next = std::find_if(live->begin(), live->end(), [&](const TableHostRow& h) {
        return !tried.contains(h.host_id);
      });
      if (next == live->end()) break;
      host = *next;
    }
    if (host.host_id != host_id) {
      const absl::Status moved = store_->SetMatchHost(match.match_id, host.host_id,
                                                      last.ok() ? "" : std::string(last.message()));
      if (!moved.ok()) return moved;
      host_id = host.host_id;
    }
    tried.insert(host.host_id);

    grpc::ClientContext context;
    Authorize(context);
    Placement placement{.match = &match, .endpoint = ClientEndpointFor(host.endpoint)};
    const grpc::Status status =
        StubFor(host.endpoint)->CreateTable(&context, match.request, &placement.table);
    if (status.ok()) return store_->CompletePlacements({placement}, settings_.clock->Now());
    last = absl::UnavailableError(absl::StrCat("CreateTable on ", host.host_id, " (", host.endpoint,
                                               "): ", status.error_message()));
    common::LogWarning("table placement failed",
                       {{"match_id", match.match_id},
                        {"host_id", host.host_id},
                        {"code", common::GrpcCodeName(status.error_code())},
                        {"error", status.error_message()}});
    switch (status.error_code()) {
      case grpc::StatusCode::INVALID_ARGUMENT:
      case grpc::StatusCode::PERMISSION_DENIED:
      case grpc::StatusCode::UNAUTHENTICATED:
      case grpc::StatusCode::ALREADY_EXISTS:
        // The request or our credential is wrong (or the match id has a table made from another
        // request): another host would say the same. Retried next pass, so a fixed
        // configuration recovers without losing the tickets.
        return common::FromGrpcStatus(status);
      default:
        // This host cannot take it now; try the next one.
        break;
    }
  }
  store_->SetMatchHost(match.match_id, host_id, std::string(last.message())).IgnoreError();
  return last;
}

}  // namespace kahve::matchmaking
