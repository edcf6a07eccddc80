// kahve verify REPLAY.json [STREAM.jsonl...]: checks a finished game's deal commitment, replays its
// moves, and checks saved Connect streams against it (docs/fairness.md).

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "google/protobuf/util/json_util.h"
#include "tools/kahve/commands.h"
#include "tools/kahve/deal_verifier.h"

namespace kahve::tools {
namespace {

constexpr int kMismatch = 1;
constexpr int kUsage = 2;

// One input file: a replay (one JSON object) or a stream (JSON lines of TableUpdate).
struct Input {
  std::string path;
  std::optional<v1::Replay> replay;
  std::vector<v1::TableUpdate> stream;
};

absl::Status ParseJson(const std::string& json, google::protobuf::Message* message) {
  google::protobuf::util::JsonParseOptions options;
  // A verifier reads strictly: a misspelt field would otherwise go unchecked.
  options.ignore_unknown_fields = false;
  const auto parsed = google::protobuf::util::JsonStringToMessage(json, message, options);
  if (parsed.ok()) return absl::OkStatus();
  return absl::InvalidArgumentError(std::string(parsed.message().data(), parsed.message().size()));
}

absl::StatusOr<Input> ReadInput(const std::string& path) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat(path, ": cannot read it"));
  std::stringstream text;
  text << file.rdbuf();
  Input input{.path = path};
  v1::Replay replay;
  const absl::Status as_replay = ParseJson(text.str(), &replay);
  if (as_replay.ok()) {
    input.replay = std::move(replay);
    return input;
  }
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text.str(), '\n')) {
    ++line_number;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    v1::TableUpdate update;
    if (absl::Status as_update = ParseJson(std::string(line), &update); !as_update.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": neither a kahve.v1.Replay in JSON (", as_replay.message(),
                       ") nor JSON lines of kahve.v1.TableUpdate (line ", line_number, ": ",
                       as_update.message(), ")"));
    }
    input.stream.push_back(std::move(update));
  }
  if (input.stream.empty()) return absl::InvalidArgumentError(absl::StrCat(path, ": empty"));
  return input;
}

std::string RecipientName(int recipient) {
  return recipient < 0 ? "a spectator" : absl::StrCat("seat ", recipient);
}

void ReportReplay(const Input& input, const VerifiedReplay& verified) {
  const v1::Replay& replay = *input.replay;
  std::printf("ok   %s: %s table %s, %d seats, %d moves, ending \"%s\"\n", input.path.c_str(),
              verified.ruleset.c_str(), replay.table_id().c_str(), verified.seats, verified.moves,
              verified.ending.c_str());
  std::printf("     commitment %s (%s) = SHA-256 of the revealed seed material (seed %llu)\n",
              replay.commitment().sha256().c_str(),
              v1::DealSource_Name(replay.commitment().source()).c_str(),
              static_cast<unsigned long long>(replay.reveal().seed()));
}

void ReportStream(const Input& input, const VerifiedStream& verified) {
  std::printf(
      "ok   %s: %s, %zu updates (seq %llu..%llu), the same commitment from before move %llu; "
      "%d moves' events match%s\n",
      input.path.c_str(), RecipientName(verified.recipient).c_str(), verified.updates,
      static_cast<unsigned long long>(verified.first_seq),
      static_cast<unsigned long long>(verified.last_seq),
      static_cast<unsigned long long>(verified.first_move + 1), verified.moves_checked,
      verified.reached_end ? ", with the result and the reveal" : " (the stream ends early)");
}

}  // namespace

int VerifyCommand(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs(
        "kahve verify: name a replay (GetReplay's answer in JSON), and optionally saved "
        "Connect streams (JSON lines of TableUpdate)\n",
        stderr);
    return kUsage;
  }
  std::vector<Input> inputs;
  const Input* replay = nullptr;
  for (const std::string& path : args) {
    absl::StatusOr<Input> input = ReadInput(path);
    if (!input.ok()) {
      std::fprintf(stderr, "kahve verify: %s\n", std::string(input.status().message()).c_str());
      return kUsage;
    }
    inputs.push_back(*std::move(input));
  }
  for (const Input& input : inputs) {
    if (!input.replay.has_value()) continue;
    if (replay != nullptr) {
      std::fprintf(stderr, "kahve verify: two replays (%s, %s); name one\n", replay->path.c_str(),
                   input.path.c_str());
      return kUsage;
    }
    replay = &input;
  }
  if (replay == nullptr) {
    std::fputs("kahve verify: a stream is checked against its game's replay: name the replay too\n",
               stderr);
    return kUsage;
  }
  absl::StatusOr<VerifiedReplay> verified = VerifyReplay(*replay->replay);
  if (!verified.ok()) {
    std::fprintf(stderr, "FAIL %s: %s\n", replay->path.c_str(),
                 std::string(verified.status().message()).c_str());
    return kMismatch;
  }
  ReportReplay(*replay, *verified);
  for (const Input& input : inputs) {
    if (input.replay.has_value()) continue;
    absl::StatusOr<VerifiedStream> stream = VerifyStream(*replay->replay, input.stream);
    if (!stream.ok()) {
      std::fprintf(stderr, "FAIL %s: %s\n", input.path.c_str(),
                   std::string(stream.status().message()).c_str());
      return kMismatch;
    }
    ReportStream(input, *stream);
  }
  return 0;
}

}  // namespace kahve::tools
