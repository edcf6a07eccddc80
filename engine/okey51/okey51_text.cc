#include "engine/okey51/okey51_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/okey_laying/okey_laying_text.h"

namespace kahve::engine::okey51 {
namespace {

std::string Settings(const v1::GameSettings& settings) {
  const v1::Okey51Settings& okey = settings.okey51();
  return absl::StrCat(
      okey.teams() ? "2v2 teams" : "4 players solo", ", ",
      okey.deals() == 1 ? std::string("1 deal") : absl::StrCat(okey.deals(), " deals"),
      okey.doubling() ? ", the doubling chain" : "", okey.hints() ? ", hints" : "",
      ", first starter ", SeatText(okey.first_starter()));
}

std::string Move(const v1::Move& move) { return okey_laying::MoveText(move.okey51()); }

std::string Event(const v1::Event& event) { return okey_laying::EventText(event, event.okey51()); }

std::vector<std::string> View(const v1::View& view) {
  return okey_laying::ViewLines(view, view.okey51());
}

}  // namespace

const RulesetText& Text() {
  static const RulesetText kText{
      .settings = &Settings, .move = &Move, .event = &Event, .view = &View};
  return kText;
}

}  // namespace kahve::engine::okey51
