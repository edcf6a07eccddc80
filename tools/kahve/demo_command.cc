// kahve demo: plays one game of every ruleset on a running stack the way a third-party client
// does, over gRPC only. For each ruleset a few bot clients queue on kahve-matchmaking, watch their
// tickets until matched, connect to the table they were given and play to the end, each from its
// own view. Prints a line per ruleset (its table, the ranking, what was checked) and one for the
// practice table; --verbose prints the table as seat 0 sees it, the result, the players' ratings
// and histories. After Mexican Train, one player also tries a practice table (demo_practice.h).
// Exits non-zero when any step fails or the services disagree.

#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/service_process.h"
#include "tools/kahve/player_channel.h"
#include "tools/kahve/commands.h"
#include "tools/kahve/demo_clients.h"
#include "tools/kahve/demo_output.h"
#include "tools/kahve/demo_player.h"
#include "tools/kahve/demo_practice.h"

ABSL_FLAG(std::string, matchmaking_target, "127.0.0.1:50051",
          "demo: the matchmaking service (host:port) the clients queue on.");
ABSL_FLAG(std::string, rulesets, "all", "demo: the rulesets to play, comma-separated, or all.");
ABSL_FLAG(bool, verbose, false,
          "demo: the full transcript (seat 0's stream, results, ratings, histories) instead of a "
          "line per ruleset and check.");

namespace kahve::tools {
namespace {

// The finished match reaches the rating service through the table's outbox, within a second or
// two; the demo waits this long for it before calling the history missing.
constexpr absl::Duration kHistoryWait = absl::Seconds(30);

// Fresh players for one game: a name each, with this run's tag so reruns do not meet old ratings.
std::vector<DemoPlayerIdentity> NewPlayers(int count, const std::string& secret,
                                           const std::string& run_tag) {
  static constexpr const char* kNames[] = {"ana", "bora", "cem", "deniz", "ece", "fikret"};
  std::vector<DemoPlayerIdentity> players;
  for (int i = 0; i < count; ++i) {
    DemoPlayerIdentity player;
    player.id = absl::StrCat(kNames[i % std::size(kNames)], "-", run_tag);
    player.bearer = absl::StrCat(
        "Bearer ", common::MintHs256Token(secret, {.subject = player.id,
                                                   .issued_at = absl::Now(),
                                                   .expires_at = absl::Now() + absl::Hours(1)}));
    players.push_back(std::move(player));
  }
  return players;
}

// The match as the rating service recorded it, once it is the newest in `player`'s history.
absl::StatusOr<v1::MatchRecord> RecordedMatch(v1::RatingService::Stub& rating,
                                              const DemoPlayerIdentity& player,
                                              const std::string& match_id) {
  const absl::Time give_up = absl::Now() + kHistoryWait;
  while (true) {
    v1::ListMatchesRequest request;
    request.set_player_id(player.id);
    request.set_page_size(5);
    v1::ListMatchesResponse response;
    const grpc::Status status = rating.ListMatches(player.Call().get(), request, &response);
    if (!status.ok()) {
      return absl::UnavailableError(
          absl::StrCat("ListMatches for ", player.id, ": ", status.error_message()));
    }
    if (response.matches_size() > 0 && response.matches(0).match_id() == match_id) {
      return response.matches(0);
    }
    if (absl::Now() > give_up) {
      return absl::DeadlineExceededError(absl::StrCat("match ", match_id, " is not in ", player.id,
                                                      "'s history after ",
                                                      absl::FormatDuration(kHistoryWait)));
    }
    absl::SleepFor(absl::Milliseconds(200));
  }
}

// One game of `client`'s ruleset, checked from queue to history.
// `table_endpoint` receives the host the game was played on.
absl::Status PlayOneGame(const DemoClient& client, const std::string& secret,
                         const std::string& run_tag, v1::RatingService::Stub& rating,
                         bool verbose, std::string* table_endpoint) {
  const std::vector<DemoPlayerIdentity> players = NewPlayers(client.players, secret, run_tag);
  std::vector<std::string> names;
  for (const DemoPlayerIdentity& player : players) names.push_back(player.id);
  if (verbose) {
    std::printf("== %s: %s queue for a %d-player table\n", std::string(client.ruleset).c_str(),
                absl::StrJoin(names, ", ").c_str(), client.players);
    std::fflush(stdout);
  }

  auto matchmaking =
      v1::MatchmakingService::NewStub(PlayerChannel(absl::GetFlag(FLAGS_matchmaking_target)));
  absl::Mutex print_mu;
  std::vector<DemoGame> games(players.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < players.size(); ++i) {
    threads.emplace_back([&, i] {
      games[i] = PlayAsClient(client, players[i], *matchmaking, print_mu,
                              /*seed=*/absl::Uniform<uint64_t>(absl::BitGen()), verbose);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t i = 0; i < games.size(); ++i) {
    if (!games[i].status.ok()) {
      return absl::Status(games[i].status.code(),
                          absl::StrCat(players[i].id, ": ", games[i].status.message()));
    }
  }
  if (absl::Status agreed = CheckSameGame(games); !agreed.ok()) return agreed;
  *table_endpoint = TableEndpointOf(games[0].assignment);

  const std::string& match_id = games[0].assignment.match_id();
  if (verbose) std::printf("== result: %s\n", ResultText(games[0].result, games).c_str());
  auto recorded = RecordedMatch(rating, players[0], match_id);
  if (!recorded.ok()) return recorded.status();
  if (absl::Status same = CheckRecorded(*recorded, games); !same.ok()) return same;
  if (verbose) {
    std::printf("== the rating service recorded match %s (%s, %d rounds, %s)\n",
                match_id.c_str(), recorded->ruleset().c_str(), recorded->rounds_size(),
                recorded->rated() ? "rated" : "not rated");
  }

  v1::GetRatingsRequest ratings_request;
  for (const std::string& name : names) ratings_request.add_player_ids(name);
  ratings_request.set_ruleset(std::string(client.ruleset));
  v1::GetRatingsResponse ratings;
  grpc::Status status = rating.GetRatings(players[0].Call().get(), ratings_request, &ratings);
  if (!status.ok()) return absl::UnavailableError("GetRatings: " + status.error_message());
  if (verbose) {
    std::printf("== ratings (%s)\n", std::string(client.ruleset).c_str());
    for (const v1::Rating& entry : ratings.ratings()) {
      std::printf("   %s\n", RatingText(entry).c_str());
    }
  }
  if (ratings.ratings_size() != client.players) {
    return absl::InternalError(absl::StrCat("GetRatings returned ", ratings.ratings_size(),
                                            " ratings for ", client.players, " players"));
  }

  if (verbose) std::printf("== match history, newest first\n");
  // The first player's history already led with the match (that is where the record came from).
  for (const DemoPlayerIdentity& player : players) {
    auto newest = &player == &players[0] ? recorded : RecordedMatch(rating, player, match_id);
    if (!newest.ok()) return newest.status();
    if (verbose) {
      std::printf("   %s: %s\n", player.id.c_str(), HistoryLine(*newest, player.id).c_str());
    }
  }
  // The summary keeps the transcript's "== RULESET: table ID at ENDPOINT" opening, which
  // tests/e2e/kahve_serve_test.sh reads the table ids from.
  if (!verbose) {
    std::printf("== %s: table %s at %s: %s; %s, %s; ratings and histories check out\n",
                std::string(client.ruleset).c_str(), games[0].assignment.table_id().c_str(),
                table_endpoint->c_str(), RankingText(games[0].result, games).c_str(),
                games[0].result.ending().c_str(), recorded->rated() ? "rated" : "not rated");
  }
  std::fflush(stdout);
  return absl::OkStatus();
}

}  // namespace

int DemoCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "kahve demo: unexpected argument \"%s\"\n", args[0].c_str());
    return 2;
  }
  auto secret = common::SecretFromFlags("", "jwt_hs256_secret");
  if (!secret.ok()) {
    std::fprintf(stderr, "kahve demo: players' tokens are signed with %s\n",
                 std::string(secret.status().message()).c_str());
    return 2;
  }
  std::vector<const DemoClient*> chosen;
  const std::string wanted = absl::GetFlag(FLAGS_rulesets);
  for (const DemoClient& client : DemoClients()) {
    if (wanted == "all") chosen.push_back(&client);
  }
  if (wanted != "all") {
    for (const absl::string_view id : absl::StrSplit(wanted, ',')) {
      const DemoClient* found = nullptr;
      for (const DemoClient& client : DemoClients()) {
        if (client.ruleset == std::string_view(id.data(), id.size())) found = &client;
      }
      if (found == nullptr) {
        std::fprintf(stderr, "kahve demo: no ruleset \"%s\"\n", std::string(id).c_str());
        return 2;
      }
      chosen.push_back(found);
    }
  }

  const bool verbose = absl::GetFlag(FLAGS_verbose);
  auto rating = v1::RatingService::NewStub(common::ChannelToRatingService());
  const std::string run_tag =
      absl::StrFormat("%04x", absl::Uniform<uint32_t>(absl::BitGen()) & 0xffff);
  for (const DemoClient* client : chosen) {
    std::string table_endpoint;
    absl::Status played =
        PlayOneGame(*client, *secret, run_tag, *rating, verbose, &table_endpoint);
    if (played.ok() && client->ruleset == "mexican_train") {
      played = PlayPractice(table_endpoint, client->settings,
                            NewPlayers(1, *secret, absl::StrCat("practice-", run_tag))[0],
                            verbose);
    }
    if (!played.ok()) {
      std::fprintf(stderr, "kahve demo: %s failed: %s\n", std::string(client->ruleset).c_str(),
                   played.ToString().c_str());
      return 1;
    }
  }
  std::printf("== demo done: %zu ruleset(s) played, results and histories check out\n",
              chosen.size());
  return 0;
}

}  // namespace kahve::tools
