#ifndef KAHVE_ENGINE_OKEY_OKEY_REASONS_H_
#define KAHVE_ENGINE_OKEY_OKEY_REASONS_H_

// Why the okey family's rulesets refuse an action: one list for classic okey, okey51 and okey101,
// each reason one kahve.v1 rejection reason (okey_proto.h, ReasonToProto).

#include <cstdint>
#include <string>

namespace kahve::engine::okey {

enum class Reason : uint8_t {
  kNone,
  // Every okey.
  kUnknownTile,
  kTileNotInHand,
  kMustDraw,
  kAlreadyDrawn,
  kNoDiscardToTake,
  kNotYourTurn,
  // Classic okey.
  kNotAWin,
  kTakeNeedsAWin,
  kCannotShowIndicator,
  kGroupsNotTheHand,
  // The laying okeys (okey51, okey101).
  kDiscardNotUsed,
  kInvalidMeld,
  kOpeningTooLow,
  kNotOpened,
  kOpenedWithPairs,
  kOpenedWithMelds,
  kTooFewPairs,
  kNotAPair,
  kNoSuchMeld,
  kDoesNotFit,
  kMustKeepATile,
  kNothingLaid,
  kBadStandIn,
  kMissingPlace,
};

struct Refusal {
  Reason reason = Reason::kNone;
  std::string message;
};

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_REASONS_H_
