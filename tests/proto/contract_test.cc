// The kahve.v1 contract against its committed snapshot: clients, stored event logs and JSON
// scenario files were written against the snapshot, so nothing in it may break.

#include <iostream>
#include <string>

#include "gtest/gtest.h"
#include "proto/contract/contract_diff.h"

namespace kahve::proto_contract {
namespace {

TEST(ContractTest, CurrentProtosKeepTheSnapshotCompatible) {
  absl::StatusOr<google::protobuf::FileDescriptorSet> snapshot =
      ReadTextSnapshot(KAHVE_CONTRACT_SNAPSHOT);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  absl::StatusOr<google::protobuf::FileDescriptorSet> current =
      ReadDescriptorSet(KAHVE_V1_DESCRIPTORS);
  ASSERT_TRUE(current.ok()) << current.status();
  // An empty or truncated snapshot would make every comparison pass.
  ASSERT_GT(snapshot->file_size(), 0);

  const ContractDiff diff = CompareContracts(*snapshot, *current);
  for (const std::string& line : diff.breaking) ADD_FAILURE() << "breaking change: " << line;
  if (!diff.breaking.empty()) {
    ADD_FAILURE() << "Restore compatibility: add, never remove, rename or renumber. If the break "
                     "is intended and every client, stored event and scenario file is dealt "
                     "with, accept it with: "
                  << kRefreshCommand;
  }
  // Additions pass, but until the snapshot records them they are unprotected.
  for (const std::string& line : diff.added) {
    std::cout << "not yet in the snapshot (run " << kRefreshCommand << "): " << line << "\n";
  }
}

}  // namespace
}  // namespace kahve::proto_contract
