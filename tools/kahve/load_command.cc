// kahve load rating: drives RecordMatch over gRPC against a running kahve-rating, then runs a
// comparable plain insert transaction straight against the same PostgreSQL, and prints both rates
// and their ratio as one JSON object. (`kahve load tables` lives in load_tables.cc, `kahve load
// matchmaking` in load_matchmaking.cc.)

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "google/protobuf/util/time_util.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "pqxx/pqxx"
#include "services/common/auth.h"
#include "services/common/logging.h"
#include "tools/kahve/commands.h"
#include "tools/kahve/load_stats.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50053",
          "load, health, replay: the service to drive, check or ask (host:port).");
ABSL_FLAG(int32_t, seconds, 10, "load: seconds each phase runs.");
ABSL_FLAG(int32_t, concurrency, 32, "load: requests (or transactions) in flight.");
ABSL_FLAG(int32_t, player_pool, 10000, "load rating: distinct players matches draw from.");
ABSL_FLAG(int32_t, history_matches, 10000, "load history: matches the measured player gets first.");
ABSL_DECLARE_FLAG(std::string, database);
ABSL_DECLARE_FLAG(std::string, jwt_hs256_secret);

namespace kahve::tools {
namespace {

using google::protobuf::util::TimeUtil;

// Runs `one(worker, sequence)` from `workers` threads until the time is up; each call returns
// whether it succeeded.
template <typename One>
PhaseResult RunPhase(int workers, absl::Duration length, One one) {
  std::vector<PhaseResult> per_worker(workers);
  const absl::Time end = absl::Now() + length;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int worker = 0; worker < workers; ++worker) {
    threads.emplace_back([&, worker] {
      PhaseResult& mine = per_worker[worker];
      for (int64_t sequence = 0; absl::Now() < end; ++sequence) {
        const auto began = std::chrono::steady_clock::now();
        const bool ok = one(worker, sequence);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began)
                .count();
        if (ok) {
          ++mine.done;
          mine.latencies_ms.push_back(ms);
        } else {
          ++mine.failed;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  PhaseResult total;
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (PhaseResult& part : per_worker) {
    total.done += part.done;
    total.failed += part.failed;
    total.latencies_ms.insert(total.latencies_ms.end(), part.latencies_ms.begin(),
                              part.latencies_ms.end());
  }
  return total;
}

v1::RecordMatchRequest RandomMatch(const std::string& id, uint64_t seed, int pool) {
  v1::RecordMatchRequest request;
  request.set_match_id(id);
  request.set_ruleset("liars_dice");
  request.set_mode(v1::SOLO);
  request.mutable_settings()->mutable_liars_dice()->set_players(4);
  const int64_t now_us = absl::ToUnixMicros(absl::Now());
  *request.mutable_started_at() = TimeUtil::MicrosecondsToTimestamp(now_us - 600'000'000);
  *request.mutable_ended_at() = TimeUtil::MicrosecondsToTimestamp(now_us);
  // Four distinct players from the pool, spread by a multiplicative hash of the seed.
  std::vector<int> chosen;
  for (uint64_t k = 0; chosen.size() < 4; ++k) {
    const int player = static_cast<int>(((seed * 4 + k) * 2654435761ULL) % pool);
    if (std::find(chosen.begin(), chosen.end(), player) == chosen.end()) chosen.push_back(player);
  }
  for (int seat = 0; seat < 4; ++seat) {
    v1::Participant* participant = request.add_participants();
    participant->set_player_id(absl::StrCat("load-player-", chosen[seat]));
    participant->set_seat(seat);
    participant->set_rank(seat + 1);
    participant->set_final_score(4 - seat);
  }
  v1::RoundScores* round = request.add_rounds();
  round->set_round(1);
  for (int seat = 0; seat < 4; ++seat) round->add_seat_scores(4 - seat);
  return request;
}

// "Bearer <JWT>" with the service role, signed with --jwt_hs256_secret.
std::string ServiceBearer() {
  common::TokenClaims claims;
  claims.subject = "kahve-load";
  claims.role = common::kRoleService;
  return absl::StrCat("Bearer ",
                      common::MintHs256Token(absl::GetFlag(FLAGS_jwt_hs256_secret), claims));
}

std::unique_ptr<v1::RatingService::Stub> TargetStub() {
  return v1::RatingService::NewStub(
      grpc::CreateChannel(absl::GetFlag(FLAGS_target), grpc::InsecureChannelCredentials()));
}

PhaseResult RecordMatchPhase(int workers, absl::Duration length, int pool) {
  const std::string bearer = ServiceBearer();
  auto stub = TargetStub();
  const std::string run = absl::StrCat(absl::ToUnixMicros(absl::Now()));
  return RunPhase(workers, length, [&](int worker, int64_t sequence) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", bearer);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    const uint64_t seed = static_cast<uint64_t>(worker) * 1'000'003 + sequence;
    v1::RecordMatchResponse response;
    return stub
        ->RecordMatch(
            &context,
            RandomMatch(absl::StrCat("load-", run, "-", worker, "-", sequence), seed, pool),
            &response)
        .ok();
  });
}

// The baseline: per match, one transaction writing the same rows a recorded match writes (a match
// row with its record bytes, four index rows, four rating upserts, four history rows), through
// plain SQL with no service, no gRPC, no rating math.
PhaseResult PlainInsertPhase(int workers, absl::Duration length, int pool) {
  const std::string url = absl::GetFlag(FLAGS_database);
  {
    pqxx::connection setup(url);
    pqxx::work tx(setup);
    tx.exec(
        "CREATE TABLE IF NOT EXISTS load_baseline_matches (id text PRIMARY KEY, record "
        "bytea);"
        "CREATE TABLE IF NOT EXISTS load_baseline_players (player text, id text, "
        "PRIMARY KEY (player, id));"
        "CREATE TABLE IF NOT EXISTS load_baseline_ratings (player text PRIMARY KEY, mu "
        "float8, "
        "sigma float8, games int);"
        "CREATE TABLE IF NOT EXISTS load_baseline_history (player text, id text, mu "
        "float8, "
        "PRIMARY KEY (player, id));");
    tx.commit();
  }
  std::vector<std::unique_ptr<pqxx::connection>> connections;
  for (int i = 0; i < workers; ++i) connections.push_back(std::make_unique<pqxx::connection>(url));
  const std::string run = absl::StrCat(absl::ToUnixMicros(absl::Now()));
  const std::string record(600, 'x');  // about the size of a stored four-player record
  PhaseResult result = RunPhase(workers, length, [&](int worker, int64_t sequence) {
    const std::string id = absl::StrCat("base-", run, "-", worker, "-", sequence);
    try {
      pqxx::work tx(*connections[worker]);
      std::string sql = absl::StrCat("INSERT INTO load_baseline_matches VALUES (", tx.quote(id),
                                     ",", tx.quote(record), "::bytea);");
      const uint64_t seed = static_cast<uint64_t>(worker) * 1'000'003 + sequence;
      for (int seat = 0; seat < 4; ++seat) {
        const std::string player =
            tx.quote(absl::StrCat("p", ((seed * 4 + seat) * 2654435761ULL) % pool));
        absl::StrAppend(&sql, "INSERT INTO load_baseline_players VALUES (", player, ",",
                        tx.quote(id), ");", "INSERT INTO load_baseline_ratings VALUES (", player,
                        ", 25, 8.3, 1) ON CONFLICT "
                        "(player) DO UPDATE SET games = load_baseline_ratings.games + 1;",
                        "INSERT INTO load_baseline_history VALUES (", player, ",", tx.quote(id),
                        ", 25);");
      }
      tx.exec(sql);
      tx.commit();
      return true;
    } catch (const std::exception&) {
      return false;  // deadlocks between upserts can happen; counted as failures
    }
  });
  pqxx::connection cleanup(url);
  pqxx::work tx(cleanup);
  tx.exec(
      "DROP TABLE load_baseline_matches, load_baseline_players, load_baseline_ratings, "
      "load_baseline_history");
  tx.commit();
  return result;
}

// Gives one player `matches` matches (recorded over gRPC), then pages through their history
// (ListMatches, 20 a page, following tokens to the end and starting over) and reports latencies,
// with the query plan PostgreSQL uses for a page.
int HistoryLoad(int workers, absl::Duration length, int matches) {
  const std::string hero = absl::StrCat("load-hero-", absl::ToUnixMicros(absl::Now()));
  const std::string bearer = ServiceBearer();
  auto stub = TargetStub();
  std::atomic<int> next{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> seeders;
  for (int worker = 0; worker < workers; ++worker) {
    seeders.emplace_back([&, worker] {
      for (int i = next++; i < matches; i = next++) {
        v1::RecordMatchRequest request =
            RandomMatch(absl::StrCat(hero, "-", i), worker * 7919 + i, 100000);
        request.mutable_participants(i % 4)->set_player_id(hero);
        *request.mutable_ended_at() =
            TimeUtil::MicrosecondsToTimestamp(1'600'000'000'000'000 + i * 1'000'000LL);
        *request.mutable_started_at() = request.ended_at();
        grpc::ClientContext context;
        context.AddMetadata("authorization", bearer);
        v1::RecordMatchResponse response;
        if (!stub->RecordMatch(&context, request, &response).ok()) ++failed;
      }
    });
  }
  for (std::thread& thread : seeders) thread.join();
  // Each worker walks the history page by page, starting over at the end.
  std::vector<std::string> tokens(workers);
  PhaseResult pages = RunPhase(workers, length, [&](int worker, int64_t) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", bearer);
    v1::ListMatchesRequest request;
    request.set_player_id(hero);
    request.set_page_size(20);
    request.set_page_token(tokens[worker]);
    v1::ListMatchesResponse response;
    const bool ok =
        stub->ListMatches(&context, request, &response).ok() && response.matches_size() > 0;
    tokens[worker] = response.next_page_token();
    return ok;
  });
  std::string plan;
  pqxx::connection connection(absl::GetFlag(FLAGS_database));
  pqxx::nontransaction tx(connection);
  for (const pqxx::row& row : tx.exec(absl::StrCat(
           "EXPLAIN SELECT m.record FROM rating_match_players p JOIN rating_matches m USING "
           "(match_id) "
           "WHERE p.player_id = ",
           tx.quote(hero),
           " AND p.ended_us >= -9223372036854775808 AND "
           "p.ended_us < 9223372036854775807 AND (p.ended_us, p.match_id) < (1600005000000000, '') "
           "ORDER BY p.ended_us DESC, p.match_id DESC LIMIT 21"))) {
    absl::StrAppend(&plan, plan.empty() ? "" : ", ", common::JsonString(row[0].as<std::string>()));
  }
  std::printf("{\"seeded_matches\": %d, \"seed_failures\": %d, %s, \"plan\": [%s]}\n", matches,
              failed.load(), Summary("list_matches_page", pages).c_str(), plan.c_str());
  return 0;
}

}  // namespace

int LoadCommand(const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "tables") return LoadTablesCommand();
  if (args.size() == 1 && args[0] == "matchmaking") return LoadMatchmakingCommand();
  if (args.size() != 1 || (args[0] != "rating" && args[0] != "history")) {
    std::fputs(
        "kahve load: usage: kahve load rating|history|tables|matchmaking [--target H:P] "
        "[--database URL] "
        "[--seconds S] [--concurrency C]\n",
        stderr);
    return 2;
  }
  if (absl::GetFlag(FLAGS_jwt_hs256_secret).empty() || absl::GetFlag(FLAGS_database).empty()) {
    std::fputs("kahve load rating: needs --jwt_hs256_secret and --database\n", stderr);
    return 2;
  }
  const int workers = absl::GetFlag(FLAGS_concurrency);
  const absl::Duration length = absl::Seconds(absl::GetFlag(FLAGS_seconds));
  const int pool = absl::GetFlag(FLAGS_player_pool);
  if (args[0] == "history")
    return HistoryLoad(workers, length, absl::GetFlag(FLAGS_history_matches));
  PhaseResult grpc_phase = RecordMatchPhase(workers, length, pool);
  PhaseResult plain_phase = PlainInsertPhase(workers, length, pool);
  const double grpc_rate = grpc_phase.seconds > 0 ? grpc_phase.done / grpc_phase.seconds : 0;
  const double plain_rate = plain_phase.seconds > 0 ? plain_phase.done / plain_phase.seconds : 0;
  std::printf("{%s, %s, \"ratio\": %.3f, \"concurrency\": %d}\n",
              Summary("record_match", grpc_phase).c_str(),
              Summary("plain_insert_tx", plain_phase).c_str(),
              plain_rate > 0 ? grpc_rate / plain_rate : 0.0, workers);
  return 0;
}

}  // namespace kahve::tools
