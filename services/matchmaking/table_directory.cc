#include "services/matchmaking/table_directory.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "services/common/status.h"

namespace kahve::matchmaking {
namespace {

// GetMatchStates takes at most this many ids per call.
constexpr size_t kMatchesPerCall = 100;

}  // namespace

TableDirectory::TableDirectory(TableDirectorySettings settings,
                               std::unique_ptr<v1::TableService::StubInterface> table_service)
    : settings_(std::move(settings)), table_service_(std::move(table_service)) {}

void TableDirectory::Prepare(grpc::ClientContext& context) const {
  context.AddMetadata("authorization", absl::StrCat("Bearer ", settings_.bearer));
  context.set_deadline(std::chrono::system_clock::now() +
                       absl::ToChronoMilliseconds(settings_.call_timeout));
}

absl::StatusOr<std::vector<TableHostRow>> TableDirectory::Hosts() {
  grpc::ClientContext context;
  Prepare(context);
  const v1::ListHostsRequest request;
  v1::ListHostsResponse response;
  const grpc::Status status = table_service_->ListHosts(&context, request, &response);
  if (!status.ok()) return common::FromGrpcStatus(status);
  std::vector<TableHostRow> hosts;
  for (const v1::TableHostInfo& host : response.hosts()) {
    hosts.push_back(TableHostRow{
        .host_id = host.host_id(), .endpoint = host.endpoint(), .live_tables = host.live_tables()});
  }
  return hosts;
}

absl::StatusOr<v1::GetMatchStatesResponse> TableDirectory::States(
    std::vector<std::string>::const_iterator begin, std::vector<std::string>::const_iterator end) {
  grpc::ClientContext context;
  Prepare(context);
  v1::GetMatchStatesRequest request;
  request.mutable_match_ids()->Assign(begin, end);
  v1::GetMatchStatesResponse response;
  const grpc::Status status = table_service_->GetMatchStates(&context, request, &response);
  if (!status.ok()) return common::FromGrpcStatus(status);
  return response;
}

absl::StatusOr<std::vector<std::string>> TableDirectory::EndedMatches(
    const std::vector<std::string>& match_ids) {
  std::vector<std::string> ended;
  for (size_t from = 0; from < match_ids.size(); from += kMatchesPerCall) {
    const auto begin = match_ids.begin() + static_cast<std::ptrdiff_t>(from);
    const auto end = match_ids.begin() + static_cast<std::ptrdiff_t>(
                                             std::min(match_ids.size(), from + kMatchesPerCall));
    auto states = States(begin, end);
    if (!states.ok()) return states.status();
    absl::flat_hash_set<std::string> running;
    for (const v1::MatchState& state : states->matches()) {
      if (!state.over()) running.insert(state.match_id());
    }
    for (auto id = begin; id != end; ++id) {
      if (!running.contains(*id)) ended.push_back(*id);
    }
  }
  return ended;
}

absl::StatusOr<bool> TableDirectory::HasTable(const std::string& match_id) {
  const std::vector<std::string> ids = {match_id};
  auto states = States(ids.begin(), ids.end());
  if (!states.ok()) return states.status();
  return states->matches_size() > 0;
}

}  // namespace kahve::matchmaking
