#ifndef KAHVE_TOOLS_KAHVE_MATCHMAKING_DRIVER_H_
#define KAHVE_TOOLS_KAHVE_MATCHMAKING_DRIVER_H_

// The engine of `kahve load matchmaking`: virtual players queue on a kahve-matchmaking server,
// each alone for a 2-player Liar's dice table, and watch their tickets until matched; a fresh
// player takes the next ticket at once. Uses the gRPC callback API. Every call of the run has
// ended and been destroyed when RunMatchmakingLoad returns.

#include <cstdint>
#include <map>
#include <string>

#include "absl/time/time.h"
#include "tools/kahve/load_channel.h"
#include "tools/kahve/load_stats.h"

namespace kahve::tools {

struct MatchmakingLoadSettings {
  std::string target;
  // Signs each player's token, with these claims when set.
  std::string jwt_secret;
  std::string jwt_issuer;
  std::string jwt_audience;
  // Tickets in flight (lanes).
  int concurrency = 32;
  // The measured window.
  absl::Duration length = absl::Seconds(10);
  // Before the window: the first burst of tickets and the first passes settle.
  absl::Duration warmup = absl::Seconds(2);
  // After the window no ticket starts; those in flight get this long to be matched (and checked),
  // then their watches end and the tickets are cancelled.
  absl::Duration drain = absl::Seconds(5);
  ChannelFactory channel_factory;
};

struct MatchmakingLoadReport {
  PhaseResult matched;  // in the window: MATCHED received, failures ended
  double max_ms = 0;
  int64_t enqueued = 0;
  int64_t matched_total = 0;
  std::map<std::string, int64_t> failures;  // the whole run, by what failed and its code
  int64_t unfinished = 0;                   // still queued when the run stopped
  double oldest_unfinished_ms = 0;
  int64_t cancelled_at_end = 0;
  int64_t duplicate_seats = 0;
  int64_t bad_assignments = 0;
  int64_t tables = 0;
  std::string first_error;
};

// Separate HTTP/2 connections the load spreads its calls over.
inline constexpr int kMatchmakingLoadChannels = 4;

MatchmakingLoadReport RunMatchmakingLoad(const MatchmakingLoadSettings& settings);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_MATCHMAKING_DRIVER_H_
