// kahve load tables: bot clients play Liar's dice on a running kahve-table (see table_driver.h),
// then the same concurrency calls a method that does nothing (the gRPC health check) on the same
// server for comparison; optionally it creates idle tables and reads the server's memory. Prints
// one JSON object.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "services/common/logging.h"
#include "tools/kahve/commands.h"
#include "tools/kahve/health_load.h"
#include "tools/kahve/load_stats.h"
#include "tools/kahve/table_driver.h"

ABSL_FLAG(int32_t, tables, 1000, "load tables: tables kept in play at once.");
ABSL_FLAG(int32_t, games_per_table, 0,
          "load tables: games each table plays before the run ends; 0: finished games are "
          "replaced until --seconds is up (then --seconds is only the deadline).");
ABSL_FLAG(std::string, ack_log, "",
          "load tables: file that gets a `TABLE_ID SEQ` line for every acknowledged move.");
ABSL_FLAG(std::vector<std::string>, create_targets, {},
          "load tables: table hosts (host:port, comma-separated) to create the tables on, round "
          "robin; every other call goes to --target. Empty: --target.");
ABSL_FLAG(bool, via_matchmaking, false,
          "load tables: find each table through kahve-matchmaking at --matchmaking_target, as "
          "clients do (two players per table, queued as a party), instead of CreateTable.");
ABSL_FLAG(int32_t, idle_tables, 0,
          "load tables: tables to create and leave idle, for the server's memory per table.");
ABSL_FLAG(int32_t, server_pid, 0,
          "load tables: the server's process id, whose VmRSS the --idle_tables measurement reads.");
ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, matchmaking_target);
ABSL_DECLARE_FLAG(int32_t, seconds);
ABSL_DECLARE_FLAG(int32_t, concurrency);
ABSL_DECLARE_FLAG(std::string, jwt_hs256_secret);

namespace kahve::tools {
namespace {

// As many connections as the table load uses.
constexpr int kHealthChannels = 4;

// The process's resident memory in KiB (VmRSS of /proc/PID/status), or -1.
int64_t RssKib(int pid) {
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtoll(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

std::string DriverSummary(TableDriverReport& report) {
  return absl::StrFormat(
      "%s, \"setup_seconds\": %.3f, \"tables_created\": %d, \"games_finished\": %d, "
      "\"retries\": %d, \"resyncs\": %d, \"unconfirmed_games\": %d, \"abandoned_tables\": %d, "
      "\"complete\": %s, \"first_error\": %s",
      Summary("play", report.moves), report.setup_seconds, report.tables_created,
      report.games_finished, report.retries, report.resyncs, report.unconfirmed_games,
      report.abandoned, report.complete ? "true" : "false", common::JsonString(report.first_error));
}

// Creates `count` idle tables and reports the server's memory before and after.
std::string IdleTables(TableDriverSettings settings, int count, int pid) {
  settings.tables = count;
  settings.idle = true;
  settings.games_per_table = 0;
  settings.ack_log.clear();
  const int64_t before = pid > 0 ? RssKib(pid) : -1;
  TableDriverReport report = RunTableLoad(settings);
  // Let the log writers and the allocator settle before reading.
  absl::SleepFor(absl::Seconds(1));
  const int64_t after = pid > 0 ? RssKib(pid) : -1;
  const double per_table = count > 0 ? 1024.0 / count : 0;
  return absl::StrFormat(
      "\"idle\": {\"tables\": %d, \"created\": %d, \"failed\": %d, \"seconds\": %.3f, "
      "\"rss_before_kib\": %d, \"rss_after_kib\": %d, \"rss_delta_bytes_per_table\": %.0f, "
      "\"rss_bytes_per_table\": %.0f}",
      count, report.tables_created, report.moves.failed, report.setup_seconds, before, after,
      after >= 0 && before >= 0 ? (after - before) * per_table : -1.0,
      after >= 0 ? after * per_table : -1.0);
}

}  // namespace

int LoadTablesCommand() {
  TableDriverSettings settings;
  settings.target = absl::GetFlag(FLAGS_target);
  settings.jwt_secret = absl::GetFlag(FLAGS_jwt_hs256_secret);
  settings.tables = absl::GetFlag(FLAGS_tables);
  settings.concurrency = std::max(1, absl::GetFlag(FLAGS_concurrency));
  settings.length = absl::Seconds(absl::GetFlag(FLAGS_seconds));
  settings.games_per_table = absl::GetFlag(FLAGS_games_per_table);
  settings.ack_log = absl::GetFlag(FLAGS_ack_log);
  settings.create_targets = absl::GetFlag(FLAGS_create_targets);
  // Tables found through matchmaking only when asked: the flag's default serves `demo`.
  if (absl::GetFlag(FLAGS_via_matchmaking)) {
    settings.matchmaking_target = absl::GetFlag(FLAGS_matchmaking_target);
  }
  if (settings.jwt_secret.empty()) {
    std::fputs("kahve load tables: needs --jwt_hs256_secret\n", stderr);
    return 2;
  }
  if (!settings.ack_log.empty()) {
    FILE* file = std::fopen(settings.ack_log.c_str(), "w");
    if (file == nullptr) {
      std::fprintf(stderr, "kahve load tables: cannot write %s\n", settings.ack_log.c_str());
      return 2;
    }
    std::fclose(file);
  }
  std::vector<std::string> parts;
  int status = 0;
  if (settings.tables > 0) {
    TableDriverReport report = RunTableLoad(settings);
    parts.push_back(DriverSummary(report));
    if (settings.games_per_table > 0 && (!report.complete || report.abandoned > 0)) status = 1;
    if (settings.games_per_table == 0) {
      PhaseResult health =
          HealthCheckPhase(settings.target, settings.concurrency, settings.length, kHealthChannels);
      parts.push_back(Summary("health_check", health));
      const double ratio = health.rate() > 0 ? report.moves.rate() / health.rate() : 0;
      parts.push_back(absl::StrFormat("\"ratio\": %.3f", ratio));
    }
  }
  const int idle = absl::GetFlag(FLAGS_idle_tables);
  if (idle > 0) parts.push_back(IdleTables(settings, idle, absl::GetFlag(FLAGS_server_pid)));
  parts.push_back(absl::StrFormat("\"tables\": %d, \"concurrency\": %d", settings.tables,
                                  settings.concurrency));
  std::printf("{%s}\n", absl::StrJoin(parts, ", ").c_str());
  return status;
}

}  // namespace kahve::tools
