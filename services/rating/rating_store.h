#ifndef KAHVE_SERVICES_RATING_RATING_STORE_H_
#define KAHVE_SERVICES_RATING_RATING_STORE_H_

// The rating service's tables (migrations/0001_rating.sql): every SQL statement of the service,
// each a named constant atop rating_store.cc. libpqxx stays inside; callers get absl::Status.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "kahve/v1/rating.pb.h"
#include "services/common/pg_pool.h"
#include "services/rating/match_rater.h"

namespace kahve::rating {

// Computes a match's rating changes from its players' current ratings (player id -> rating;
// a player never rated is absent).
using RateFunction = std::function<absl::StatusOr<std::vector<v1::RatingChange>>(
    const v1::RecordMatchRequest& canonical,
    const absl::flat_hash_map<std::string, StoredRating>& current)>;

// A validated match waiting to be recorded.
struct PendingMatch {
  v1::RecordMatchRequest canonical;
  std::string request_sha256;  // of the canonical request: repeats must match it
  bool rated = false;
};

struct LeaderboardRow {
  std::string player_id;
  StoredRating rating;
  double display = 0;
};

struct MatchCursor {
  int64_t ended_us = 0;
  std::string match_id;
};

struct ListMatchesQuery {
  std::string player_id;
  std::string ruleset;  // empty: all
  int64_t ended_after_us = INT64_MIN;
  int64_t ended_before_us = INT64_MAX;
  std::optional<MatchCursor> after;  // continue after this match (newest first)
  int limit = 20;
};

struct LeaderboardKey {
  double display = 0;
  std::string player_id;
};

class RatingStore {
 public:
  explicit RatingStore(common::PgPool* pool) : pool_(pool) {}

  // The statements every pooled connection prepares.
  static std::vector<std::pair<std::string, std::string>> PreparedStatements();

  // Stores the match and, when rated, applies `rate`'s changes, in one transaction (retried on a
  // serialization failure or a concurrent insert of the same match). A match id already stored
  // with the same `request_sha256` returns the stored answer and changes nothing; with another,
  // AlreadyExists.
  struct Recorded {
    v1::RecordMatchResponse response;
    bool inserted = false;  // false: an identical repeat, answered from the stored record
  };
  absl::StatusOr<Recorded> RecordMatch(const PendingMatch& match, const RateFunction& rate);

  // The answer to a repeat of a stored match (see RecordMatch); NotFound when none is stored.
  absl::StatusOr<v1::RecordMatchResponse> StoredAnswer(const v1::RecordMatchRequest& canonical,
                                                       const std::string& request_sha256);

  // Every stored rating of the players, filtered by ruleset ("" any) and mode (0 any).
  absl::StatusOr<std::vector<std::pair<v1::Rating, StoredRating>>> GetRatings(
      const std::vector<std::string>& player_ids, const std::string& ruleset, int mode);

  absl::StatusOr<std::optional<v1::MatchRecord>> GetMatch(const std::string& match_id);
  // Newest first; up to query.limit.
  absl::StatusOr<std::vector<v1::MatchRecord>> ListMatches(const ListMatchesQuery& query);
  // Oldest first, the most recent `limit` points.
  absl::StatusOr<std::vector<v1::RatingPoint>> GetRatingHistory(const std::string& player_id,
                                                                const std::string& ruleset,
                                                                int mode, int limit);

  // Leaderboard rows with at least `min_games`, best first, strictly after `after` when given.
  absl::StatusOr<std::vector<LeaderboardRow>> LeaderboardPage(
      const std::string& ruleset, int mode, int min_games,
      const std::optional<LeaderboardKey>& after, int limit);
  // Rows ranked ahead of `key` (nearest first), up to `limit`.
  absl::StatusOr<std::vector<LeaderboardRow>> LeaderboardBefore(const std::string& ruleset,
                                                                int mode, int min_games,
                                                                const LeaderboardKey& key,
                                                                int limit);
  // How many leaderboard rows rank ahead of `key`.
  absl::StatusOr<int64_t> LeaderboardAhead(const std::string& ruleset, int mode, int min_games,
                                           const LeaderboardKey& key);
  // The player's row, if any.
  absl::StatusOr<std::optional<LeaderboardRow>> LeaderboardRowOf(const std::string& ruleset,
                                                                 int mode,
                                                                 const std::string& player_id);

 private:
  common::PgPool* pool_;
};

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_RATING_STORE_H_
