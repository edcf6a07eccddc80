#include "engine/core/game.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/check.h"

namespace kahve::engine {

bool IsVisibleTo(const v1::Event& event, int seat) {
  return !event.has_private_to() || event.private_to() == seat;
}

std::vector<v1::Event> VisibleTo(const std::vector<v1::Event>& events, int seat) {
  std::vector<v1::Event> visible;
  for (const v1::Event& event : events) {
    if (IsVisibleTo(event, seat)) visible.push_back(event);
  }
  return visible;
}

MoveOutcome Rejected(v1::RejectionReason reason, std::string message) {
  MoveOutcome outcome;
  outcome.rejection.set_reason(reason);
  outcome.rejection.set_message(std::move(message));
  return outcome;
}

Game::Game(v1::GameSettings settings, v1::Deal deal, int num_seats)
    : settings_(std::move(settings)), deal_(std::move(deal)), num_seats_(num_seats) {}

void Game::set_deal_events(std::vector<v1::Event> events) { deal_events_ = std::move(events); }

bool Game::MayAct(int seat) const {
  const std::vector<int> seats = SeatsToAct();
  return std::binary_search(seats.begin(), seats.end(), seat);
}

absl::StatusCode Game::RejectionCode(v1::RejectionReason reason) const {
  switch (reason) {
    case v1::INVALID_SEAT:
    case v1::WRONG_RULESET:
    case v1::MISSING_ACTION:
      return absl::StatusCode::kInvalidArgument;
    case v1::GAME_OVER:
    case v1::NOT_YOUR_TURN:
      return absl::StatusCode::kFailedPrecondition;
    default:
      return IsMalformed(reason) ? absl::StatusCode::kInvalidArgument
                                 : absl::StatusCode::kFailedPrecondition;
  }
}

MoveOutcome Game::Apply(int seat, const v1::Move& move) {
  MoveOutcome outcome = CheckAndApply(seat, move);
  if (!outcome.accepted) outcome.code = RejectionCode(outcome.rejection.reason());
  return outcome;
}

MoveOutcome Game::CheckAndApply(int seat, const v1::Move& move) {
  if (seat < 0 || seat >= num_seats_) {
    return Rejected(v1::INVALID_SEAT,
                    absl::StrCat("seat ", seat, " is not in 0..", num_seats_ - 1));
  }
  if (IsOver()) return Rejected(v1::GAME_OVER, "the game is over");
  if (move.ruleset_case() == v1::Move::RULESET_NOT_SET || !IsOwnMove(move)) {
    return Rejected(v1::WRONG_RULESET, "the move is not a move of this game's ruleset");
  }
  if (!MayAct(seat) && !MayActOutOfTurn(seat, move)) {
    return Rejected(v1::NOT_YOUR_TURN, absl::StrCat("seat ", seat, " may not act now"));
  }
  MoveOutcome outcome = DoApply(seat, move);
  if (!outcome.accepted) return outcome;
  last_move_ = std::make_shared<const MoveLink>(MoveLink{AcceptedMove{seat, move}, last_move_});
  ++moves_;
  for (v1::Event& event : outcome.events) event.set_move_number(moves_);
  return outcome;
}

Game::~Game() {
  // Frees the links only this game holds one at a time: letting the chain free itself would
  // recurse as deep as the game is long.
  std::shared_ptr<const MoveLink> link = std::move(last_move_);
  while (link != nullptr && link.use_count() == 1) link = link->previous;
}

std::vector<AcceptedMove> Game::history() const {
  std::vector<AcceptedMove> moves(moves_);
  size_t i = moves_;
  for (const MoveLink* link = last_move_.get(); link != nullptr; link = link->previous.get()) {
    moves[--i] = link->move;
  }
  return moves;
}

MoveOutcome Game::DryRun(int seat, const v1::Move& move) const {
  // Applied to a copy, so the answer is exactly Apply's; then cut, so that previewing a challenge
  // or a draw cannot be used to peek.
  std::unique_ptr<Game> scratch = Clone();
  MoveOutcome outcome = scratch->Apply(seat, move);
  const auto hidden =
      std::find_if(outcome.events.begin(), outcome.events.end(),
                   [this](const v1::Event& event) { return DecidedByHiddenInformation(event); });
  outcome.preview_truncated = hidden != outcome.events.end();
  outcome.events.erase(hidden, outcome.events.end());
  return outcome;
}

v1::View Game::View(int seat) const {
  KAHVE_CHECK(seat == kSpectator || (seat >= 0 && seat < num_seats_), "view of a seat of the game");
  v1::View view = DoView(seat);
  // What every ruleset's view shares.
  view.set_seat(seat);
  view.set_num_seats(num_seats_);
  view.set_move_number(move_number());
  view.clear_to_act();
  for (const int acting : SeatsToAct()) view.add_to_act(acting);
  view.set_over(IsOver());
  if (IsOver()) *view.mutable_result() = Result();
  return view;
}

absl::StatusOr<v1::Hints> Game::Hints(int /*seat*/) const {
  return absl::FailedPreconditionError("this ruleset has no hints");
}

}  // namespace kahve::engine
