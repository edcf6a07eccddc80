#include "services/matchmaking/mm_store.h"

#include <utility>

namespace kahve::matchmaking {

NamedStatements MatchmakingStore::PreparedStatements() {
  NamedStatements all;
  for (NamedStatements part :
       {TicketStore::PreparedStatements(), PartyStore::PreparedStatements(),
        MatchStore::PreparedStatements(), QueueStatsStore::PreparedStatements(),
        GameEndStore::PreparedStatements()}) {
    for (auto& statement : part) all.push_back(std::move(statement));
  }
  return all;
}

common::PgPoolSettings WithMatchmakingStatements(common::PgPoolSettings settings) {
  for (auto& statement : MatchmakingStore::PreparedStatements()) {
    settings.prepared.push_back(std::move(statement));
  }
  return settings;
}

}  // namespace kahve::matchmaking
