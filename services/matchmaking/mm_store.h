#ifndef KAHVE_SERVICES_MATCHMAKING_MM_STORE_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_STORE_H_

// Matchmaking's storage (migrations/0005_matchmaking.sql and later), one store per concern, all on
// one pool: tickets, parties, queue passes and placement, queue figures, game ends. Each store
// names its statements; the pool prepares them on every connection (PreparedStatements).

#include "services/common/pg_pool.h"
#include "services/matchmaking/mm_game_end_store.h"
#include "services/matchmaking/mm_match_store.h"
#include "services/matchmaking/mm_party_store.h"
#include "services/matchmaking/mm_queue_stats_store.h"
#include "services/matchmaking/mm_records.h"
#include "services/matchmaking/mm_ticket_store.h"

namespace kahve::matchmaking {

struct MatchmakingStore {
  // `pool` must have been made with PreparedStatements().
  explicit MatchmakingStore(common::PgPool* pool)
      : tickets(pool), parties(pool), matches(pool), queues(pool), game_ends(pool) {}

  // Every store's statements, for PgPoolSettings::prepared.
  static NamedStatements PreparedStatements();

  TicketStore tickets;
  PartyStore parties;
  MatchStore matches;
  QueueStatsStore queues;
  GameEndStore game_ends;
};

// `settings` with the stores' statements added to what it prepares.
common::PgPoolSettings WithMatchmakingStatements(common::PgPoolSettings settings);

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_STORE_H_
