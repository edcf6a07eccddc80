#include "engine/okey51/okey51_game.h"

#include <utility>

#include "base/status_macros.h"
#include "engine/okey_laying/okey_laying_game.h"
#include "engine/okey_laying/okey_laying_sim.h"

namespace kahve::engine::okey51 {

absl::StatusOr<Settings> SettingsFromProto(const v1::Okey51Settings& proto) {
  Settings settings;
  settings.teams = proto.teams();
  settings.hints = proto.hints();
  settings.doubling = proto.doubling();
  if (proto.has_deals()) settings.deals = proto.deals();
  settings.first_starter = proto.first_starter();
  KAHVE_RETURN_IF_ERROR(ValidateSettings(settings));
  return settings;
}

void FillDefaults(v1::GameSettings& settings) {
  v1::Okey51Settings& okey = *settings.mutable_okey51();
  if (!okey.has_deals()) okey.set_deals(Settings{}.deals);
}

Seating SeatingOf(const v1::GameSettings& /*settings*/) {
  return Seating{.preferred = kPlayers, .min = kPlayers};
}

v1::Okey51Settings SettingsToProto(const Settings& settings) {
  v1::Okey51Settings proto;
  proto.set_teams(settings.teams);
  proto.set_hints(settings.hints);
  proto.set_doubling(settings.doubling);
  proto.set_deals(settings.deals);
  proto.set_first_starter(settings.first_starter);
  return proto;
}

absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal) {
  static constexpr okey_laying::LayingOneofs kOneofs{
      .ruleset = "okey51",
      .has_move = &v1::Move::has_okey51,
      .move = &v1::Move::okey51,
      .mutable_move = &v1::Move::mutable_okey51,
      .event = &v1::Event::okey51,
      .mutable_event = &v1::Event::mutable_okey51,
      .mutable_view = &v1::View::mutable_okey51,
      .mutable_hints = &v1::Hints::mutable_okey51,
      .preset_case = v1::Deal::kOkey51,
      .preset = &v1::Deal::okey51,
  };
  KAHVE_ASSIGN_OR_RETURN(const Settings typed, SettingsFromProto(settings.okey51()));
  v1::GameSettings canonical;
  *canonical.mutable_okey51() = SettingsToProto(typed);
  return okey_laying::NewLayingGame(std::move(canonical), deal, RulesFor(typed), kOneofs);
}

absl::StatusOr<SimSummary> Simulate(const SimOptions& options) {
  KAHVE_ASSIGN_OR_RETURN(const Settings settings, SettingsFromProto(options.settings.okey51()));
  return okey_laying::Simulate("okey51", options, RulesFor(settings));
}

}  // namespace kahve::engine::okey51
