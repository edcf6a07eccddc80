#ifndef KAHVE_TOOLS_KAHVE_COMMANDS_H_
#define KAHVE_TOOLS_KAHVE_COMMANDS_H_

// Subcommands of `kahve`. Each takes the positional arguments after its name (flags are parsed
// once, by main) and returns the process exit code.

#include <string>
#include <vector>

namespace kahve::tools {

int SimCommand(const std::vector<std::string>& args);
int ScenarioCommand(const std::vector<std::string>& args);

#ifdef KAHVE_WITH_SERVICES
// kahve migrate --database URL [--migrations_dir DIR]: applies pending migrations.
int MigrateCommand(const std::vector<std::string>& args);
// kahve token --player ID [--role service|admin] [--ttl DURATION]: prints an HS256 JWT.
int TokenCommand(const std::vector<std::string>& args);
// kahve health --target H:P [--service NAME]: one grpc.health.v1 Check; prints the status and
// returns 0 only on SERVING.
int HealthCommand(const std::vector<std::string>& args);
// kahve rate: reads {"teams": [[{"mu":..,"sigma":..}],..], "ranks"|"scores": [..]} on stdin,
// prints the updated teams with full double precision.
int RateCommand(const std::vector<std::string>& args);
// kahve load rating [--target H:P] [--database URL] [--seconds S] [--concurrency C]: load
// generator; prints rates, latency percentiles and the ratio to a plain-SQL baseline.
int LoadCommand(const std::vector<std::string>& args);
// kahve load tables [--target H:P] [--tables T] [--seconds S] [--concurrency C] ...: bot clients
// play on a kahve-table; prints moves per second and latencies beside a health check's.
int LoadTablesCommand();
// kahve load matchmaking [--target H:P] [--seconds S] [--concurrency C]: virtual players queue
// for 2-player Liar's dice on a kahve-matchmaking until matched; prints tickets matched per
// second, enqueue-to-assignment latency and assignment checks beside a health check's.
int LoadMatchmakingCommand();
// kahve demo [--matchmaking_target H:P] [--rating_target H:P] [--rulesets all|a,b]: bot clients
// play one game of each ruleset on a running stack; prints it, checks results and histories.
int DemoCommand(const std::vector<std::string>& args);
// kahve serve --all | SERVICE...: the services in one process until SIGTERM or SIGINT.
int ServeCommand(const std::vector<std::string>& args);
// kahve verify REPLAY.json [STREAM.jsonl...]: checks a finished game's deal commitment and moves,
// and saved Connect streams against them; 0 when all agree, 1 at the first mismatch, 2 for
// unusable input (docs/fairness.md).
int VerifyCommand(const std::vector<std::string>& args);
// kahve replay TABLE_ID --target H:P | --file REPLAY.json [--seat N] [--full_state]: prints a
// finished game's transcript as one seat or a spectator saw it; 0 when printed, 1 when the fetch
// failed, 2 for unusable input (docs/replay.md).
int ReplayCommand(const std::vector<std::string>& args);
#endif

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_COMMANDS_H_
