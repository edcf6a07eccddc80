#include "services/matchmaking/rating_cache.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/logging.h"

namespace kahve::matchmaking {
namespace {

// GetRatings takes at most 100 players per call.
constexpr size_t kPlayersPerCall = 100;
// Past this many entries, stale ones are dropped, so players long gone do not pile up.
constexpr size_t kMaxEntries = 200'000;

}  // namespace

RatingCache::RatingCache(std::shared_ptr<v1::RatingService::StubInterface> stub, std::string bearer,
                         absl::Duration ttl)
    : stub_(std::move(stub)), bearer_(std::move(bearer)), ttl_(ttl) {}

std::map<std::string, Skill> RatingCache::Lookup(const std::vector<std::string>& players,
                                                 const std::string& ruleset, v1::MatchMode mode,
                                                 absl::Time now) {
  std::map<std::string, Skill> skills;
  std::vector<std::string> missing;
  {
    absl::MutexLock lock(&mu_);
    for (const std::string& player : players) {
      if (skills.contains(player)) continue;
      const auto cached = cache_.find(Key{player, ruleset, mode});
      if (cached != cache_.end() && now - cached->second.fetched < ttl_) {
        skills[player] = cached->second.skill;
      } else {
        skills[player] = Skill{};
        missing.push_back(player);
      }
    }
  }
  for (size_t begin = 0; begin < missing.size(); begin += kPlayersPerCall) {
    v1::GetRatingsRequest request;
    request.set_ruleset(ruleset);
    request.set_mode(mode);
    const size_t end = std::min(missing.size(), begin + kPlayersPerCall);
    for (size_t i = begin; i < end; ++i) request.add_player_ids(missing[i]);
    grpc::ClientContext context;
    if (!bearer_.empty()) context.AddMetadata("authorization", absl::StrCat("Bearer ", bearer_));
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    v1::GetRatingsResponse response;
    const grpc::Status status = stub_->GetRatings(&context, request, &response);
    if (!status.ok()) {
      // Not cached: the next pass asks again.
      common::LogWarning("ratings unavailable; matching with defaults",
                         {{"error", status.error_message()}});
      continue;
    }
    for (const v1::Rating& rating : response.ratings()) {
      skills[rating.player_id()] =
          Skill{.rating = rating.display(), .provisional = rating.provisional()};
    }
    absl::MutexLock lock(&mu_);
    if (cache_.size() > kMaxEntries) {
      std::erase_if(cache_, [&](const auto& entry) { return now - entry.second.fetched >= ttl_; });
    }
    // Unrated players are cached too (with the defaults): a new player stays new until a game
    // ends, and asking again every pass would cost a call per pass.
    for (size_t i = begin; i < end; ++i) {
      cache_[Key{missing[i], ruleset, mode}] = Entry{skills[missing[i]], now};
    }
  }
  return skills;
}

}  // namespace kahve::matchmaking
