#ifndef KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_TEXT_H_
#define KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_TEXT_H_

// Mexican Train in words, for transcripts (engine/core/ruleset_text.h): dominoes by their pips
// ("3-12"), trains by owner ("seat 2's train") or "the Mexican train", each with its end pip and
// whether it is open to everyone (marked).

#include "engine/core/ruleset_text.h"

namespace kahve::engine::mexican_train {

const RulesetText& Text();

}  // namespace kahve::engine::mexican_train

#endif  // KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_TEXT_H_
