#include "engine/okey101/okey101_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/okey_laying/okey_laying_text.h"

namespace kahve::engine::okey101 {
namespace {

std::string Settings(const v1::GameSettings& settings) {
  const v1::Okey101Settings& okey = settings.okey101();
  return absl::StrCat(okey.teams() ? "2v2 teams" : "4 players solo", ", ", okey.deals(), " deals",
                      okey.hints() ? ", hints" : "", ", first dealer ",
                      SeatText(okey.first_dealer()));
}

std::string Move(const v1::Move& move) { return okey_laying::MoveText(move.okey101()); }

std::string Event(const v1::Event& event) { return okey_laying::EventText(event, event.okey101()); }

std::vector<std::string> View(const v1::View& view) {
  return okey_laying::ViewLines(view, view.okey101());
}

}  // namespace

const RulesetText& Text() {
  static const RulesetText kText{
      .settings = &Settings, .move = &Move, .event = &Event, .view = &View};
  return kText;
}

}  // namespace kahve::engine::okey101
