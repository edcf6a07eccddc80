#ifndef KAHVE_SERVICES_TABLE_TABLE_SESSION_H_
#define KAHVE_SERVICES_TABLE_TABLE_SESSION_H_

// The domain core of one table: the game, its seats and their presence, the table's log, and the
// clock rules that hand a seat to a bot. No network, no database, no threads: the service holds
// a per-table mutex around every call and passes its clock as `now`.
//
// The log is the truth. Every change is a v1::TableLogEntry the session applies at once through
// the same path Replay uses, so replaying a table's log on a new session reproduces its state
// exactly (bot moves are logged as moves and never re-decided). The caller persists each entry it
// receives before acknowledging or broadcasting it.

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/core/game.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/table.pb.h"
#include "services/table/table_updates.h"

namespace kahve::table {

// MovePlayed.bot_reason: why a bot chose a seat's move.
inline constexpr char kReasonBotSeat[] = "bot_seat";
inline constexpr char kReasonTimeout[] = "timeout";
inline constexpr char kReasonAway[] = "away";
inline constexpr char kReasonResigned[] = "resigned";

inline constexpr int kDefaultAwayGraceSeconds = 10;
inline constexpr int kMaxTurnSeconds = 24 * 3600;
inline constexpr int kMaxAwayGraceSeconds = 3600;
inline constexpr int kMaxBotDelayMs = 10000;
// Entries kept for resuming streams; older gaps get a fresh snapshot.
inline constexpr size_t kRecentEntries = 256;
// Request ids remembered for idempotent retries; the oldest are forgotten first.
inline constexpr size_t kRememberedRequests = 1024;
inline constexpr size_t kMaxRequestIdLength = 128;
// At most this many entries per Due call, so one call's cost is bounded; NextDeadline() is then
// already past and the caller calls again.
inline constexpr size_t kMaxEntriesPerDue = 64;

// The answer to Play.
struct PlayResult {
  // OK: accepted (or, for a dry run, acceptable). Otherwise nothing changed: INVALID_ARGUMENT or
  // FAILED_PRECONDITION with `rejection` when the rules refused the move; ABORTED for a stale
  // expected_seq; ALREADY_EXISTS for a request id reused with another move; PERMISSION_DENIED or
  // FAILED_PRECONDITION for a seat that may not play at all.
  absl::Status status;
  // The engine's reason, when the rules refused the move (the PlayRejection details).
  std::optional<v1::Rejection> rejection;
  // The move's seq; for a dry run or a refusal, the table's current seq.
  uint64_t seq = 0;
  // The move's events as the mover may see them (a dry run's preview, cut as Game::DryRun cuts).
  std::vector<v1::Event> events;
  bool preview_truncated = false;
  // A retry of an accepted request: answered from memory, nothing new to persist.
  bool duplicate = false;
  // The new entry to persist and broadcast: set exactly for a newly accepted move.
  std::optional<AppliedEntry> applied;
};

// The answer to a practice call (Pause, Resume, Undo, Redo).
struct PracticeResult {
  // The seq of the change; the table's current seq when nothing changed.
  uint64_t seq = 0;
  // The new entry to persist and broadcast; empty for a pause of a paused table (or a resume of a
  // running one), which changes nothing.
  std::optional<AppliedEntry> applied;
};

struct ResignResult {
  // The seq of the seat's resignation (the first one, for a repeat).
  uint64_t seq = 0;
  // The new entry to persist and broadcast; empty when the seat had already resigned.
  std::optional<AppliedEntry> applied;
};

// How a seat took part, for recording the match (a Participant of RecordMatchRequest).
struct SeatOutcome {
  int seat = 0;
  // Empty for a bot seat.
  std::string player_id;
  // A bot held the seat from the start.
  bool bot_seat = false;
  bool resigned = false;
  // The player was away when the game ended.
  bool away_at_end = false;
  int human_moves = 0;
  int bot_moves = 0;
  bool mostly_bot_played() const { return bot_moves > human_moves; }
};

// A practice change's kind as a verb: "pause", "resume", "undo" or "redo"; "" for no kind (in
// messages, and as the kind label of kahve_practice_changes_total).
const char* PracticeKindName(v1::PracticeChange::Kind kind);

class TableSession {
 public:
  // A table from its creation entry (seq 0): checks every field and names the first wrong one in
  // an InvalidArgument. Human seats count as disconnected since the entry's time.
  static absl::StatusOr<std::unique_ptr<TableSession>> Create(const v1::TableLogEntry& created);

  // Applies an entry read back from the log (at restart or takeover); its seq must be seq() + 1.
  // Any refusal means the log does not fit the table: nothing changes and the error says why.
  absl::Status Replay(const v1::TableLogEntry& entry);
  // After replaying, gives every seat a fresh turn clock and away grace from `now`, so a host
  // change does not count against the players.
  void RestartClocks(absl::Time now);

  const std::string& table_id() const { return created_.table_id(); }
  const std::string& match_id() const { return created_.match_id(); }
  const engine::Game& game() const { return *game_; }
  // Entries applied after creation; the seq of the latest entry.
  uint64_t seq() const { return seq_; }
  // The game is over, or the table closed before it was (Close).
  bool over() const { return game_->IsOver() || closed_.has_value(); }
  // Why the table closed before its game ended; nullopt while it runs or when the game ended.
  const std::optional<v1::TableClosed>& closed() const { return closed_; }
  std::optional<v1::Result> result() const;
  int num_seats() const { return static_cast<int>(seats_.size()); }

  // The seat a token opens: engine::kSpectator for an empty token, PERMISSION_DENIED for a token
  // of no seat here (the caller is authenticated; the token grants nothing). Compares digests in
  // constant time.
  absl::StatusOr<int> SeatOf(std::string_view seat_token) const;
  // Whether the JWT subject may use `seat`: anyone may watch, only its player may use a seat.
  absl::Status CheckPlayer(int seat, std::string_view subject) const;

  // Plays (or previews) `move` for `seat`; see PlayResult. A dry run changes nothing, not even the
  // remembered request ids. An away seat may still play (over unary calls); it stays away, and
  // the bot covers its turns, until a stream opens.
  PlayResult Play(int seat, const v1::Move& move, const std::string& request_id,
                  std::optional<uint64_t> expected_seq, bool dry_run, absl::Time now);
  // The seat leaves for good: a bot plays it to the end and it ranks last when rated. At a practice
  // table the table closes instead (PRACTICE_RESIGNED): nobody is left to play for. Repeats
  // answer the first resignation. FAILED_PRECONDITION once the game is over.
  absl::StatusOr<ResignResult> Resign(int seat, absl::Time now);
  // Ends a practice table before its game ends (TableClosed): nothing more is applied after it.
  // FAILED_PRECONDITION for a table that is not a practice table, or one already over.
  absl::StatusOr<AppliedEntry> Close(v1::TableClosed::Reason reason, absl::Time now);

  // A Connect stream of `seat` (or engine::kSpectator) opened; an away seat comes back (the BACK
  // entry is returned). Spectators and a finished game log nothing. While a stream `with_view` of
  // a recipient is open, every entry applied carries that recipient's view (live_views).
  std::optional<AppliedEntry> StreamOpened(int seat, bool with_view, absl::Time now);
  // A stream of `seat` closed; with none left, its away grace starts now.
  void StreamClosed(int seat, bool with_view, absl::Time now);

  // Practice tables (docs/practice.md): pauses, resumes, takes back the player's last decision with
  // the bot moves after it, or plays again what the last undo took back. FAILED_PRECONDITION on a
  // table that is not a practice table, a finished game, a resigned seat, nothing to undo or redo;
  // ABORTED for a stale expected_seq; PERMISSION_DENIED for a spectator.
  absl::StatusOr<PracticeResult> Practice(int seat, v1::PracticeChange::Kind kind,
                                          std::optional<uint64_t> expected_seq, absl::Time now);
  bool practice() const { return created_.practice(); }
  v1::PracticeState PracticeState() const;
  // When the latest entry (or the creation) happened: a practice table idle since then expires.
  absl::Time last_entry_at() const { return last_at_; }

  // The earliest time Due has something to do: an away grace or a turn running out, or a seat a
  // bot plays being to act (then a time already past). InfiniteFuture when nothing is pending.
  absl::Time NextDeadline() const;
  // The entries due at `now`, each already applied: seats becoming away, then bot moves for bot
  // seats, resigned seats, away seats and seats whose turn ran out, until nothing is due (at most
  // kMaxEntriesPerDue).
  std::vector<AppliedEntry> Due(absl::Time now);

  // The state as `seat` (or engine::kSpectator) may see it.
  v1::TableUpdate SnapshotFor(int seat) const;
  // The view of `seat` (or engine::kSpectator) and its legal moves now.
  RecipientView ViewFor(int seat) const;
  // The updates `seat` missed after `after_seq`, oldest first, or nullopt when they are no longer
  // kept (send SnapshotFor then). With `with_view`, each carries the view and legal moves the seat
  // had right after it, as a stream with_view open all along received them. OUT_OF_RANGE for an
  // after_seq ahead of seq().
  absl::StatusOr<std::optional<std::vector<v1::TableUpdate>>> ResumeFor(
      int seat, uint64_t after_seq, bool with_view = false) const;
  std::vector<v1::SeatStatus> SeatStatuses() const;
  // The deal's commitment (docs/fairness.md); null for a table created before commitments existed.
  const v1::DealCommitment* commitment() const;
  // The seed material the commitment hashes: only once the game is over (and with a commitment).
  std::optional<v1::DealReveal> reveal() const;
  std::vector<SeatOutcome> SeatOutcomes() const;
  // Players' seats that have not resigned, while the game runs; 0 once it is over.
  int SeatedPlayers() const;
  v1::TableSummary Summary() const;
  // The whole game, hidden information included (the reveal only once over()): serve only once
  // over(), or to an admin.
  v1::Replay ReplayRecord() const;

 private:
  struct Seat {
    std::string player_id;  // empty for a bot seat
    // The bot that plays the seat: its own kind for a bot seat, the takeover kind for a human.
    std::string bot_kind;
    std::string token_sha256;  // empty for a bot seat
    int streams = 0;
    absl::Time disconnected_since;  // meaningful while streams == 0
    bool away = false;
    bool resigned = false;
    uint64_t resigned_seq = 0;
    // Set while the seat may act: when its current decision began.
    std::optional<absl::Time> turn_started;
    int human_moves = 0;
    int bot_moves = 0;
    bool is_bot() const { return player_id.empty(); }
  };
  // What a retry of an accepted request gets back.
  struct RememberedRequest {
    v1::Move move;
    uint64_t seq = 0;
    std::vector<v1::Event> visible_events;
  };
  using RequestKey = std::pair<int, std::string>;  // (seat, request id)

  TableSession(v1::TableCreated created, absl::Time created_at, std::unique_ptr<engine::Game> game,
               std::vector<Seat> seats);

  // The one path of every entry after creation, new or replayed: checks it against the state,
  // applies it and records it. Changes nothing on failure; a move the rules refuse also fills
  // *rejection (may be null).
  absl::StatusOr<AppliedEntry> ApplyEntry(const v1::TableLogEntry& entry, v1::Rejection* rejection);
  absl::Status CheckSeatChange(const v1::SeatChange& change) const;
  absl::StatusOr<AppliedEntry> ApplyPractice(const v1::TableLogEntry& entry);
  // How many moves an undo would take back now: the last move of the player and every one after
  // it; 0 when the player has made none.
  int UndoCount() const;
  // The game replayed from the deal with only moves_[0, keep); moves_ and the move counts follow.
  absl::Status Rebuild(size_t keep);
  absl::Status PlayAgain(const std::vector<v1::ReplayMove>& moves);
  void CountMove(const v1::ReplayMove& move);
  absl::StatusOr<AppliedEntry> ApplyMove(const v1::TableLogEntry& entry, v1::Rejection* rejection);
  void ApplySeatChange(const v1::SeatChange& change, uint64_t seq);
  void Record(AppliedEntry applied);
  // Fills applied.live_views for the recipients streams with_view serve.
  void AddLiveViews(AppliedEntry& applied) const;
  // Attaches to each of `updates` (those of `missed`, the kept entries from some seq on) the view
  // and legal moves `seat` had right after it. Internal when the kept entries do not lead to the
  // state now (our bug).
  absl::Status AttachPastViews(int seat, const std::vector<const AppliedEntry*>& missed,
                               std::vector<v1::TableUpdate>& updates) const;
  void RestartTurnClocks(const v1::TableLogEntry& entry);
  void Remember(int seat, const v1::MovePlayed& move, uint64_t seq,
                const std::vector<v1::Event>& events);

  absl::Status CheckPlayableSeat(int seat) const;
  // ABORTED with a StaleSeq detail when the table is no longer at `expected_seq`.
  absl::Status CheckExpectedSeq(std::optional<uint64_t> expected_seq) const;
  PlayResult DryRun(int seat, const v1::Move& move) const;
  v1::TableLogEntry NewEntry(absl::Time now) const;
  // The next entry due at `now`, if any.
  std::optional<v1::TableLogEntry> NextDue(absl::Time now) const;
  // Why a bot should move for `seat` (which may act) at `now`; empty when it should not.
  std::string TakeoverReason(int seat, absl::Time now) const;
  absl::Duration away_grace() const;
  absl::Duration bot_delay() const;
  std::optional<absl::Time> TurnDeadline(int seat) const;

  v1::TableCreated created_;
  absl::Time created_at_;
  std::unique_ptr<engine::Game> game_;
  std::vector<Seat> seats_;
  // Open streams with_view per recipient (index: seat + 1, the spectator's first).
  std::vector<int> view_watchers_;
  uint64_t seq_ = 0;
  absl::Time last_at_;
  std::deque<AppliedEntry> recent_;
  std::map<RequestKey, RememberedRequest> requests_;
  std::deque<RequestKey> request_order_;  // oldest first, for eviction
  // Every move in force (an undo takes moves out), in order, and beside each its request id.
  std::vector<v1::ReplayMove> moves_;
  std::vector<std::string> move_request_ids_;
  // Set by a TableClosed entry, with its seq.
  std::optional<v1::TableClosed> closed_;
  uint64_t closed_seq_ = 0;
  // Practice tables: whether paused, and what each undo took back (the latest last), for redo.
  bool paused_ = false;
  std::vector<std::vector<v1::ReplayMove>> redo_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_SESSION_H_
