#ifndef KAHVE_TESTS_ABUSE_SERVED_STACK_H_
#define KAHVE_TESTS_ABUSE_SERVED_STACK_H_

// The abuse suite's server: the shipped `kahve serve --all` (rating, table and matchmaking in one
// process) as a child process on free ports over a fresh database, so a test can attack it over
// real gRPC and watch what an operator would: whether it still serves, its memory, its metrics,
// and whether an honest player's calls still succeed.

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "kahve/v1/table.grpc.pb.h"

namespace kahve::abuse {

// Whether this build runs under AddressSanitizer (GCC says so with __SANITIZE_ADDRESS__, clang
// with __has_feature): its allocator holds freed memory on purpose, so memory bounds do not hold.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

class ServedStack {
 public:
  // Starts `kahve serve --all` over `database_url` with `extra_flags` (budgets) and waits until
  // it is ready; the test fails if it does not start (started() says). `open_files_limit` > 0
  // sets the process's descriptor limit, soft and hard (a container's `nofile`).
  ServedStack(const std::string& database_url, const std::vector<std::string>& extra_flags,
              int open_files_limit = 0);
  // Stop(), if the test did not.
  ~ServedStack();

  // SIGTERM, then the exit status (0 is a clean stop; a sanitizer's report makes it non-zero).
  int Stop();
  // The process is still running.
  bool Alive() const;
  // Its resident memory, in MiB (from /proc).
  double RssMib() const;
  // The overall grpc.health.v1 status of each service: true when all three are SERVING.
  bool AllServing() const;
  // The text of a service's /metrics ("table", "matchmaking", "rating").
  std::string Metrics(const std::string& service) const;

  bool started() const { return started_; }
  int table_port() const { return table_port_; }
  int matchmaking_port() const { return matchmaking_port_; }
  int rating_port() const { return rating_port_; }
  v1::TableService::Stub& table() { return *table_; }
  v1::MatchmakingService::Stub& matchmaking() { return *matchmaking_; }
  v1::RatingService::Stub& rating() { return *rating_; }
  const std::string& log_path() const { return log_path_; }

 private:
  bool started_ = false;
  pid_t pid_ = -1;
  int exit_status_ = -1;
  std::string log_path_;
  int table_port_ = 0;
  int matchmaking_port_ = 0;
  int rating_port_ = 0;
  int table_metrics_port_ = 0;
  int matchmaking_metrics_port_ = 0;
  int rating_metrics_port_ = 0;
  std::unique_ptr<v1::TableService::Stub> table_;
  std::unique_ptr<v1::MatchmakingService::Stub> matchmaking_;
  std::unique_ptr<v1::RatingService::Stub> rating_;
};

// A client context for `player` (role: "", "service" or "admin") with a deadline.
std::unique_ptr<grpc::ClientContext> ContextFor(const std::string& player,
                                                absl::Duration deadline = absl::Seconds(10),
                                                const std::string& role = "");

// An honest player's round of calls while an attack goes on: a view of their own table and their
// ratings, each with a deadline of `deadline`. Returns the slowest call's time, or the first
// failure.
class HonestPlayer {
 public:
  // Opens a two-player table (created with the service role) for "honest-a" and "honest-b".
  explicit HonestPlayer(ServedStack& stack);
  absl::StatusOr<absl::Duration> Round(absl::Duration deadline = absl::Seconds(2));

 private:
  ServedStack& stack_;
  std::string table_id_;
  std::string token_;
};

}  // namespace kahve::abuse

#endif  // KAHVE_TESTS_ABUSE_SERVED_STACK_H_
