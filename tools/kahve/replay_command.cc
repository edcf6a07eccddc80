// kahve replay TABLE_ID --target H:P | --file REPLAY.json [--seat N] [--full_state]: a finished
// game's transcript, move by move, as one seat or a spectator saw it (docs/replay.md).

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.grpc.pb.h"
#include "services/common/auth.h"
#include "tools/kahve/player_channel.h"
#include "tools/kahve/commands.h"
#include "tools/kahve/transcript.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, role);
ABSL_FLAG(std::string, file, "",
          "replay: read the replay from this file (GetReplay's answer in JSON) instead of a "
          "table service");
ABSL_FLAG(int32_t, seat, -1,
          "replay: the seat whose view the transcript shows (its own hand or dice); -1: a "
          "spectator's, public information only");
ABSL_FLAG(bool, full_state, false,
          "replay: after every move print the whole state, not only the lines that changed");

namespace kahve::tools {
namespace {

constexpr int kFailed = 1;
constexpr int kUsage = 2;

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "kahve replay: %s\n", message.c_str());
  return code;
}

absl::StatusOr<v1::Replay> ReadReplay(const std::string& path) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat(path, ": cannot read it"));
  std::stringstream text;
  text << file.rdbuf();
  v1::Replay replay;
  google::protobuf::util::JsonParseOptions options;
  // Strict, as kahve verify: a misspelt field would silently drop part of the game.
  options.ignore_unknown_fields = false;
  const auto parsed = google::protobuf::util::JsonStringToMessage(text.str(), &replay, options);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a kahve.v1.Replay in JSON: ",
                     std::string(parsed.message().data(), parsed.message().size())));
  }
  return replay;
}

// GetReplay from the table service, with a bearer token minted from --jwt_hs256_secret (the
// role from --role: admin may read a game still running).
absl::StatusOr<v1::Replay> FetchReplay(const std::string& table_id) {
  const std::string secret = absl::GetFlag(FLAGS_jwt_hs256_secret);
  if (secret.empty()) {
    return absl::FailedPreconditionError(
        "no signing secret: set --jwt_hs256_secret or KAHVE_JWT_HS256_SECRET");
  }
  common::TokenClaims claims;
  claims.subject = "kahve-replay";
  claims.role = absl::GetFlag(FLAGS_role);
  claims.issuer = absl::GetFlag(FLAGS_jwt_issuer);
  claims.audience = absl::GetFlag(FLAGS_jwt_audience);
  auto stub = v1::TableService::NewStub(
      PlayerChannel(absl::GetFlag(FLAGS_target)));
  grpc::ClientContext context;
  context.AddMetadata("authorization",
                      absl::StrCat("Bearer ", common::MintHs256Token(secret, claims)));
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  v1::GetReplayRequest request;
  request.set_table_id(table_id);
  v1::Replay replay;
  const grpc::Status status = stub->GetReplay(&context, request, &replay);
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        absl::StrCat(absl::GetFlag(FLAGS_target), " GetReplay ", table_id, ": ",
                                     status.error_message()));
  }
  return replay;
}

}  // namespace

int ReplayCommand(const std::vector<std::string>& args) {
  const std::string path = absl::GetFlag(FLAGS_file);
  if (args.size() > 1) return Fail(kUsage, absl::StrCat("unexpected argument \"", args[1], "\""));
  if (args.empty() == path.empty()) {
    return Fail(kUsage,
                "name a table (kahve replay TABLE_ID --target H:P) or a file "
                "(kahve replay --file REPLAY.json), one of them");
  }
  absl::StatusOr<v1::Replay> replay = path.empty() ? FetchReplay(args[0]) : ReadReplay(path);
  // A file that cannot be read or parsed is unusable input; a failed fetch is a failure.
  if (!replay.ok()) {
    return Fail(path.empty() ? kFailed : kUsage, std::string(replay.status().message()));
  }
  absl::StatusOr<std::vector<std::string>> lines = ReplayText(
      *replay, {.seat = absl::GetFlag(FLAGS_seat), .full_state = absl::GetFlag(FLAGS_full_state)});
  if (!lines.ok()) return Fail(kUsage, std::string(lines.status().message()));
  for (const std::string& line : *lines) std::printf("%s\n", line.c_str());
  return 0;
}

}  // namespace kahve::tools
