#include "tools/kahve/transcript.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/transcript.h"

namespace kahve::tools {
namespace {

// Who sat at each seat, as the result and the moves name them: a player id or the bot's kind.
std::vector<std::string> SeatNames(const v1::Replay& replay) {
  std::vector<std::string> names;
  for (const v1::SeatSpec& seat : replay.seats()) {
    names.push_back(seat.has_bot_kind() ? absl::StrCat("bot ", seat.bot_kind()) : seat.player_id());
  }
  return names;
}

std::string Note(const v1::ReplayMove& move) {
  if (!move.by_bot()) return "";
  return move.bot_reason().empty() ? std::string("bot") : absl::StrCat("bot: ", move.bot_reason());
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ReplayText(const v1::Replay& replay,
                                                    const ReplayTextOptions& options) {
  std::vector<engine::TranscriptMove> moves;
  for (const v1::ReplayMove& move : replay.moves()) {
    moves.push_back({.seat = move.seat(), .move = move.move(), .note = Note(move)});
  }
  const std::vector<std::string> names = SeatNames(replay);
  absl::StatusOr<std::vector<std::string>> body = engine::Transcript(
      replay.settings(), replay.deal(), moves,
      {.recipient = options.seat, .seat_names = names, .full_state = options.full_state});
  if (!body.ok()) return body.status();
  std::vector<std::string> seats;
  for (size_t seat = 0; seat < names.size(); ++seat) {
    seats.push_back(absl::StrCat(seat, " ", names[seat].empty() ? "(empty)" : names[seat]));
  }
  std::vector<std::string> lines = {
      absl::StrCat("table ", replay.table_id(), ", match ",
                   replay.match_id().empty() ? "(none)" : replay.match_id(), ", ",
                   replay.moves_size(), " moves"),
      absl::StrCat("seats: ", seats.empty() ? "(not recorded)" : absl::StrJoin(seats, ", "))};
  for (std::string& line : *body) lines.push_back(std::move(line));
  return lines;
}

}  // namespace kahve::tools
