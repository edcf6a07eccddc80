#include "tests/fuzz/engine_fuzz.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "engine/core/check.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/message_differencer.h"

namespace kahve::fuzz {
namespace {

using engine::Game;
using engine::MoveOutcome;
using google::protobuf::util::MessageDifferencer;

// The decoders map each byte onto a range a little wider than the valid one, so refusals are
// tried too without wasting most inputs on them. A 0 leaves an optional field unset (its default);
// a written 0 is refused (settings_presence_test).

template <typename Settings>
void SetUnlessZero(Settings* settings, void (Settings::*set)(int32_t), int32_t value) {
  if (value != 0) (settings->*set)(value);
}
v1::GameSettings LiarsDiceSettings(const uint8_t* bytes) {
  v1::GameSettings settings;
  v1::LiarsDiceSettings* dice = settings.mutable_liars_dice();
  SetUnlessZero(dice, &v1::LiarsDiceSettings::set_players, bytes[0] % 12);  // valid: 0, 2..10
  SetUnlessZero(dice, &v1::LiarsDiceSettings::set_dice_per_player, bytes[1] % 7);  // 0, 1..5
  dice->set_max_rounds(static_cast<int8_t>(bytes[2]) / 8);  // valid: 0 (none), 1..15
  return settings;
}

v1::GameSettings OkeySettings(const uint8_t* bytes) {
  v1::GameSettings settings;
  v1::OkeySettings* okey = settings.mutable_okey();
  SetUnlessZero(okey, &v1::OkeySettings::set_players, bytes[0] % 6);  // valid: 0, 2..4
  okey->set_first_starter(bytes[1] % 6 - 1);
  okey->set_indicator_last_tile((bytes[2] & 1) != 0);
  okey->set_partners((bytes[2] & 2) != 0);
  okey->set_elimination((bytes[2] & 4) != 0);
  okey->set_single_colour_doubles((bytes[2] & 8) != 0);
  okey->set_single_colour_red_black_only((bytes[2] & 16) != 0);
  okey->set_max_deals(bytes[3] % 6 - 1);  // valid: 0 (none), 1..4
  return settings;
}

v1::GameSettings Okey51Settings(const uint8_t* bytes) {
  v1::GameSettings settings;
  v1::Okey51Settings* okey = settings.mutable_okey51();
  okey->set_teams((bytes[0] & 1) != 0);
  okey->set_hints((bytes[0] & 2) != 0);
  okey->set_doubling((bytes[0] & 4) != 0);
  SetUnlessZero(okey, &v1::Okey51Settings::set_deals, bytes[1] % 5);  // valid: 0, 1, 3
  okey->set_first_starter(bytes[2] % 6 - 1);
  return settings;
}

v1::GameSettings Okey101Settings(const uint8_t* bytes) {
  v1::GameSettings settings;
  v1::Okey101Settings* okey = settings.mutable_okey101();
  okey->set_teams((bytes[0] & 1) != 0);
  okey->set_hints((bytes[0] & 2) != 0);
  SetUnlessZero(okey, &v1::Okey101Settings::set_deals, bytes[1] % 13);  // valid: 0, 3, 5, 7, 9, 11
  okey->set_first_dealer(bytes[2] % 6 - 1);
  return settings;
}

v1::GameSettings MexicanTrainSettings(const uint8_t* bytes) {
  v1::GameSettings settings;
  SetUnlessZero(settings.mutable_mexican_train(), &v1::MexicanTrainSettings::set_players,
                bytes[0] % 12);  // valid: 0, 2..10
  return settings;
}

// The input, front to back; reads past the end give zeros.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::pair<const uint8_t*, size_t> Take(size_t n) {
    const size_t taken = std::min(n, size_ - pos_);
    const uint8_t* start = data_ + pos_;
    pos_ += taken;
    return {start, taken};
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

bool Contains(const std::vector<int>& seats, int seat) {
  return std::binary_search(seats.begin(), seats.end(), seat);
}

void CheckEvents(const Game& game, const std::vector<v1::Event>& events) {
  for (const v1::Event& event : events) {
    KAHVE_CHECK(event.move_number() == game.move_number(), "events carry their move's number");
    KAHVE_CHECK(!event.has_private_to() ||
                    (event.private_to() >= 0 && event.private_to() < game.num_seats()),
                "a private event names a seat of the game");
  }
}

void CheckView(const Game& game, int seat) {
  KAHVE_CHECK(game.View(seat).move_number() == game.move_number(), "a view is of this move");
}

// Every seat's view and a spectator's.
void CheckEveryView(const Game& game) {
  for (int seat = engine::kSpectator; seat < game.num_seats(); ++seat) CheckView(game, seat);
}

// Whether the views of the mover and of a spectator are built after this move: at power-of-two
// move numbers and once the game is over. Building them after every move took half of each run
// (a view is a message per tile); every other position is still viewed by the inputs that end
// there (RunEngineInput views the last position) or audit it, as the fuzzer chooses.
bool IsViewPoint(const Game& game) {
  const uint64_t moves = game.move_number();
  return (moves & (moves - 1)) == 0 || game.IsOver();
}

// Who acts, and the result once over: must hold in every state.
void CheckPosition(const Game& game, int mover) {
  const std::vector<int> to_act = game.SeatsToAct();
  KAHVE_CHECK(std::is_sorted(to_act.begin(), to_act.end()), "seats to act ascend");
  KAHVE_CHECK(std::adjacent_find(to_act.begin(), to_act.end()) == to_act.end(),
              "seats to act are unique");
  KAHVE_CHECK(to_act.empty() == game.IsOver(), "nobody acts exactly when the game is over");
  for (const int seat : to_act) {
    KAHVE_CHECK(seat >= 0 && seat < game.num_seats(), "seats to act are seats of the game");
  }
  if (game.IsOver()) {
    const v1::Result result = game.Result();
    KAHVE_CHECK(result.seats_size() == game.num_seats(), "the result ranks every seat");
    for (const v1::Result::SeatResult& seat : result.seats()) {
      KAHVE_CHECK(seat.rank() >= 1 && seat.rank() <= game.num_seats(), "ranks are 1..seats");
    }
  }
  if (IsViewPoint(game)) {
    CheckView(game, engine::kSpectator);
    if (mover != engine::kSpectator) CheckView(game, mover);
  }
}

void CheckAccepted(const Game& game, int seat, const MoveOutcome& outcome, uint64_t before) {
  KAHVE_CHECK(outcome.accepted, "a move the engine offered, or DryRun accepted, is accepted");
  KAHVE_CHECK(game.move_number() == before + 1, "an accepted move joins the history");
  CheckEvents(game, outcome.events);
  game.CheckInvariants();
  CheckPosition(game, seat);
}

// A move from the input: Apply answers as DryRun did, and a refusal changes nothing: the game
// stays equal to `unchanged`, a copy of it at this position. Copies cost the length of the
// history, so only a refused move makes one, and the refusals at one position share it (each is
// checked to leave the game equal to it): once a mutation changes one move of a recorded game,
// the moves after it are mostly refused.
void StepMove(Game& game, int seat, const v1::Move& move, std::unique_ptr<Game>& unchanged) {
  const MoveOutcome dry = game.DryRun(seat, move);
  if (dry.accepted) {
    const uint64_t before = game.move_number();
    const MoveOutcome outcome = game.Apply(seat, move);
    CheckAccepted(game, seat, outcome, before);
    KAHVE_CHECK(dry.events.size() <= outcome.events.size(), "a preview is a prefix of the events");
    for (size_t i = 0; i < dry.events.size(); ++i) {
      KAHVE_CHECK(MessageDifferencer::Equals(dry.events[i], outcome.events[i]),
                  "a preview is a prefix of the events");
    }
    return;
  }
  // Accepted moves are all that change the move number, and it never returns.
  if (unchanged == nullptr || unchanged->move_number() != game.move_number()) {
    unchanged = game.Clone();
  }
  const MoveOutcome outcome = game.Apply(seat, move);
  KAHVE_CHECK(!outcome.accepted, "Apply refuses what DryRun refused");
  KAHVE_CHECK(outcome.rejection.reason() != v1::REJECTION_REASON_UNSPECIFIED,
              "a rejection gives its reason");
  KAHVE_CHECK(!outcome.rejection.message().empty(), "a rejection says why");
  KAHVE_CHECK(dry.rejection.reason() == outcome.rejection.reason(),
              "DryRun refuses for Apply's reason");
  KAHVE_CHECK(outcome.events.empty(), "a rejection has no events");
  KAHVE_CHECK(game.SameState(*unchanged), "a rejected move changes nothing");
}

// A move the engine offered (listed, or a bot's): accepted.
void ApplyOffered(Game& game, int seat, const v1::Move& move) {
  const uint64_t before = game.move_number();
  CheckAccepted(game, seat, game.Apply(seat, move), before);
}

void StepListed(Game& game, int seat, uint8_t index) {
  const std::vector<v1::Move> legal = game.LegalMoves(seat);
  if (legal.empty()) return;
  ApplyOffered(game, seat, legal[index % legal.size()]);
}

void StepBot(Game& game, int seat, uint8_t choice) {
  const std::vector<std::string> kinds = game.BotKinds();
  KAHVE_CHECK(!kinds.empty(), "every ruleset has a bot");
  // One choice in kinds+1 asks for a kind that does not exist.
  const size_t pick = choice % (kinds.size() + 1);
  const std::string kind = pick < kinds.size() ? kinds[pick] : "no-such-bot";
  const absl::StatusOr<v1::Move> move = game.BotMove(seat, kind, /*bot_seed=*/choice);
  const bool may_act = Contains(game.SeatsToAct(), seat) && pick < kinds.size();
  KAHVE_CHECK(move.ok() == may_act, "a known bot moves exactly for a seat to act");
  if (move.ok()) ApplyOffered(game, seat, *move);
}

// What the audits since the last step of another kind did. They all see the same game (an audit
// only reads it), so each seat is audited, and the views and the clone checked, once per run of
// audits: mutated inputs are full of such runs (libFuzzer's hit counters reward repeating a
// call), and repeating them took half of liars_dice's time.
struct AuditRun {
  uint16_t seats = 0;  // bit seat + 1, for seats -1..14
  bool viewed = false;
};

void StepAudit(const Game& game, int seat, AuditRun& run) {
  const auto bit = static_cast<uint16_t>(1u << (seat + 1));
  if ((run.seats & bit) == 0) {
    run.seats |= bit;
    const std::vector<v1::Move> legal = game.LegalMoves(seat);
    KAHVE_CHECK(legal.empty() || (seat >= 0 && seat < game.num_seats()),
                "only seats of the game have moves");
    for (const v1::Move& move : legal) {
      KAHVE_CHECK(game.DryRun(seat, move).accepted, "every listed move is accepted");
    }
    // Hints may be refused (off, a spectator, the game over); only a crash is a finding.
    (void)game.Hints(seat);
  }
  if (!run.viewed) {
    run.viewed = true;
    CheckEveryView(game);
    KAHVE_CHECK(game.Clone()->SameState(game), "a clone equals its original");
  }
}

// Replaying the accepted moves on a new game of the same settings and deal gives the same game.
void CheckReplay(const Game& game) {
  absl::StatusOr<std::unique_ptr<Game>> replay = engine::NewGame(game.settings(), game.deal());
  KAHVE_CHECK(replay.ok(), "the game's own settings and deal start a game");
  for (const engine::AcceptedMove& accepted : game.history()) {
    KAHVE_CHECK((*replay)->Apply(accepted.seat, accepted.move).accepted,
                "replay accepts the history");
  }
  KAHVE_CHECK((*replay)->SameState(game), "replay reproduces the game");
}

}  // namespace

const std::vector<FuzzedRuleset>& FuzzedRulesets() {
  static const std::vector<FuzzedRuleset> kRulesets = {
      {"liars_dice", &LiarsDiceSettings},
      {"okey", &OkeySettings},
      {"okey101", &Okey101Settings},
      {"okey51", &Okey51Settings},
      {"mexican_train", &MexicanTrainSettings},
  };
  return kRulesets;
}

const FuzzedRuleset& FuzzedRulesetFor(std::string_view id) {
  for (const FuzzedRuleset& ruleset : FuzzedRulesets()) {
    if (ruleset.id == id) return ruleset;
  }
  std::fprintf(stderr, "no fuzzed ruleset \"%.*s\"\n", static_cast<int>(id.size()), id.data());
  std::abort();
}

void RunEngineInput(const FuzzedRuleset& ruleset, const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return;
  Reader reader(data, size);
  const v1::GameSettings settings = ruleset.settings(reader.Take(kSettingsBytes).first);
  v1::Deal deal;
  uint32_t seed = 0;
  for (int i = 0; i < 4; ++i) seed |= static_cast<uint32_t>(reader.Byte()) << (8 * i);
  deal.set_seed(seed);
  absl::StatusOr<std::unique_ptr<Game>> started = engine::NewGame(settings, deal);
  if (!started.ok()) {
    KAHVE_CHECK(absl::IsInvalidArgument(started.status()), "refused settings are InvalidArgument");
    return;
  }
  Game& game = **started;
  game.CheckInvariants();
  CheckPosition(game, engine::kSpectator);
  AuditRun audits;
  std::unique_ptr<Game> unchanged;
  while (!reader.done()) {
    const uint8_t head = reader.Byte();
    const int seat = (head & 15) - 1;
    const auto step = static_cast<Step>(head >> 6);
    if (step != Step::kAudit) audits = AuditRun();
    switch (step) {
      case Step::kMove: {
        const size_t length = reader.Byte() | (static_cast<size_t>(reader.Byte()) << 8);
        const auto [bytes, taken] = reader.Take(length);
        v1::Move move;
        if (move.ParseFromArray(bytes, static_cast<int>(taken))) {
          StepMove(game, seat, move, unchanged);
        }
        break;
      }
      case Step::kListed:
        StepListed(game, (head & 15) % game.num_seats(), reader.Byte());
        break;
      case Step::kBot:
        StepBot(game, seat, reader.Byte());
        break;
      case Step::kAudit:
        StepAudit(game, seat, audits);
        break;
    }
  }
  if (!audits.viewed) CheckEveryView(game);
  CheckReplay(game);
}

EngineInputWriter::EngineInputWriter(const uint8_t* settings, uint32_t seed) {
  bytes_.assign(reinterpret_cast<const char*>(settings), kSettingsBytes);
  for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>((seed >> (8 * i)) & 0xff));
}

void EngineInputWriter::Open(Step step, int seat_nibble) {
  KAHVE_CHECK(seat_nibble >= 0 && seat_nibble < 16, "a seat the format can name");
  bytes_.push_back(static_cast<char>((static_cast<int>(step) << 6) | seat_nibble));
}

void EngineInputWriter::Move(int seat, const v1::Move& move) {
  Open(Step::kMove, seat + 1);
  const std::string serialized = move.SerializeAsString();
  KAHVE_CHECK(serialized.size() < 65536, "a move fits its 2-byte length");
  bytes_.push_back(static_cast<char>(serialized.size() & 0xff));
  bytes_.push_back(static_cast<char>(serialized.size() >> 8));
  bytes_ += serialized;
}

void EngineInputWriter::Listed(int seat, uint8_t index) {
  Open(Step::kListed, seat);
  bytes_.push_back(static_cast<char>(index));
}

void EngineInputWriter::Bot(int seat, uint8_t choice) {
  Open(Step::kBot, seat + 1);
  bytes_.push_back(static_cast<char>(choice));
}

void EngineInputWriter::Audit(int seat) { Open(Step::kAudit, seat + 1); }

}  // namespace kahve::fuzz
