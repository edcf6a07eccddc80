#include "tools/kahve/scenario_runner.h"

#include <cctype>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/json_util.h"

namespace kahve::tools {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

std::string Json(const google::protobuf::Message& message) {
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(message, &out);
  return out;
}

// The message in protobuf's JSON mapping, as a JSON value; `with_defaults` prints every field.
Value AsValue(const google::protobuf::Message& message, bool with_defaults) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = with_defaults;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  Value value;
  (void)google::protobuf::util::JsonStringToMessage(json, &value);
  return value;
}

std::string JsonText(const Value& value) {
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(value, &out);
  return out;
}

// A field name as the JSON printer writes it (files may use the proto name, "tile_played").
std::string LowerCamel(const std::string& name) {
  std::string out;
  bool upper = false;
  for (const char c : name) {
    if (c == '_') {
      upper = true;
    } else {
      out.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
      upper = false;
    }
  }
  return out;
}

// A number, or a number written as a string (64-bit integers print so).
std::optional<double> NumberOf(const Value& value) {
  if (value.has_number_value()) return value.number_value();
  double number = 0;
  if (value.has_string_value() && absl::SimpleAtod(value.string_value(), &number)) return number;
  return std::nullopt;
}

// Whether `got` has everything `want` writes, with the same values; lists match element by
// element and in length.
bool Covers(const Value& want, const Value& got) {
  switch (want.kind_case()) {
    case Value::kStructValue: {
      if (!got.has_struct_value()) return false;
      for (const auto& [key, field] : want.struct_value().fields()) {
        const auto found = got.struct_value().fields().find(LowerCamel(key));
        if (found == got.struct_value().fields().end() || !Covers(field, found->second)) {
          return false;
        }
      }
      return true;
    }
    case Value::kListValue: {
      if (!got.has_list_value()) return false;
      const auto& wanted = want.list_value().values();
      const auto& items = got.list_value().values();
      if (wanted.size() != items.size()) return false;
      for (int i = 0; i < wanted.size(); ++i) {
        if (!Covers(wanted[i], items[i])) return false;
      }
      return true;
    }
    case Value::kNumberValue:
      return NumberOf(got) == want.number_value();
    case Value::kStringValue:
      if (got.has_string_value()) return got.string_value() == want.string_value();
      return NumberOf(want).has_value() && NumberOf(want) == NumberOf(got);
    case Value::kBoolValue:
      return got.has_bool_value() && got.bool_value() == want.bool_value();
    default:
      return false;
  }
}

// `object`'s field written under its JSON or its proto name; nullptr when absent.
const Value* FieldOf(const Value& object, const std::string& proto_name) {
  if (!object.has_struct_value()) return nullptr;
  const auto& fields = object.struct_value().fields();
  for (const std::string& name : {LowerCamel(proto_name), proto_name}) {
    const auto found = fields.find(name);
    if (found != fields.end()) return &found->second;
  }
  return nullptr;
}

// `object`'s field `proto_name`, when both are there.
const Value* FieldIn(const Value* object, const std::string& proto_name) {
  return object == nullptr ? nullptr : FieldOf(*object, proto_name);
}

// The items of list `list` of `written` (an expect, an end) as the file writes them, or, without
// the file, as the message sets them.
template <typename Item>
std::vector<Value> Wanted(const google::protobuf::RepeatedPtrField<Item>& items,
                          const Value* written, const std::string& list) {
  const Value* listed = FieldIn(written, list);
  std::vector<Value> wanted;
  if (listed != nullptr && listed->list_value().values_size() == items.size()) {
    for (const Value& item : listed->list_value().values()) wanted.push_back(item);
    return wanted;
  }
  for (const Item& item : items) wanted.push_back(AsValue(item, false));
  return wanted;
}

// Each expected event must appear in `events`, in order; others may come between. `written` is
// the expect as the file writes it, or nullptr.
absl::Status CheckEvents(const v1::ScenarioExpect& expect, const Value* written,
                         const std::vector<v1::Event>& events) {
  std::vector<Value> got;
  for (const v1::Event& event : events) got.push_back(AsValue(event, true));
  auto all = [&] {
    std::vector<std::string> texts;
    for (const v1::Event& event : events) texts.push_back(Json(event));
    return absl::StrJoin(texts, ", ");
  };
  size_t next = 0;
  for (const Value& wanted : Wanted(expect.events(), written, "events")) {
    while (next < got.size() && !Covers(wanted, got[next])) ++next;
    if (next == got.size()) {
      return absl::FailedPreconditionError(
          absl::StrCat("expected event ", JsonText(wanted), " (in order) among [", all(), "]"));
    }
    ++next;
  }
  for (const Value& unwanted : Wanted(expect.absent_events(), written, "absent_events")) {
    for (size_t i = 0; i < got.size(); ++i) {
      if (Covers(unwanted, got[i])) {
        return absl::FailedPreconditionError(
            absl::StrCat("event ", Json(events[i]), " matches absent event ", JsonText(unwanted)));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOutcome(const v1::ScenarioExpect& expect, const Value* written,
                          const engine::MoveOutcome& outcome) {
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
  return CheckEvents(expect, written, outcome.events);
}

absl::Status CheckToAct(const v1::ScenarioExpect& expect, const engine::Game& game) {
  const std::vector<int> actual = game.SeatsToAct();
  if (expect.nobody_to_act() && !actual.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("expected nobody to act, got [", absl::StrJoin(actual, ","), "]"));
  }
  if (expect.to_act().empty()) return absl::OkStatus();
  const std::vector<int> wanted(expect.to_act().begin(), expect.to_act().end());
  if (wanted == actual) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat("expected to_act [", absl::StrJoin(wanted, ","),
                                                    "], got [", absl::StrJoin(actual, ","), "]"));
}

// Each listed view must have what the file writes of it.
absl::Status CheckViews(const v1::ScenarioExpect& expect, const Value* written,
                        const engine::Game& game) {
  const std::vector<Value> views = Wanted(expect.views(), written, "views");
  for (int i = 0; i < expect.views_size(); ++i) {
    const int seat = expect.views(i).seat();
    if (seat != engine::kSpectator && (seat < 0 || seat >= game.num_seats())) {
      return absl::InvalidArgumentError(
          absl::StrCat("views[", i, "].seat ", seat, " is neither -1 nor a seat of the game"));
    }
    const Value* wanted = FieldOf(views[i], "view");
    const Value got = AsValue(game.View(seat), true);
    if (wanted != nullptr && !Covers(*wanted, got)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "expected view of seat ", seat, " ", JsonText(*wanted), ", got ", JsonText(got)));
    }
  }
  return absl::OkStatus();
}

// What a step or the deal expects besides the move's outcome: who acts, the views.
absl::Status CheckState(const v1::ScenarioExpect& expect, const Value* written,
                        const engine::Game& game) {
  KAHVE_RETURN_IF_ERROR(CheckToAct(expect, game));
  return CheckViews(expect, written, game);
}

absl::Status CheckEnd(const v1::ScenarioEnd& end, const Value* written, const engine::Game& game) {
  if (end.has_result() && !end.over()) {
    return absl::InvalidArgumentError("a result is checked only with \"over\": true");
  }
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
  if (end.has_result()) {
    const Value* as_written = FieldIn(written, "result");
    const Value wanted = as_written != nullptr ? *as_written : AsValue(end.result(), false);
    const Value got = AsValue(result, true);
    if (!Covers(wanted, got)) {
      return absl::FailedPreconditionError(
          absl::StrCat("expected result ", JsonText(wanted), ", got ", JsonText(got)));
    }
  }
  return absl::OkStatus();
}

// A game the file expects not to be created: the refusal's code, and the field it names.
absl::Status CheckCreateError(const v1::Scenario& scenario, const absl::Status& created) {
  const v1::ScenarioCreateError& want = scenario.create_error();
  if (scenario.steps_size() > 0 || scenario.has_end() || scenario.has_dealt()) {
    return absl::InvalidArgumentError("a file expecting create_error has no steps, dealt or end");
  }
  if (created.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("expected creating the game to fail with ", want.code(), ", it succeeded"));
  }
  const std::string code = absl::StatusCodeToString(created.code());
  const std::string message(created.message());
  // Refusals start with the field they name: "deals: ...", "liars_dice.players must be ...".
  const std::string field =
      message.substr(0, message.find_first_not_of(
                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]"));
  if (code != want.code() || (!want.field().empty() && field != want.field())) {
    return absl::FailedPreconditionError(absl::StrCat("expected creating the game to fail with ",
                                                      want.code(), " naming ", want.field(),
                                                      ", got ", code, ": ", message));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ScenarioFile> LoadScenario(const std::string& path) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::stringstream text;
  text << file.rdbuf();
  ScenarioFile loaded;
  auto status = google::protobuf::util::JsonStringToMessage(text.str(), &loaded.scenario);
  if (status.ok())
    status = google::protobuf::util::JsonStringToMessage(text.str(), &loaded.as_written);
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", status.ToString()));
  }
  return loaded;
}

absl::Status RunScenario(const v1::Scenario& scenario, const Struct* as_written) {
  const Value* written_steps = nullptr;
  Value written;
  if (as_written != nullptr) {
    *written.mutable_struct_value() = *as_written;
    written_steps = FieldOf(written, "steps");
  }
  auto game_or = engine::NewGame(scenario.settings(), scenario.deal());
  if (scenario.has_create_error()) {
    const absl::Status status = CheckCreateError(scenario, game_or.status());
    if (status.ok()) return status;
    return absl::Status(status.code(), absl::StrCat("new game: ", status.message()));
  }
  if (!game_or.ok()) {
    return absl::FailedPreconditionError(absl::StrCat("new game: ", game_or.status().message()));
  }
  std::unique_ptr<engine::Game> game = std::move(game_or).value();
  game->CheckInvariants();
  if (scenario.has_dealt()) {
    if (scenario.dealt().accepted() ||
        scenario.dealt().reason() != v1::REJECTION_REASON_UNSPECIFIED) {
      return absl::InvalidArgumentError("dealt: accepted and reason are for steps");
    }
    const Value* dealt = FieldIn(&written, "dealt");
    absl::Status status = CheckEvents(scenario.dealt(), dealt, game->deal_events());
    if (status.ok()) status = CheckState(scenario.dealt(), dealt, *game);
    if (!status.ok()) return absl::Status(status.code(), absl::StrCat("dealt: ", status.message()));
  }
  for (int i = 0; i < scenario.steps_size(); ++i) {
    const v1::ScenarioStep& step = scenario.steps(i);
    const std::unique_ptr<engine::Game> before = game->Clone();
    const engine::MoveOutcome outcome = game->Apply(step.seat(), step.move());
    game->CheckInvariants();
    if (!outcome.accepted && !game->SameState(*before)) {
      return absl::InternalError(
          absl::StrCat("step ", i + 1, ": a rejected move changed the game"));
    }
    const Value* written_step =
        written_steps != nullptr && i < written_steps->list_value().values_size()
            ? &written_steps->list_value().values(i)
            : nullptr;
    const Value* written_expect = FieldIn(written_step, "expect");
    absl::Status status = CheckOutcome(step.expect(), written_expect, outcome);
    if (status.ok()) status = CheckState(step.expect(), written_expect, *game);
    if (!status.ok()) {
      return absl::Status(
          status.code(),
          absl::StrCat("step ", i + 1, " (seat ", step.seat(), ", move ", Json(step.move()),
                       step.note().empty() ? "" : ", ", step.note(), "): ", status.message()));
    }
  }
  if (scenario.has_end()) {
    const absl::Status status = CheckEnd(scenario.end(), FieldIn(&written, "end"), *game);
    if (!status.ok()) return absl::Status(status.code(), absl::StrCat("end: ", status.message()));
  }
  return absl::OkStatus();
}

}  // namespace kahve::tools
