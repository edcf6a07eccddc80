#ifndef KAHVE_ENGINE_OKEY51_OKEY51_TEXT_H_
#define KAHVE_ENGINE_OKEY51_OKEY51_TEXT_H_

// okey51 in words, for transcripts (engine/core/ruleset_text.h): its settings here, its moves,
// events and views as the laying core words them (engine/okey_laying/okey_laying_text.h).

#include "engine/core/ruleset_text.h"

namespace kahve::engine::okey51 {

const RulesetText& Text();

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_TEXT_H_
