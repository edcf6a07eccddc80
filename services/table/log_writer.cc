#include "services/table/log_writer.h"

#include <algorithm>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "prometheus/histogram.h"
#include "services/common/logging.h"
#include "services/common/pg_pool.h"
#include "services/common/pg_status.h"
#include "services/common/status.h"

namespace kahve::table {
namespace {

constexpr int kConnectTimeoutSeconds = 2;

// A connection of the writer's own, held for good. Durability rests on synchronous_commit: it is
// on unless someone switched it off for the database or role, which must not weaken the log.
std::unique_ptr<pqxx::connection> Connect(const std::string& url) {
  auto connection =
      std::make_unique<pqxx::connection>(common::WithConnectTimeout(url, kConnectTimeoutSeconds));
  pqxx::nontransaction tx(*connection);
  if (tx.exec1("SHOW synchronous_commit")[0].as<std::string>() == "off") {
    tx.exec0("SET synchronous_commit = on");
  }
  tx.commit();
  PrepareLogBatchStatements(*connection);
  return connection;
}

}  // namespace

LogWriter::LogWriter(LogWriterSettings settings) : settings_(std::move(settings)) {
  absl::MutexLock lock(&join_mu_);
  thread_ = std::thread([this] { Run(); });
  notify_thread_ = std::thread([this] { Notify(); });
}

LogWriter::~LogWriter() { Stop(); }

absl::Status LogWriter::Enqueue(LogWrite write) {
  absl::MutexLock lock(&mu_);
  if (stopping_) return absl::UnavailableError("the event log is shut down");
  queue_.push_back(std::move(write));
  return absl::OkStatus();
}

void LogWriter::BeginStop() {
  absl::MutexLock lock(&mu_);
  if (stopping_) return;
  stopping_ = true;
  flush_deadline_ = settings_.clock->Now() + settings_.stop_flush_timeout;
}

void LogWriter::Stop() {
  BeginStop();
  absl::MutexLock lock(&join_mu_);
  if (thread_.joinable()) thread_.join();
  if (notify_thread_.joinable()) notify_thread_.join();
}

int64_t LogWriter::Pending() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(queue_.size()) + committing_;
}

void LogWriter::Run() {
  for (;;) {
    std::vector<LogWrite> batch;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](LogWriter* writer) ABSL_EXCLUSIVE_LOCKS_REQUIRED(writer->mu_) {
            return writer->stopping_ || !writer->queue_.empty();
          },
          this));
      if (queue_.empty()) {  // stopping, and everything is flushed
        committing_done_ = true;
        return;
      }
      const size_t size = std::min<size_t>(queue_.size(), std::max(1, settings_.max_batch));
      batch.reserve(size);
      for (size_t i = 0; i < size; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      committing_ += static_cast<int64_t>(size);
    }
    if (settings_.batch_size != nullptr) {
      settings_.batch_size->Observe(static_cast<double>(batch.size()));
    }
    std::vector<WriteOutcome> outcomes = Commit(batch);
    absl::MutexLock lock(&mu_);
    committed_.emplace_back(std::move(batch), std::move(outcomes));
  }
}

void LogWriter::Notify() {
  for (;;) {
    std::pair<std::vector<LogWrite>, std::vector<WriteOutcome>> batch;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](LogWriter* writer) ABSL_EXCLUSIVE_LOCKS_REQUIRED(writer->mu_) {
            return writer->committing_done_ || !writer->committed_.empty();
          },
          this));
      if (committed_.empty()) return;  // the writer has ended and everyone was told
      batch = std::move(committed_.front());
      committed_.pop_front();
      // Counted out before anyone is told, so a caller told of its write never sees it pending.
      committing_ -= static_cast<int64_t>(batch.first.size());
    }
    auto& [writes, outcomes] = batch;
    for (size_t i = 0; i < writes.size(); ++i) writes[i].done(outcomes[i]);
  }
}

std::vector<WriteOutcome> LogWriter::Commit(absl::Span<const LogWrite> batch) {
  std::vector<WriteOutcome> outcomes;
  absl::Duration backoff = settings_.retry_initial_backoff;
  for (int attempt = 1;; ++attempt) {
    const Attempt tried = TryCommit(batch, &outcomes);
    if (tried.status.ok()) {
      if (attempt > 1) {
        common::LogInfo("event log commit succeeded after retries",
                        {{"writer", int64_t{settings_.index}},
                         {"attempts", int64_t{attempt}},
                         {"batch", static_cast<int64_t>(batch.size())}});
      }
      return outcomes;
    }
    common::LogError("event log commit failed", {{"writer", int64_t{settings_.index}},
                                                 {"attempt", int64_t{attempt}},
                                                 {"batch", static_cast<int64_t>(batch.size())},
                                                 {"error", std::string(tried.status.message())}});
    if (tried.data_error) {
      if (batch.size() > 1) return CommitOneByOne(batch);
      return {tried.status};
    }
    if (FlushTimedOut()) {
      const absl::Status gave_up = absl::UnavailableError(absl::StrCat(
          "the event log shut down before the database came back: ", tried.status.message()));
      return std::vector<WriteOutcome>(batch.size(), gave_up);
    }
    settings_.clock->SleepFor(backoff);
    backoff = std::min(backoff * 2, settings_.retry_max_backoff);
  }
}

std::vector<WriteOutcome> LogWriter::CommitOneByOne(absl::Span<const LogWrite> batch) {
  std::vector<WriteOutcome> outcomes;
  outcomes.reserve(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) outcomes.push_back(Commit(batch.subspan(i, 1))[0]);
  return outcomes;
}

LogWriter::Attempt LogWriter::TryCommit(absl::Span<const LogWrite> batch,
                                        std::vector<WriteOutcome>* outcomes) {
  try {
    if (connection_ == nullptr || !connection_->is_open()) connection_ = Connect(settings_.url);
    const absl::Time start = absl::Now();
    *outcomes = WriteLogBatch(*connection_, batch, settings_.host_id);
    if (settings_.commit_seconds != nullptr) {
      settings_.commit_seconds->Observe(absl::ToDoubleSeconds(absl::Now() - start));
    }
    return {};
  } catch (...) {
    // The connection may be mid-transaction or gone: a fresh one is simpler than finding out.
    connection_.reset();
    const absl::Status status = common::CurrentPgError().status;
    if (!common::IsDataError(status)) return {status};
    // Refused for good (Commit retries every other failure): InvalidArgument, with the edge's
    // payloads (database mark, SQLSTATE).
    absl::Status refused(absl::StatusCode::kInvalidArgument, status.message());
    status.ForEachPayload([&refused](absl::string_view key, const absl::Cord& value) {
      refused.SetPayload(key, value);
    });
    return {refused, /*data_error=*/true};
  }
}

bool LogWriter::FlushTimedOut() const {
  absl::MutexLock lock(&mu_);
  return stopping_ && settings_.clock->Now() >= flush_deadline_;
}

}  // namespace kahve::table
