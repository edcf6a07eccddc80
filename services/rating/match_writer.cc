#include "services/rating/match_writer.h"

#include <algorithm>
#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/time_util.h"
#include "services/common/pg_status.h"
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

constexpr int kRecordAttempts = 5;

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

// The answer to a match whose id is already stored: the stored answer for the same content,
// AlreadyExists for other content.
absl::StatusOr<RecordedMatch> RepeatAnswer(const PendingMatch& match,
                                           const std::string& stored_sha256,
                                           const v1::MatchRecord& stored) {
  if (stored_sha256 != match.request_sha256) {
    return absl::AlreadyExistsError(absl::StrCat("match ", match.canonical.match_id(),
                                                 " is already recorded with different content"));
  }
  return RecordedMatch{.response = ResponseOf(stored), .inserted = false};
}

std::string Str(int64_t value) { return absl::StrCat(value); }

}  // namespace

std::vector<std::pair<std::string, std::string>> MatchWriter::PreparedStatements() {
  return {{kFindMatches, kFindMatchesSql},     {kLockRatings, kLockRatingsSql},
          {kInsertMatches, kInsertMatchesSql}, {kInsertPlayers, kInsertPlayersSql},
          {kUpdateRatings, kUpdateRatingsSql}, {kDropPlaceholders, kDropPlaceholdersSql}};
}

MatchWriter::MatchWriter(common::PgPool* pool, RateFunction rate, MatchWriterSettings settings,
                         prometheus::Histogram* batch_sizes)
    : pool_(pool), rate_(std::move(rate)), settings_(settings), batch_sizes_(batch_sizes) {
  for (int i = 0; i < std::max(1, settings_.writers); ++i)
    threads_.emplace_back([this] { Loop(); });
}

MatchWriter::~MatchWriter() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  for (std::thread& thread : threads_) thread.join();
}

void MatchWriter::Submit(PendingMatch match, Done done) {
  absl::MutexLock lock(&mutex_);
  std::vector<std::string> keys = RatingKeysOf(match);
  queue_.push_back(Queued{std::move(match), std::move(done), std::move(keys)});
}

std::vector<std::string> MatchWriter::RatingKeysOf(const PendingMatch& match) {
  std::vector<std::string> keys;
  if (!match.rated) return keys;  // an unrated match locks no rating
  for (const std::string& player : HumanPlayers(match.canonical)) {
    keys.push_back(
        absl::StrCat(match.canonical.ruleset(), "\x1f", match.canonical.mode(), "\x1f", player));
  }
  return keys;
}

std::vector<size_t> MatchWriter::Takeable(size_t limit) const {
  // A match waits while another writer's batch holds one of its players, and so does every later
  // match of its players (they must be rated after it).
  std::vector<size_t> take;
  absl::flat_hash_set<std::string> held_back;
  for (size_t i = 0; i < queue_.size() && take.size() < limit; ++i) {
    const std::vector<std::string>& keys = queue_[i].rating_keys;
    // A loop, not std::any_of: the lock analysis does not follow a lambda.
    bool blocked = false;
    for (const std::string& key : keys) {
      blocked = blocked || busy_players_.contains(key) || held_back.contains(key);
    }
    if (blocked) {
      held_back.insert(keys.begin(), keys.end());
    } else {
      take.push_back(i);
    }
  }
  return take;
}

void MatchWriter::Loop() {
  while (true) {
    std::vector<Queued> batch;
    {
      absl::MutexLock lock(&mutex_);
      mutex_.Await(absl::Condition(
          +[](MatchWriter* self) ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->mutex_) {
            return (self->stopping_ && self->queue_.empty()) || !self->Takeable(1).empty();
          },
          this));
      if (queue_.empty()) return;  // stopping, and nothing left to record
      // Never two writers on one player: their batches would only wait on each other's locks.
      const std::vector<size_t> take = Takeable(static_cast<size_t>(settings_.max_batch));
      std::deque<Queued> rest;
      size_t next = 0;
      for (size_t i = 0; i < queue_.size(); ++i) {
        if (next < take.size() && take[next] == i) {
          for (const std::string& key : queue_[i].rating_keys) ++busy_players_[key];
          batch.push_back(std::move(queue_[i]));
          ++next;
        } else {
          rest.push_back(std::move(queue_[i]));
        }
      }
      queue_.swap(rest);
    }
    if (batch_sizes_ != nullptr) batch_sizes_->Observe(static_cast<double>(batch.size()));
    std::vector<absl::StatusOr<RecordedMatch>> answers;
    const absl::Status status = RecordBatch(batch, &answers);
    // A failure that is not the database's unavailability may be one match's fault: record each
    // alone, so one bad match cannot fail the others.
    if (!status.ok() && batch.size() > 1 && !absl::IsUnavailable(status)) {
      for (size_t i = 0; i < batch.size(); ++i) {
        std::vector<Queued> alone;
        alone.push_back(Queued{batch[i].match, nullptr, {}});
        std::vector<absl::StatusOr<RecordedMatch>> answer;
        const absl::Status alone_status = RecordBatch(alone, &answer);
        answers[i] = alone_status.ok() ? std::move(answer[0]) : alone_status;
      }
    } else if (!status.ok()) {
      for (auto& answer : answers) answer = status;
    }
    {
      absl::MutexLock lock(&mutex_);
      for (const Queued& queued : batch) {
        for (const std::string& key : queued.rating_keys) {
          if (--busy_players_[key] == 0) busy_players_.erase(key);
        }
      }
    }
    for (size_t i = 0; i < batch.size(); ++i) batch[i].done(std::move(answers[i]));
  }
}

absl::Status MatchWriter::RecordBatch(const std::vector<Queued>& batch,
                                      std::vector<absl::StatusOr<RecordedMatch>>* answers_out) {
  const size_t n = batch.size();
  // A match id queued twice: the first copy is recorded, the others answered as its repeats.
  std::vector<int> first_of(n);
  absl::flat_hash_map<std::string, int> first_index;
  std::vector<std::string> ids;
  for (size_t i = 0; i < n; ++i) {
    const auto [it, inserted] =
        first_index.try_emplace(batch[i].match.canonical.match_id(), static_cast<int>(i));
    first_of[i] = it->second;
    if (inserted) ids.push_back(it->first);
  }

  std::vector<absl::StatusOr<RecordedMatch>>& answers = *answers_out;
  answers.assign(n, absl::InternalError("not recorded"));
  absl::Status status;
  // Match ids of the batch already recorded: (request_sha256, record).
  absl::flat_hash_map<std::string, std::pair<std::string, v1::MatchRecord>> stored;
  for (int attempt = 0; attempt < kRecordAttempts; ++attempt) {
    status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
      pqxx::nontransaction tx(connection);
      tx.exec("BEGIN");
      try {
        stored.clear();
        for (const pqxx::row& row : tx.exec_prepared(kFindMatches, TextArrayLiteral(ids))) {
          auto& [sha, record] = stored[row[0].as<std::string>()];
          sha = pqxx::binarystring(row[1]).str();
          const absl::Status parsed = ParseRecord(row[2], &record);
          if (!parsed.ok()) throw std::runtime_error(std::string(parsed.message()));
        }

        // Lock the ratings of every rated new match.
        std::vector<RatingKey> keys;
        for (size_t i = 0; i < n; ++i) {
          const PendingMatch& match = batch[i].match;
          if (first_of[i] != static_cast<int>(i) || !match.rated ||
              stored.contains(match.canonical.match_id())) {
            continue;
          }
          for (const std::string& player : HumanPlayers(match.canonical)) {
            keys.emplace_back(match.canonical.ruleset(), match.canonical.mode(), player);
          }
        }
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        Columns key_columns(3);
        for (const auto& [ruleset, mode, player] : keys)
          key_columns.Add({ruleset, Str(mode), player});
        absl::flat_hash_map<RatingKey, StoredRating> ratings;
        absl::flat_hash_map<RatingKey, double> displays;  // of the ratings this batch changed
        if (!keys.empty()) {
          for (const pqxx::row& row :
               tx.exec_prepared(kLockRatings, key_columns.Quoted(0), key_columns.Bare(1),
                                key_columns.Quoted(2))) {
            ratings[RatingKey(row[0].as<std::string>(), row[1].as<int>(),
                              row[2].as<std::string>())] =
                StoredRating{.mu = row[3].as<double>(),
                             .sigma = row[4].as<double>(),
                             .games = row[5].as<int>(),
                             .last_played_us = row[6].as<int64_t>()};
          }
        }

        // Rate in queue order, each match from the ratings the ones before it left.
        Columns matches(8), players(8);
        for (size_t i = 0; i < n; ++i) {
          if (first_of[i] != static_cast<int>(i)) continue;
          const PendingMatch& match = batch[i].match;
          const v1::RecordMatchRequest& canonical = match.canonical;
          if (const auto found = stored.find(canonical.match_id()); found != stored.end()) {
            answers[i] = RepeatAnswer(match, found->second.first, found->second.second);
            continue;
          }
          std::vector<v1::RatingChange> changes;
          if (match.rated) {
            absl::flat_hash_map<std::string, StoredRating> current;
            for (const std::string& player : HumanPlayers(canonical)) {
              const StoredRating& rating =
                  ratings.at(RatingKey(canonical.ruleset(), canonical.mode(), player));
              if (rating.games > 0) current[player] = rating;  // placeholders: never rated
            }
            auto rated = rate_(canonical, current);
            if (!rated.ok()) {
              answers[i] = rated.status();
              continue;
            }
            changes = std::move(rated).value();
          }
          const v1::MatchRecord record = BuildRecord(canonical, match.rated, changes);
          const int64_t ended_us = TimeUtil::TimestampToMicroseconds(canonical.ended_at());
          const std::string mode = Str(canonical.mode());
          matches.Add({canonical.match_id(), canonical.ruleset(), mode,
                       Str(TimeUtil::TimestampToMicroseconds(canonical.started_at())),
                       Str(ended_us), match.rated ? "true" : "false", Hex(match.request_sha256),
                       Hex(record.SerializeAsString())});
          absl::flat_hash_map<std::string, const v1::Rating*> after_of;
          for (const v1::RatingChange& change : changes) {
            const v1::Rating& after = change.after();
            after_of[change.player_id()] = &after;
            const RatingKey key(canonical.ruleset(), canonical.mode(), change.player_id());
            displays[key] = after.display();
            ratings[key] = StoredRating{
                .mu = after.mu(),
                .sigma = after.sigma(),
                .games = after.games(),
                .last_played_us = TimeUtil::TimestampToMicroseconds(after.last_played())};
          }
          for (const std::string& player : HumanPlayers(canonical)) {
            const auto after = after_of.find(player);
            const bool has_rating = after != after_of.end();
            players.Add({player, Str(ended_us), canonical.match_id(), canonical.ruleset(), mode,
                         has_rating ? Number(after->second->mu()) : "NULL",
                         has_rating ? Number(after->second->sigma()) : "NULL",
                         has_rating ? Number(after->second->display()) : "NULL"});
          }
          answers[i] = RecordedMatch{.response = ResponseOf(record), .inserted = true};
        }

        if (!matches.empty()) {
          tx.exec_prepared(kInsertMatches, matches.Quoted(0), matches.Quoted(1), matches.Bare(2),
                           matches.Bare(3), matches.Bare(4), matches.Bare(5), matches.Quoted(6),
                           matches.Quoted(7));
        }
        if (!players.empty()) {
          tx.exec_prepared(kInsertPlayers, players.Quoted(0), players.Bare(1), players.Quoted(2),
                           players.Quoted(3), players.Bare(4), players.Bare(5), players.Bare(6),
                           players.Bare(7));
        }
        Columns updated(8), placeholders(3);
        for (const auto& [ruleset, mode, player] : keys) {
          const RatingKey key(ruleset, mode, player);
          const StoredRating& rating = ratings.at(key);
          if (rating.games == 0) {
            placeholders.Add({ruleset, Str(mode), player});
            continue;
          }
          updated.Add({ruleset, Str(mode), player, Number(rating.mu), Number(rating.sigma),
                       Number(displays.at(key)), Str(rating.games), Str(rating.last_played_us)});
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
        tx.exec("COMMIT");
        return absl::OkStatus();
      } catch (...) {
        // Leave the connection outside any transaction before the pool sees the error.
        try {
          tx.exec("ROLLBACK");
        } catch (...) {
        }
        throw;
      }
    });
    if (common::IsUniqueViolation(status)) {
      // Another replica recorded one of these match ids meanwhile: again, answering it as a
      // repeat this time.
      status = absl::AbortedError("a match id was recorded concurrently");
    }
    if (status.ok() || !common::IsRetryable(status)) break;
  }
  if (!status.ok()) return status;
  for (size_t i = 0; i < n; ++i) {
    if (first_of[i] == static_cast<int>(i)) continue;
    if (const auto found = stored.find(batch[i].match.canonical.match_id());
        found != stored.end()) {
      // Recorded before this batch: each copy is compared with the record itself.
      answers[i] = RepeatAnswer(batch[i].match, found->second.first, found->second.second);
      continue;
    }
    const absl::StatusOr<RecordedMatch>& first = answers[first_of[i]];
    if (!first.ok()) {
      answers[i] = first.status();
    } else if (batch[i].match.request_sha256 != batch[first_of[i]].match.request_sha256) {
      answers[i] =
          absl::AlreadyExistsError(absl::StrCat("match ", batch[i].match.canonical.match_id(),
                                                " is already recorded with different content"));
    } else {
      answers[i] = RecordedMatch{.response = first->response, .inserted = false};
    }
  }
  return absl::OkStatus();
}

}  // namespace kahve::rating
