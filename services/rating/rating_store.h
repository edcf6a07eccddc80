#ifndef KAHVE_SERVICES_RATING_RATING_STORE_H_
#define KAHVE_SERVICES_RATING_RATING_STORE_H_

// The rating service's reads (migrations/0001_rating.sql), each statement a named constant atop
// rating_store.cc; the writes are MatchWriter's. libpqxx stays inside; callers get absl::Status.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "kahve/v1/rating.pb.h"
#include "services/common/pg_pool.h"
#include "services/rating/match_rater.h"

namespace kahve::rating {

struct LeaderboardRow {
  std::string player_id;
  StoredRating rating;
  double display = 0;
};

// How many players one leaderboard has.
struct LeaderboardSize {
  std::string ruleset;
  v1::MatchMode mode = v1::MATCH_MODE_UNSPECIFIED;
  int64_t players = 0;
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
  // Players with at least `min_games` in each (ruleset, mode) that has any: one pass over the
  // ratings table.
  absl::StatusOr<std::vector<LeaderboardSize>> LeaderboardSizes(int min_games);
  // The player's row, if any.
  absl::StatusOr<std::optional<LeaderboardRow>> LeaderboardRowOf(const std::string& ruleset,
                                                                 int mode,
                                                                 const std::string& player_id);

 private:
  common::PgPool* pool_;
};

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_RATING_STORE_H_
