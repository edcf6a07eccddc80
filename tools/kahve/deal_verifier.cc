#include "tools/kahve/deal_verifier.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "services/table/deal_commitment.h"

namespace kahve::tools {
namespace {

using ::google::protobuf::util::MessageDifferencer;

std::string Json(const google::protobuf::Message& message) {
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(message, &out);
  return out;
}

// "" when equal; otherwise what differs, field by field ("modified: seats[0].rank: 1 -> 2").
std::string Differences(const google::protobuf::Message& expected,
                        const google::protobuf::Message& actual) {
  std::string report;
  MessageDifferencer differ;
  differ.ReportDifferencesToString(&report);
  if (differ.Compare(expected, actual)) return "";
  while (!report.empty() && report.back() == '\n') report.pop_back();
  return report;
}

absl::Status Failed(std::string message) {
  return absl::FailedPreconditionError(std::move(message));
}

// "moves[4] (move 5, seat 2)".
std::string MoveName(int index, const v1::ReplayMove& move) {
  return absl::StrCat("moves[", index, "] (move ", index + 1, ", seat ", move.seat(), ")");
}

absl::StatusOr<std::unique_ptr<engine::Game>> NewReplayGame(const v1::Replay& replay) {
  absl::StatusOr<std::unique_ptr<engine::Game>> game =
      engine::NewGame(replay.settings(), replay.deal());
  if (!game.ok()) {
    return Failed(
        absl::StrCat("settings and deal: the engine refuses them: ", game.status().message()));
  }
  return game;
}

// Plays replay move `index` on `game`; the rules' refusal as a mismatch.
absl::StatusOr<engine::MoveOutcome> PlayReplayMove(const v1::Replay& replay, int index,
                                                   engine::Game& game) {
  const v1::ReplayMove& move = replay.moves(index);
  engine::MoveOutcome outcome = game.Apply(move.seat(), move.move());
  if (!outcome.accepted) {
    return Failed(absl::StrCat(MoveName(index, move), ": the replayed game refuses it: ",
                               v1::RejectionReason_Name(outcome.rejection.reason()), ": ",
                               outcome.rejection.message(), " (move ", Json(move.move()), ")"));
  }
  return outcome;
}

// The events `source` ("the stream", "the replay") lists against those the replayed game gives,
// in order.
absl::Status CompareEvents(const std::string& where, const char* source,
                           const std::vector<v1::Event>& expected,
                           const google::protobuf::RepeatedPtrField<v1::Event>& shown) {
  const size_t count = std::max(expected.size(), static_cast<size_t>(shown.size()));
  for (size_t i = 0; i < count; ++i) {
    const bool both = i < expected.size() && i < static_cast<size_t>(shown.size());
    if (both && Differences(expected[i], shown[static_cast<int>(i)]).empty()) continue;
    return Failed(absl::StrCat(
        where, ": event ", i, " differs: ", source, " has ",
        i < static_cast<size_t>(shown.size()) ? Json(shown[static_cast<int>(i)]) : "none",
        ", the replayed game shows ", i < expected.size() ? Json(expected[i]) : "none"));
  }
  return absl::OkStatus();
}

// Whether the replay lists events (servers from kahve 0.2.0 on); earlier replays have none.
bool ListsEvents(const v1::Replay& replay) {
  if (replay.deal_events_size() > 0) return true;
  for (const v1::ReplayMove& move : replay.moves()) {
    if (move.events_size() > 0) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<VerifiedReplay> VerifyReplay(const v1::Replay& replay) {
  if (!replay.has_commitment()) {
    return Failed(
        "commitment: the replay has none (its table was created before deal commitments)");
  }
  if (!replay.has_reveal()) {
    return Failed("reveal: absent: the game is not over (the seed material comes at the end)");
  }
  if (absl::Status opened = table::CheckReveal(replay.commitment(), replay.reveal(), replay.deal());
      !opened.ok()) {
    return opened;
  }
  absl::StatusOr<std::unique_ptr<engine::Game>> game = NewReplayGame(replay);
  if (!game.ok()) return game.status();
  // The events a verifier without a rules engine reads (docs/fairness.md) must be the game's.
  const bool events = ListsEvents(replay);
  if (events) {
    if (absl::Status dealt = CompareEvents("deal_events", "the replay", (*game)->deal_events(),
                                           replay.deal_events());
        !dealt.ok()) {
      return dealt;
    }
  }
  for (int index = 0; index < replay.moves_size(); ++index) {
    absl::StatusOr<engine::MoveOutcome> played = PlayReplayMove(replay, index, **game);
    if (!played.ok()) return played.status();
    if (!events) continue;
    if (absl::Status same =
            CompareEvents(absl::StrCat(MoveName(index, replay.moves(index)), ".events"),
                          "the replay", played->events, replay.moves(index).events());
        !same.ok()) {
      return same;
    }
  }
  absl::StatusOr<const engine::Ruleset*> ruleset = engine::RulesetOf(replay.settings());
  if (replay.has_closed()) {
    // A table closed before its game ended (a practice table its player left): the moves stop
    // short of the end, and there is no result to check.
    if ((*game)->IsOver() || replay.has_result()) {
      return Failed("closed: the replay says its table closed early, yet its game is over");
    }
    return VerifiedReplay{
        .ruleset = ruleset.ok() ? std::string((*ruleset)->id) : "",
        .seats = (*game)->num_seats(),
        .moves = replay.moves_size(),
        .ending = absl::StrCat("closed: ",
                               absl::AsciiStrToLower(
                                   v1::TableClosed::Reason_Name(replay.closed().reason())))};
  }
  if (!(*game)->IsOver()) {
    return Failed(absl::StrCat("moves: the game is not over after the replay's ",
                               replay.moves_size(), " moves"));
  }
  if (const std::string diff = Differences(replay.result(), (*game)->Result()); !diff.empty()) {
    return Failed(absl::StrCat("result: the replay's differs from the replayed game's (", diff,
                               "; replay first, replayed game second)"));
  }
  return VerifiedReplay{.ruleset = ruleset.ok() ? std::string((*ruleset)->id) : "",
                        .seats = (*game)->num_seats(),
                        .moves = replay.moves_size(),
                        .ending = replay.result().ending()};
}

namespace {

// Walks one stream beside the replayed game.
class StreamCheck {
 public:
  StreamCheck(const v1::Replay& replay, std::unique_ptr<engine::Game> game)
      : replay_(replay), game_(std::move(game)) {}

  absl::Status Check(const std::vector<v1::TableUpdate>& updates, VerifiedStream* verified);

 private:
  absl::Status Snapshot(const v1::Snapshot& snapshot);
  absl::Status Move(const v1::MoveApplied& move);
  // Plays the replay's moves up to `move_number` (the snapshot's), which may not lie behind.
  absl::Status CatchUp(uint64_t move_number);
  // "line 7 (seq 6)": where a mismatch is.
  std::string Where() const { return absl::StrCat("line ", line_, " (seq ", seq_, ")"); }

  const v1::Replay& replay_;
  std::unique_ptr<engine::Game> game_;
  int recipient_ = engine::kSpectator;
  int line_ = 0;
  uint64_t seq_ = 0;
};

absl::Status StreamCheck::Check(const std::vector<v1::TableUpdate>& updates,
                                VerifiedStream* verified) {
  for (size_t index = 0; index < updates.size(); ++index) {
    const v1::TableUpdate& update = updates[index];
    line_ = static_cast<int>(index) + 1;
    if (index == 0 && !update.has_snapshot()) {
      return absl::InvalidArgumentError(
          "line 1: a stream to check starts with a snapshot (Connect without after_seq)");
    }
    if (index > 0 && !update.has_snapshot() && update.seq() != seq_ + 1) {
      return Failed(absl::StrCat("line ", line_, ": seq ", update.seq(), " where ", seq_ + 1,
                                 " was due (a gap or a repeat)"));
    }
    seq_ = update.seq();
    absl::Status checked = absl::OkStatus();
    if (update.has_snapshot()) {
      if (index == 0) {
        recipient_ = update.snapshot().view().seat();
        verified->first_move = update.snapshot().view().move_number();
      }
      checked = Snapshot(update.snapshot());
    } else if (update.has_move()) {
      checked = Move(update.move());
      ++verified->moves_checked;
    }
    if (!checked.ok()) return checked;
  }
  verified->recipient = recipient_;
  verified->updates = updates.size();
  verified->first_seq = updates.front().seq();
  verified->last_seq = updates.back().seq();
  verified->reached_end = game_->IsOver();
  return absl::OkStatus();
}

absl::Status StreamCheck::Snapshot(const v1::Snapshot& snapshot) {
  if (snapshot.view().seat() != recipient_) {
    return Failed(absl::StrCat(Where(), ": a snapshot for seat ", snapshot.view().seat(),
                               " in a stream of seat ", recipient_));
  }
  if (const std::string diff = Differences(replay_.commitment(), snapshot.commitment());
      !diff.empty()) {
    return Failed(absl::StrCat(Where(), ": the snapshot's commitment ", Json(snapshot.commitment()),
                               " is not the replay's ", Json(replay_.commitment())));
  }
  if (absl::Status caught_up = CatchUp(snapshot.view().move_number()); !caught_up.ok()) {
    return caught_up;
  }
  if (const std::string diff = Differences(game_->View(recipient_), snapshot.view());
      !diff.empty()) {
    return Failed(absl::StrCat(Where(), ": the snapshot's view after move ",
                               snapshot.view().move_number(), " differs from the replayed game's (",
                               diff, "; replayed game first, stream second)"));
  }
  if (!game_->IsOver()) {
    if (snapshot.has_reveal()) return Failed(absl::StrCat(Where(), ": a reveal before the end"));
    return absl::OkStatus();
  }
  if (const std::string diff = Differences(replay_.reveal(), snapshot.reveal()); !diff.empty()) {
    return Failed(absl::StrCat(Where(), ": the snapshot's reveal ", Json(snapshot.reveal()),
                               " is not the replay's ", Json(replay_.reveal())));
  }
  return absl::OkStatus();
}

absl::Status StreamCheck::CatchUp(uint64_t move_number) {
  if (move_number < game_->move_number()) {
    return Failed(absl::StrCat(Where(), ": a snapshot after move ", move_number,
                               ", behind the stream's move ", game_->move_number()));
  }
  if (move_number > static_cast<uint64_t>(replay_.moves_size())) {
    return Failed(absl::StrCat(Where(), ": a snapshot after move ", move_number,
                               "; the replay has ", replay_.moves_size(), " moves"));
  }
  while (game_->move_number() < move_number) {
    absl::StatusOr<engine::MoveOutcome> played =
        PlayReplayMove(replay_, static_cast<int>(game_->move_number()), *game_);
    if (!played.ok()) return played.status();
  }
  return absl::OkStatus();
}

// "seat 2 (bot: timeout)", "seat 0 (player)".
std::string Mover(int seat, bool by_bot, const std::string& bot_reason) {
  return absl::StrCat("seat ", seat,
                      by_bot ? absl::StrCat(" (bot: ", bot_reason, ")") : " (player)");
}

absl::Status StreamCheck::Move(const v1::MoveApplied& move) {
  const int index = static_cast<int>(game_->move_number());
  const std::string where = absl::StrCat(Where(), ", move ", index + 1);
  if (index >= replay_.moves_size()) {
    return Failed(absl::StrCat(where, ": a move the replay does not have (it has ",
                               replay_.moves_size(), ")"));
  }
  const v1::ReplayMove& recorded = replay_.moves(index);
  if (move.seat() != recorded.seat() || move.by_bot() != recorded.by_bot() ||
      move.bot_reason() != recorded.bot_reason()) {
    return Failed(absl::StrCat(where, ": ", Mover(move.seat(), move.by_bot(), move.bot_reason()),
                               ", the replay's ",
                               Mover(recorded.seat(), recorded.by_bot(), recorded.bot_reason())));
  }
  absl::StatusOr<engine::MoveOutcome> played = PlayReplayMove(replay_, index, *game_);
  if (!played.ok()) return played.status();
  if (absl::Status events = CompareEvents(
          where, "the stream", engine::VisibleTo(played->events, recipient_), move.events());
      !events.ok()) {
    return events;
  }
  const std::vector<int> to_act = game_->SeatsToAct();
  if (!std::equal(to_act.begin(), to_act.end(), move.to_act().begin(), move.to_act().end())) {
    return Failed(absl::StrCat(where, ": to_act [", absl::StrJoin(move.to_act(), ","),
                               "], the replayed game's [", absl::StrJoin(to_act, ","), "]"));
  }
  if (move.has_result() != game_->IsOver()) {
    return Failed(absl::StrCat(where, game_->IsOver() ? ": the game ends here, but no result"
                                                      : ": a result before the game's end"));
  }
  if (!game_->IsOver()) {
    if (move.has_reveal()) return Failed(absl::StrCat(where, ": a reveal before the game's end"));
    return absl::OkStatus();
  }
  if (const std::string diff = Differences(game_->Result(), move.result()); !diff.empty()) {
    return Failed(absl::StrCat(where, ": the result differs from the replayed game's (", diff,
                               "; replayed game first, stream second)"));
  }
  if (const std::string diff = Differences(replay_.reveal(), move.reveal()); !diff.empty()) {
    return Failed(absl::StrCat(where, ": the reveal ", Json(move.reveal()), " is not the replay's ",
                               Json(replay_.reveal())));
  }
  return absl::OkStatus();
}

// Undo and redo change which moves are in force; a replay holds only the final ones.
absl::Status CheckNoUndo(const std::vector<v1::TableUpdate>& updates) {
  for (size_t index = 0; index < updates.size(); ++index) {
    const v1::PracticeChange::Kind kind = updates[index].practice().kind();
    if (kind == v1::PracticeChange::UNDONE || kind == v1::PracticeChange::REDONE) {
      return absl::InvalidArgumentError(absl::StrCat(
          "line ", index + 1, " (seq ", updates[index].seq(),
          "): a practice undo or redo; such a stream cannot be checked (verify the replay alone)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<VerifiedStream> VerifyStream(const v1::Replay& replay,
                                            const std::vector<v1::TableUpdate>& updates) {
  if (updates.empty()) return absl::InvalidArgumentError("the stream holds no update");
  if (absl::Status undo = CheckNoUndo(updates); !undo.ok()) return undo;
  absl::StatusOr<std::unique_ptr<engine::Game>> game = NewReplayGame(replay);
  if (!game.ok()) return game.status();
  VerifiedStream verified;
  StreamCheck check(replay, *std::move(game));
  if (absl::Status checked = check.Check(updates, &verified); !checked.ok()) return checked;
  return verified;
}

}  // namespace kahve::tools
