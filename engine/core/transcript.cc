#include "engine/core/transcript.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "engine/core/registry.h"
#include "engine/core/ruleset_text.h"

namespace kahve::engine {
namespace {

constexpr char kEventMark[] = "  - ";
constexpr char kMoreMark[] = "      ";
constexpr char kStateMark[] = "  | ";

std::string Named(int seat, const std::vector<std::string>& names) {
  std::string text = SeatText(seat);
  if (seat >= 0 && seat < static_cast<int>(names.size()) && !names[seat].empty()) {
    absl::StrAppend(&text, " (", names[seat], ")");
  }
  return text;
}

std::string Score(double score) {
  // Scores are whole numbers in every ruleset today; print them without a decimal point.
  if (score == static_cast<double>(static_cast<int64_t>(score))) {
    return absl::StrCat(static_cast<int64_t>(score));
  }
  return absl::StrCat(score);
}

void AddEvents(const RulesetText& text, const std::vector<v1::Event>& events,
               std::vector<std::string>& lines) {
  for (const v1::Event& event : events) {
    if (event.has_game_over()) {
      lines.push_back(
          absl::StrCat(kEventMark, "the game is over: ", event.game_over().result().ending()));
      continue;
    }
    const std::string words = text.event(event);
    if (words.empty()) continue;
    // A long event (a deal's end, every hand) comes as several lines; the rest are indented.
    bool first = true;
    for (absl::string_view line : absl::StrSplit(words, '\n')) {
      lines.push_back(absl::StrCat(first ? kEventMark : kMoreMark, std::string(line)));
      first = false;
    }
  }
}

// Writes the recipient's state after each step: every line, or only those that changed since the
// last step (the hand after a draw, a discard pile), so a long game stays readable.
class StateWriter {
 public:
  StateWriter(const RulesetText& text, bool full) : text_(text), full_(full) {}

  void Write(const v1::View& view, std::vector<std::string>& lines) {
    std::vector<std::string> state = text_.view(view);
    for (size_t i = 0; i < state.size(); ++i) {
      const bool same = i < last_.size() && last_[i] == state[i];
      if (full_ || !same) lines.push_back(absl::StrCat(kStateMark, state[i]));
    }
    last_ = std::move(state);
  }

 private:
  const RulesetText& text_;
  bool full_;
  std::vector<std::string> last_;
};

}  // namespace

std::vector<std::string> ResultLines(const v1::Result& result,
                                     const std::vector<std::string>& seat_names) {
  std::vector<std::string> lines;
  lines.push_back(
      absl::StrCat("result: ", result.ending().empty() ? "(no ending)" : result.ending()));
  // Best first.
  std::vector<v1::Result::SeatResult> seats(result.seats().begin(), result.seats().end());
  std::stable_sort(seats.begin(), seats.end(),
                   [](const auto& a, const auto& b) { return a.rank() < b.rank(); });
  for (const v1::Result::SeatResult& seat : seats) {
    lines.push_back(
        absl::StrCat("  rank ", seat.rank(), ": ", Named(seat.seat(), seat_names), ", score ",
                     Score(seat.score()),
                     seat.team() != seat.seat() ? absl::StrCat(", team ", seat.team()) : ""));
  }
  for (const v1::Result::Round& round : result.rounds()) {
    std::vector<std::string> scores;
    for (int seat = 0; seat < round.seat_scores_size(); ++seat) {
      scores.push_back(absl::StrCat(seat, ":", Score(round.seat_scores(seat))));
    }
    lines.push_back(
        absl::StrCat("  round ", round.round(), ": ", absl::StrJoin(scores, " "),
                     round.ending().empty() ? "" : absl::StrCat(" (", round.ending(), ")")));
  }
  return lines;
}

absl::StatusOr<std::vector<std::string>> Transcript(const v1::GameSettings& settings,
                                                    const v1::Deal& deal,
                                                    const std::vector<TranscriptMove>& moves,
                                                    const TranscriptOptions& options) {
  KAHVE_ASSIGN_OR_RETURN(const Ruleset* ruleset, RulesetOf(settings));
  // Defaults written in, so the settings' words name them (a replay's settings have them already).
  v1::GameSettings filled = settings;
  ruleset->fill_defaults(filled);
  KAHVE_ASSIGN_OR_RETURN(std::unique_ptr<Game> game, ruleset->new_game(filled, deal));
  const int recipient = options.recipient;
  if (recipient < kSpectator || recipient >= game->num_seats()) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", recipient,
                                                   " is not a seat of this game: it has seats 0..",
                                                   game->num_seats() - 1, " (-1 for a spectator)"));
  }
  const RulesetText& text = *ruleset->text;
  std::vector<std::string> lines;
  lines.push_back(absl::StrCat("ruleset ", std::string(ruleset->id), ": ", text.settings(filled)));
  lines.push_back(recipient == kSpectator
                      ? std::string("seen by a spectator (public information only)")
                      : absl::StrCat("seen by ", Named(recipient, options.seat_names)));
  StateWriter state(text, options.full_state);
  lines.push_back("deal:");
  AddEvents(text, VisibleTo(game->deal_events(), recipient), lines);
  state.Write(game->View(recipient), lines);
  for (size_t i = 0; i < moves.size(); ++i) {
    const TranscriptMove& played = moves[i];
    const MoveOutcome outcome = game->Apply(played.seat, played.move);
    if (!outcome.accepted) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (seat ", played.seat,
                       "): the engine refuses it: ", outcome.rejection.message()));
    }
    lines.push_back(absl::StrCat("move ", i + 1, ", ", Named(played.seat, options.seat_names),
                                 played.note.empty() ? "" : absl::StrCat(" [", played.note, "]"),
                                 ": ", text.move(played.move)));
    AddEvents(text, VisibleTo(outcome.events, recipient), lines);
    state.Write(game->View(recipient), lines);
  }
  const v1::View end = game->View(recipient);
  if (!end.over()) {
    lines.push_back(absl::StrCat("not over after ", moves.size(), " moves"));
    return lines;
  }
  for (std::string& line : ResultLines(end.result(), options.seat_names)) {
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace kahve::engine
