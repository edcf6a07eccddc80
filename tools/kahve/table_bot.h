#ifndef KAHVE_TOOLS_KAHVE_TABLE_BOT_H_
#define KAHVE_TOOLS_KAHVE_TABLE_BOT_H_

// A load-test client's picture of a Liar's dice table: only the public facts a legal move depends
// on (dice per seat, the bid to beat, whose turn it is), taken from a view once and then kept up
// to date from the events each Play answer carries, so a move costs one call, not a view and a
// move. When the picture is wrong (a bot moved for a seat, say) the server refuses the move and
// the client takes a fresh view.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/rng.h"
#include "engine/liars_dice/liars_dice_rules.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/table.pb.h"

namespace kahve::tools {

struct BotTableState {
  std::vector<int> dice;  // per seat
  engine::liars_dice::Bid current;
  bool putana_round = false;
  // The seat that acts next; -1 when unknown or the game is over.
  int to_act = -1;
  bool over = false;

  // Replaces everything with what `view` shows.
  void FromView(const v1::View& view);
  // Applies one event of an accepted move.
  void Apply(const v1::Event& event);
};

// One table slot of the load: the game currently played in it, and the call it waits for.
struct Slot {
  enum class Step { kCreate, kSync, kPlay };
  int index = 0;
  int seats = 0;
  int games = 0;  // games started here
  int games_done = 0;
  std::string match_id;
  std::string table_id;
  std::string party_id;              // the players' party, when matchmaking seats them
  std::vector<std::string> tokens;   // seat tokens, per seat
  std::vector<std::string> bearers;  // "Bearer <player JWT>", per seat
  BotTableState state;
  Step step = Step::kCreate;
  // The move awaiting its answer; a retry sends it unchanged.
  std::optional<v1::PlayRequest> pending;
  int pending_seat = 0;
  int backoffs = 0;  // retries in a row
  int refusals = 0;  // refusals in a row
  uint64_t moves = 0;
  engine::Rng rng;
};

// A legal move for the seat to act: sometimes a challenge, otherwise one of the lowest raises (so
// rounds are short and games end). Never declares Путана: it is optional, and leaving it out keeps
// the picture simple.
v1::Move ChooseMove(const BotTableState& state, engine::Rng& rng);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_TABLE_BOT_H_
