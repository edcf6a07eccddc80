#include "services/rating/rating_store.h"

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/time_util.h"

namespace kahve::rating {
namespace {

using google::protobuf::util::TimeUtil;

constexpr char kFindMatch[] = "rating_find_match";
constexpr char kFindMatchSql[] =
    "SELECT request_sha256, record FROM rating_matches WHERE match_id = $1";

// The rated players' current ratings (no lock: RecordMatch is optimistic, see the function).
constexpr char kCurrentRatings[] = "rating_current_ratings";
constexpr char kCurrentRatingsSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us FROM ratings "
    "WHERE player_id = ANY($1::text[]) AND ruleset = $2 AND mode = $3";

// migrations/0002_rating_record_function.sql
constexpr char kRecordMatchFn[] = "rating_record_match";
constexpr char kRecordMatchFnSql[] =
    "SELECT rating_record_match($1, $2, $3::smallint, $4, $5, $6, $7::text::bytea, "
    "$8::text::bytea, $9::text[], $10::text[], $11::integer[], $12::float8[], $13::float8[], "
    "$14::float8[])";

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
    "SELECT at_us, match_id, mu, sigma, display FROM rating_history "
    "WHERE player_id = $1 AND ruleset = $2 AND mode = $3 "
    "ORDER BY at_us DESC, match_id DESC LIMIT $4";

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

constexpr char kLeaderboardRow[] = "rating_leaderboard_row";
constexpr char kLeaderboardRowSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us, display FROM ratings "
    "WHERE ruleset = $1 AND mode = $2 AND player_id = $3";

constexpr int kRecordAttempts = 5;

std::string Number(double value) { return absl::StrFormat("%.17g", value); }

// A PostgreSQL array literal of texts, each element quoted and escaped.
std::string TextArray(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& item : items) {
    std::string escaped;
    for (const char c : item) {
      if (c == '"' || c == '\\') escaped.push_back('\\');
      escaped.push_back(c);
    }
    quoted.push_back(absl::StrCat("\"", escaped, "\""));
  }
  return absl::StrCat("{", absl::StrJoin(quoted, ","), "}");
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

absl::Status ParseRecord(const pqxx::field& field, v1::MatchRecord* record) {
  const pqxx::binarystring bytes(field);
  if (!record->ParseFromString(bytes.str()))
    return absl::DataLossError("stored match record unreadable");
  return absl::OkStatus();
}

v1::MatchRecord BuildRecord(const v1::RecordMatchRequest& canonical, bool rated,
                            const std::vector<v1::RatingChange>& changes) {
  v1::MatchRecord record;
  record.set_match_id(canonical.match_id());
  record.set_ruleset(canonical.ruleset());
  record.set_mode(canonical.mode());
  *record.mutable_settings() = canonical.settings();
  *record.mutable_started_at() = canonical.started_at();
  *record.mutable_ended_at() = canonical.ended_at();
  *record.mutable_participants() = canonical.participants();
  *record.mutable_rounds() = canonical.rounds();
  record.set_rated(rated);
  for (const v1::RatingChange& change : changes) *record.add_changes() = change;
  return record;
}

v1::RecordMatchResponse ResponseOf(const v1::MatchRecord& record) {
  v1::RecordMatchResponse response;
  response.set_match_id(record.match_id());
  response.set_rated(record.rated());
  *response.mutable_changes() = record.changes();
  return response;
}

template <typename T, typename Format>
std::string ArrayLiteral(const std::vector<T>& items, Format format) {
  std::vector<std::string> parts;
  for (const T& item : items) parts.push_back(format(item));
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

// bytea in PostgreSQL's hex input form, for a text parameter cast to bytea.
std::string HexBytea(const std::string& bytes) {
  return absl::StrCat("\\x", absl::BytesToHexString(bytes));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RatingStore::PreparedStatements() {
  return {{kCurrentRatings, kCurrentRatingsSql},
          {kRecordMatchFn, kRecordMatchFnSql},
          {kFindMatch, kFindMatchSql},
          {kGetMatch, kGetMatchSql},
          {kListMatches, kListMatchesSql},
          {kListMatchesInRuleset, kListMatchesInRulesetSql},
          {kHistory, kHistorySql},
          {kLeaderboardFirst, kLeaderboardFirstSql},
          {kLeaderboardAfter, kLeaderboardAfterSql},
          {kLeaderboardBefore, kLeaderboardBeforeSql},
          {kLeaderboardAhead, kLeaderboardAheadSql},
          {kLeaderboardRow, kLeaderboardRowSql}};
}

// The answer to a repeat of a stored match: the stored response, or AlreadyExists when the content
// differs; NotFound when the match is not stored (a concurrent first attempt rolled back).
absl::StatusOr<v1::RecordMatchResponse> RatingStore::StoredAnswer(
    const v1::RecordMatchRequest& canonical, const std::string& request_sha256) {
  v1::RecordMatchResponse response;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::nontransaction tx(connection);
    const pqxx::result existing = tx.exec_prepared(kFindMatch, canonical.match_id());
    if (existing.empty()) return absl::NotFoundError("match not stored");
    if (pqxx::binarystring(existing[0][0]).str() != request_sha256) {
      return absl::AlreadyExistsError(absl::StrCat(
          "match ", canonical.match_id(), " is already recorded with different content"));
    }
    v1::MatchRecord stored;
    const absl::Status parsed = ParseRecord(existing[0][1], &stored);
    if (!parsed.ok()) return parsed;
    response = ResponseOf(stored);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return response;
}

absl::StatusOr<RatingStore::Recorded> RatingStore::RecordMatch(
    const v1::RecordMatchRequest& canonical, const std::string& request_sha256, bool rated,
    const RateFunction& rate) {
  Recorded recorded;
  absl::Status status;
  const std::vector<std::string> players = HumanPlayers(canonical);
  const std::string player_array = TextArray(players);
  const int mode = static_cast<int>(canonical.mode());
  for (int attempt = 0; attempt < kRecordAttempts; ++attempt) {
    bool repeat = false;
    status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
      // Two round trips: read the ratings, then record everything in one statement that fails
      // if any of them moved meanwhile (Aborted: the loop reads again) or if the match id is
      // taken (a repeat: answered from the stored record).
      pqxx::nontransaction tx(connection);
      absl::flat_hash_map<std::string, StoredRating> current;
      std::vector<v1::RatingChange> changes;
      if (rated) {
        for (const pqxx::row& row : tx.exec_prepared(kCurrentRatings, player_array,
                                                     canonical.ruleset(), mode)) {
          current[row[0].as<std::string>()] =
              StoredRating{.mu = row[1].as<double>(), .sigma = row[2].as<double>(),
                           .games = row[3].as<int>(), .last_played_us = row[4].as<int64_t>()};
        }
        auto computed = rate(current);
        if (!computed.ok()) return computed.status();
        changes = std::move(computed).value();
      }
      const v1::MatchRecord record = BuildRecord(canonical, rated, changes);
      std::string record_bytes;
      record.SerializeToString(&record_bytes);
      std::vector<std::string> rated_players;
      std::vector<int> games_read;
      std::vector<double> mu, sigma, display;
      for (const v1::RatingChange& change : changes) {
        rated_players.push_back(change.player_id());
        games_read.push_back(change.before().games());
        mu.push_back(change.after().mu());
        sigma.push_back(change.after().sigma());
        display.push_back(change.after().display());
      }
      auto number = [](double value) { return Number(value); };
      try {
        tx.exec_prepared(
            kRecordMatchFn, canonical.match_id(), canonical.ruleset(), mode,
            TimeUtil::TimestampToMicroseconds(canonical.started_at()),
            TimeUtil::TimestampToMicroseconds(canonical.ended_at()), rated,
            HexBytea(request_sha256), HexBytea(record_bytes), player_array,
            TextArray(rated_players), ArrayLiteral(games_read, [](int g) { return absl::StrCat(g); }),
            ArrayLiteral(mu, number), ArrayLiteral(sigma, number), ArrayLiteral(display, number));
      } catch (const pqxx::unique_violation&) {
        repeat = true;
        return absl::OkStatus();
      }
      recorded.response = ResponseOf(record);
      recorded.inserted = true;
      return absl::OkStatus();
    });
    if (status.ok() && repeat) {
      auto stored = StoredAnswer(canonical, request_sha256);
      if (absl::IsNotFound(stored.status())) continue;  // the twin rolled back: try again
      if (!stored.ok()) return stored.status();
      recorded.response = std::move(stored).value();
      recorded.inserted = false;
      return recorded;
    }
    if (!common::IsRetryable(status)) break;
  }
  if (!status.ok()) return status;
  return recorded;
}

absl::StatusOr<std::vector<std::pair<v1::Rating, StoredRating>>> RatingStore::GetRatings(
    const std::vector<std::string>& player_ids, const std::string& ruleset, int mode) {
  std::vector<std::pair<v1::Rating, StoredRating>> out;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::work tx(connection);
    std::string sql = absl::StrCat(
        "SELECT player_id, ruleset, mode, mu, sigma, games, last_played_us FROM ratings "
        "WHERE player_id = ANY(",
        tx.quote(TextArray(player_ids)), "::text[]) AND games > 0");
    if (!ruleset.empty()) absl::StrAppend(&sql, " AND ruleset = ", tx.quote(ruleset));
    if (mode != 0) absl::StrAppend(&sql, " AND mode = ", mode);
    absl::StrAppend(&sql, " ORDER BY player_id, ruleset, mode");
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
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::optional<v1::MatchRecord>> RatingStore::GetMatch(const std::string& match_id) {
  std::optional<v1::MatchRecord> out;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::nontransaction tx(connection);
    const pqxx::result rows = tx.exec_prepared(kGetMatch, match_id);
    if (rows.empty()) return absl::OkStatus();
    out.emplace();
    return ParseRecord(rows[0][0], &*out);
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<v1::MatchRecord>> RatingStore::ListMatches(
    const ListMatchesQuery& query) {
  std::vector<v1::MatchRecord> out;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
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
    for (const pqxx::row& row : rows) {
      const absl::Status parsed = ParseRecord(row[0], &out.emplace_back());
      if (!parsed.ok()) return parsed;
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<v1::RatingPoint>> RatingStore::GetRatingHistory(
    const std::string& player_id, const std::string& ruleset, int mode, int limit) {
  std::vector<v1::RatingPoint> out;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::nontransaction tx(connection);
    for (const pqxx::row& row : tx.exec_prepared(kHistory, player_id, ruleset, mode, limit)) {
      v1::RatingPoint& point = out.emplace_back();
      *point.mutable_at() = TimeUtil::MicrosecondsToTimestamp(row[0].as<int64_t>());
      point.set_match_id(row[1].as<std::string>());
      point.set_mu(row[2].as<double>());
      point.set_sigma(row[3].as<double>());
      point.set_display(row[4].as<double>());
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  std::reverse(out.begin(), out.end());
  return out;
}

absl::StatusOr<std::vector<LeaderboardRow>> RatingStore::LeaderboardPage(
    const std::string& ruleset, int mode, int min_games, const std::optional<LeaderboardKey>& after,
    int limit) {
  std::vector<LeaderboardRow> out;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::nontransaction tx(connection);
    const pqxx::result rows =
        after ? tx.exec_prepared(kLeaderboardAfter, ruleset, mode, min_games, limit, after->display,
                                 after->player_id)
              : tx.exec_prepared(kLeaderboardFirst, ruleset, mode, min_games, limit);
    for (const pqxx::row& row : rows) out.push_back(ReadLeaderboardRow(row));
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<LeaderboardRow>> RatingStore::LeaderboardBefore(
    const std::string& ruleset, int mode, int min_games, const LeaderboardKey& key, int limit) {
  std::vector<LeaderboardRow> out;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::nontransaction tx(connection);
    for (const pqxx::row& row : tx.exec_prepared(kLeaderboardBefore, ruleset, mode, min_games,
                                                 limit, key.display, key.player_id)) {
      out.push_back(ReadLeaderboardRow(row));
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<int64_t> RatingStore::LeaderboardAhead(const std::string& ruleset, int mode,
                                                      int min_games, const LeaderboardKey& key) {
  int64_t ahead = 0;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::nontransaction tx(connection);
    ahead = tx.exec_prepared(kLeaderboardAhead, ruleset, mode, min_games, key.display,
                             key.player_id)[0][0]
                .as<int64_t>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return ahead;
}

absl::StatusOr<std::optional<LeaderboardRow>> RatingStore::LeaderboardRowOf(
    const std::string& ruleset, int mode, const std::string& player_id) {
  std::optional<LeaderboardRow> out;
  const absl::Status status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
    pqxx::nontransaction tx(connection);
    const pqxx::result rows = tx.exec_prepared(kLeaderboardRow, ruleset, mode, player_id);
    if (!rows.empty()) out = ReadLeaderboardRow(rows[0]);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

}  // namespace kahve::rating
