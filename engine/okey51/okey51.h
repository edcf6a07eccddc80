#ifndef KAHVE_ENGINE_OKEY51_OKEY51_H_
#define KAHVE_ENGINE_OKEY51_OKEY51_H_

// okey51, RULES.md "okey51" (seed 000), the online okey most players meet: a laying okey
// (engine/okey_laying) with a 15-tile starter, openings of 51 (with doubling, above the deal's
// last run/set opening), penalties for tiles added to an opponent's meld, okeys taken out of it,
// penalty tiles and taken discards, and the seed's table of finishes (okey51_settlement.h).
//
// Settings                 range    default
//   teams                  bool     false (2v2)
//   hints                  bool     false (the table serves hints; rules unchanged)
//   doubling               bool     false
//   deals                  1 or 3   1
//   first_starter          0..3     0

#include "absl/status/status.h"
#include "engine/okey_laying/okey_laying.h"

namespace kahve::engine::okey51 {

using okey_laying::Action;
using okey_laying::ActionKind;
using okey_laying::Addition;
using okey_laying::Code;
using okey_laying::Opened;
using okey_laying::Preset;
using okey_laying::Reason;
using okey_laying::Rules;
using okey_laying::State;
using okey_laying::TableMeld;

inline constexpr int kPlayers = okey_laying::kPlayers;
inline constexpr int kStarterTiles = 15;
inline constexpr int kOpeningMinimum = 51;

struct Settings {
  bool teams = false;
  bool hints = false;
  bool doubling = false;
  int deals = 1;
  int first_starter = 0;
};

// InvalidArgument naming the field and its range, or OK.
absl::Status ValidateSettings(const Settings& settings);

// The laying rules of an okey51 table with these (valid) settings.
Rules RulesFor(const Settings& settings);

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_H_
