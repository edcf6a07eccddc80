#ifndef KAHVE_SERVICES_MATCHMAKING_MM_PARTY_STORE_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_PARTY_STORE_H_

// Parties: a leader and at most one partner, who queue together (migrations/0005_matchmaking.sql).
// Every method is one transaction; refusals come back as the gRPC-ready statuses the API
// documents.

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/matchmaking.pb.h"
#include "services/common/pg_pool.h"
#include "services/matchmaking/mm_records.h"

namespace kahve::matchmaking {

class PartyStore {
 public:
  explicit PartyStore(common::PgPool* pool) : pool_(pool) {}

  static NamedStatements PreparedStatements();

  // CreateParty and JoinParty: AlreadyExists with a CurrentParty detail when the player is in a
  // party already.
  absl::StatusOr<v1::Party> CreateParty(const std::string& leader, absl::Time now);
  absl::StatusOr<v1::Party> JoinParty(const std::string& invite_code, const std::string& player,
                                      absl::Time now);
  // NotFound when the player is not in the party; FailedPrecondition with a PartyTicket detail
  // while the party is queued. A leader leaving ends the party.
  absl::Status LeaveParty(const std::string& party_id, const std::string& player);
  // The party and its members (leader first); NotFound when there is none.
  absl::StatusOr<v1::Party> GetParty(const std::string& party_id);
  // The party `player` is in, as GetParty reads it; NotFound when the player is in none.
  absl::StatusOr<v1::Party> PartyOf(const std::string& player);

 private:
  common::PgPool* pool_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_PARTY_STORE_H_
