// kahve: the command-line tool. `kahve help` lists the commands; `kahve COMMAND --help` shows one
// with its flags.

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/str_cat.h"
#include "kahve/version.h"
#ifdef KAHVE_WITH_SERVICES
#include "services/common/config.h"
#endif
#include "tools/kahve/commands.h"

namespace {

struct Command {
  std::string_view name;
  // Its synopsis and what it does, as `kahve help` shows it.
  std::string_view usage;
  int (*run)(const std::vector<std::string>& args);
  // The flags it reads (`kahve COMMAND --help` lists these).
  std::vector<std::string_view> flags;
  // It reads every flag of the binary (serve runs the services).
  bool every_flag = false;
};

const std::vector<Command>& Commands() {
  static const std::vector<Command> kCommands = {
      {"sim",
       "  sim --game G --games N --seed S [--players P] [--dice D] [--rounds R] [--bots a,b,...]\n"
       "      [--deals 1|3] [--teams] [--doubling]   (okey51)   [--deals 3|5|7|9|11] [--teams]"
       "   (okey101)\n"
       "      [--deals N] [--teams]   (okey)\n"
       "      plays N bot games and prints one JSON summary\n",
       &kahve::tools::SimCommand,
       {"game", "games", "seed", "players", "dice", "rounds", "deals", "teams", "doubling",
        "bots"}},
      {"scenario",
       "  scenario FILE.json...\n"
       "      runs scenario files; exits non-zero at the first mismatch\n",
       &kahve::tools::ScenarioCommand,
       {}},
#ifdef KAHVE_WITH_SERVICES
      {"migrate",
       "  migrate --database URL [--migrations_dir DIR]\n"
       "      applies pending schema migrations under an advisory lock\n",
       &kahve::tools::MigrateCommand,
       {"database", "migrations_dir"}},
      {"token",
       "  token --player ID [--role service|admin] [--ttl 24h]\n"
       "      prints an HS256 JWT signed with --jwt_hs256_secret (KAHVE_JWT_HS256_SECRET)\n",
       &kahve::tools::TokenCommand,
       {"player", "role", "ttl", "jwt_hs256_secret", "jwt_issuer", "jwt_audience"}},
      {"health",
       "  health --target H:P [--service NAME]\n"
       "      one grpc.health.v1 check; prints the status, exits 0 only on SERVING\n",
       &kahve::tools::HealthCommand,
       {"target", "service"}},
      {"rate",
       "  rate < request.json\n"
       "      rates one match with the service's model (docs/ratings.md)\n",
       &kahve::tools::RateCommand,
       {}},
      {"load",
       "  load rating [--target H:P] [--database URL] [--seconds S] [--concurrency C]\n"
       "      drives RecordMatch and a plain-SQL baseline; prints rates and latencies\n"
       "  load tables --target H:P [--tables T] [--seconds S] [--concurrency C]\n"
       "             [--games_per_table N] [--ack_log FILE] [--idle_tables N --server_pid PID]\n"
       "             [--via_matchmaking --matchmaking_target H:P]\n"
       "      bot clients play Liar's dice on kahve-table; prints moves/s and latencies beside a\n"
       "      health check's, and the server's memory per idle table\n"
       "  load matchmaking --target H:P [--seconds S] [--concurrency C]\n"
       "      virtual players queue for 2-player Liar's dice until matched; prints tickets/s,\n"
       "      enqueue-to-assignment latency and assignment checks beside a health check's\n",
       &kahve::tools::LoadCommand,
       {"target", "database", "seconds", "concurrency", "player_pool", "history_matches",
        "tables", "games_per_table", "ack_log", "create_targets", "idle_tables", "server_pid",
        "via_matchmaking", "matchmaking_target",
        "jwt_hs256_secret", "jwt_issuer", "jwt_audience"}},
      {"demo",
       "  demo [--matchmaking_target H:P] [--rating_target H:P] [--rulesets all|ID,...] [--verbose]\n"
       "       [--demo_table_target H:P]\n"
       "      bot clients queue, get matched and play one game of every ruleset over gRPC; prints\n"
       "      a line per ruleset and check (--verbose: seat 0's stream, the result, ratings and\n"
       "      histories); non-zero exit on any failure\n",
       &kahve::tools::DemoCommand,
       {"matchmaking_target", "rating_target", "rulesets", "verbose", "demo_table_target",
        "jwt_hs256_secret", "jwt_issuer", "jwt_audience"}},
      {"serve",
       "  serve --all | SERVICE... [--port -1|0] [--metrics_port -1|0]\n"
       "      runs kahve-rating, kahve-table and kahve-matchmaking (or the ones named) in one\n"
       "      process, each on its default ports (-1) or free ones (0), until SIGTERM or SIGINT\n",
       &kahve::tools::ServeCommand,
       {},
       /*every_flag=*/true},
      {"verify",
       "  verify REPLAY.json [STREAM.jsonl...]\n"
       "      checks a finished game's deal commitment against its revealed seed and replays its\n"
       "      moves; checks saved Connect streams against it (docs/fairness.md)\n",
       &kahve::tools::VerifyCommand,
       {}},
      {"replay",
       "  replay TABLE_ID --target H:P [--role admin] | replay --file REPLAY.json\n"
       "         [--seat N] [--full_state]\n"
       "      a finished game's transcript, move by move, as seat N (or a spectator) saw it:\n"
       "      moves, who chose them, events, hands and table, result (docs/replay.md)\n",
       &kahve::tools::ReplayCommand,
       {"target", "file", "seat", "full_state", "role", "jwt_hs256_secret", "jwt_issuer",
        "jwt_audience"}},
#endif
  };
  return kCommands;
}

std::string Usage() {
  std::string usage = absl::StrCat("kahve ", kahve::kKahveVersion,
                                   "\nkahve COMMAND [flags]   (kahve COMMAND --help: the command "
                                   "and its flags; kahve --version)\n");
  for (const Command& command : Commands()) usage += command.usage;
  return usage;
}

const Command* FindCommand(std::string_view name) {
  for (const Command& command : Commands()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

// The first argument that is not a flag: the command's name, or "" when there is none.
std::string_view CommandName(int argc, char** argv) {
  for (int index = 1; index < argc; ++index) {
    const std::string_view arg = argv[index];
    if (arg == "--") return index + 1 < argc ? std::string_view(argv[index + 1]) : "";
    if (!arg.starts_with("-")) return arg;
  }
  return "";
}

// `kahve [COMMAND] --help`: the command's usage and the flags it reads (every command's usage
// without one). An unknown command is an error.
int Help(std::string_view name) {
  const Command* command = FindCommand(name);
  if (command == nullptr && !name.empty() && name != "help") {
    std::fprintf(stderr, "kahve: unknown command \"%s\"\n%s", std::string(name).c_str(),
                 Usage().c_str());
    return 2;
  }
  if (command == nullptr) {
    std::fputs(Usage().c_str(), stdout);
    return 0;
  }
  std::string_view synopsis = command->usage;
  synopsis.remove_prefix(synopsis.find_first_not_of(' '));
  const std::string usage = absl::StrCat("kahve ", std::string(synopsis));
#ifdef KAHVE_WITH_SERVICES
  kahve::common::PrintFlagHelp(stdout, usage, [command](std::string_view flag) {
    return command->every_flag ||
           std::find(command->flags.begin(), command->flags.end(), flag) != command->flags.end();
  });
#else
  std::fputs(usage.c_str(), stdout);
#endif
  return 0;
}

bool AsksForHelp(int argc, char** argv) {
#ifdef KAHVE_WITH_SERVICES
  return kahve::common::AsksForHelp(argc, argv);
#else
  for (int index = 1; index < argc; ++index) {
    const std::string_view arg = argv[index];
    if (arg == "--help" || arg == "-help" || arg == "-h") return true;
  }
  return false;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  if (AsksForHelp(argc, argv)) return Help(CommandName(argc, argv));
  const std::string usage = Usage();
  absl::SetProgramUsageMessage(usage);
  absl::FlagsUsageConfig usage_config;
  usage_config.version_string = [] { return absl::StrCat("kahve ", kahve::kKahveVersion, "\n"); };
  absl::SetFlagsUsageConfig(usage_config);
#ifdef KAHVE_WITH_SERVICES
  std::vector<char*> positional = kahve::common::ParseFlags(argc, argv);
#else
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
#endif
  if (positional.size() < 2) {
    std::fputs(usage.c_str(), stderr);
    return 2;
  }
  const std::string name = positional[1];
  const std::vector<std::string> args(positional.begin() + 2, positional.end());
  if (name == "help") return Help(args.empty() ? "" : args[0]);
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    std::fprintf(stderr, "kahve: unknown command \"%s\"\n%s", name.c_str(), usage.c_str());
    return 2;
  }
  return command->run(args);
}
