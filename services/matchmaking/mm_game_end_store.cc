#include "services/matchmaking/mm_game_end_store.h"

#include "services/common/pg_arrays.h"

namespace kahve::matchmaking {
namespace {

constexpr char kUnsettledOfRequest[] = "mm_unsettled_match_of_request";
constexpr char kUnsettledOfRequestSql[] =
    "SELECT t.match_id FROM mm_tickets t JOIN mm_matches m ON m.match_id = t.match_id"
    "  WHERE t.owner = $1 AND t.request_id = $2 AND t.state = 'matched'"
    "  AND NOT m.game_over";

// The tickets TicketInPlay looks at (mm_ticket_players_by_player), no more.
constexpr char kUnsettledOfPlayer[] = "mm_unsettled_matches_of_player";
constexpr char kUnsettledOfPlayerSql[] =
    "SELECT DISTINCT t.match_id FROM (SELECT ticket_id FROM mm_ticket_players"
    "    WHERE player_id = $1 ORDER BY enqueued_us DESC NULLS LAST LIMIT $2) AS recent"
    "  JOIN mm_tickets t USING (ticket_id)"
    "  JOIN mm_matches m ON m.match_id = t.match_id"
    "  WHERE t.state = 'matched' AND NOT m.game_over";

constexpr char kMarkGamesOver[] = "mm_mark_games_over";
constexpr char kMarkGamesOverSql[] =
    "UPDATE mm_matches SET game_over = true"
    " WHERE match_id = ANY($1::text[]) AND NOT game_over";

using Ids = std::vector<std::string>;

Ids FirstColumn(const pqxx::result& rows) {
  Ids ids;
  for (const pqxx::row& row : rows) ids.push_back(row[0].as<std::string>());
  return ids;
}

}  // namespace

NamedStatements GameEndStore::PreparedStatements() {
  return {{kUnsettledOfRequest, kUnsettledOfRequestSql},
          {kUnsettledOfPlayer, kUnsettledOfPlayerSql},
          {kMarkGamesOver, kMarkGamesOverSql}};
}

absl::StatusOr<Ids> GameEndStore::UnsettledMatchOfRequest(const std::string& owner,
                                                          const std::string& request_id) {
  if (!StorableText(owner) || !StorableText(request_id)) return Ids();
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Ids> {
    pqxx::read_transaction tx(connection);
    return FirstColumn(tx.exec_prepared(kUnsettledOfRequest, owner, request_id));
  });
}

absl::StatusOr<Ids> GameEndStore::UnsettledMatchesOfPlayer(const std::string& player) {
  if (!StorableText(player)) return Ids();
  return pool_->RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Ids> {
    pqxx::read_transaction tx(connection);
    return FirstColumn(tx.exec_prepared(kUnsettledOfPlayer, player, kRecentTicketsLooked));
  });
}

absl::Status GameEndStore::MarkGamesOver(const std::vector<std::string>& match_ids) {
  if (match_ids.empty()) return absl::OkStatus();
  return pool_->Run([&](pqxx::connection& connection) {
    pqxx::work tx(connection);
    tx.exec_prepared0(kMarkGamesOver, common::TextArrayLiteral(match_ids));
    tx.commit();
    return absl::OkStatus();
  });
}

}  // namespace kahve::matchmaking
