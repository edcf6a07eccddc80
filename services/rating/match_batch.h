#ifndef KAHVE_SERVICES_RATING_MATCH_BATCH_H_
#define KAHVE_SERVICES_RATING_MATCH_BATCH_H_

// The SQL of one MatchWriter transaction: a batch of matches recorded with their players' rows
// and new ratings, in a few statements whatever the batch size (rows travel as arrays the
// statements unnest). Every rating row the batch rates is locked first, in key order, so
// concurrent batches queue behind each other and never deadlock.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "kahve/v1/rating.pb.h"
#include "pqxx/pqxx"
#include "services/rating/match_rater.h"

namespace kahve::rating {

// Computes a match's rating changes from its players' current ratings (player id -> rating;
// a player never rated is absent).
using RateFunction = std::function<absl::StatusOr<std::vector<v1::RatingChange>>(
    const v1::RecordMatchRequest& canonical,
    const absl::flat_hash_map<std::string, StoredRating>& current)>;

// A validated match waiting to be recorded.
struct PendingMatch {
  v1::RecordMatchRequest canonical;
  std::string request_sha256;  // of the canonical request: repeats must match it
  bool rated = false;
};

struct RecordedMatch {
  v1::RecordMatchResponse response;
  bool inserted = false;  // false: an identical repeat, answered from the stored record
};

// The matches of a batch found recorded already, by match id: (request_sha256, record).
using StoredMatches = absl::flat_hash_map<std::string, std::pair<std::string, v1::MatchRecord>>;

// The statements WriteMatches runs, for every pooled connection to prepare.
std::vector<std::pair<std::string, std::string>> MatchBatchStatements();

// Inside the open transaction `tx`, records `matches` (distinct match ids, in queue order), each
// rated by `rate` from the ratings the ones before it left. Answers each: its new record, or for
// a match id recorded already (and put in `*stored`), the stored answer (RepeatAnswer). Throws
// libpqxx's exceptions when the database fails, and std::runtime_error for a stored record that
// cannot be read; the caller rolls back then.
std::vector<absl::StatusOr<RecordedMatch>> WriteMatches(
    pqxx::transaction_base& tx, const std::vector<const PendingMatch*>& matches,
    const RateFunction& rate, StoredMatches* stored);

// The answer to a match whose id is already stored: the stored answer for the same content,
// AlreadyExists for other content.
absl::StatusOr<RecordedMatch> RepeatAnswer(const PendingMatch& match,
                                           const std::string& stored_sha256,
                                           const v1::MatchRecord& stored);

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_MATCH_BATCH_H_
