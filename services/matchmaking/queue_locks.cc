#include "services/matchmaking/queue_locks.h"

#include <utility>

#include "services/common/logging.h"
#include "services/common/pg_arrays.h"
#include "services/common/pg_pool.h"

namespace kahve::matchmaking {
namespace {

// A queue's lock is a 64-bit hash of its key, in a namespace of its own. Two keys sharing a hash
// share a lock, which costs only parallelism: each key holds its own level of it.
constexpr char kTryLockSql[] =
    "SELECT pg_try_advisory_lock(hashtextextended('kahve-matchmaking ' || $1, 0))";
// Unlocks every key of the array in one round trip.
constexpr char kUnlockSql[] =
    "SELECT count(*) FROM unnest($1::text[]) AS k"
    "  WHERE pg_advisory_unlock(hashtextextended('kahve-matchmaking ' || k, 0))";

}  // namespace

QueueLocks::QueueLocks(std::string database_url) : database_url_(std::move(database_url)) {}

QueueLocks::~QueueLocks() { ReleaseAll(); }

void QueueLocks::ReleaseAll() {
  connection_.reset();
  held_.clear();
}

void QueueLocks::Drop(const std::string& during, const std::exception& error) {
  common::LogWarning("queue locks lost with their session; taking them again next pass",
                     {{"during", during},
                      {"queues", static_cast<int64_t>(held_.size())},
                      {"error", error.what()}});
  ReleaseAll();
}

std::vector<std::string> QueueLocks::BeginPass(const std::set<std::string>& active) {
  std::vector<std::string> idle;
  for (const std::string& key : held_) {
    if (!active.contains(key)) idle.push_back(key);
  }
  if (connection_ == nullptr) return idle;  // nothing held
  try {
    pqxx::nontransaction tx(*connection_);
    // Either statement fails on a dead session, so this is also the pass's liveness check.
    if (idle.empty()) {
      tx.exec("SELECT 1");
    } else {
      tx.exec_params(kUnlockSql, common::TextArrayLiteral(idle));
    }
    for (const std::string& key : idle) held_.erase(key);
  } catch (const std::exception& error) {
    idle.assign(held_.begin(), held_.end());
    Drop("pass start", error);
  }
  return idle;
}

bool QueueLocks::Hold(const std::string& queue_key) {
  if (held_.contains(queue_key)) return true;
  try {
    if (connection_ == nullptr) {
      connection_ =
          std::make_unique<pqxx::connection>(common::WithConnectTimeout(database_url_, 3));
    }
    pqxx::nontransaction tx(*connection_);
    if (!tx.exec_params1(kTryLockSql, queue_key)[0].as<bool>()) return false;
    held_.insert(queue_key);
    return true;
  } catch (const std::exception& error) {
    Drop("taking a queue lock", error);
    return false;
  }
}

}  // namespace kahve::matchmaking
