// kahve load matchmaking: virtual players queue on a running kahve-matchmaking, each alone for a
// 2-player Liar's dice table, and watch their tickets until matched (matchmaking_driver.h); a
// fresh player takes the next ticket at once. Measures tickets matched per second and
// enqueue-to-assignment latency, checks every assignment (no seat of a table handed out twice),
// then runs the health check at the same concurrency on the same server for comparison. Prints
// one JSON object.

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "services/common/auth.h"
#include "services/common/logging.h"
#include "tools/kahve/commands.h"
#include "tools/kahve/health_load.h"
#include "tools/kahve/load_stats.h"
#include "tools/kahve/matchmaking_driver.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(int32_t, seconds);
ABSL_DECLARE_FLAG(int32_t, concurrency);

namespace kahve::tools {
namespace {

std::string ReportJson(MatchmakingLoadReport& report, PhaseResult& health,
                       const MatchmakingLoadSettings& settings) {
  std::vector<std::string> failures;
  for (const auto& [what, count] : report.failures) {
    failures.push_back(absl::StrFormat("\"%s\": %d", what, count));
  }
  const double rate = report.matched.rate();
  return absl::StrFormat(
      "{%s, \"tickets_per_s\": %.1f, \"max_ms\": %.2f, \"enqueued\": %d, \"matched_total\": %d, "
      "\"tables\": %d, \"failures\": {%s}, \"unfinished\": %d, \"oldest_unfinished_ms\": %.0f, "
      "\"cancelled_at_end\": %d, \"duplicate_seats\": %d, \"bad_assignments\": %d, "
      "\"first_error\": %s, %s, \"health_check_per_s\": %.0f, \"ratio\": %.4f, "
      "\"warmup_seconds\": %.0f, \"concurrency\": %d}",
      Summary("matched", report.matched), rate, report.max_ms, report.enqueued,
      report.matched_total, report.tables, absl::StrJoin(failures, ", "), report.unfinished,
      report.oldest_unfinished_ms, report.cancelled_at_end, report.duplicate_seats,
      report.bad_assignments, common::JsonString(report.first_error),
      Summary("health_check", health), health.rate(),
      health.rate() > 0 ? rate / health.rate() : 0.0, absl::ToDoubleSeconds(settings.warmup),
      settings.concurrency);
}

}  // namespace

int LoadMatchmakingCommand() {
  MatchmakingLoadSettings settings;
  settings.jwt_secret = absl::GetFlag(FLAGS_jwt_hs256_secret);
  if (settings.jwt_secret.empty()) {
    std::fputs("kahve load matchmaking: needs --jwt_hs256_secret\n", stderr);
    return 2;
  }
  settings.jwt_issuer = absl::GetFlag(FLAGS_jwt_issuer);
  settings.jwt_audience = absl::GetFlag(FLAGS_jwt_audience);
  settings.target = absl::GetFlag(FLAGS_target);
  settings.concurrency = std::max(1, absl::GetFlag(FLAGS_concurrency));
  settings.length = absl::Seconds(std::max(1, absl::GetFlag(FLAGS_seconds)));
  MatchmakingLoadReport report = RunMatchmakingLoad(settings);
  PhaseResult health = HealthCheckPhase(settings.target, settings.concurrency, settings.length,
                                        kMatchmakingLoadChannels);
  std::printf("%s\n", ReportJson(report, health, settings).c_str());
  // Any seat handed out twice or malformed is a bug; no match at all means the setup is broken.
  const bool broken =
      report.duplicate_seats > 0 || report.bad_assignments > 0 || report.matched_total == 0;
  return broken ? 1 : 0;
}

}  // namespace kahve::tools
