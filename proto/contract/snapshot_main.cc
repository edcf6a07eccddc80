// Writes the committed contract snapshot from protoc's descriptor set, printing what it accepts:
//   write_contract_snapshot DESCRIPTOR_SET SNAPSHOT
// Run through `cmake --build build --target proto_contract_snapshot`, which passes both paths.

#include <fstream>
#include <iostream>
#include <string>

#include "absl/status/statusor.h"
#include "proto/contract/contract_diff.h"

int main(int argc, char** argv) {
  namespace contract = kahve::proto_contract;
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " DESCRIPTOR_SET SNAPSHOT\n";
    return 2;
  }
  const std::string snapshot_path = argv[2];
  absl::StatusOr<google::protobuf::FileDescriptorSet> current =
      contract::ReadDescriptorSet(argv[1]);
  if (!current.ok()) {
    std::cerr << current.status() << "\n";
    return 1;
  }
  // Shown so whoever refreshes sees exactly what the new snapshot accepts; a missing or unreadable
  // old snapshot just means there is nothing to compare with.
  absl::StatusOr<google::protobuf::FileDescriptorSet> old =
      contract::ReadTextSnapshot(snapshot_path);
  if (old.ok()) {
    const contract::ContractDiff diff = contract::CompareContracts(*old, *current);
    for (const std::string& line : diff.breaking) std::cout << "BREAKING " << line << "\n";
    for (const std::string& line : diff.added) std::cout << "added " << line << "\n";
  }
  std::ofstream out(snapshot_path, std::ios::binary | std::ios::trunc);
  out << contract::SnapshotText(*current);
  out.close();
  if (!out) {
    std::cerr << "cannot write " << snapshot_path << "\n";
    return 1;
  }
  std::cout << "wrote " << snapshot_path << " (" << current->file_size() << " files)\n";
  return 0;
}
