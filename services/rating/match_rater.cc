#include "services/rating/match_rater.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/time_util.h"
#include "services/common/ids.h"
#include "services/common/time.h"
#include "services/rating/openskill.h"

namespace kahve::rating {
namespace {

using google::protobuf::util::TimeUtil;

// Ranks fit when each rank r has exactly r-1 entries ranked better ("1224" ranking).
bool RanksFit(const std::vector<int>& ranks) {
  for (const int rank : ranks) {
    if (rank < 1) return false;
    const auto better = std::count_if(ranks.begin(), ranks.end(), [&](int r) { return r < rank; });
    if (better != rank - 1) return false;
  }
  return true;
}

absl::Status CheckSettings(const v1::RecordMatchRequest& request, int* seats) {
  auto ruleset = engine::FindRuleset(request.ruleset());
  if (!ruleset.ok()) return InvalidField("ruleset", std::string(ruleset.status().message()));
  if (!request.has_settings()) return InvalidField("settings", "required");
  if (request.settings().ruleset_case() != (*ruleset)->settings_case) {
    return InvalidField("settings", absl::StrCat("not settings of ruleset ", request.ruleset()));
  }
  auto game = engine::NewGame(request.settings(), v1::Deal());
  if (!game.ok()) return InvalidField("settings", std::string(game.status().message()));
  *seats = (*game)->num_seats();
  return absl::OkStatus();
}

absl::Status CheckParticipant(const v1::Participant& participant, int seats,
                              std::set<std::string>& players) {
  const std::string field = absl::StrCat("participants[seat ", participant.seat(), "]");
  if (participant.bot()) {
    if (!participant.player_id().empty()) return InvalidField(field, "a bot seat has no player_id");
    if (participant.abandoned()) return InvalidField(field, "a bot seat cannot abandon");
  } else {
    const std::string& id = participant.player_id();
    const absl::Status id_status = CheckPlayerId(id, absl::StrCat(field, ": player_id"));
    if (!id_status.ok()) return id_status;
    if (!players.insert(id).second)
      return InvalidField(field, absl::StrCat("player ", id, " appears twice"));
  }
  if (participant.rank() < 1 || participant.rank() > seats) {
    return InvalidField(field, absl::StrCat("rank must be in 1..", seats));
  }
  return absl::OkStatus();
}

// Team of each participant and the rank each team holds; teammates must share it.
absl::Status CheckTeams(const v1::RecordMatchRequest& request) {
  std::map<int, int> team_rank;
  for (const v1::Participant& participant : request.participants()) {
    if (participant.team() < 0) return InvalidField("participants.team", "must be >= 0");
    const auto [it, inserted] = team_rank.emplace(participant.team(), participant.rank());
    if (!inserted && it->second != participant.rank()) {
      return InvalidField(
          "participants.rank",
          absl::StrCat("teammates of team ", participant.team(), " must share one rank"));
    }
  }
  if (team_rank.size() < 2) return InvalidField("participants.team", "at least two teams");
  std::vector<int> ranks;
  for (const auto& [team, rank] : team_rank) ranks.push_back(rank);
  if (!RanksFit(ranks))
    return InvalidField("participants.rank", "team ranks skip or repeat wrongly");
  return absl::OkStatus();
}

absl::Status CheckParticipants(const v1::RecordMatchRequest& request, int seats) {
  if (request.participants_size() != seats) {
    return InvalidField("participants",
                        absl::StrCat(request.participants_size(), " given for ", seats, " seats"));
  }
  std::set<std::string> players;
  std::vector<bool> seen(seats, false);
  for (const v1::Participant& participant : request.participants()) {
    if (participant.seat() < 0 || participant.seat() >= seats || seen[participant.seat()]) {
      return InvalidField("participants.seat",
                          absl::StrCat("seats must be 0..", seats - 1, ", each once"));
    }
    seen[participant.seat()] = true;
    const absl::Status status = CheckParticipant(participant, seats, players);
    if (!status.ok()) return status;
  }
  if (request.mode() == v1::TEAMS) return CheckTeams(request);
  std::vector<int> ranks;
  for (const v1::Participant& participant : request.participants())
    ranks.push_back(participant.rank());
  if (!RanksFit(ranks)) return InvalidField("participants.rank", "ranks skip or repeat wrongly");
  return absl::OkStatus();
}

absl::Status CheckTimesAndRounds(const v1::RecordMatchRequest& request) {
  if (!request.has_started_at() || !request.has_ended_at()) {
    return InvalidField("started_at/ended_at", "both required");
  }
  if (!common::IsValidTimestamp(request.started_at()) ||
      !common::IsValidTimestamp(request.ended_at()) || request.ended_at() < request.started_at()) {
    return InvalidField("ended_at", "must be a valid time not before started_at");
  }
  for (const v1::RoundScores& round : request.rounds()) {
    if (round.seat_scores_size() != request.participants_size()) {
      return InvalidField("rounds.seat_scores",
                          absl::StrCat("round ", round.round(), " needs one score per seat"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status InvalidField(const std::string& field, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", what));
}

absl::Status CheckMatchId(const std::string& id) {
  if (!common::IsValidMatchId(id)) return InvalidField("match_id", common::kMatchIdRule);
  return absl::OkStatus();
}

absl::Status CheckPlayerId(const std::string& id, const std::string& field) {
  if (!common::IsValidPlayerId(id)) return InvalidField(field, common::kPlayerIdRule);
  return absl::OkStatus();
}

absl::StatusOr<v1::RecordMatchRequest> CanonicalRequest(const v1::RecordMatchRequest& request) {
  absl::Status status = CheckMatchId(request.match_id());
  if (!status.ok()) return status;
  if (request.mode() != v1::SOLO && request.mode() != v1::TEAMS)
    return InvalidField("mode", "SOLO or TEAMS");
  int seats = 0;
  status = CheckSettings(request, &seats);
  if (!status.ok()) return status;
  v1::RecordMatchRequest canonical = request;
  if (canonical.mode() == v1::SOLO) {
    for (v1::Participant& participant : *canonical.mutable_participants()) {
      participant.set_team(participant.seat());
    }
  }
  status = CheckParticipants(canonical, seats);
  if (!status.ok()) return status;
  status = CheckTimesAndRounds(canonical);
  if (!status.ok()) return status;
  std::sort(canonical.mutable_participants()->begin(), canonical.mutable_participants()->end(),
            [](const v1::Participant& a, const v1::Participant& b) { return a.seat() < b.seat(); });
  return canonical;
}

bool IsRated(const v1::RecordMatchRequest& canonical) {
  return std::none_of(canonical.participants().begin(), canonical.participants().end(),
                      [](const v1::Participant& participant) { return participant.bot(); });
}

std::vector<std::string> HumanPlayers(const v1::RecordMatchRequest& canonical) {
  std::vector<std::string> players;
  for (const v1::Participant& participant : canonical.participants()) {
    if (!participant.bot()) players.push_back(participant.player_id());
  }
  std::sort(players.begin(), players.end());
  return players;
}

StoredRating PriorRating() {
  const ModelParams params;
  return StoredRating{.mu = params.mu, .sigma = params.sigma, .games = 0, .last_played_us = 0};
}

v1::Rating ToRating(const std::string& player_id, const std::string& ruleset, v1::MatchMode mode,
                    const StoredRating& stored, int provisional_games) {
  v1::Rating rating;
  rating.set_player_id(player_id);
  rating.set_ruleset(ruleset);
  rating.set_mode(mode);
  rating.set_mu(stored.mu);
  rating.set_sigma(stored.sigma);
  rating.set_display(Ordinal(Rating{stored.mu, stored.sigma}));
  rating.set_games(stored.games);
  rating.set_provisional(stored.games < provisional_games);
  *rating.mutable_last_played() = TimeUtil::MicrosecondsToTimestamp(stored.last_played_us);
  return rating;
}

absl::StatusOr<std::vector<v1::RatingChange>> RateMatch(
    const v1::RecordMatchRequest& canonical,
    const absl::flat_hash_map<std::string, StoredRating>& current, int provisional_games) {
  // Teams in order of first appearance; an abandoner drags its team to last place.
  std::map<int, int> team_index;
  std::vector<std::vector<int>> members;  // participant indices per team
  std::vector<int> team_rank;
  int worst_present = 0;
  std::vector<bool> team_abandoned;
  for (int i = 0; i < canonical.participants_size(); ++i) {
    const v1::Participant& participant = canonical.participants(i);
    const auto [it, inserted] = team_index.emplace(participant.team(), members.size());
    if (inserted) {
      members.emplace_back();
      team_rank.push_back(participant.rank());
      team_abandoned.push_back(false);
    }
    members[it->second].push_back(i);
    if (participant.abandoned()) team_abandoned[it->second] = true;
  }
  for (size_t t = 0; t < members.size(); ++t) {
    if (!team_abandoned[t]) worst_present = std::max(worst_present, team_rank[t]);
  }
  std::vector<double> ranks;
  std::vector<std::vector<Rating>> teams;
  for (size_t t = 0; t < members.size(); ++t) {
    ranks.push_back(team_abandoned[t] ? worst_present + 1 : team_rank[t]);
    std::vector<Rating>& team = teams.emplace_back();
    for (const int i : members[t]) {
      const auto found = current.find(canonical.participants(i).player_id());
      const StoredRating stored = found == current.end() ? PriorRating() : found->second;
      team.push_back(Rating{stored.mu, stored.sigma});
    }
  }
  auto rated = RateTeams(teams, ranks, ModelParams());
  if (!rated.ok()) return rated.status();

  const int64_t ended_us = TimeUtil::TimestampToMicroseconds(canonical.ended_at());
  std::vector<v1::RatingChange> changes(canonical.participants_size());
  for (size_t t = 0; t < members.size(); ++t) {
    for (size_t k = 0; k < members[t].size(); ++k) {
      const int i = members[t][k];
      const std::string& player = canonical.participants(i).player_id();
      const auto found = current.find(player);
      const StoredRating before = found == current.end() ? PriorRating() : found->second;
      const Rating& after_model = (*rated)[t][k];
      const StoredRating after{.mu = after_model.mu,
                               .sigma = after_model.sigma,
                               .games = before.games + 1,
                               .last_played_us = ended_us};
      v1::RatingChange& change = changes[i];
      change.set_player_id(player);
      *change.mutable_before() =
          ToRating(player, canonical.ruleset(), canonical.mode(), before, provisional_games);
      *change.mutable_after() =
          ToRating(player, canonical.ruleset(), canonical.mode(), after, provisional_games);
    }
  }
  return changes;
}

}  // namespace kahve::rating
