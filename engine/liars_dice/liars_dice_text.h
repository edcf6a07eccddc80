#ifndef KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_TEXT_H_
#define KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_TEXT_H_

// Liar's dice in words, for transcripts (engine/core/ruleset_text.h): bids as "3 x 5" (three
// dice showing five), dice as "[2 5 6]".

#include "engine/core/ruleset_text.h"

namespace kahve::engine::liars_dice {

const RulesetText& Text();

}  // namespace kahve::engine::liars_dice

#endif  // KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_TEXT_H_
