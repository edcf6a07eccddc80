#ifndef KAHVE_ENGINE_CORE_GAME_H_
#define KAHVE_ENGINE_CORE_GAME_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kahve/v1/engine.pb.h"

namespace kahve::engine {

// The seat argument for a spectator's view: public information only.
inline constexpr int kSpectator = -1;

// What Apply answers: the move's events, or why it was refused (then nothing changed).
struct MoveOutcome {
  bool accepted = false;
  v1::Rejection rejection;
  // How a service answers a rejection (STYLE.md): kInvalidArgument for a move malformed in
  // itself, kFailedPrecondition for a well-formed move the state forbids (Game::RejectionCode).
  // kOk when accepted.
  absl::StatusCode code = absl::StatusCode::kOk;
  // Every event of the move, each marked with its audience; send a recipient VisibleTo(...) only.
  std::vector<v1::Event> events;
  // DryRun only: the events stop before the first one that chance or hidden information decides
  // (a reveal, a roll, a draw), so a preview never discloses what the move would uncover.
  bool preview_truncated = false;
};

struct AcceptedMove {
  int seat = 0;
  v1::Move move;
};

// Whether `seat` (or kSpectator) may see `event`.
bool IsVisibleTo(const v1::Event& event, int seat);
// The events of `events` that `seat` may see, in order.
std::vector<v1::Event> VisibleTo(const std::vector<v1::Event>& events, int seat);

// One game of one ruleset, spoken in kahve.v1 messages: the interface the services, the CLI and the
// conformance tests use. A game is a pure function of (settings, deal, accepted moves): replaying
// history() on a new game of the same settings and deal gives an equal game.
//
// Turns: SeatsToAct() lists who may act now, usually one seat; a ruleset may also accept a move
// out of turn without listing the seat (MayActOutOfTurn: okey's gösterme). A turn may take several
// moves by the same seat (okey51: take the discard with its use, lay melds, add tiles, then
// discard); the turn passes when the ruleset says so. Chance (deals, rolls, draws) happens inside
// Apply, from the deal's seed.
class Game {
 public:
  virtual ~Game();

  const v1::GameSettings& settings() const { return settings_; }
  const v1::Deal& deal() const { return deal_; }
  int num_seats() const { return num_seats_; }
  // Number of accepted moves; also the move_number of the last move's events.
  uint64_t move_number() const { return moves_; }
  // The accepted moves, oldest first (a copy: for replays and tests, not for every move).
  std::vector<AcceptedMove> history() const;
  // Events of the deal (move_number 0), before any move.
  const std::vector<v1::Event>& deal_events() const { return deal_events_; }

  // Plays `move` for `seat`. Checks what every ruleset shares (seat in range, game not over, the
  // move is for this ruleset, the seat may act), then the ruleset's own rules. Accepted: the move
  // joins history() and its events carry move_number(). Rejected: nothing changes, and the reason
  // and message state only what the seat may know.
  MoveOutcome Apply(int seat, const v1::Move& move);
  // The answer Apply would give, changing nothing, with the events cut before the first that
  // chance or hidden information decides (see MoveOutcome::preview_truncated).
  MoveOutcome DryRun(int seat, const v1::Move& move) const;

  bool MayAct(int seat) const;

  // The status code of a rejection for `reason`: kInvalidArgument when the move is malformed in
  // itself, so that no state of this game would accept it (an unknown name, a value outside its
  // range, a missing part: INVALID_SEAT, WRONG_RULESET, MISSING_ACTION, and the reasons the
  // ruleset's IsMalformed names), else kFailedPrecondition.
  absl::StatusCode RejectionCode(v1::RejectionReason reason) const;

  // Seats that may act now, ascending; empty exactly when the game is over.
  virtual std::vector<int> SeatsToAct() const = 0;
  // Every move `seat` may make now, in the ruleset's canonical order (ascending, no duplicates);
  // empty for a seat that may not act. Depends only on what that seat may know. Where a move kind
  // is any combination of parts (an okey opening: any set of melds), canonical representatives of
  // it are listed instead (docs/engine.md 6.5); Apply judges every move on its merits.
  virtual std::vector<v1::Move> LegalMoves(int seat) const = 0;
  // What `seat` may know, or what anyone may know for kSpectator. Permuting what the seat cannot
  // see (other hands, the order of the stock, future rolls) leaves the view byte-identical.
  // `seat` must be kSpectator or a seat of the game (callers validate input first).
  v1::View View(int seat) const;
  virtual bool IsOver() const = 0;
  // Ranks (1 best, ties equal), scores and teams of every seat; only once IsOver().
  virtual v1::Result Result() const = 0;
  virtual std::unique_ptr<Game> Clone() const = 0;
  // Re-derives every redundant fact of the state and aborts on a mismatch: our bug, not a player's.
  virtual void CheckInvariants() const = 0;
  // Whether two games of the same ruleset are in the same full state, hidden parts included.
  virtual bool SameState(const Game& other) const = 0;

  // Hints for `seat` from its view alone. FailedPrecondition where the ruleset has none or the
  // settings turn them off.
  virtual absl::StatusOr<v1::Hints> Hints(int seat) const;

  // Bots available for this ruleset, e.g. {"random", "heuristic"}.
  virtual std::vector<std::string> BotKinds() const = 0;
  // A legal move for `seat` chosen by bot `kind` from that seat's view alone; `bot_seed` makes its
  // choice repeatable. NotFound for an unknown kind, FailedPrecondition if the seat may not act.
  virtual absl::StatusOr<v1::Move> BotMove(int seat, std::string_view kind,
                                           uint64_t bot_seed) const = 0;

 protected:
  Game(v1::GameSettings settings, v1::Deal deal, int num_seats);
  Game(const Game&) = default;

  // The ruleset's part of Apply, called only for a seat that may act, a game not over and a move
  // of this ruleset. Must change nothing when it rejects.
  virtual MoveOutcome DoApply(int seat, const v1::Move& move) = 0;
  // Whether `move` sets this ruleset's part of the oneof.
  virtual bool IsOwnMove(const v1::Move& move) const = 0;
  // Whether this ruleset refuses with `reason` (one of its own) only moves malformed in
  // themselves, which no state of the game accepts (an unknown tile name, no such train, face 7).
  virtual bool IsMalformed(v1::RejectionReason reason) const = 0;
  // Whether `seat`, not among SeatsToAct, may still try `move` (okey's gösterme, which is never
  // listed in SeatsToAct: that list is public, and would tell who holds the indicator's twin).
  virtual bool MayActOutOfTurn(int /*seat*/, const v1::Move& /*move*/) const { return false; }
  // The ruleset's part of the view of a valid seat or kSpectator (View fills in the seat, the
  // move number, who acts, whether it is over and the result).
  virtual v1::View DoView(int seat) const = 0;
  // Whether the event's content depends on chance or on information hidden before the move (a
  // reveal, a roll, a draw): a preview stops before it.
  virtual bool DecidedByHiddenInformation(const v1::Event& event) const = 0;

  void set_deal_events(std::vector<v1::Event> events);

 private:
  // Apply without the rejection's code.
  MoveOutcome CheckAndApply(int seat, const v1::Move& move);

  // The accepted moves as a chain from the newest back, each link immutable and shared by every
  // copy of the game that has it: Clone (and so DryRun) copies no move, however long the game.
  struct MoveLink {
    AcceptedMove move;
    std::shared_ptr<const MoveLink> previous;
  };

  v1::GameSettings settings_;
  v1::Deal deal_;
  int num_seats_;
  uint64_t moves_ = 0;
  std::shared_ptr<const MoveLink> last_move_;
  std::vector<v1::Event> deal_events_;
};

// A refusal with its reason.
MoveOutcome Rejected(v1::RejectionReason reason, std::string message);

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_GAME_H_
