#ifndef KAHVE_SERVICES_MATCHMAKING_QUEUE_LOCKS_H_
#define KAHVE_SERVICES_MATCHMAKING_QUEUE_LOCKS_H_

// The queue locks of one matchmaker replica: PostgreSQL session advisory locks, one per queue key,
// all held on ONE connection of their own, so a replica costs the database one connection however
// many queues are active (a connection per queue let 250 players in 250 queues exhaust
// max_connections). A lock is taken with pg_try_advisory_lock when its queue has work and given
// back with pg_advisory_unlock when the queue goes idle. When the connection breaks the server has
// dropped every lock with the session: all are forgotten, and the next pass takes them again (or
// finds another replica holding them).
//
// Not thread-safe: only the matchmaker's pass thread (or a test's RunOnce) uses it.

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "pqxx/pqxx"

namespace kahve::matchmaking {

class QueueLocks {
 public:
  // Connects lazily to `database_url`.
  explicit QueueLocks(std::string database_url);
  // ReleaseAll().
  ~QueueLocks();
  QueueLocks(const QueueLocks&) = delete;
  QueueLocks& operator=(const QueueLocks&) = delete;

  // Starts a pass: unlocks the queues held but not in `active`, and proves the session still
  // alive (one round trip either way). A dead session loses every lock. Returns the queues no
  // longer held, for whatever the caller keeps per held queue.
  std::vector<std::string> BeginPass(const std::set<std::string>& active);
  // Whether the session holds `queue_key`'s lock, trying to take it when it does not (a round
  // trip only then).
  bool Hold(const std::string& queue_key);
  // Closes the session, releasing every lock at once (another replica's next pass takes them).
  void ReleaseAll();

  const std::set<std::string>& held() const { return held_; }

 private:
  // Forgets the session and its locks after a database error.
  void Drop(const std::string& during, const std::exception& error);

  const std::string database_url_;
  std::unique_ptr<pqxx::connection> connection_;
  std::set<std::string> held_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_QUEUE_LOCKS_H_
