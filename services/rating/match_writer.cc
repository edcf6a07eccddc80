#include "services/rating/match_writer.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_status.h"

namespace kahve::rating {
namespace {

// A batch is retried as a whole this many times on a serialization failure, a deadlock or a
// concurrent insert of one of its match ids.
constexpr int kRecordAttempts = 5;

}  // namespace

std::vector<std::pair<std::string, std::string>> MatchWriter::PreparedStatements() {
  return MatchBatchStatements();
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
  std::vector<absl::StatusOr<RecordedMatch>>& answers = *answers_out;
  answers.assign(n, absl::InternalError("not recorded"));  // one per match, even on failure
  // A match id queued twice: the first copy is recorded, the others answered as its repeats.
  std::vector<int> first_of(n);
  std::vector<const PendingMatch*> firsts;
  std::vector<size_t> answer_of(n);  // a first copy's place in `firsts`
  absl::flat_hash_map<std::string, int> first_index;
  for (size_t i = 0; i < n; ++i) {
    const auto [it, inserted] =
        first_index.try_emplace(batch[i].match.canonical.match_id(), static_cast<int>(i));
    first_of[i] = it->second;
    if (inserted) {
      answer_of[i] = firsts.size();
      firsts.push_back(&batch[i].match);
    }
  }
  std::vector<absl::StatusOr<RecordedMatch>> first_answers;
  StoredMatches stored;
  absl::Status status;
  for (int attempt = 0; attempt < kRecordAttempts; ++attempt) {
    status = pool_->Run([&](pqxx::connection& connection) -> absl::Status {
      pqxx::nontransaction tx(connection);
      tx.exec("BEGIN");
      try {
        first_answers = WriteMatches(tx, firsts, rate_, &stored);
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
    if (first_of[i] == static_cast<int>(i)) {
      answers[i] = std::move(first_answers[answer_of[i]]);
      continue;
    }
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
