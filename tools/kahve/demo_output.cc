#include "tools/kahve/demo_output.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/time_util.h"

namespace kahve::tools {
namespace {

std::string PlayerAt(int seat, const std::vector<DemoGame>& games) {
  for (const DemoGame& game : games) {
    if (game.assignment.seat() == seat) return game.player_id;
  }
  return absl::StrCat("seat ", seat);
}

}  // namespace

std::vector<std::string> UpdateLines(const v1::TableUpdate& update) {
  const std::string head = absl::StrCat("seq ", update.seq());
  std::vector<std::string> lines;
  if (update.has_snapshot()) {
    const v1::Snapshot& snapshot = update.snapshot();
    std::vector<std::string> seats;
    for (const v1::SeatStatus& seat : snapshot.seats()) {
      seats.push_back(
          absl::StrCat(seat.seat(), " ",
                       seat.player_id().empty() ? "bot:" + seat.bot_kind() : seat.player_id()));
    }
    lines.push_back(absl::StrCat(head, " snapshot: seats [", absl::StrJoin(seats, ", "),
                                 "], to act: [", absl::StrJoin(snapshot.view().to_act(), ", "),
                                 "]"));
    lines.push_back(absl::StrCat("    my view: ", snapshot.view().ShortDebugString()));
  } else if (update.has_move()) {
    const v1::MoveApplied& move = update.move();
    lines.push_back(
        absl::StrCat(head, " move by seat ", move.seat(),
                     move.by_bot() ? absl::StrCat(" (bot: ", move.bot_reason(), ")") : ""));
    for (const v1::Event& event : move.events()) {
      lines.push_back(absl::StrCat("    ", event.ShortDebugString()));
    }
  } else if (update.has_seat_change()) {
    lines.push_back(absl::StrCat(head, " seat ", update.seat_change().seat(), " ",
                                 v1::SeatChange::Kind_Name(update.seat_change().kind())));
  }
  return lines;
}

namespace {

// The result's seats, best rank first (ties keep seat order).
std::vector<v1::Result::SeatResult> SeatsByRank(const v1::Result& result) {
  std::vector<v1::Result::SeatResult> seats(result.seats().begin(), result.seats().end());
  std::stable_sort(seats.begin(), seats.end(),
                   [](const auto& a, const auto& b) { return a.rank() < b.rank(); });
  return seats;
}

}  // namespace

std::string ResultText(const v1::Result& result, const std::vector<DemoGame>& games) {
  const std::vector<v1::Result::SeatResult> seats = SeatsByRank(result);
  std::vector<std::string> parts;
  for (const v1::Result::SeatResult& seat : seats) {
    parts.push_back(absl::StrFormat("rank %d %s (seat %d, score %g)", seat.rank(),
                                    PlayerAt(seat.seat(), games), seat.seat(), seat.score()));
  }
  return absl::StrCat(absl::StrJoin(parts, ", "), "; ", result.ending(), ", ", result.rounds_size(),
                      " rounds");
}

std::string RankingText(const v1::Result& result, const std::vector<DemoGame>& games) {
  const std::vector<v1::Result::SeatResult> seats = SeatsByRank(result);
  std::vector<std::string> parts;
  for (const v1::Result::SeatResult& seat : seats) {
    parts.push_back(absl::StrCat(PlayerAt(seat.seat(), games), " ", seat.rank()));
  }
  return absl::StrJoin(parts, ", ");
}

std::string RatingText(const v1::Rating& rating) {
  return absl::StrFormat("%s: display %.2f (mu %.2f, sigma %.2f), %d game(s)%s", rating.player_id(),
                         rating.display(), rating.mu(), rating.sigma(), rating.games(),
                         rating.provisional() ? ", provisional" : "");
}

std::string HistoryLine(const v1::MatchRecord& record, const std::string& player_id) {
  std::string line = absl::StrCat(google::protobuf::util::TimeUtil::ToString(record.ended_at()),
                                  " ", record.ruleset(), " match ", record.match_id());
  for (const v1::Participant& participant : record.participants()) {
    if (participant.player_id() == player_id) {
      absl::StrAppend(&line, ", seat ", participant.seat(), " rank ", participant.rank());
    }
  }
  for (const v1::RatingChange& change : record.changes()) {
    if (change.player_id() == player_id) {
      absl::StrAppend(&line, absl::StrFormat(", display %.2f -> %.2f", change.before().display(),
                                             change.after().display()));
    }
  }
  return line;
}

}  // namespace kahve::tools
