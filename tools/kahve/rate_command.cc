// kahve rate: rates one match given as JSON on stdin with the rating service's own model code
// (services/rating/openskill.h, default parameters; docs/ratings.md) and prints the new ratings.

#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "services/rating/openskill.h"
#include "tools/kahve/commands.h"

namespace kahve::tools {
namespace {

using ::google::protobuf::Struct;
using ::google::protobuf::Value;
using ::kahve::rating::Rating;

struct RateRequest {
  std::vector<std::vector<Rating>> teams;
  std::vector<double> ranks;  // empty: the teams are in finishing order
};

absl::Status NotA(const std::string& where, const char* what) {
  return absl::InvalidArgumentError(absl::StrCat(where, " must be ", what));
}

absl::StatusOr<double> NumberAt(const Value& value, const std::string& where) {
  if (value.kind_case() != Value::kNumberValue) return NotA(where, "a number");
  return value.number_value();
}

// A list of one number per team, as "ranks" and "scores" are.
absl::StatusOr<std::vector<double>> PerTeamNumbers(const Value& value, const std::string& where,
                                                   size_t num_teams) {
  if (value.kind_case() != Value::kListValue) return NotA(where, "a list of numbers");
  std::vector<double> numbers;
  for (int i = 0; i < value.list_value().values_size(); ++i) {
    absl::StatusOr<double> number =
        NumberAt(value.list_value().values(i), absl::StrCat(where, "[", i, "]"));
    if (!number.ok()) return number.status();
    numbers.push_back(*number);
  }
  if (numbers.size() != num_teams) {
    return absl::InvalidArgumentError(absl::StrCat(where, " must have one entry per team (",
                                                   num_teams, "), got ", numbers.size()));
  }
  return numbers;
}

absl::StatusOr<double> FieldNumber(const google::protobuf::Map<std::string, Value>& fields,
                                   const char* key, const std::string& where) {
  const auto found = fields.find(key);
  if (found == fields.end()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ".", key, " is missing"));
  }
  return NumberAt(found->second, absl::StrCat(where, ".", key));
}

absl::StatusOr<Rating> PlayerAt(const Value& value, const std::string& where) {
  if (value.kind_case() != Value::kStructValue) {
    return NotA(where, "an object {\"mu\": .., \"sigma\": ..}");
  }
  const auto& fields = value.struct_value().fields();
  for (const auto& [key, unused] : fields) {
    if (key != "mu" && key != "sigma") {
      return absl::InvalidArgumentError(absl::StrCat(where, ": unknown field \"", key, "\""));
    }
  }
  const absl::StatusOr<double> mu = FieldNumber(fields, "mu", where);
  if (!mu.ok()) return mu.status();
  const absl::StatusOr<double> sigma = FieldNumber(fields, "sigma", where);
  if (!sigma.ok()) return sigma.status();
  return Rating{*mu, *sigma};
}

absl::StatusOr<std::vector<std::vector<Rating>>> TeamsAt(const Value& value) {
  if (value.kind_case() != Value::kListValue) return NotA("teams", "a list of teams");
  std::vector<std::vector<Rating>> teams;
  for (int t = 0; t < value.list_value().values_size(); ++t) {
    const Value& team = value.list_value().values(t);
    const std::string where = absl::StrCat("teams[", t, "]");
    if (team.kind_case() != Value::kListValue) return NotA(where, "a list of players");
    std::vector<Rating>& players = teams.emplace_back();
    for (int k = 0; k < team.list_value().values_size(); ++k) {
      absl::StatusOr<Rating> player =
          PlayerAt(team.list_value().values(k), absl::StrCat(where, "[", k, "]"));
      if (!player.ok()) return player.status();
      players.push_back(*player);
    }
  }
  return teams;
}

// The request's shape and types; the model checks the values (finite, sigma > 0, team counts).
absl::StatusOr<RateRequest> ParseRequest(const std::string& json) {
  Struct root;
  const auto parsed = google::protobuf::util::JsonStringToMessage(json, &root);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("input is not one JSON object: ",
                     std::string(parsed.message().data(), parsed.message().size())));
  }
  const auto& fields = root.fields();
  for (const auto& [key, unused] : fields) {
    if (key != "teams" && key != "ranks" && key != "scores") {
      return absl::InvalidArgumentError(absl::StrCat("unknown field \"", key, "\""));
    }
  }
  const auto teams = fields.find("teams");
  if (teams == fields.end()) return absl::InvalidArgumentError("teams is missing");
  RateRequest request;
  absl::StatusOr<std::vector<std::vector<Rating>>> parsed_teams = TeamsAt(teams->second);
  if (!parsed_teams.ok()) return parsed_teams.status();
  request.teams = *std::move(parsed_teams);

  const auto ranks = fields.find("ranks");
  const auto scores = fields.find("scores");
  if (ranks != fields.end() && scores != fields.end()) {
    return absl::InvalidArgumentError("give ranks or scores, not both");
  }
  if (ranks != fields.end()) {
    absl::StatusOr<std::vector<double>> numbers =
        PerTeamNumbers(ranks->second, "ranks", request.teams.size());
    if (!numbers.ok()) return numbers.status();
    request.ranks = *std::move(numbers);
  } else if (scores != fields.end()) {
    absl::StatusOr<std::vector<double>> numbers =
        PerTeamNumbers(scores->second, "scores", request.teams.size());
    if (!numbers.ok()) return numbers.status();
    absl::StatusOr<std::vector<double>> from_scores = rating::RanksFromScores(*numbers);
    if (!from_scores.ok()) return from_scores.status();
    request.ranks = *std::move(from_scores);
  }
  return request;
}

// %.17g round-trips every double, so the output carries the model's full precision.
std::string FormatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

// One team per line: {"teams": [\n  [{"mu": .., "sigma": .., "ordinal": ..}, ..],\n ..\n]}
std::string FormatTeams(const std::vector<std::vector<Rating>>& teams) {
  std::string out = "{\"teams\": [\n";
  for (size_t t = 0; t < teams.size(); ++t) {
    out += "  [";
    for (size_t k = 0; k < teams[t].size(); ++k) {
      const Rating& player = teams[t][k];
      absl::StrAppend(&out, k == 0 ? "" : ", ", "{\"mu\": ", FormatNumber(player.mu),
                      ", \"sigma\": ", FormatNumber(player.sigma),
                      ", \"ordinal\": ", FormatNumber(rating::Ordinal(player)), "}");
    }
    out += t + 1 < teams.size() ? "],\n" : "]\n";
  }
  out += "]}\n";
  return out;
}

// The whole command but its input and output streams.
absl::StatusOr<std::string> RateJson(const std::string& json) {
  absl::StatusOr<RateRequest> request = ParseRequest(json);
  if (!request.ok()) return request.status();
  absl::StatusOr<std::vector<std::vector<Rating>>> rated =
      rating::RateTeams(request->teams, request->ranks, rating::ModelParams());
  if (!rated.ok()) return rated.status();
  return FormatTeams(*rated);
}

}  // namespace

int RateCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "kahve rate: unexpected argument \"%s\" (the match is read from stdin)\n",
                 args[0].c_str());
    return 2;
  }
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};
  const absl::StatusOr<std::string> output = RateJson(input);
  if (!output.ok()) {
    std::fprintf(stderr, "kahve rate: %s\n", std::string(output.status().message()).c_str());
    return 2;
  }
  std::fputs(output->c_str(), stdout);
  return 0;
}

}  // namespace kahve::tools
