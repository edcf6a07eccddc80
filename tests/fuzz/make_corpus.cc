// Writes the fuzz targets' seed corpus (tests/fuzz/corpus/, docs/operations.md "Fuzzing"):
//   kahve_fuzz_corpus OUT_DIR
// replaces OUT_DIR/<target>/ for every target with inputs from seeded games and requests, so the
// same build writes the same files. Engine inputs are mostly short, so that a run costs little and
// the fuzzer tries many: random games' first moves (as protobuf bytes, so the fuzzer mutates their
// content) and the openings of games of listed moves and of bot moves; then whole games, within a
// byte budget, so that it starts from late positions and game ends too. An engine input the
// target aborts on is a finding, printed and written to $TMPDIR/kahve-corpus-findings/ instead.
// Request inputs are every request type with every string set, valid and with one hostile value.

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/check.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "tests/fuzz/engine_fuzz.h"
#ifdef KAHVE_FUZZ_REQUESTS
#include "google/protobuf/message.h"
#include "tests/fuzz/request_fuzz.h"
#endif

namespace kahve::fuzz {
namespace {

namespace fs = std::filesystem;
using engine::Game;
using engine::Rng;

constexpr int kMoveFiles = 14;  // random games' first moves, as protobuf bytes
constexpr int kMoveSteps = 40;
constexpr int kOpeningFiles = 6;  // openings of games of listed moves, and of bot moves
constexpr int kOpeningSteps = 48;
// Whole games, of listed and of bot moves in turn, until they fill kWholeGameBytes: as many
// settings as fit while a run of the corpus stays short (a few long games, or many short ones).
constexpr size_t kWholeGameBytes = 8192;
constexpr int kMaxWholeGames = 16;
constexpr int kWholeGameSteps = 3000;  // a game longer than this does not count as ending

class CorpusDir {
 public:
  explicit CorpusDir(fs::path path) : path_(std::move(path)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  void Write(const std::string& name, const std::string& bytes) {
    std::ofstream(path_ / name, std::ios::binary) << bytes;
    ++files_;
  }
  int files() const { return files_; }

 private:
  fs::path path_;
  int files_ = 0;
};

// Settings bytes NewGame accepts, drawn at random.
std::array<uint8_t, kSettingsBytes> ValidSettings(const FuzzedRuleset& ruleset, Rng& rng) {
  for (;;) {
    std::array<uint8_t, kSettingsBytes> bytes;
    for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(rng.Below(256));
    if (engine::NewGame(ruleset.settings(bytes.data()), v1::Deal()).ok()) return bytes;
  }
}

struct Input {
  std::string bytes;
  bool game_over = false;  // the input plays its game to the end
};

// A game and the input that reproduces it, written step by step.
struct Recording {
  Recording(const FuzzedRuleset& ruleset, Rng& rng)
      : settings(ValidSettings(ruleset, rng)),
        seed(static_cast<uint32_t>(rng.Next())),
        writer(settings.data(), seed) {
    v1::Deal deal;
    deal.set_seed(seed);
    game = std::move(engine::NewGame(ruleset.settings(settings.data()), deal)).value();
  }
  int SeatToAct(Rng& rng) const {
    const std::vector<int> seats = game->SeatsToAct();
    return seats[rng.Below(seats.size())];
  }

  Input Done() const { return {writer.bytes(), game->IsOver()}; }

  std::array<uint8_t, kSettingsBytes> settings;
  uint32_t seed;
  EngineInputWriter writer;
  std::unique_ptr<Game> game;
};

// Mostly listed moves written as bytes; now and then a move the game refuses or an audit.
Input RandomMoves(const FuzzedRuleset& ruleset, Rng& rng) {
  Recording rec(ruleset, rng);
  for (int step = 0; step < kMoveSteps && !rec.game->IsOver(); ++step) {
    const int seat = rec.SeatToAct(rng);
    const std::vector<v1::Move> legal = rec.game->LegalMoves(seat);
    const v1::Move& move = legal[rng.Below(legal.size())];
    switch (rng.Below(10)) {
      case 0: {
        const int other = static_cast<int>(rng.Below(rec.game->num_seats() + 1)) - 1;
        if (!rec.game->DryRun(other, move).accepted) rec.writer.Move(other, move);
        break;
      }
      case 1:
        rec.writer.Move(seat, v1::Move());
        break;
      case 2:
        rec.writer.Audit(seat);
        break;
      default:
        break;
    }
    rec.writer.Move(seat, move);
    rec.game->Apply(seat, move);
  }
  return rec.Done();
}

// A game of listed moves, up to `steps` of them.
Input ListedGame(const FuzzedRuleset& ruleset, Rng& rng, int steps) {
  Recording rec(ruleset, rng);
  for (int step = 0; step < steps && !rec.game->IsOver(); ++step) {
    const int seat = rec.SeatToAct(rng);
    const std::vector<v1::Move> legal = rec.game->LegalMoves(seat);
    const auto index = static_cast<uint8_t>(rng.Below(std::min<size_t>(legal.size(), 256)));
    rec.writer.Listed(seat, index);
    rec.game->Apply(seat, legal[index % legal.size()]);
  }
  return rec.Done();
}

// A game of bot moves, up to `steps` of them.
Input BotGame(const FuzzedRuleset& ruleset, Rng& rng, int steps) {
  Recording rec(ruleset, rng);
  const std::vector<std::string> kinds = rec.game->BotKinds();
  for (int step = 0; step < steps && !rec.game->IsOver(); ++step) {
    const int seat = rec.SeatToAct(rng);
    // The choice byte names the kind as choice % (kinds + 1) (engine_fuzz.cc); the last is best.
    const size_t pick = rng.Below(4) == 0 ? 0 : kinds.size() - 1;
    const size_t stride = kinds.size() + 1;
    const auto choice = static_cast<uint8_t>(pick + stride * rng.Below((256 - pick) / stride));
    rec.writer.Bot(seat, choice);
    rec.game->Apply(seat, rec.game->BotMove(seat, kinds[pick], choice).value());
  }
  return rec.Done();
}

using GamePlay = Input (*)(const FuzzedRuleset&, Rng&, int steps);

// A game of `play` to its end, from the first settings and seed drawn whose game ends.
Input WholeGame(const FuzzedRuleset& ruleset, Rng& rng, GamePlay play) {
  for (int tries = 0;; ++tries) {
    KAHVE_CHECK(tries < 64, "most games end within kWholeGameSteps");
    Input input = play(ruleset, rng, kWholeGameSteps);
    if (input.game_over) return input;
  }
}

// Whether the fuzz target gets through `bytes`. Played in a child process, as a failed property
// aborts: the recording played the moves without the target's checks.
bool TargetPasses(const FuzzedRuleset& ruleset, const std::string& bytes) {
  std::fflush(nullptr);
  const pid_t child = fork();
  KAHVE_CHECK(child >= 0, "fork() starts the child that plays the input");
  if (child == 0) {
    RunEngineInput(ruleset, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    std::_Exit(0);
  }
  int status = 0;
  KAHVE_CHECK(waitpid(child, &status, 0) == child, "the child that plays the input is waited for");
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Writes the inputs of ruleset number `index` of FuzzedRulesets(), from its own random stream,
// and says how many play their game to the end. An input the target aborts on is a finding, not
// a seed (libFuzzer would stop on it before fuzzing anything): it goes to `findings` instead,
// and is named.
void WriteEngineCorpus(const fs::path& out, const fs::path& findings, const FuzzedRuleset& ruleset,
                       uint64_t index) {
  const std::string target = std::string(ruleset.id) + "_fuzzer";
  CorpusDir dir(out / target);
  Rng rng(engine::DeriveSeed(/*seed=*/0xF022, index));
  int over = 0;
  const auto write = [&](const std::string& name, const Input& input) {
    if (!TargetPasses(ruleset, input.bytes)) {
      fs::create_directories(findings);
      const fs::path path = findings / (target + "-" + name);
      std::ofstream(path, std::ios::binary) << input.bytes;
      std::printf("%s: FINDING: %s aborts the target; left out, written to %s\n", target.c_str(),
                  name.c_str(), path.c_str());
      return;
    }
    dir.Write(name, input.bytes);
    over += input.game_over ? 1 : 0;
  };
  for (int i = 0; i < kMoveFiles; ++i) {
    write("moves-" + std::to_string(i), RandomMoves(ruleset, rng));
  }
  const std::pair<std::string, GamePlay> plays[] = {{"listed-", &ListedGame}, {"bots-", &BotGame}};
  for (const auto& [name, play] : plays) {
    for (int i = 0; i < kOpeningFiles; ++i) {
      write(name + std::to_string(i), play(ruleset, rng, kOpeningSteps));
    }
  }
  size_t whole_bytes = 0;
  for (int i = 0; i < kMaxWholeGames && whole_bytes < kWholeGameBytes; ++i) {
    const auto& [name, play] = plays[i % 2];
    const Input input = WholeGame(ruleset, rng, play);
    write(name + "game-" + std::to_string(i / 2), input);
    whole_bytes += input.bytes.size();
  }
  std::printf("%s: %d files, %d of them play a game to its end\n", target.c_str(), dir.files(),
              over);
}

#ifdef KAHVE_FUZZ_REQUESTS
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// Sets every string below `message` (to a depth of 3 messages, one element per repeated field)
// to a value every rule accepts, except the first, which gets `first` when that is not empty.
void Fill(Message& message, int depth, const std::string& first, int* strings) {
  const google::protobuf::Descriptor* descriptor = message.GetDescriptor();
  const google::protobuf::Reflection* reflection = message.GetReflection();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor* field = descriptor->field(i);
    if (field->type() == FieldDescriptor::TYPE_STRING) {
      const std::string value =
          (*strings)++ == 0 && !first.empty() ? first : "p-" + std::to_string(*strings);
      if (field->is_repeated()) {
        reflection->AddString(&message, field, value);
      } else {
        reflection->SetString(&message, field, value);
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && depth < 3) {
      Fill(field->is_repeated() ? *reflection->AddMessage(&message, field)
                                : *reflection->MutableMessage(&message, field),
           depth + 1, first, strings);
    }
  }
}

int WriteRequestCorpus(const fs::path& out) {
  CorpusDir dir(out / "request_checks_fuzzer");
  const auto& types = RequestTypes();
  for (size_t i = 0; i < types.size(); ++i) {
    const Message* prototype =
        google::protobuf::MessageFactory::generated_factory()->GetPrototype(types[i]);
    // Hostile values alternate: a NUL inside, or longer than any rule allows.
    const std::string hostile = i % 2 == 0 ? std::string("t-1\0x", 5) : std::string(600, 'a');
    for (const std::string& first : {std::string(), hostile}) {
      const std::unique_ptr<Message> request(prototype->New());
      int strings = 0;
      Fill(*request, 0, first, &strings);
      dir.Write(types[i]->name() + (first.empty() ? "-valid" : "-hostile"),
                std::string(1, static_cast<char>(i)) + request->SerializeAsString());
    }
  }
  return dir.files();
}
#endif

}  // namespace
}  // namespace kahve::fuzz

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR (e.g. tests/fuzz/corpus)\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out = argv[1];
  const std::filesystem::path findings =
      std::filesystem::temp_directory_path() / "kahve-corpus-findings";
  const auto& rulesets = kahve::fuzz::FuzzedRulesets();
  for (size_t i = 0; i < rulesets.size(); ++i) {
    kahve::fuzz::WriteEngineCorpus(out, findings, rulesets[i], i);
  }
#ifdef KAHVE_FUZZ_REQUESTS
  std::printf("request_checks_fuzzer: %d files\n", kahve::fuzz::WriteRequestCorpus(out));
#endif
  return 0;
}
