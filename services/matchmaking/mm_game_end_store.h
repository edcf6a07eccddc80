#ifndef KAHVE_SERVICES_MATCHMAKING_MM_GAME_END_STORE_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_GAME_END_STORE_H_

// Game ends, as the table service tells them (TableDirectory): the placed matches whose game
// matchmaking does not know to be over yet, and recording that games are over. A ticket stays in
// play until its game ends (mm_ticket_in_play), so these decide when a player may queue again.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/common/pg_pool.h"
#include "services/matchmaking/mm_records.h"

namespace kahve::matchmaking {

class GameEndStore {
 public:
  explicit GameEndStore(common::PgPool* pool) : pool_(pool) {}

  static NamedStatements PreparedStatements();

  // The unsettled match of the ticket (owner, request id) names.
  absl::StatusOr<std::vector<std::string>> UnsettledMatchOfRequest(const std::string& owner,
                                                                   const std::string& request_id);
  // The unsettled matches among a player's newest kRecentTicketsLooked tickets.
  absl::StatusOr<std::vector<std::string>> UnsettledMatchesOfPlayer(const std::string& player);
  absl::Status MarkGamesOver(const std::vector<std::string>& match_ids);

 private:
  common::PgPool* pool_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_GAME_END_STORE_H_
