#ifndef KAHVE_PROTO_CONTRACT_CONTRACT_DIFF_H_
#define KAHVE_PROTO_CONTRACT_CONTRACT_DIFF_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/descriptor.pb.h"

namespace kahve::proto_contract {

// What changed from a snapshot of the contract to its current version, one line per element, each
// starting with the element's full name: "kahve.v1.LiarsDiceBid.face: field number 2 -> 5".
struct ContractDiff {
  // Changes that break a client, a stored event or a JSON scenario file.
  std::vector<std::string> breaking;
  // Compatible additions the snapshot does not hold yet.
  std::vector<std::string> added;
};

// Compares every message, field, enum, enum value, service and RPC of `snapshot` with `current`,
// matching them by full name (fields and enum values by name within their parent, since the JSON
// mapping keys on names). Breaking: a removed message, enum, enum value, field, service or RPC; a
// field's number, type (including the message or enum type name), label, oneof or JSON name
// changed; an enum value renumbered; an RPC's request or response type or streaming mode changed.
// Both sets must come from protoc, whose type names are fully qualified.
ContractDiff CompareContracts(const google::protobuf::FileDescriptorSet& snapshot,
                              const google::protobuf::FileDescriptorSet& current);

// Reads a snapshot in protobuf text format.
absl::StatusOr<google::protobuf::FileDescriptorSet> ReadTextSnapshot(const std::string& path);
// Reads protoc's --descriptor_set_out output.
absl::StatusOr<google::protobuf::FileDescriptorSet> ReadDescriptorSet(const std::string& path);
// The snapshot file's text: a comment saying how to refresh it, then `set` in text format.
std::string SnapshotText(const google::protobuf::FileDescriptorSet& set);

// How to refresh the committed snapshot after an intended change, for messages.
inline constexpr char kRefreshCommand[] = "cmake --build build --target proto_contract_snapshot";

}  // namespace kahve::proto_contract

#endif  // KAHVE_PROTO_CONTRACT_CONTRACT_DIFF_H_
