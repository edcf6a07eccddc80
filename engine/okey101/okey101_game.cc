#include "engine/okey101/okey101_game.h"

#include <utility>

#include "base/status_macros.h"
#include "engine/okey_laying/okey_laying_game.h"
#include "engine/okey_laying/okey_laying_sim.h"

namespace kahve::engine::okey101 {

absl::StatusOr<Settings> SettingsFromProto(const v1::Okey101Settings& proto) {
  Settings settings;
  settings.teams = proto.teams();
  settings.hints = proto.hints();
  if (proto.has_deals()) settings.deals = proto.deals();
  settings.first_dealer = proto.first_dealer();
  KAHVE_RETURN_IF_ERROR(ValidateSettings(settings));
  return settings;
}

void FillDefaults(v1::GameSettings& settings) {
  v1::Okey101Settings& okey = *settings.mutable_okey101();
  if (!okey.has_deals()) okey.set_deals(Settings{}.deals);
}

Seating SeatingOf(const v1::GameSettings& /*settings*/) {
  return Seating{.preferred = kPlayers, .min = kPlayers};
}

v1::Okey101Settings SettingsToProto(const Settings& settings) {
  v1::Okey101Settings proto;
  proto.set_teams(settings.teams);
  proto.set_hints(settings.hints);
  proto.set_deals(settings.deals);
  proto.set_first_dealer(settings.first_dealer);
  return proto;
}

absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal) {
  static constexpr okey_laying::LayingOneofs kOneofs{
      .ruleset = "okey101",
      .has_move = &v1::Move::has_okey101,
      .move = &v1::Move::okey101,
      .mutable_move = &v1::Move::mutable_okey101,
      .event = &v1::Event::okey101,
      .mutable_event = &v1::Event::mutable_okey101,
      .mutable_view = &v1::View::mutable_okey101,
      .mutable_hints = &v1::Hints::mutable_okey101,
      .preset_case = v1::Deal::kOkey101,
      .preset = &v1::Deal::okey101,
  };
  KAHVE_ASSIGN_OR_RETURN(const Settings typed, SettingsFromProto(settings.okey101()));
  v1::GameSettings canonical;
  *canonical.mutable_okey101() = SettingsToProto(typed);
  return okey_laying::NewLayingGame(std::move(canonical), deal, RulesFor(typed), kOneofs);
}

absl::StatusOr<SimSummary> Simulate(const SimOptions& options) {
  KAHVE_ASSIGN_OR_RETURN(const Settings settings, SettingsFromProto(options.settings.okey101()));
  return okey_laying::Simulate("okey101", options, RulesFor(settings));
}

}  // namespace kahve::engine::okey101
