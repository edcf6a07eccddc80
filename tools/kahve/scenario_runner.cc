#include "tools/kahve/scenario_runner.h"

#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "engine/core/status_macros.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"

namespace kahve::tools {
namespace {

using google::protobuf::util::MessageDifferencer;

std::string Json(const google::protobuf::Message& message) {
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(message, &out);
  return out;
}

// Whether `actual` has every field `expected` sets, with the same value.
bool Matches(const v1::Event& expected, const v1::Event& actual) {
  MessageDifferencer differencer;
  differencer.set_scope(MessageDifferencer::PARTIAL);
  return differencer.Compare(expected, actual);
}

// Each expected event must appear in `events`, in order; others may come between.
absl::Status CheckEvents(const v1::ScenarioExpect& expect, const std::vector<v1::Event>& events) {
  size_t next = 0;
  for (const v1::Event& wanted : expect.events()) {
    while (next < events.size() && !Matches(wanted, events[next])) ++next;
    if (next == events.size()) {
      std::vector<std::string> got;
      for (const v1::Event& event : events) got.push_back(Json(event));
      return absl::FailedPreconditionError(absl::StrCat(
          "expected event ", Json(wanted), " (in order) among [", absl::StrJoin(got, ", "), "]"));
    }
    ++next;
  }
  for (const v1::Event& unwanted : expect.absent_events()) {
    for (const v1::Event& event : events) {
      if (Matches(unwanted, event)) {
        return absl::FailedPreconditionError(
            absl::StrCat("event ", Json(event), " matches absent event ", Json(unwanted)));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOutcome(const v1::ScenarioExpect& expect, const engine::MoveOutcome& outcome) {
  if (expect.accepted() && !outcome.accepted) {
    return absl::FailedPreconditionError(absl::StrCat(
        "expected accepted, got rejected ", v1::RejectionReason_Name(outcome.rejection.reason()),
        ": ", outcome.rejection.message()));
  }
  if (!expect.accepted()) {
    if (expect.reason() == v1::REJECTION_REASON_UNSPECIFIED) {
      return absl::InvalidArgumentError("a step expecting rejection must name the reason");
    }
    if (outcome.accepted) {
      return absl::FailedPreconditionError(absl::StrCat(
          "expected rejected ", v1::RejectionReason_Name(expect.reason()), ", got accepted"));
    }
    if (outcome.rejection.reason() != expect.reason()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "expected rejected ", v1::RejectionReason_Name(expect.reason()), ", got rejected ",
          v1::RejectionReason_Name(outcome.rejection.reason()), ": ", outcome.rejection.message()));
    }
  }
  return CheckEvents(expect, outcome.events);
}

absl::Status CheckToAct(const v1::ScenarioExpect& expect, const engine::Game& game) {
  if (expect.to_act().empty()) return absl::OkStatus();
  const std::vector<int> wanted(expect.to_act().begin(), expect.to_act().end());
  const std::vector<int> actual = game.SeatsToAct();
  if (wanted == actual) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat("expected to_act [", absl::StrJoin(wanted, ","),
                                                    "], got [", absl::StrJoin(actual, ","), "]"));
}

absl::Status CheckEnd(const v1::ScenarioEnd& end, const engine::Game& game) {
  if (end.over() != game.IsOver()) {
    return absl::FailedPreconditionError(
        absl::StrCat("expected the game ", end.over() ? "over" : "still going", ", but it is ",
                     game.IsOver() ? "over" : "still going"));
  }
  if (!game.IsOver()) return absl::OkStatus();
  const v1::Result result = game.Result();
  std::vector<int> ranks;
  for (const auto& seat : result.seats()) ranks.push_back(seat.rank());
  const std::vector<int> wanted(end.ranks().begin(), end.ranks().end());
  if (!wanted.empty() && wanted != ranks) {
    return absl::FailedPreconditionError(absl::StrCat("expected ranks [",
                                                      absl::StrJoin(wanted, ","), "], got [",
                                                      absl::StrJoin(ranks, ","), "]"));
  }
  if (!end.ending().empty() && end.ending() != result.ending()) {
    return absl::FailedPreconditionError(
        absl::StrCat("expected ending ", end.ending(), ", got ", result.ending()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::Scenario> LoadScenario(const std::string& path) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::stringstream text;
  text << file.rdbuf();
  v1::Scenario scenario;
  const auto status = google::protobuf::util::JsonStringToMessage(text.str(), &scenario);
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", status.ToString()));
  }
  return scenario;
}

absl::Status RunScenario(const v1::Scenario& scenario) {
  auto game_or = engine::NewGame(scenario.settings(), scenario.deal());
  if (!game_or.ok()) {
    return absl::FailedPreconditionError(absl::StrCat("new game: ", game_or.status().message()));
  }
  std::unique_ptr<engine::Game> game = std::move(game_or).value();
  game->CheckInvariants();
  for (int i = 0; i < scenario.steps_size(); ++i) {
    const v1::ScenarioStep& step = scenario.steps(i);
    const std::unique_ptr<engine::Game> before = game->Clone();
    const engine::MoveOutcome outcome = game->Apply(step.seat(), step.move());
    game->CheckInvariants();
    if (!outcome.accepted && !game->SameState(*before)) {
      return absl::InternalError(
          absl::StrCat("step ", i + 1, ": a rejected move changed the game"));
    }
    absl::Status status = CheckOutcome(step.expect(), outcome);
    if (status.ok()) status = CheckToAct(step.expect(), *game);
    if (!status.ok()) {
      return absl::Status(
          status.code(),
          absl::StrCat("step ", i + 1, " (seat ", step.seat(), ", move ", Json(step.move()),
                       step.note().empty() ? "" : ", ", step.note(), "): ", status.message()));
    }
  }
  if (scenario.has_end()) {
    const absl::Status status = CheckEnd(scenario.end(), *game);
    if (!status.ok()) return absl::Status(status.code(), absl::StrCat("end: ", status.message()));
  }
  return absl::OkStatus();
}

}  // namespace kahve::tools
