// kahve health: one grpc.health.v1.Health/Check call, the probe scripts and containers use (this
// machine has no grpc_health_probe). Prints the status; exits 0 only on SERVING.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format_lite.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "tools/kahve/commands.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_FLAG(std::string, service, "",
          "health: the service name to ask about (empty: the server as a whole)");

namespace kahve::tools {
namespace {

using google::protobuf::internal::WireFormatLite;

constexpr char kHealthCheck[] = "/grpc.health.v1.Health/Check";
constexpr auto kDeadline = std::chrono::seconds(5);

// grpc.health.v1's messages are encoded by hand: Debian ships no health .proto, and the two
// messages have one field each. HealthCheckRequest { string service = 1; }
std::string EncodeRequest(const std::string& service) {
  std::string bytes;
  if (service.empty()) return bytes;  // proto3: a default value is not written
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream out(&stream);
  WireFormatLite::WriteString(1, service, &out);
  return bytes;
}

// HealthCheckResponse { ServingStatus status = 1; }. False when the bytes do not parse.
bool DecodeStatus(const std::string& bytes, int64_t* status) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  *status = 0;
  while (const uint32_t tag = in.ReadTag()) {
    if (tag == WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_VARINT)) {
      uint64_t value = 0;
      if (!in.ReadVarint64(&value)) return false;
      *status = static_cast<int64_t>(value);
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      return false;
    }
  }
  return in.ConsumedEntireMessage();
}

std::string StatusName(int64_t status) {
  switch (status) {
    case 0: return "UNKNOWN";
    case 1: return "SERVING";
    case 2: return "NOT_SERVING";
    case 3: return "SERVICE_UNKNOWN";
    default: return "STATUS_" + std::to_string(status);
  }
}

std::string Flatten(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (!buffer.Dump(&slices).ok()) return bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  return bytes;
}

}  // namespace

int HealthCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "kahve health: unexpected argument \"%s\"\n", args[0].c_str());
    return 2;
  }
  const std::string target = absl::GetFlag(FLAGS_target);
  const std::string service = absl::GetFlag(FLAGS_service);
  grpc::GenericStub stub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));

  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + kDeadline);
  const std::string request_bytes = EncodeRequest(service);
  grpc::Slice slice(request_bytes);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, kHealthCheck, grpc::StubOptions(), &request, &response,
                 [&done](grpc::Status status) { done.set_value(std::move(status)); });
  const grpc::Status status = done.get_future().get();

  const std::string asked = service.empty() ? target : target + " " + service;
  if (!status.ok()) {
    std::fprintf(stderr, "kahve health: %s: error %d: %s\n", asked.c_str(),
                 static_cast<int>(status.error_code()), status.error_message().c_str());
    return 1;
  }
  int64_t serving = 0;
  if (!DecodeStatus(Flatten(response), &serving)) {
    std::fprintf(stderr, "kahve health: %s: the response does not parse\n", asked.c_str());
    return 1;
  }
  std::printf("%s\n", StatusName(serving).c_str());
  return serving == 1 ? 0 : 1;
}

}  // namespace kahve::tools
