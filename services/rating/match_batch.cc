#include "services/rating/match_batch.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/time_util.h"
#include "services/rating/pg_values.h"

namespace kahve::rating {
namespace {

using google::protobuf::util::TimeUtil;

// One primary-key lookup per id, whatever the statistics say. The plans of these statements are
// cached per connection, and a plan made while the tables were young (never analyzed, so taken for
// ten pages) stays until autovacuum's first ANALYZE: `match_id = ANY($1)` was then a sequential
// scan, in one measured run two thirds of the batch's statement time. (LIMIT 1 keeps the subquery
// from being flattened into a join the planner could hash.)
constexpr char kFindMatches[] = "rating_find_matches";
constexpr char kFindMatchesSql[] =
    "SELECT m.match_id, m.request_sha256, m.record FROM unnest($1::text[]) AS k(match_id) "
    "CROSS JOIN LATERAL (SELECT match_id, request_sha256, record FROM rating_matches "
    "WHERE match_id = k.match_id LIMIT 1) AS m";

// Locks every rating row the batch rates, in key order, creating missing ones as placeholders
// (games 0: never rated) so that new players are locked too. One statement, one order for every
// transaction: concurrent batches wait for each other and never deadlock. Placeholders are never
// seen outside the transaction: each is rated before the commit or deleted.
constexpr char kLockRatings[] = "rating_lock_ratings";
constexpr char kLockRatingsSql[] =
    "INSERT INTO ratings AS r (ruleset, mode, player_id, mu, sigma, display, games, "
    "last_played_us) "
    "SELECT k.ruleset, k.mode, k.player_id, 0, 0, 0, 0, 0 "
    "FROM unnest($1::text[], $2::smallint[], $3::text[]) AS k(ruleset, mode, player_id) "
    "ORDER BY k.ruleset, k.mode, k.player_id "
    "ON CONFLICT (ruleset, mode, player_id) DO UPDATE SET games = r.games "
    "RETURNING r.ruleset, r.mode, r.player_id, r.mu, r.sigma, r.games, r.last_played_us";

constexpr char kInsertMatches[] = "rating_insert_matches";
constexpr char kInsertMatchesSql[] =
    "INSERT INTO rating_matches (match_id, ruleset, mode, started_us, ended_us, rated, "
    "request_sha256, record) "
    "SELECT m, r, mo, s, e, ra, decode(h, 'hex'), decode(rec, 'hex') "
    "FROM unnest($1::text[], $2::text[], $3::smallint[], $4::bigint[], $5::bigint[], "
    "$6::boolean[], $7::text[], $8::text[]) AS t(m, r, mo, s, e, ra, h, rec)";

// One row per human participant, with the rating the match left them (NULL when unrated): the
// index of ListMatches and the series of GetRatingHistory.
constexpr char kInsertPlayers[] = "rating_insert_match_players";
constexpr char kInsertPlayersSql[] =
    "INSERT INTO rating_match_players (player_id, ended_us, match_id, ruleset, mode, mu, sigma, "
    "display) "
    "SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::smallint[], "
    "$6::float8[], $7::float8[], $8::float8[])";

// Writes the new ratings. Every row exists and is locked (kLockRatings), so this always takes
// the update branch. An upsert because its conflict check probes the primary key whatever the
// statistics say: an UPDATE ... FROM unnest(...) was planned as a hash join over a scan of the
// whole table while the statistics were a new database's (see kFindMatches).
constexpr char kUpdateRatings[] = "rating_update_ratings";
constexpr char kUpdateRatingsSql[] =
    "INSERT INTO ratings AS r (ruleset, mode, player_id, mu, sigma, display, games, "
    "last_played_us) "
    "SELECT * FROM unnest($1::text[], $2::smallint[], $3::text[], $4::float8[], $5::float8[], "
    "$6::float8[], $7::integer[], $8::bigint[]) "
    "ON CONFLICT (ruleset, mode, player_id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, display = excluded.display, games = excluded.games, "
    "last_played_us = excluded.last_played_us";

constexpr char kDropPlaceholders[] = "rating_drop_placeholders";
constexpr char kDropPlaceholdersSql[] =
    "DELETE FROM ratings WHERE games = 0 AND (ruleset, mode, player_id) IN "
    "(SELECT * FROM unnest($1::text[], $2::smallint[], $3::text[]))";

using RatingKey = std::tuple<std::string, int, std::string>;  // ruleset, mode, player id

// The columns of one multi-row statement, each printed as a PostgreSQL array literal.
struct Columns {
  std::vector<std::vector<std::string>> texts;
  explicit Columns(int count) : texts(count) {}
  void Add(std::initializer_list<std::string> row) {
    int i = 0;
    for (const std::string& value : row) texts[i++].push_back(value);
  }
  bool empty() const { return texts[0].empty(); }
  // Column i as an array literal: quoted for texts, bare for numbers and booleans.
  std::string Quoted(int i) const { return TextArrayLiteral(texts[i]); }
  std::string Bare(int i) const {
    return ArrayLiteral(texts[i], [](const std::string& value) { return value; });
  }
};

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

std::string Str(int64_t value) { return absl::StrCat(value); }

// What one attempt at a batch reads and builds inside its transaction.
struct BatchRows {
  // Every rating the batch's new rated matches touch, sorted: the order they are locked in.
  std::vector<RatingKey> keys;
  // Those ratings now: as locked, then as each match in turn leaves them.
  absl::flat_hash_map<RatingKey, StoredRating> ratings;
  absl::flat_hash_map<RatingKey, double> displays;  // of the ratings this batch changed
  Columns matches{8};
  Columns players{8};
};

// The matches of `ids` recorded already.
StoredMatches FindStored(pqxx::transaction_base& tx, const std::vector<std::string>& ids) {
  StoredMatches stored;
  for (const pqxx::row& row : tx.exec_prepared(kFindMatches, TextArrayLiteral(ids))) {
    auto& [sha, record] = stored[row[0].as<std::string>()];
    sha = pqxx::binarystring(row[1]).str();
    const absl::Status parsed = ParseRecord(row[2], &record);
    if (!parsed.ok()) throw std::runtime_error(std::string(parsed.message()));
  }
  return stored;
}

// Locks the ratings of every rated match of `fresh` (creating placeholders for new players) and
// reads them into `rows`.
void LockRatings(pqxx::transaction_base& tx, const std::vector<const PendingMatch*>& fresh,
                 BatchRows& rows) {
  for (const PendingMatch* match : fresh) {
    if (!match->rated) continue;
    for (const std::string& player : HumanPlayers(match->canonical)) {
      rows.keys.emplace_back(match->canonical.ruleset(), match->canonical.mode(), player);
    }
  }
  std::sort(rows.keys.begin(), rows.keys.end());
  rows.keys.erase(std::unique(rows.keys.begin(), rows.keys.end()), rows.keys.end());
  if (rows.keys.empty()) return;
  Columns key_columns(3);
  for (const auto& [ruleset, mode, player] : rows.keys)
    key_columns.Add({ruleset, Str(mode), player});
  for (const pqxx::row& row : tx.exec_prepared(kLockRatings, key_columns.Quoted(0),
                                               key_columns.Bare(1), key_columns.Quoted(2))) {
    rows.ratings[RatingKey(row[0].as<std::string>(), row[1].as<int>(), row[2].as<std::string>())] =
        StoredRating{.mu = row[3].as<double>(),
                     .sigma = row[4].as<double>(),
                     .games = row[5].as<int>(),
                     .last_played_us = row[6].as<int64_t>()};
  }
}

// Rates `match` from the ratings in `rows`, leaves its new ratings there and adds its rows.
absl::StatusOr<RecordedMatch> RateOne(const PendingMatch& match, const RateFunction& rate,
                                      BatchRows& rows) {
  const v1::RecordMatchRequest& canonical = match.canonical;
  std::vector<v1::RatingChange> changes;
  if (match.rated) {
    absl::flat_hash_map<std::string, StoredRating> current;
    for (const std::string& player : HumanPlayers(canonical)) {
      const StoredRating& rating =
          rows.ratings.at(RatingKey(canonical.ruleset(), canonical.mode(), player));
      if (rating.games > 0) current[player] = rating;  // placeholders: never rated
    }
    auto rated = rate(canonical, current);
    if (!rated.ok()) return rated.status();
    changes = std::move(rated).value();
  }
  const v1::MatchRecord record = BuildRecord(canonical, match.rated, changes);
  const int64_t ended_us = TimeUtil::TimestampToMicroseconds(canonical.ended_at());
  const std::string mode = Str(canonical.mode());
  rows.matches.Add({canonical.match_id(), canonical.ruleset(), mode,
                    Str(TimeUtil::TimestampToMicroseconds(canonical.started_at())), Str(ended_us),
                    match.rated ? "true" : "false", Hex(match.request_sha256),
                    Hex(record.SerializeAsString())});
  absl::flat_hash_map<std::string, const v1::Rating*> after_of;
  for (const v1::RatingChange& change : changes) {
    const v1::Rating& after = change.after();
    after_of[change.player_id()] = &after;
    const RatingKey key(canonical.ruleset(), canonical.mode(), change.player_id());
    rows.displays[key] = after.display();
    rows.ratings[key] =
        StoredRating{.mu = after.mu(),
                     .sigma = after.sigma(),
                     .games = after.games(),
                     .last_played_us = TimeUtil::TimestampToMicroseconds(after.last_played())};
  }
  for (const std::string& player : HumanPlayers(canonical)) {
    const auto after = after_of.find(player);
    const bool has_rating = after != after_of.end();
    rows.players.Add({player, Str(ended_us), canonical.match_id(), canonical.ruleset(), mode,
                      has_rating ? Number(after->second->mu()) : "NULL",
                      has_rating ? Number(after->second->sigma()) : "NULL",
                      has_rating ? Number(after->second->display()) : "NULL"});
  }
  return RecordedMatch{.response = ResponseOf(record), .inserted = true};
}

// Writes what `rows` holds: the matches, their players, the new ratings, and drops the
// placeholders no match rated.
void WriteRows(pqxx::transaction_base& tx, const BatchRows& rows) {
  const Columns& matches = rows.matches;
  if (!matches.empty()) {
    tx.exec_prepared(kInsertMatches, matches.Quoted(0), matches.Quoted(1), matches.Bare(2),
                     matches.Bare(3), matches.Bare(4), matches.Bare(5), matches.Quoted(6),
                     matches.Quoted(7));
  }
  const Columns& players = rows.players;
  if (!players.empty()) {
    tx.exec_prepared(kInsertPlayers, players.Quoted(0), players.Bare(1), players.Quoted(2),
                     players.Quoted(3), players.Bare(4), players.Bare(5), players.Bare(6),
                     players.Bare(7));
  }
  Columns updated(8), placeholders(3);
  for (const auto& [ruleset, mode, player] : rows.keys) {
    const RatingKey key(ruleset, mode, player);
    const StoredRating& rating = rows.ratings.at(key);
    if (rating.games == 0) {
      placeholders.Add({ruleset, Str(mode), player});
      continue;
    }
    updated.Add({ruleset, Str(mode), player, Number(rating.mu), Number(rating.sigma),
                 Number(rows.displays.at(key)), Str(rating.games), Str(rating.last_played_us)});
  }
  if (!updated.empty()) {
    tx.exec_prepared(kUpdateRatings, updated.Quoted(0), updated.Bare(1), updated.Quoted(2),
                     updated.Bare(3), updated.Bare(4), updated.Bare(5), updated.Bare(6),
                     updated.Bare(7));
  }
  if (!placeholders.empty()) {
    tx.exec_prepared(kDropPlaceholders, placeholders.Quoted(0), placeholders.Bare(1),
                     placeholders.Quoted(2));
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> MatchBatchStatements() {
  return {{kFindMatches, kFindMatchesSql},     {kLockRatings, kLockRatingsSql},
          {kInsertMatches, kInsertMatchesSql}, {kInsertPlayers, kInsertPlayersSql},
          {kUpdateRatings, kUpdateRatingsSql}, {kDropPlaceholders, kDropPlaceholdersSql}};
}

std::vector<absl::StatusOr<RecordedMatch>> WriteMatches(
    pqxx::transaction_base& tx, const std::vector<const PendingMatch*>& matches,
    const RateFunction& rate, StoredMatches* stored) {
  std::vector<std::string> ids;
  ids.reserve(matches.size());
  for (const PendingMatch* match : matches) ids.push_back(match->canonical.match_id());
  *stored = FindStored(tx, ids);
  std::vector<const PendingMatch*> fresh;
  for (const PendingMatch* match : matches) {
    if (!stored->contains(match->canonical.match_id())) fresh.push_back(match);
  }
  BatchRows rows;
  LockRatings(tx, fresh, rows);
  // Rated in queue order, each match from the ratings the ones before it left.
  std::vector<absl::StatusOr<RecordedMatch>> answers;
  answers.reserve(matches.size());
  for (const PendingMatch* match : matches) {
    const auto found = stored->find(match->canonical.match_id());
    answers.push_back(found != stored->end()
                          ? RepeatAnswer(*match, found->second.first, found->second.second)
                          : RateOne(*match, rate, rows));
  }
  WriteRows(tx, rows);
  return answers;
}

absl::StatusOr<RecordedMatch> RepeatAnswer(const PendingMatch& match,
                                           const std::string& stored_sha256,
                                           const v1::MatchRecord& stored) {
  if (stored_sha256 != match.request_sha256) {
    return absl::AlreadyExistsError(absl::StrCat("match ", match.canonical.match_id(),
                                                 " is already recorded with different content"));
  }
  return RecordedMatch{.response = ResponseOf(stored), .inserted = false};
}

}  // namespace kahve::rating
