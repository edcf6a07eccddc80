#ifndef KAHVE_ENGINE_OKEY101_OKEY101_TEXT_H_
#define KAHVE_ENGINE_OKEY101_OKEY101_TEXT_H_

// okey101 in words, for transcripts (engine/core/ruleset_text.h): its settings here, its moves,
// events and views as the laying core words them (engine/okey_laying/okey_laying_text.h).

#include "engine/core/ruleset_text.h"

namespace kahve::engine::okey101 {

const RulesetText& Text();

}  // namespace kahve::engine::okey101

#endif  // KAHVE_ENGINE_OKEY101_OKEY101_TEXT_H_
