#ifndef KAHVE_SERVICES_RATING_MATCH_RATER_H_
#define KAHVE_SERVICES_RATING_MATCH_RATER_H_

// What RecordMatch decides before touching the database: whether a request is valid (every
// refusal precise, docs/ratings.md), its canonical form, and the rating changes it causes.

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "kahve/v1/rating.pb.h"

namespace kahve::rating {

// InvalidArgument "field: what", the form of every refusal of a bad request field.
absl::Status InvalidField(const std::string& field, const std::string& what);

// The id rules every request shares: a match id is 1..128 characters of [A-Za-z0-9._:-]; a player
// id is 1..128 characters (identity providers choose them).
absl::Status CheckMatchId(const std::string& id);
absl::Status CheckPlayerId(const std::string& id, const std::string& field);

// A player's stored rating in one (ruleset, mode).
struct StoredRating {
  double mu = 0;
  double sigma = 0;
  int games = 0;
  int64_t last_played_us = 0;
};

// The request checked and normalised (participants in seat order; in SOLO each team is its seat).
// InvalidArgument naming the field for: a bad match id, an unknown ruleset, an unset mode, settings
// missing, of another ruleset or invalid, a participant count the settings do not seat, seats not
// 0..n-1, a human without a player id or a bot with one, a repeated player, ranks that do not fit
// the participants, teammates with different ranks, fewer than two teams, missing or inverted
// times, round scores of the wrong width.
absl::StatusOr<v1::RecordMatchRequest> CanonicalRequest(const v1::RecordMatchRequest& request);

// Rated unless a seat was a bot from the start.
bool IsRated(const v1::RecordMatchRequest& canonical);

// The human player ids, sorted (the order rows are locked in, so transactions never deadlock).
std::vector<std::string> HumanPlayers(const v1::RecordMatchRequest& canonical);

// A player's rating as the API shows it (display, provisional flag).
v1::Rating ToRating(const std::string& player_id, const std::string& ruleset, v1::MatchMode mode,
                    const StoredRating& stored, int provisional_games);

// The rating of a player never rated in this (ruleset, mode): the model's prior.
StoredRating PriorRating();

// The rating change of every human participant, in seat order, from their current ratings
// (`current` holds every human; absent ones count as PriorRating()). Abandoning players are rated
// last (in TEAMS, the abandoner's team).
absl::StatusOr<std::vector<v1::RatingChange>> RateMatch(
    const v1::RecordMatchRequest& canonical,
    const absl::flat_hash_map<std::string, StoredRating>& current, int provisional_games);

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_MATCH_RATER_H_
