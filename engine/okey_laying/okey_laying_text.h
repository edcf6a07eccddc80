#ifndef KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_TEXT_H_
#define KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_TEXT_H_

// okey51's and okey101's moves, events and views in words, for transcripts: they share these
// messages, so they share the words too. Each ruleset's RulesetText (engine/okey51/okey51_text.h,
// engine/okey101/okey101_text.h) adds its settings and picks its field of the oneofs.

#include <string>
#include <vector>

#include "kahve/v1/engine.pb.h"

namespace kahve::engine::okey_laying {

std::string MoveText(const v1::OkeyLayingMove& move);
// `event` gives the seat; `laying` is its okey51 or okey101 part.
std::string EventText(const v1::Event& event, const v1::OkeyLayingEvent& laying);
// `view` gives the viewing seat; `laying` is its okey51 or okey101 part.
std::vector<std::string> ViewLines(const v1::View& view, const v1::OkeyLayingView& laying);

}  // namespace kahve::engine::okey_laying

#endif  // KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_TEXT_H_
