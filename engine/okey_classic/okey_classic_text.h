#ifndef KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_TEXT_H_
#define KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_TEXT_H_

// Classic okey in words, for transcripts (engine/core/ruleset_text.h); tiles and melds as
// engine/okey/okey_text.h writes them.

#include "engine/core/ruleset_text.h"

namespace kahve::engine::okey_classic {

const RulesetText& Text();

}  // namespace kahve::engine::okey_classic

#endif  // KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_TEXT_H_
