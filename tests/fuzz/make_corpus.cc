// Writes the fuzz targets' seed corpus (tests/fuzz/corpus/, docs/operations.md "Fuzzing"):
//   kahve_fuzz_corpus OUT_DIR
// replaces OUT_DIR/<target>/ for every target with inputs from seeded games and requests, so the
// same build writes the same files. Engine inputs are random games (moves as protobuf bytes, so
// the fuzzer mutates their content), whole games of listed moves and of bot moves (so it starts
// from late positions too); request inputs are every request type with every string set, valid
// and with one hostile value.

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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
constexpr int kListedFiles = 8;  // whole games of listed moves
constexpr int kBotFiles = 8;     // whole games of bot moves
constexpr int kWholeGameSteps = 1500;

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

Input ListedGame(const FuzzedRuleset& ruleset, Rng& rng) {
  Recording rec(ruleset, rng);
  for (int step = 0; step < kWholeGameSteps && !rec.game->IsOver(); ++step) {
    const int seat = rec.SeatToAct(rng);
    const std::vector<v1::Move> legal = rec.game->LegalMoves(seat);
    const auto index = static_cast<uint8_t>(rng.Below(std::min<size_t>(legal.size(), 256)));
    rec.writer.Listed(seat, index);
    rec.game->Apply(seat, legal[index % legal.size()]);
  }
  return rec.Done();
}

Input BotGame(const FuzzedRuleset& ruleset, Rng& rng) {
  Recording rec(ruleset, rng);
  const std::vector<std::string> kinds = rec.game->BotKinds();
  for (int step = 0; step < kWholeGameSteps && !rec.game->IsOver(); ++step) {
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

// Writes the inputs of ruleset number `index` of FuzzedRulesets(), from its own random stream,
// and says how many play their game to the end.
void WriteEngineCorpus(const fs::path& out, const FuzzedRuleset& ruleset, uint64_t index) {
  const std::string target = std::string(ruleset.id) + "_fuzzer";
  CorpusDir dir(out / target);
  Rng rng(engine::DeriveSeed(/*seed=*/0xF022, index));
  const std::pair<const char*, Input (*)(const FuzzedRuleset&, Rng&)> kinds[] = {
      {"moves-", &RandomMoves}, {"listed-", &ListedGame}, {"bots-", &BotGame}};
  const int counts[] = {kMoveFiles, kListedFiles, kBotFiles};
  int over = 0;
  for (int kind = 0; kind < 3; ++kind) {
    for (int i = 0; i < counts[kind]; ++i) {
      const Input input = kinds[kind].second(ruleset, rng);
      dir.Write(kinds[kind].first + std::to_string(i), input.bytes);
      over += input.game_over ? 1 : 0;
    }
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
  const auto& rulesets = kahve::fuzz::FuzzedRulesets();
  for (size_t i = 0; i < rulesets.size(); ++i) kahve::fuzz::WriteEngineCorpus(out, rulesets[i], i);
#ifdef KAHVE_FUZZ_REQUESTS
  std::printf("request_checks_fuzzer: %d files\n", kahve::fuzz::WriteRequestCorpus(out));
#endif
  return 0;
}
