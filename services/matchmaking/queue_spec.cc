#include "services/matchmaking/queue_spec.h"

#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "engine/core/status_macros.h"

namespace kahve::matchmaking {
namespace {

// What matchmaking needs to know of a ruleset beyond what the engine checks.
struct RulesetProfile {
  // Whether the ruleset plays in partnerships (2v2).
  bool has_partners = false;
  // Whether its tables may seat bots.
  bool bots = false;
};

// Fills in the defaults of the settings (so "players: 0" and "players: 4" are one queue) and
// returns the ruleset's profile and table sizes.
absl::StatusOr<RulesetProfile> Normalize(v1::GameSettings& settings, int* preferred,
                                         int* min_seats) {
  switch (settings.ruleset_case()) {
    case v1::GameSettings::kLiarsDice: {
      v1::LiarsDiceSettings& dice = *settings.mutable_liars_dice();
      if (dice.players() == 0) dice.set_players(4);
      if (dice.dice_per_player() == 0) dice.set_dice_per_player(5);
      *preferred = dice.players();
      // Any number of players from 2 up makes a game, so a long wait may start a smaller table.
      *min_seats = 2;
      return RulesetProfile{.has_partners = false, .bots = true};
    }
    case v1::GameSettings::kOkey: {
      v1::OkeySettings& okey = *settings.mutable_okey();
      if (okey.players() == 0) okey.set_players(4);
      // The table size the settings ask for, never smaller: 2, 3 or 4 players play different games.
      *preferred = okey.players();
      *min_seats = okey.players();
      return RulesetProfile{.has_partners = true, .bots = true};
    }
    case v1::GameSettings::kOkey51: {
      v1::Okey51Settings& okey = *settings.mutable_okey51();
      if (okey.deals() == 0) okey.set_deals(1);
      // Four seats, always.
      *preferred = 4;
      *min_seats = 4;
      return RulesetProfile{.has_partners = true, .bots = true};
    }
    case v1::GameSettings::kOkey101: {
      v1::Okey101Settings& okey = *settings.mutable_okey101();
      if (okey.deals() == 0) okey.set_deals(5);
      *preferred = 4;
      *min_seats = 4;
      return RulesetProfile{.has_partners = true, .bots = true};
    }
    case v1::GameSettings::kMexicanTrain: {
      v1::MexicanTrainSettings& train = *settings.mutable_mexican_train();
      if (train.players() == 0) train.set_players(4);
      // The table size the settings ask for: hand sizes follow the number of players.
      *preferred = train.players();
      *min_seats = train.players();
      return RulesetProfile{.has_partners = false, .bots = true};
    }
    default:
      return absl::InvalidArgumentError("settings: no ruleset set");
  }
}

// The queue's mode decides a partnership; a settings flag asking for one must not disagree.
absl::Status FollowsTheQueue(bool asks_for_partners, bool teams, std::string_view field) {
  if (asks_for_partners && !teams) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(field), ": queue with teams to play partners (the flag follows the queue)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<QueueSpec> QueueSpecFor(const v1::GameSettings& settings, bool teams) {
  QueueSpec spec;
  spec.settings = settings;
  auto profile = Normalize(spec.settings, &spec.preferred_seats, &spec.min_seats);
  if (!profile.ok()) return profile.status();
  auto ruleset = engine::RulesetOf(spec.settings);
  if (!ruleset.ok()) return absl::InvalidArgumentError(ruleset.status().message());
  spec.ruleset = std::string((*ruleset)->id);
  // The engine is the judge of valid settings: a game that cannot be dealt cannot be queued for.
  v1::Deal deal;
  deal.set_seed(1);
  auto game = engine::NewGame(spec.settings, deal);
  if (!game.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("settings: ", game.status().message()));
  }
  if (teams) {
    if (!profile->has_partners) {
      return absl::InvalidArgumentError(
          absl::StrCat("teams: ", spec.ruleset, " has no partners; queue without teams"));
    }
    if (spec.preferred_seats != 4) {
      return absl::InvalidArgumentError("teams: partnerships need a table of four");
    }
    // Partnerships need every seat: a table never shrinks.
    spec.min_seats = 4;
  }
  if (spec.settings.has_okey()) {
    KAHVE_RETURN_IF_ERROR(
        FollowsTheQueue(spec.settings.okey().partners(), teams, "settings.okey.partners"));
    spec.settings.mutable_okey()->set_partners(teams);
  }
  if (spec.settings.has_okey51()) {
    KAHVE_RETURN_IF_ERROR(
        FollowsTheQueue(spec.settings.okey51().teams(), teams, "settings.okey51.teams"));
    spec.settings.mutable_okey51()->set_teams(teams);
  }
  if (spec.settings.has_okey101()) {
    KAHVE_RETURN_IF_ERROR(
        FollowsTheQueue(spec.settings.okey101().teams(), teams, "settings.okey101.teams"));
    spec.settings.mutable_okey101()->set_teams(teams);
  }
  spec.teams = teams;
  spec.mode = teams ? v1::TEAMS : v1::SOLO;
  spec.bots_allowed = profile->bots;
  spec.key =
      absl::StrCat(spec.ruleset, teams ? " teams " : " solo ", spec.settings.ShortDebugString());
  return spec;
}

v1::GameSettings SettingsForSeats(const QueueSpec& spec, int seats) {
  v1::GameSettings settings = spec.settings;
  if (settings.has_liars_dice()) settings.mutable_liars_dice()->set_players(seats);
  return settings;
}

}  // namespace kahve::matchmaking
