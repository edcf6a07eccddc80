#ifndef KAHVE_TOOLS_KAHVE_TABLE_DRIVER_H_
#define KAHVE_TOOLS_KAHVE_TABLE_DRIVER_H_

// The engine of `kahve load tables`: keeps `tables` Liar's dice tables of 2-4 human seats in play
// on a kahve-table server, each played by bot clients over gRPC, with at most `concurrency` calls
// in flight. Uses the gRPC callback API, so the number of tables costs no threads. Calls that meet
// UNAVAILABLE or a deadline are retried as they were (the same request id), so the load survives
// a server restart and never plays a move twice. Every call of the run has ended and been
// destroyed when RunTableLoad returns.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "tools/kahve/load_channel.h"
#include "tools/kahve/load_stats.h"

namespace kahve::tools {

struct TableDriverSettings {
  // Where every call goes: a table host, or one entry address in front of several.
  std::string target;
  // Where the tables are created, round robin by slot (empty: `target`): with several hosts behind
  // one entry address, each holds a share of the tables.
  std::vector<std::string> create_targets;
  // When set, tables are not created but found through kahve-matchmaking here, as clients find
  // theirs (matchmaking_seating.h): every slot seats two players; create_targets is not used.
  std::string matchmaking_target;
  // Signs the service token (CreateTable) and one player token per seat.
  std::string jwt_secret;
  int tables = 1000;
  int concurrency = 32;
  // How long moves are measured once every table is created; with games_per_table, the deadline.
  absl::Duration length = absl::Seconds(10);
  // 0: a finished game is replaced by a new one until `length` is up. N: each table slot plays N
  // games, then the run ends.
  int games_per_table = 0;
  // Create the tables and play nothing (memory per idle table).
  bool idle = false;
  // When set, one `TABLE_ID SEQ` line per acknowledged move.
  std::string ack_log;
  ChannelFactory channel_factory;
};

struct TableDriverReport {
  // Acknowledged moves; `failed` counts calls the server refused (not retried ones).
  PhaseResult moves;
  double setup_seconds = 0;
  int64_t tables_created = 0;
  int64_t games_finished = 0;
  // Calls repeated after UNAVAILABLE, DEADLINE_EXCEEDED or RESOURCE_EXHAUSTED.
  int64_t retries = 0;
  // Refused moves after which the client took a fresh view.
  int64_t resyncs = 0;
  // Games whose table was gone (NOT_FOUND) when a retry came: it ended, unacknowledged, before a
  // restart, and finished tables are not reloaded.
  int64_t unconfirmed_games = 0;
  // Table slots given up after refusals in a row.
  int64_t abandoned = 0;
  // With games_per_table: every game ended before the deadline.
  bool complete = true;
  std::string first_error;
};

TableDriverReport RunTableLoad(const TableDriverSettings& settings);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_TABLE_DRIVER_H_
