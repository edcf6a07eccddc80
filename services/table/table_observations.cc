#include "services/table/table_observations.h"

#include <set>

#include "absl/strings/ascii.h"

namespace kahve::table {

std::string_view GameMode(bool practice, const v1::Result& result) {
  if (practice) return "practice";
  std::set<int> teams;
  for (const v1::Result::SeatResult& seat : result.seats()) teams.insert(seat.team());
  return teams.size() < static_cast<size_t>(result.seats_size()) ? "teams" : "solo";
}

std::string GameEnding(const v1::Result& result, const std::vector<SeatOutcome>& seats) {
  int players = 0;
  int resigned = 0;
  int gone = 0;
  for (const SeatOutcome& seat : seats) {
    if (seat.player_id.empty()) continue;
    ++players;
    if (seat.resigned) ++resigned;
    if (seat.resigned || seat.away_at_end) ++gone;
  }
  if (players > 0 && gone == players) return "abandoned";
  if (resigned > 0) return "resigned";
  return result.ending();
}

std::string RoundEnding(const v1::Result::Round& round) {
  if (round.finish().empty()) return round.ending();
  return round.ending() + "_" + round.finish();
}

void CountEntry(TableMetrics& metrics, const std::string& ruleset, const AppliedEntry& applied) {
  const v1::TableLogEntry& entry = applied.entry;
  if (entry.has_move()) {
    const v1::MovePlayed& move = entry.move();
    if (move.by_bot()) {
      metrics.bot_moves.Add({{"ruleset", ruleset}, {"reason", move.bot_reason()}}).Increment();
      if (move.bot_reason() == kReasonTimeout)
        metrics.timeouts.Add({{"ruleset", ruleset}}).Increment();
    } else if (applied.decision_time.has_value()) {
      metrics.turn_seconds.Add({{"ruleset", ruleset}}, TurnBuckets())
          .Observe(absl::ToDoubleSeconds(*applied.decision_time));
    }
  } else if (entry.has_seat_change()) {
    if (entry.seat_change().kind() == v1::SeatChange::RESIGNED) {
      metrics.resignations.Add({{"ruleset", ruleset}}).Increment();
    }
  } else if (entry.has_practice()) {
    metrics.practice_changes.Add({{"kind", PracticeKindName(entry.practice().kind())}}).Increment();
  } else if (entry.has_closed()) {
    const v1::TableClosed::Reason reason = entry.closed().reason();
    metrics.tables_closed
        .Add({{"reason", absl::AsciiStrToLower(v1::TableClosed::Reason_Name(reason))}})
        .Increment();
    if (reason == v1::TableClosed::PRACTICE_RESIGNED) {
      metrics.resignations.Add({{"ruleset", ruleset}}).Increment();
    }
  }
}

void CountFinishedGame(TableMetrics& metrics, const std::string& ruleset, bool practice,
                       const v1::Result& result, const std::vector<SeatOutcome>& seats,
                       absl::Duration length) {
  const std::string mode(GameMode(practice, result));
  metrics.games_finished
      .Add({{"ruleset", ruleset}, {"mode", mode}, {"ending", GameEnding(result, seats)}})
      .Increment();
  metrics.game_seconds.Add({{"ruleset", ruleset}, {"mode", mode}}, GameBuckets())
      .Observe(absl::ToDoubleSeconds(length));
  prometheus::Histogram& scores = metrics.round_score.Add({{"ruleset", ruleset}}, ScoreBuckets());
  for (const v1::Result::Round& round : result.rounds()) {
    for (const double score : round.seat_scores()) scores.Observe(score);
    const std::string ending = RoundEnding(round);
    if (ending.empty()) continue;
    metrics.rounds_finished.Add({{"ruleset", ruleset}, {"mode", mode}, {"ending", ending}})
        .Increment();
  }
  for (const SeatOutcome& seat : seats) {
    const char* reason = seat.bot_seat      ? kReasonBotSeat
                         : seat.resigned    ? kReasonResigned
                         : seat.away_at_end ? kReasonAway
                                            : nullptr;
    if (reason == nullptr) continue;
    metrics.game_bot_seats.Add({{"ruleset", ruleset}, {"reason", reason}}).Increment();
  }
}

}  // namespace kahve::table
