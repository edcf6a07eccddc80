#ifndef KAHVE_ENGINE_OKEY_OKEY_TEXT_H_
#define KAHVE_ENGINE_OKEY_OKEY_TEXT_H_

// The okey family's tiles, melds and additions in words, shared by the transcripts of okey,
// okey51 and okey101 (engine/okey_classic/okey_classic_text.h, engine/okey_laying/
// okey_laying_text.h). Tiles keep their kahve.v1 names ("R5", "F"); an okey standing for a face
// is written "R6=B3".

#include <string>

#include "google/protobuf/repeated_ptr_field.h"
#include "kahve/v1/okey.pb.h"

namespace kahve::engine::okey {

// Tiles in order: "R5 R6 F"; "-" for none.
std::string TilesText(const google::protobuf::RepeatedPtrField<std::string>& tiles);
// A hand by colour, in the order of okey_tiles.h: "R 1 5 9 / B 2 2 / F" (14 tiles).
std::string HandText(const google::protobuf::RepeatedPtrField<std::string>& hand);
std::string MeldText(const v1::OkeyMeld& meld);
std::string PairText(const v1::OkeyPair& pair);
// "#2 run R5 R6 R7 (seat 1's, 18)".
std::string TableMeldText(const v1::OkeyTableMeld& meld);
// "R8 to meld #2, at its high end".
std::string AdditionText(const v1::OkeyAddition& addition);
// "indicator R5, okey R6".
std::string IndicatorText(const std::string& indicator, const std::string& okey);

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_TEXT_H_
