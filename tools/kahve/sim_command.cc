#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/core/registry.h"
#include "tools/kahve/commands.h"

ABSL_FLAG(std::string, game, "liars_dice", "sim: ruleset id");
ABSL_FLAG(int64_t, games, 1000, "sim: number of games");
ABSL_FLAG(uint64_t, seed, 1, "sim: seed of the whole run (game i uses a seed derived from it)");
ABSL_FLAG(int32_t, players, 0, "sim: seats per game (0: the ruleset's default)");
ABSL_FLAG(int32_t, dice, 0, "sim (liars_dice): dice per player (0: default)");
ABSL_FLAG(int32_t, rounds, 0, "sim: stop each game after this many rounds (0: play to the end)");
ABSL_FLAG(int32_t, deals, 0,
          "sim (okey51): deals per game, 1 or 3 (0: default, 1); (okey101): 3, 5, 7, 9 or 11 "
          "(0: default, 5); (okey): the deal limit (0: 10)");
ABSL_FLAG(bool, teams, false, "sim (okey51, okey101, okey): 2v2, partners opposite");
ABSL_FLAG(bool, doubling, false, "sim (okey51): the doubling chain of openings");
ABSL_FLAG(std::string, bots, "random",
          "sim: bot kinds, one for all seats or one per seat, comma-separated");

namespace kahve::tools {
namespace {

// A flag's 0 asks for the ruleset's default, which an explicitly written 0 would refuse: the
// field stays unset instead.
template <typename Settings>
void SetUnlessZero(Settings* settings, void (Settings::*set)(int32_t), int32_t value) {
  if (value != 0) (settings->*set)(value);
}

// The ruleset's settings from the sim flags.
absl::StatusOr<v1::GameSettings> SettingsFromFlags(std::string_view game) {
  v1::GameSettings settings;
  if (game == "liars_dice") {
    v1::LiarsDiceSettings* dice = settings.mutable_liars_dice();
    SetUnlessZero(dice, &v1::LiarsDiceSettings::set_players, absl::GetFlag(FLAGS_players));
    SetUnlessZero(dice, &v1::LiarsDiceSettings::set_dice_per_player, absl::GetFlag(FLAGS_dice));
    dice->set_max_rounds(absl::GetFlag(FLAGS_rounds));
    return settings;
  }
  if (game == "okey") {
    if (absl::GetFlag(FLAGS_dice) != 0 || absl::GetFlag(FLAGS_rounds) != 0) {
      return absl::InvalidArgumentError("--dice and --rounds are liars_dice flags");
    }
    v1::OkeySettings* okey = settings.mutable_okey();
    SetUnlessZero(okey, &v1::OkeySettings::set_players, absl::GetFlag(FLAGS_players));
    okey->set_partners(absl::GetFlag(FLAGS_teams));
    // A game ends when a score reaches 0, which bots that seldom win may never bring about.
    okey->set_max_deals(absl::GetFlag(FLAGS_deals) == 0 ? 10 : absl::GetFlag(FLAGS_deals));
    return settings;
  }
  if (game == "okey51" || game == "okey101") {
    if (absl::GetFlag(FLAGS_players) != 0 && absl::GetFlag(FLAGS_players) != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("--players: ", std::string(game), " is played by 4"));
    }
    if (absl::GetFlag(FLAGS_dice) != 0 || absl::GetFlag(FLAGS_rounds) != 0) {
      return absl::InvalidArgumentError("--dice and --rounds are liars_dice flags");
    }
  }
  if (game == "okey101") {
    if (absl::GetFlag(FLAGS_doubling)) {
      return absl::InvalidArgumentError("--doubling is an okey51 flag");
    }
    v1::Okey101Settings* okey = settings.mutable_okey101();
    SetUnlessZero(okey, &v1::Okey101Settings::set_deals, absl::GetFlag(FLAGS_deals));
    okey->set_teams(absl::GetFlag(FLAGS_teams));
    return settings;
  }
  if (game == "okey51") {
    v1::Okey51Settings* okey = settings.mutable_okey51();
    SetUnlessZero(okey, &v1::Okey51Settings::set_deals, absl::GetFlag(FLAGS_deals));
    okey->set_teams(absl::GetFlag(FLAGS_teams));
    okey->set_doubling(absl::GetFlag(FLAGS_doubling));
    return settings;
  }
  if (game == "mexican_train") {
    if (absl::GetFlag(FLAGS_dice) != 0 || absl::GetFlag(FLAGS_rounds) != 0 ||
        absl::GetFlag(FLAGS_deals) != 0 || absl::GetFlag(FLAGS_teams) ||
        absl::GetFlag(FLAGS_doubling)) {
      return absl::InvalidArgumentError("mexican_train takes only --players (2..10)");
    }
    SetUnlessZero(settings.mutable_mexican_train(), &v1::MexicanTrainSettings::set_players,
                  absl::GetFlag(FLAGS_players));
    return settings;
  }
  return absl::NotFoundError(std::string("no sim settings for ") + std::string(game));
}

}  // namespace

int SimCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "kahve sim: unexpected argument \"%s\"\n", args[0].c_str());
    return 2;
  }
  const std::string game = absl::GetFlag(FLAGS_game);
  auto ruleset = engine::FindRuleset(game);
  if (!ruleset.ok()) {
    std::fprintf(stderr, "kahve sim: %s\n", std::string(ruleset.status().message()).c_str());
    return 2;
  }
  engine::SimOptions options;
  auto settings = SettingsFromFlags(game);
  if (!settings.ok()) {
    std::fprintf(stderr, "kahve sim: %s\n", std::string(settings.status().message()).c_str());
    return 2;
  }
  options.settings = *settings;
  options.bots = absl::StrSplit(absl::GetFlag(FLAGS_bots), ',');
  options.seed = absl::GetFlag(FLAGS_seed);
  options.games = absl::GetFlag(FLAGS_games);
  if (options.games < 1) {
    std::fputs("kahve sim: --games must be at least 1\n", stderr);
    return 2;
  }
  auto summary = (*ruleset)->simulate(options);
  if (!summary.ok()) {
    std::fprintf(stderr, "kahve sim: %s\n", std::string(summary.status().message()).c_str());
    return 2;
  }
  std::printf("%s\n", summary->ToJson().c_str());
  return 0;
}

}  // namespace kahve::tools
