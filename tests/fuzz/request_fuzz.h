#ifndef KAHVE_TESTS_FUZZ_REQUEST_FUZZ_H_
#define KAHVE_TESTS_FUZZ_REQUEST_FUZZ_H_

// What the request validator's fuzz target shares with the corpus generator (make_corpus.cc).
//
// An input is one byte b, then a serialized message of type RequestTypes()[b % count] (bytes that
// do not parse are skipped).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "google/protobuf/descriptor.h"

namespace kahve::fuzz {

// The request type of every method of the kahve.v1 services (table, matchmaking, rating), each
// once, in file, service and method order: a new RPC is fuzzed without a line here.
const std::vector<const google::protobuf::Descriptor*>& RequestTypes();

// Checks one input; aborts (so libFuzzer reports it) when common::CheckRequestStrings passes a
// string with a control byte or longer than 512 bytes, or refuses with anything but
// INVALID_ARGUMENT and a short message free of control bytes (so it cannot repeat a hostile value).
void RunRequestInput(const uint8_t* data, size_t size);

}  // namespace kahve::fuzz

#endif  // KAHVE_TESTS_FUZZ_REQUEST_FUZZ_H_
