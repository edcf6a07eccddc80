#include "services/rating/rating_store.h"

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/time_util.h"

namespace kahve::rating {
namespace {

using google::protobuf::util::TimeUtil;

constexpr char kFindMatch[] = "rating_find_match";
constexpr char kFindMatchSql[] =
    "SELECT request_sha256, record FROM rating_matches WHERE match_id = $1";

// The rated players' current ratings: without a lock for the optimistic first attempt, locked in
// player order (so concurrent matches queue instead of deadlocking) after a conflict.
constexpr char kReadRatings[] = "rating_read_ratings";
constexpr char kReadRatingsSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us FROM ratings "
    "WHERE ruleset = $2 AND mode = $3 AND player_id = ANY($1::text[])";
constexpr char kLockRatings[] = "rating_lock_ratings";
constexpr char kLockRatingsSql[] =
    "SELECT player_id, mu, sigma, games, last_played_us FROM ratings "
    "WHERE ruleset = $2 AND mode = $3 AND player_id = ANY($1::text[]) "
    "ORDER BY player_id FOR UPDATE";

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

std::vector<std::string> RulesetIds() {
  std::vector<std::string> ids;
  for (const engine::Ruleset& ruleset : engine::Rulesets()) ids.emplace_back(ruleset.id);
  return ids;
}

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

absl::flat_hash_map<std::string, StoredRating> ReadRatings(
    pqxx::transaction_base& tx, const char* statement, const v1::RecordMatchRequest& canonical) {
  absl::flat_hash_map<std::string, StoredRating> current;
  for (const pqxx::row& row :
       tx.exec_prepared(statement, TextArray(HumanPlayers(canonical)), canonical.ruleset(),
                        static_cast<int>(canonical.mode()))) {
    current[row[0].as<std::string>()] = StoredRating{.mu = row[1].as<double>(),
                                                     .sigma = row[2].as<double>(),
                                                     .games = row[3].as<int>(),
                                                     .last_played_us = row[4].as<int64_t>()};
  }
  return current;
}

void Record(pqxx::transaction_base& tx, const v1::RecordMatchRequest& canonical,
            const v1::MatchRecord& record, const std::string& request_sha256) {
  std::vector<std::string> rated_players;
  std::vector<int> games_read;
  std::vector<double> mu, sigma, display;
  for (const v1::RatingChange& change : record.changes()) {
    rated_players.push_back(change.player_id());
    games_read.push_back(change.before().games());
    mu.push_back(change.after().mu());
    sigma.push_back(change.after().sigma());
    display.push_back(change.after().display());
  }
  std::string record_bytes;
  record.SerializeToString(&record_bytes);
  auto number = [](double value) { return Number(value); };
  tx.exec_prepared(
      kRecordMatchFn, canonical.match_id(), canonical.ruleset(), static_cast<int>(canonical.mode()),
      TimeUtil::TimestampToMicroseconds(canonical.started_at()),
      TimeUtil::TimestampToMicroseconds(canonical.ended_at()), record.rated(),
      HexBytea(request_sha256), HexBytea(record_bytes), TextArray(HumanPlayers(canonical)),
      TextArray(rated_players), ArrayLiteral(games_read, [](int g) { return absl::StrCat(g); }),
      ArrayLiteral(mu, number), ArrayLiteral(sigma, number), ArrayLiteral(display, number));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RatingStore::PreparedStatements() {
  return {{kReadRatings, kReadRatingsSql},
          {kLockRatings, kLockRatingsSql},
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
      return absl::AlreadyExistsError(absl::StrCat("match ", canonical.match_id(),
                                                   " is already recorded with different content"));
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

absl::StatusOr<RatingStore::Recorded> RatingStore::RecordMatch(const PendingMatch& match,
                                                               const RateFunction& rate) {
  const v1::RecordMatchRequest& canonical = match.canonical;
  const std::string& request_sha256 = match.request_sha256;
  const bool rated = match.rated;
  Recorded recorded;
  absl::Status status;
  for (int attempt = 0; attempt < kRecordAttempts; ++attempt) {
    // First optimistically, in two round trips: read the ratings, then record in one statement
    // that fails if any of them moved meanwhile. After such a conflict, in a transaction that
    // locks the rows: slower, but it cannot lose to the same race again.
    const bool locking = attempt > 0;
    bool repeat = false;
    status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
      pqxx::nontransaction tx(connection);
      try {
        if (locking) tx.exec("BEGIN");
        std::vector<v1::RatingChange> changes;
        if (rated) {
          auto computed =
              rate(canonical, ReadRatings(tx, locking ? kLockRatings : kReadRatings, canonical));
          if (!computed.ok()) {
            if (locking) tx.exec("ROLLBACK");
            return computed.status();
          }
          changes = std::move(computed).value();
        }
        const v1::MatchRecord record = BuildRecord(canonical, rated, changes);
        Record(tx, canonical, record, request_sha256);
        if (locking) tx.exec("COMMIT");
        recorded.response = ResponseOf(record);
        recorded.inserted = true;
        return absl::OkStatus();
      } catch (const pqxx::unique_violation&) {
        // A repeat: the match id is taken (a concurrent twin waited on it until it committed).
        if (locking) tx.exec("ROLLBACK");
        repeat = true;
        return absl::OkStatus();
      } catch (...) {
        // Leave the connection outside any transaction before the pool sees the error.
        if (locking) {
          try {
            tx.exec("ROLLBACK");
          } catch (...) {
          }
        }
        throw;
      }
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
    // Every key column bound, so the primary key (ruleset, mode, player_id) serves the lookup.
    const std::vector<std::string> rulesets =
        ruleset.empty() ? RulesetIds() : std::vector<std::string>{ruleset};
    absl::StrAppend(&sql, " AND ruleset = ANY(", tx.quote(TextArray(rulesets)),
                    "::text[]) AND mode = ANY('",
                    mode == 0 ? "{1,2}" : absl::StrCat("{", mode, "}"), "'::smallint[])");
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
