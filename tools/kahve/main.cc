// kahve: the command-line tool. `kahve help` lists the commands.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#ifdef KAHVE_WITH_SERVICES
#include "services/common/config.h"
#endif
#include "tools/kahve/commands.h"

namespace {

constexpr char kUsage[] =
    "kahve COMMAND [flags]\n"
    "  sim --game G --games N --seed S [--players P] [--dice D] [--rounds R] [--bots a,b,...]\n"
    "      [--deals 1|3] [--teams] [--doubling]   (okey51)   [--deals 3|5|7|9|11] [--teams]   (okey101)\n"
    "      [--deals N] [--teams]   (okey)\n"
    "      plays N bot games and prints one JSON summary\n"
    "  scenario FILE.json...\n"
    "      runs scenario files; exits non-zero at the first mismatch\n"
#ifdef KAHVE_WITH_SERVICES
    "  migrate --database URL [--migrations_dir DIR]\n"
    "      applies pending schema migrations under an advisory lock\n"
    "  token --player ID [--role service|admin] [--ttl 24h]\n"
    "      prints an HS256 JWT signed with --jwt_hs256_secret (KAHVE_JWT_HS256_SECRET)\n"
    "  health --target H:P [--service NAME]\n"
    "      one grpc.health.v1 check; prints the status, exits 0 only on SERVING\n"
    "  rate < request.json\n"
    "      rates one match with the service's model (docs/ratings.md)\n"
    "  load rating [--target H:P] [--database URL] [--seconds S] [--concurrency C]\n"
    "      drives RecordMatch and a plain-SQL baseline; prints rates and latencies\n"
    "  load tables --target H:P [--tables T] [--seconds S] [--concurrency C]\n"
    "             [--games_per_table N] [--ack_log FILE] [--idle_tables N --server_pid PID]\n"
    "      bot clients play Liar's dice on kahve-table; prints moves/s and latencies beside a\n"
    "      health check's, and the server's memory per idle table\n"
    "  load matchmaking --target H:P [--seconds S] [--concurrency C]\n"
    "      virtual players queue for 2-player Liar's dice until matched; prints tickets/s,\n"
    "      enqueue-to-assignment latency and assignment checks beside a health check's\n"
    "  demo [--matchmaking_target H:P] [--rating_target H:P] [--rulesets all|ID,...]\n"
    "      bot clients queue, get matched and play one game of every ruleset over gRPC; prints\n"
    "      seat 0's stream, the result, ratings and histories; non-zero exit on any failure\n"
    "  serve --all | SERVICE... [--port -1|0] [--metrics_port -1|0]\n"
    "      runs kahve-rating, kahve-table and kahve-matchmaking (or the ones named) in one\n"
    "      process, each on its default ports (-1) or free ones (0), until SIGTERM or SIGINT\n"
    "  verify REPLAY.json [STREAM.jsonl...]\n"
    "      checks a finished game's deal commitment against its revealed seed and replays its\n"
    "      moves; checks saved Connect streams against it (docs/fairness.md)\n"
#endif
    ;

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
#ifdef KAHVE_WITH_SERVICES
  std::vector<char*> positional = kahve::common::ParseFlags(argc, argv);
#else
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
#endif
  if (positional.size() < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string command = positional[1];
  const std::vector<std::string> args(positional.begin() + 2, positional.end());
  if (command == "sim") return kahve::tools::SimCommand(args);
  if (command == "scenario") return kahve::tools::ScenarioCommand(args);
#ifdef KAHVE_WITH_SERVICES
  if (command == "migrate") return kahve::tools::MigrateCommand(args);
  if (command == "token") return kahve::tools::TokenCommand(args);
  if (command == "health") return kahve::tools::HealthCommand(args);
  if (command == "rate") return kahve::tools::RateCommand(args);
  if (command == "load") return kahve::tools::LoadCommand(args);
  if (command == "demo") return kahve::tools::DemoCommand(args);
  if (command == "serve") return kahve::tools::ServeCommand(args);
  if (command == "verify") return kahve::tools::VerifyCommand(args);
#endif
  if (command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::fprintf(stderr, "kahve: unknown command \"%s\"\n%s", command.c_str(), kUsage);
  return 2;
}
