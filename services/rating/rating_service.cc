#include "services/rating/rating_service.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/registry.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/time_util.h"
#include "services/common/logging.h"
#include "services/common/server.h"
#include "services/common/sha256.h"
#include "services/common/status.h"
#include "services/common/time.h"
#include "services/common/unary_call.h"
#include "services/rating/match_rater.h"

ABSL_FLAG(int32_t, provisional_games, 10,
          "Rating: players with fewer rated games in a ruleset and mode are provisional (kept off "
          "leaderboards).");
ABSL_FLAG(
    std::string, page_token_secret, "",
    "Rating: key that signs page tokens (replicas must share it); empty: --jwt_hs256_secret.");
ABSL_FLAG(
    int32_t, record_writers, 2,
    "Rating: threads recording matches, each committing a batch of queued matches at a time.");
ABSL_FLAG(int32_t, record_batch, 256, "Rating: matches recorded in one transaction at most.");
ABSL_FLAG(int32_t, leaderboard_count_seconds, 60,
          "Rating: seconds between counts of each leaderboard's players "
          "(kahve_leaderboard_players); 0: never counted.");

namespace kahve::rating {
namespace {

using google::protobuf::util::TimeUtil;

constexpr int kMaxPageSize = 100;
constexpr int kDefaultLeaderboardPage = 50;
constexpr int kDefaultMatchesPage = 20;
constexpr int kMaxPlayersPerQuery = 100;
constexpr int kMaxHistoryPoints = 10000;

// A match moves mu by a few points at most once sigma has shrunk; a newcomer's first matches
// (sigma 25/3) move it most.
const prometheus::Histogram::BucketBoundaries kMuChangeBuckets = {-8,   -4,  -2, -1, -0.5, -0.25, 0,
                                                                  0.25, 0.5, 1,  2,  4,    8};
// Sigma shrinks by up to about a point in a newcomer's first matches and by hundredths later; it
// grows by a little (the drift tau, at most about 0.003 at sigma 1) for a settled player whose
// match taught the model little.
const prometheus::Histogram::BucketBoundaries kSigmaChangeBuckets = {
    -2, -1, -0.5, -0.25, -0.1, -0.05, -0.02, -0.01, -0.005, 0, 0.005, 0.01, 0.05};

const char* ModeLabel(v1::MatchMode mode) { return mode == v1::TEAMS ? "teams" : "solo"; }

absl::StatusOr<int> PageSize(int requested, int default_size) {
  if (requested == 0) return default_size;
  if (requested < 0 || requested > kMaxPageSize) return InvalidField("page_size", "must be 0..100");
  return requested;
}

absl::Status CheckRuleset(const std::string& ruleset, bool required) {
  if (ruleset.empty()) return required ? InvalidField("ruleset", "required") : absl::OkStatus();
  const auto found = engine::FindRuleset(ruleset);
  return found.ok() ? absl::OkStatus()
                    : InvalidField("ruleset", std::string(found.status().message()));
}

absl::Status CheckMode(v1::MatchMode mode, bool required) {
  if (mode == v1::SOLO || mode == v1::TEAMS) return absl::OkStatus();
  if (mode == v1::MATCH_MODE_UNSPECIFIED && !required) return absl::OkStatus();
  return InvalidField("mode", required ? "SOLO or TEAMS required" : "unknown mode");
}

std::string DeterministicBytes(const google::protobuf::Message& message) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.SerializeToCodedStream(&coded);
  coded.Trim();
  return bytes;
}

google::protobuf::ListValue Cursor(std::initializer_list<google::protobuf::Value> values) {
  google::protobuf::ListValue cursor;
  for (const auto& value : values) *cursor.add_values() = value;
  return cursor;
}

google::protobuf::Value Text(const std::string& text) {
  google::protobuf::Value value;
  value.set_string_value(text);
  return value;
}

google::protobuf::Value Real(double number) {
  google::protobuf::Value value;
  value.set_number_value(number);
  return value;
}

// Integers up to 2^53 survive a double exactly; microsecond times and positions stay below it.
google::protobuf::Value Integer(int64_t number) { return Real(static_cast<double>(number)); }

bool CursorShape(const google::protobuf::ListValue& cursor, const std::string& kinds) {
  if (cursor.values_size() != static_cast<int>(kinds.size())) return false;
  for (size_t i = 0; i < kinds.size(); ++i) {
    const auto kind = cursor.values(i).kind_case();
    if (kinds[i] == 's' && kind != google::protobuf::Value::kStringValue) return false;
    if (kinds[i] == 'n' && kind != google::protobuf::Value::kNumberValue) return false;
  }
  return true;
}

std::string LeaderboardScope(const v1::GetLeaderboardRequest& request) {
  return absl::StrCat("leaderboard|", request.ruleset(), "|", static_cast<int>(request.mode()));
}

void AddEntry(v1::GetLeaderboardResponse* response, const v1::GetLeaderboardRequest& request,
              const LeaderboardRow& row, int64_t position, int provisional_games) {
  v1::LeaderboardEntry* entry = response->add_entries();
  entry->set_position(position);
  *entry->mutable_rating() =
      ToRating(row.player_id, request.ruleset(), request.mode(), row.rating, provisional_games);
}

}  // namespace

absl::StatusOr<RatingServiceSettings> RatingServiceSettingsFromFlags() {
  RatingServiceSettings settings;
  settings.provisional_games = absl::GetFlag(FLAGS_provisional_games);
  auto page_token_key =
      common::SecretFromFlags(absl::GetFlag(FLAGS_page_token_secret), "page_token_secret");
  if (!page_token_key.ok()) return page_token_key.status();
  settings.page_token_key = *std::move(page_token_key);
  settings.writer.writers = std::max(1, absl::GetFlag(FLAGS_record_writers));
  settings.writer.max_batch = std::max(1, absl::GetFlag(FLAGS_record_batch));
  settings.leaderboard_count_interval =
      absl::Seconds(std::max(0, absl::GetFlag(FLAGS_leaderboard_count_seconds)));
  return settings;
}

RatingMetrics::RatingMetrics(prometheus::Registry& registry)
    : updates(prometheus::BuildCounter()
                  .Name("kahve_rating_updates_total")
                  .Help("Player ratings updated by recorded matches, by ruleset.")
                  .Register(registry)),
      record_match_seconds(prometheus::BuildHistogram()
                               .Name("kahve_record_match_seconds")
                               .Help("Time from receipt to answer of a newly recorded match "
                                     "(validation, queueing, rating and its batch's commit), in "
                                     "seconds.")
                               .Register(registry)
                               .Add({}, common::LatencyBuckets())),
      record_batch_size(
          prometheus::BuildHistogram()
              .Name("kahve_record_match_batch_size")
              .Help("Matches recorded per transaction (group commit).")
              .Register(registry)
              .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128, 256})),
      matches(prometheus::BuildCounter()
                  .Name("kahve_matches_recorded_total")
                  .Help("Matches stored, by ruleset, mode and whether they were rated.")
                  .Register(registry)),
      mu_change(prometheus::BuildHistogram()
                    .Name("kahve_rating_mu_change")
                    .Help("New mu minus old mu of every player rating a newly recorded match "
                          "changed, by ruleset.")
                    .Register(registry)),
      sigma_change(prometheus::BuildHistogram()
                       .Name("kahve_rating_sigma_change")
                       .Help("New sigma minus old sigma of every player rating a newly recorded "
                             "match changed, by ruleset.")
                       .Register(registry)),
      leaderboard_players(prometheus::BuildGauge()
                              .Name("kahve_leaderboard_players")
                              .Help("Players on each leaderboard (rated games at least the "
                                    "provisional threshold), by ruleset and mode, as last counted "
                                    "in the database.")
                              .Register(registry)) {}

prometheus::Histogram& RatingMetrics::MuChange(const std::string& ruleset) {
  return mu_change.Add({{"ruleset", ruleset}}, kMuChangeBuckets);
}

prometheus::Histogram& RatingMetrics::SigmaChange(const std::string& ruleset) {
  return sigma_change.Add({{"ruleset", ruleset}}, kSigmaChangeBuckets);
}

RatingService::RatingService(RatingServiceSettings settings, common::PgPool* pool,
                             RatingStore* store, common::CallGate* gate,
                             common::WorkerPool* workers, RatingMetrics* metrics)
    : settings_(std::move(settings)),
      store_(store),
      gate_(gate),
      workers_(workers),
      metrics_(metrics),
      tokens_(settings_.page_token_key),
      writer_(
          pool,
          [provisional_games = settings_.provisional_games](
              const v1::RecordMatchRequest& match,
              const absl::flat_hash_map<std::string, StoredRating>& current) {
            return RateMatch(match, current, provisional_games);
          },
          settings_.writer, &metrics->record_batch_size) {
  if (settings_.leaderboard_count_interval > absl::ZeroDuration()) {
    counter_ = std::thread([this] {
      do {
        const absl::Status counted = CountLeaderboardPlayers();
        if (!counted.ok()) {
          common::LogWarning("leaderboard players not counted",
                             {{"error", std::string(counted.message())}});
        }
      } while (!settings_.clock->WaitForNotificationWithTimeout(
          stop_counting_, settings_.leaderboard_count_interval));
    });
  }
}

RatingService::~RatingService() {
  stop_counting_.Notify();
  if (counter_.joinable()) counter_.join();
}

// A count from the table rather than gauges the writer keeps from what it inserts: a replica's
// writer sees only its own matches, so each replica would report part of every leaderboard (and
// start from nothing after a restart), while a count reads what all of them stored and every
// replica reports the same. Its cost: one scan of the ratings table per interval and replica
// (the leaderboard index lacks `games`), which --leaderboard_count_seconds spaces out.
absl::Status RatingService::CountLeaderboardPlayers() {
  auto sizes = store_->LeaderboardSizes(settings_.provisional_games);
  if (!sizes.ok()) return sizes.status();
  // Every registered ruleset and both modes get a value, 0 for an empty leaderboard, so dashboards
  // show an empty board rather than no data; rows of anything else in the table are not labels.
  std::map<std::pair<std::string, std::string>, double> players;
  for (const engine::Ruleset& ruleset : engine::Rulesets()) {
    for (const v1::MatchMode mode : {v1::SOLO, v1::TEAMS}) {
      players[{std::string(ruleset.id), ModeLabel(mode)}] = 0;
    }
  }
  for (const LeaderboardSize& size : *sizes) {
    if (size.mode != v1::SOLO && size.mode != v1::TEAMS) continue;
    const auto found = players.find({size.ruleset, ModeLabel(size.mode)});
    if (found != players.end()) found->second = static_cast<double>(size.players);
  }
  absl::MutexLock lock(&count_mu_);
  for (const auto& [key, count] : players) {
    metrics_->leaderboard_players.Add({{"ruleset", key.first}, {"mode", key.second}}).Set(count);
  }
  return absl::OkStatus();
}

template <typename Work>
grpc::ServerUnaryReactor* RatingService::Offload(grpc::CallbackServerContext* context,
                                                 const google::protobuf::Message& request,
                                                 const char* method, const char* role, Work work) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, role, request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  common::FinishOffloaded(*workers_, context, reactor, absl::StrCat("RatingService.", method),
                          std::move(work));
  return reactor;
}

// Not offloaded: validation is quick, and the match then waits in MatchWriter's queue, not on a
// worker thread, so a batch can hold as many matches as arrive during a commit.
grpc::ServerUnaryReactor* RatingService::RecordMatch(grpc::CallbackServerContext* context,
                                                     const v1::RecordMatchRequest* request,
                                                     v1::RecordMatchResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller =
      common::AuthorizeUnary(*gate_, *context, reactor, common::kRoleService, *request);
  if (!caller) return reactor;
  // Answered on the match writer's thread: its lines name this call.
  DoRecordMatch(*request, [reactor, response, request_id = caller->request_id](
                              absl::StatusOr<v1::RecordMatchResponse> answer) {
    const common::ScopedRequestId scope(request_id);
    if (!answer.ok()) {
      if (common::IsServerFault(answer.status())) {
        common::LogError("rating call failed",
                         {{"method", "RecordMatch"},
                          {"code", absl::StatusCodeToString(answer.status().code())},
                          {"error", std::string(answer.status().message())}});
      }
      reactor->Finish(common::ToGrpcStatus(answer.status()));
      return;
    }
    *response = std::move(answer).value();
    reactor->Finish(grpc::Status::OK);
  });
  return reactor;
}

grpc::ServerUnaryReactor* RatingService::GetRatings(grpc::CallbackServerContext* context,
                                                    const v1::GetRatingsRequest* request,
                                                    v1::GetRatingsResponse* response) {
  return Offload(context, *request, "GetRatings", nullptr,
                 [this, request, response] { return DoGetRatings(*request, response); });
}

grpc::ServerUnaryReactor* RatingService::GetLeaderboard(grpc::CallbackServerContext* context,
                                                        const v1::GetLeaderboardRequest* request,
                                                        v1::GetLeaderboardResponse* response) {
  return Offload(context, *request, "GetLeaderboard", nullptr,
                 [this, request, response] { return DoGetLeaderboard(*request, response); });
}

grpc::ServerUnaryReactor* RatingService::ListMatches(grpc::CallbackServerContext* context,
                                                     const v1::ListMatchesRequest* request,
                                                     v1::ListMatchesResponse* response) {
  return Offload(context, *request, "ListMatches", nullptr,
                 [this, request, response] { return DoListMatches(*request, response); });
}

grpc::ServerUnaryReactor* RatingService::GetMatch(grpc::CallbackServerContext* context,
                                                  const v1::GetMatchRequest* request,
                                                  v1::MatchRecord* response) {
  return Offload(context, *request, "GetMatch", nullptr,
                 [this, request, response] { return DoGetMatch(*request, response); });
}

grpc::ServerUnaryReactor* RatingService::GetRatingHistory(
    grpc::CallbackServerContext* context, const v1::GetRatingHistoryRequest* request,
    v1::GetRatingHistoryResponse* response) {
  return Offload(context, *request, "GetRatingHistory", nullptr,
                 [this, request, response] { return DoGetRatingHistory(*request, response); });
}

void RatingService::DoRecordMatch(
    const v1::RecordMatchRequest& request,
    std::function<void(absl::StatusOr<v1::RecordMatchResponse>)> done) {
  // Real time, not settings_.clock: record_match_seconds measures the machine, not the game.
  const auto start = std::chrono::steady_clock::now();
  auto canonical = CanonicalRequest(request);
  if (!canonical.ok()) {
    done(canonical.status());
    return;
  }
  const bool rated = IsRated(*canonical);
  std::string request_sha256 = common::Sha256(DeterministicBytes(*canonical));
  const std::string ruleset = canonical->ruleset();
  const char* mode = ModeLabel(canonical->mode());
  writer_.Submit(
      PendingMatch{.canonical = std::move(canonical).value(),
                   .request_sha256 = std::move(request_sha256),
                   .rated = rated},
      [this, start, ruleset, mode, rated,
       done = std::move(done)](absl::StatusOr<RecordedMatch> recorded) {
        if (!recorded.ok()) {
          done(recorded.status());
          return;
        }
        if (recorded->inserted) {
          metrics_->updates.Add({{"ruleset", ruleset}})
              .Increment(recorded->response.changes_size());
          prometheus::Histogram& mu_change = metrics_->MuChange(ruleset);
          prometheus::Histogram& sigma_change = metrics_->SigmaChange(ruleset);
          for (const v1::RatingChange& change : recorded->response.changes()) {
            mu_change.Observe(change.after().mu() - change.before().mu());
            sigma_change.Observe(change.after().sigma() - change.before().sigma());
          }
          metrics_->matches
              .Add({{"ruleset", ruleset}, {"mode", mode}, {"rated", rated ? "true" : "false"}})
              .Increment();
          metrics_->record_match_seconds.Observe(
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        done(std::move(recorded->response));
      });
}

absl::Status RatingService::DoGetRatings(const v1::GetRatingsRequest& request,
                                         v1::GetRatingsResponse* response) {
  if (request.player_ids().empty() || request.player_ids_size() > kMaxPlayersPerQuery) {
    return InvalidField("player_ids", "1..100 ids");
  }
  std::set<std::string> distinct;
  for (const std::string& id : request.player_ids()) {
    absl::Status status = CheckPlayerId(id, "player_ids");
    if (!status.ok()) return status;
    if (!distinct.insert(id).second)
      return InvalidField("player_ids", absl::StrCat(id, " appears twice"));
  }
  absl::Status status = CheckRuleset(request.ruleset(), /*required=*/false);
  if (status.ok()) status = CheckMode(request.mode(), /*required=*/false);
  if (!status.ok()) return status;
  auto rows =
      store_->GetRatings({distinct.begin(), distinct.end()}, request.ruleset(), request.mode());
  if (!rows.ok()) return rows.status();
  for (const auto& [rating, stored] : *rows) {
    *response->add_ratings() = ToRating(rating.player_id(), rating.ruleset(), rating.mode(), stored,
                                        settings_.provisional_games);
  }
  return absl::OkStatus();
}

absl::Status RatingService::DoGetLeaderboard(const v1::GetLeaderboardRequest& request,
                                             v1::GetLeaderboardResponse* response) {
  absl::Status status = CheckRuleset(request.ruleset(), /*required=*/true);
  if (status.ok()) status = CheckMode(request.mode(), /*required=*/true);
  if (!status.ok()) return status;
  auto page_size = PageSize(request.page_size(), kDefaultLeaderboardPage);
  if (!page_size.ok()) return page_size.status();
  if (!request.around_player().empty()) {
    if (!request.page_token().empty())
      return InvalidField("around_player", "not together with page_token");
    return LeaderboardAround(request, *page_size, response);
  }
  std::optional<LeaderboardKey> after;
  int64_t position = 0;
  if (!request.page_token().empty()) {
    auto cursor = tokens_.Verify(LeaderboardScope(request), request.page_token());
    if (!cursor.ok()) return cursor.status();
    if (!CursorShape(*cursor, "nsn")) return absl::InvalidArgumentError("invalid page token");
    after = LeaderboardKey{cursor->values(0).number_value(), cursor->values(1).string_value()};
    position = static_cast<int64_t>(cursor->values(2).number_value());
  }
  auto rows = store_->LeaderboardPage(request.ruleset(), request.mode(),
                                      settings_.provisional_games, after, *page_size + 1);
  if (!rows.ok()) return rows.status();
  const bool more = static_cast<int>(rows->size()) > *page_size;
  if (more) rows->pop_back();
  for (const LeaderboardRow& row : *rows) {
    AddEntry(response, request, row, ++position, settings_.provisional_games);
  }
  if (more) {
    const LeaderboardRow& last = rows->back();
    response->set_next_page_token(
        tokens_.Sign(LeaderboardScope(request),
                     Cursor({Real(last.display), Text(last.player_id), Integer(position)})));
  }
  return absl::OkStatus();
}

absl::Status RatingService::LeaderboardAround(const v1::GetLeaderboardRequest& request,
                                              int page_size, v1::GetLeaderboardResponse* response) {
  const int min_games = settings_.provisional_games;
  auto row = store_->LeaderboardRowOf(request.ruleset(), request.mode(), request.around_player());
  if (!row.ok()) return row.status();
  if (!row->has_value() || (*row)->rating.games < min_games) {
    return absl::NotFoundError(
        absl::StrCat("player ", request.around_player(),
                     " has no leaderboard place here (unrated or provisional)"));
  }
  const LeaderboardKey key{(*row)->display, (*row)->player_id};
  auto ahead = store_->LeaderboardAhead(request.ruleset(), request.mode(), min_games, key);
  if (!ahead.ok()) return ahead.status();
  // Centre the player: up to half a page of those just ahead, then the player and those after.
  const int half = (page_size - 1) / 2;
  auto before = store_->LeaderboardBefore(request.ruleset(), request.mode(), min_games, key,
                                          std::max(half, 1));
  if (!before.ok()) return before.status();
  std::optional<LeaderboardKey> start_after;
  if (!before->empty())
    start_after = LeaderboardKey{before->front().display, before->front().player_id};
  const int shown_before = std::min<int>(half, before->size());
  auto rest = store_->LeaderboardPage(request.ruleset(), request.mode(), min_games, start_after,
                                      page_size - shown_before + 1);
  if (!rest.ok()) return rest.status();
  const bool more = static_cast<int>(rest->size()) > page_size - shown_before;
  if (more) rest->pop_back();
  int64_t position = *ahead - shown_before;
  for (int i = shown_before - 1; i >= 0; --i) {
    AddEntry(response, request, (*before)[i], ++position, min_games);
  }
  for (const LeaderboardRow& entry : *rest)
    AddEntry(response, request, entry, ++position, min_games);
  if (more) {
    const LeaderboardRow& last = rest->back();
    response->set_next_page_token(
        tokens_.Sign(LeaderboardScope(request),
                     Cursor({Real(last.display), Text(last.player_id), Integer(position)})));
  }
  return absl::OkStatus();
}

absl::Status RatingService::DoListMatches(const v1::ListMatchesRequest& request,
                                          v1::ListMatchesResponse* response) {
  absl::Status status = CheckPlayerId(request.player_id(), "player_id");
  if (status.ok()) status = CheckRuleset(request.ruleset(), /*required=*/false);
  if (!status.ok()) return status;
  auto page_size = PageSize(request.page_size(), kDefaultMatchesPage);
  if (!page_size.ok()) return page_size.status();
  ListMatchesQuery query;
  query.player_id = request.player_id();
  query.ruleset = request.ruleset();
  if (request.has_ended_after()) {
    if (!common::IsValidTimestamp(request.ended_after()))
      return InvalidField("ended_after", "invalid time");
    query.ended_after_us = TimeUtil::TimestampToMicroseconds(request.ended_after());
  }
  if (request.has_ended_before()) {
    if (!common::IsValidTimestamp(request.ended_before()))
      return InvalidField("ended_before", "invalid time");
    query.ended_before_us = TimeUtil::TimestampToMicroseconds(request.ended_before());
  }
  if (query.ended_after_us > query.ended_before_us) {
    return InvalidField("ended_after", "must not be after ended_before");
  }
  const std::string scope = absl::StrCat("matches|", query.player_id, "|", query.ruleset, "|",
                                         query.ended_after_us, "|", query.ended_before_us);
  if (!request.page_token().empty()) {
    auto cursor = tokens_.Verify(scope, request.page_token());
    if (!cursor.ok()) return cursor.status();
    if (!CursorShape(*cursor, "ns")) return absl::InvalidArgumentError("invalid page token");
    query.after = MatchCursor{static_cast<int64_t>(cursor->values(0).number_value()),
                              cursor->values(1).string_value()};
  }
  query.limit = *page_size + 1;
  auto matches = store_->ListMatches(query);
  if (!matches.ok()) return matches.status();
  const bool more = static_cast<int>(matches->size()) > *page_size;
  if (more) matches->pop_back();
  for (v1::MatchRecord& match : *matches) *response->add_matches() = std::move(match);
  if (more) {
    const v1::MatchRecord& last = response->matches(response->matches_size() - 1);
    response->set_next_page_token(
        tokens_.Sign(scope, Cursor({Integer(TimeUtil::TimestampToMicroseconds(last.ended_at())),
                                    Text(last.match_id())})));
  }
  return absl::OkStatus();
}

absl::Status RatingService::DoGetMatch(const v1::GetMatchRequest& request,
                                       v1::MatchRecord* response) {
  absl::Status status = CheckMatchId(request.match_id());
  if (!status.ok()) return status;
  auto match = store_->GetMatch(request.match_id());
  if (!match.ok()) return match.status();
  if (!match->has_value())
    return absl::NotFoundError(absl::StrCat("no match ", request.match_id()));
  *response = std::move(**match);
  return absl::OkStatus();
}

absl::Status RatingService::DoGetRatingHistory(const v1::GetRatingHistoryRequest& request,
                                               v1::GetRatingHistoryResponse* response) {
  absl::Status status = CheckPlayerId(request.player_id(), "player_id");
  if (status.ok()) status = CheckRuleset(request.ruleset(), /*required=*/true);
  if (status.ok()) status = CheckMode(request.mode(), /*required=*/true);
  if (!status.ok()) return status;
  auto points = store_->GetRatingHistory(request.player_id(), request.ruleset(), request.mode(),
                                         kMaxHistoryPoints);
  if (!points.ok()) return points.status();
  for (v1::RatingPoint& point : *points) *response->add_points() = std::move(point);
  return absl::OkStatus();
}

}  // namespace kahve::rating
