#include "services/rating/rating_store.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/time_util.h"
#include "services/rating/pg_values.h"

namespace kahve::rating {
namespace {

using google::protobuf::util::TimeUtil;

constexpr char kGetMatch[] = "rating_get_match";
constexpr char kGetMatchSql[] = "SELECT record FROM rating_matches WHERE match_id = $1";

// Newest first, continuing strictly after the cursor (ended_us, match_id).
constexpr char kListMatches[] = "rating_list_matches";
constexpr char kListMatchesSql[] =
    "SELECT m.record FROM rating_match_players p JOIN rating_matches m USING (match_id) "
    "WHERE p.player_id = $1 AND p.ended_us >= $2 AND p.ended_us < $3 "
    "AND (p.ended_us, p.match_id) < ($4, $5) "
    "ORDER BY p.ended_us DESC, p.match_id DESC LIMIT $6";

constexpr char kListMatchesInRuleset[] = "rating_list_matches_in_ruleset";
constexpr char kListMatchesInRulesetSql[] =
    "SELECT m.record FROM rating_match_players p JOIN rating_matches m USING (match_id) "
    "WHERE p.player_id = $1 AND p.ruleset = $7 AND p.ended_us >= $2 AND p.ended_us < $3 "
    "AND (p.ended_us, p.match_id) < ($4, $5) "
    "ORDER BY p.ended_us DESC, p.match_id DESC LIMIT $6";

constexpr char kHistory[] = "rating_history";
constexpr char kHistorySql[] =
    "SELECT ended_us, match_id, mu, sigma, display FROM rating_match_players "
    "WHERE player_id = $1 AND ruleset = $2 AND mode = $3 AND mu IS NOT NULL "
    "ORDER BY ended_us DESC, match_id DESC LIMIT $4";

constexpr char kLeaderboardFirst[] = "rating_leaderboard_first";
constexpr char kLeaderboardFirstSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us, display FROM ratings "
    "WHERE ruleset = $1 AND mode = $2 AND games >= $3 "
    "ORDER BY display DESC, player_id ASC LIMIT $4";

constexpr char kLeaderboardAfter[] = "rating_leaderboard_after";
constexpr char kLeaderboardAfterSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us, display FROM ratings "
    "WHERE ruleset = $1 AND mode = $2 AND games >= $3 "
    "AND (display < $5 OR (display = $5 AND player_id > $6)) "
    "ORDER BY display DESC, player_id ASC LIMIT $4";

constexpr char kLeaderboardBefore[] = "rating_leaderboard_before";
constexpr char kLeaderboardBeforeSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us, display FROM ratings "
    "WHERE ruleset = $1 AND mode = $2 AND games >= $3 "
    "AND (display > $5 OR (display = $5 AND player_id < $6)) "
    "ORDER BY display ASC, player_id DESC LIMIT $4";

constexpr char kLeaderboardAhead[] = "rating_leaderboard_ahead";
constexpr char kLeaderboardAheadSql[] =
    "SELECT count(*) FROM ratings WHERE ruleset = $1 AND mode = $2 AND games >= $3 "
    "AND (display > $4 OR (display = $4 AND player_id < $5))";

constexpr char kLeaderboardSizes[] = "rating_leaderboard_sizes";
constexpr char kLeaderboardSizesSql[] =
    "SELECT ruleset, mode, count(*) FROM ratings WHERE games >= $1 GROUP BY ruleset, mode";

constexpr char kLeaderboardRow[] = "rating_leaderboard_row";
constexpr char kLeaderboardRowSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us, display FROM ratings "
    "WHERE ruleset = $1 AND mode = $2 AND player_id = $3";

std::vector<std::string> RulesetIds() {
  std::vector<std::string> ids;
  for (const engine::Ruleset& ruleset : engine::Rulesets()) ids.emplace_back(ruleset.id);
  return ids;
}

LeaderboardRow ReadLeaderboardRow(const pqxx::row& row) {
  LeaderboardRow out;
  out.player_id = row[0].as<std::string>();
  out.rating = StoredRating{.mu = row[1].as<double>(),
                            .sigma = row[2].as<double>(),
                            .games = row[3].as<int>(),
                            .last_played_us = row[4].as<int64_t>()};
  out.display = row[5].as<double>();
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RatingStore::PreparedStatements() {
  return {{kGetMatch, kGetMatchSql},
          {kListMatches, kListMatchesSql},
          {kListMatchesInRuleset, kListMatchesInRulesetSql},
          {kHistory, kHistorySql},
          {kLeaderboardFirst, kLeaderboardFirstSql},
          {kLeaderboardAfter, kLeaderboardAfterSql},
          {kLeaderboardBefore, kLeaderboardBeforeSql},
          {kLeaderboardAhead, kLeaderboardAheadSql},
          {kLeaderboardSizes, kLeaderboardSizesSql},
          {kLeaderboardRow, kLeaderboardRowSql}};
}

absl::StatusOr<std::vector<std::pair<v1::Rating, StoredRating>>> RatingStore::GetRatings(
    const std::vector<std::string>& player_ids, const std::string& ruleset, int mode) {
  using Ratings = std::vector<std::pair<v1::Rating, StoredRating>>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Ratings> {
    pqxx::work tx(connection);
    std::string sql = absl::StrCat(
        "SELECT player_id, ruleset, mode, mu, sigma, games, last_played_us FROM ratings "
        "WHERE player_id = ANY(",
        tx.quote(TextArrayLiteral(player_ids)), "::text[]) AND games > 0");
    // Every key column bound, so the primary key (ruleset, mode, player_id) serves the lookup.
    const std::vector<std::string> rulesets =
        ruleset.empty() ? RulesetIds() : std::vector<std::string>{ruleset};
    absl::StrAppend(&sql, " AND ruleset = ANY(", tx.quote(TextArrayLiteral(rulesets)),
                    "::text[]) AND mode = ANY('",
                    mode == 0 ? "{1,2}" : absl::StrCat("{", mode, "}"), "'::smallint[])");
    absl::StrAppend(&sql, " ORDER BY player_id, ruleset, mode");
    Ratings out;
    for (const pqxx::row& row : tx.exec(sql)) {
      v1::Rating rating;
      rating.set_player_id(row[0].as<std::string>());
      rating.set_ruleset(row[1].as<std::string>());
      rating.set_mode(static_cast<v1::MatchMode>(row[2].as<int>()));
      const StoredRating stored{.mu = row[3].as<double>(),
                                .sigma = row[4].as<double>(),
                                .games = row[5].as<int>(),
                                .last_played_us = row[6].as<int64_t>()};
      out.emplace_back(std::move(rating), stored);
    }
    tx.commit();
    return out;
  });
}

absl::StatusOr<std::optional<v1::MatchRecord>> RatingStore::GetMatch(const std::string& match_id) {
  using Found = std::optional<v1::MatchRecord>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Found> {
    pqxx::nontransaction tx(connection);
    const pqxx::result rows = tx.exec_prepared(kGetMatch, match_id);
    if (rows.empty()) return Found();
    v1::MatchRecord record;
    KAHVE_RETURN_IF_ERROR(ParseRecord(rows[0][0], &record));
    return Found(std::move(record));
  });
}

absl::StatusOr<std::vector<v1::MatchRecord>> RatingStore::ListMatches(
    const ListMatchesQuery& query) {
  using Records = std::vector<v1::MatchRecord>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Records> {
    pqxx::nontransaction tx(connection);
    const int64_t cursor_us = query.after ? query.after->ended_us : INT64_MAX;
    const std::string cursor_id = query.after ? query.after->match_id : "";
    const pqxx::result rows =
        query.ruleset.empty()
            ? tx.exec_prepared(kListMatches, query.player_id, query.ended_after_us,
                               query.ended_before_us, cursor_us, cursor_id, query.limit)
            : tx.exec_prepared(kListMatchesInRuleset, query.player_id, query.ended_after_us,
                               query.ended_before_us, cursor_us, cursor_id, query.limit,
                               query.ruleset);
    Records out;
    for (const pqxx::row& row : rows) {
      KAHVE_RETURN_IF_ERROR(ParseRecord(row[0], &out.emplace_back()));
    }
    return out;
  });
}

absl::StatusOr<std::vector<v1::RatingPoint>> RatingStore::GetRatingHistory(
    const std::string& player_id, const std::string& ruleset, int mode, int limit) {
  using Points = std::vector<v1::RatingPoint>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Points> {
    pqxx::nontransaction tx(connection);
    Points out;
    for (const pqxx::row& row : tx.exec_prepared(kHistory, player_id, ruleset, mode, limit)) {
      v1::RatingPoint& point = out.emplace_back();
      *point.mutable_at() = TimeUtil::MicrosecondsToTimestamp(row[0].as<int64_t>());
      point.set_match_id(row[1].as<std::string>());
      point.set_mu(row[2].as<double>());
      point.set_sigma(row[3].as<double>());
      point.set_display(row[4].as<double>());
    }
    std::reverse(out.begin(), out.end());
    return out;
  });
}

absl::StatusOr<std::vector<LeaderboardRow>> RatingStore::LeaderboardPage(
    const std::string& ruleset, int mode, int min_games, const std::optional<LeaderboardKey>& after,
    int limit) {
  using Rows = std::vector<LeaderboardRow>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Rows> {
    pqxx::nontransaction tx(connection);
    const pqxx::result rows =
        after ? tx.exec_prepared(kLeaderboardAfter, ruleset, mode, min_games, limit, after->display,
                                 after->player_id)
              : tx.exec_prepared(kLeaderboardFirst, ruleset, mode, min_games, limit);
    Rows out;
    for (const pqxx::row& row : rows) out.push_back(ReadLeaderboardRow(row));
    return out;
  });
}

absl::StatusOr<std::vector<LeaderboardRow>> RatingStore::LeaderboardBefore(
    const std::string& ruleset, int mode, int min_games, const LeaderboardKey& key, int limit) {
  using Rows = std::vector<LeaderboardRow>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Rows> {
    pqxx::nontransaction tx(connection);
    Rows out;
    for (const pqxx::row& row : tx.exec_prepared(kLeaderboardBefore, ruleset, mode, min_games,
                                                 limit, key.display, key.player_id)) {
      out.push_back(ReadLeaderboardRow(row));
    }
    return out;
  });
}

absl::StatusOr<int64_t> RatingStore::LeaderboardAhead(const std::string& ruleset, int mode,
                                                      int min_games, const LeaderboardKey& key) {
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int64_t> {
    pqxx::nontransaction tx(connection);
    return tx
        .exec_prepared(kLeaderboardAhead, ruleset, mode, min_games, key.display,
                       key.player_id)[0][0]
        .as<int64_t>();
  });
}

absl::StatusOr<std::vector<LeaderboardSize>> RatingStore::LeaderboardSizes(int min_games) {
  using Sizes = std::vector<LeaderboardSize>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Sizes> {
    pqxx::nontransaction tx(connection);
    Sizes out;
    for (const pqxx::row& row : tx.exec_prepared(kLeaderboardSizes, min_games)) {
      out.push_back({.ruleset = row[0].as<std::string>(),
                     .mode = static_cast<v1::MatchMode>(row[1].as<int>()),
                     .players = row[2].as<int64_t>()});
    }
    return out;
  });
}

absl::StatusOr<std::optional<LeaderboardRow>> RatingStore::LeaderboardRowOf(
    const std::string& ruleset, int mode, const std::string& player_id) {
  using Found = std::optional<LeaderboardRow>;
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Found> {
    pqxx::nontransaction tx(connection);
    const pqxx::result rows = tx.exec_prepared(kLeaderboardRow, ruleset, mode, player_id);
    if (rows.empty()) return Found();
    return Found(ReadLeaderboardRow(rows[0]));
  });
}

}  // namespace kahve::rating
