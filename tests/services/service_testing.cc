#include "tests/services/service_testing.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "grpcpp/impl/codegen/client_unary_call.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "grpcpp/impl/codegen/rpc_method.h"
#include "grpcpp/impl/codegen/sync_stream.h"
#include "protos/kahve_testing/reflection_client.pb.h"
#include "tools/kahve/health_check.h"

namespace kahve::testing {

std::unique_ptr<common::Authenticator> TestAuthenticator() {
  common::AuthSettings settings;
  settings.hs256_secret = kTestSecret;
  return std::move(common::Authenticator::Create(settings)).value();
}

std::string Bearer(const std::string& player, const std::string& role) {
  common::TokenClaims claims;
  claims.subject = player;
  claims.role = role;
  claims.issued_at = absl::Now();
  claims.expires_at = absl::Now() + absl::Hours(1);
  return absl::StrCat("Bearer ", common::MintHs256Token(kTestSecret, claims));
}

std::unique_ptr<grpc::ClientContext> ContextFor(const std::string& player,
                                                const std::string& role) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!player.empty()) context->AddMetadata("authorization", Bearer(player, role));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  return context;
}

std::shared_ptr<grpc::Channel> LocalChannel(int port) {
  return grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials());
}

absl::StatusOr<v1::RpcStatus> RichStatusOf(const grpc::Status& status) {
  v1::RpcStatus rich;
  if (status.error_details().empty()) return rich;
  if (!rich.ParseFromString(status.error_details())) {
    return absl::DataLossError("grpc-status-details-bin: not a google.rpc.Status");
  }
  if (rich.code() != static_cast<int32_t>(status.error_code()) ||
      rich.message() != status.error_message()) {
    return absl::DataLossError(absl::StrCat(
        "grpc-status-details-bin says ", rich.code(), " \"", rich.message(), "\"; the status ",
        static_cast<int>(status.error_code()), " \"", status.error_message(), "\""));
  }
  return rich;
}

// Generated stubs would need the real packages; the same calls made by hand on the real paths.
absl::StatusOr<std::string> HealthStatus(int port, const std::string& service) {
  return tools::CheckHealth(LocalChannel(port), service, absl::Seconds(5));
}

absl::StatusOr<std::vector<std::string>> ReflectedServices(int port) {
  using Request = kahve::testing::reflection::ServerReflectionRequest;
  using Response = kahve::testing::reflection::ServerReflectionResponse;
  const auto channel = LocalChannel(port);
  const grpc::internal::RpcMethod method(
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
      grpc::internal::RpcMethod::BIDI_STREAMING, channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  std::unique_ptr<grpc::ClientReaderWriter<Request, Response>> stream(
      grpc::internal::ClientReaderWriterFactory<Request, Response>::Create(channel.get(), method,
                                                                           &context));
  Request request;
  request.set_list_services("*");
  Response response;
  if (!stream->Write(request) || !stream->Read(&response)) {
    return absl::UnavailableError("reflection stream failed");
  }
  stream->WritesDone();
  std::vector<std::string> names;
  for (const auto& service : response.list_services_response().service())
    names.push_back(service.name());
  stream->Finish();
  return names;
}

absl::StatusOr<std::string> HttpGet(int port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return absl::InternalError("socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return absl::UnavailableError(absl::StrCat("cannot connect to port ", port));
  }
  const std::string request =
      absl::StrCat("GET ", path, " HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return absl::InternalError("write");
  }
  std::string reply;
  char buffer[8192];
  ssize_t got;
  while ((got = read(fd, buffer, sizeof(buffer))) > 0) reply.append(buffer, got);
  close(fd);
  const size_t body = reply.find("\r\n\r\n");
  if (body == std::string::npos) return absl::InternalError("no HTTP body");
  return reply.substr(body + 4);
}

absl::Status PromtoolCheck(const std::string& metrics_text) {
  char path[] = "/tmp/kahve-metrics-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return absl::InternalError("mkstemp");
  close(fd);
  std::ofstream(path) << metrics_text;
  const std::string command = absl::StrCat("promtool check metrics < ", path, " 2>&1");
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (pipe != nullptr && fgets(buffer, sizeof(buffer), pipe) != nullptr) output += buffer;
  const int code = pipe == nullptr ? -1 : pclose(pipe);
  unlink(path);
  if (code != 0) return absl::FailedPreconditionError(absl::StrCat("promtool: ", output));
  return absl::OkStatus();
}

double MetricSum(prometheus::Registry& registry, const std::string& family,
                 const std::map<std::string, std::string>& labels) {
  double sum = 0;
  for (const prometheus::MetricFamily& collected : registry.Collect()) {
    if (collected.name != family) continue;
    for (const prometheus::ClientMetric& metric : collected.metric) {
      std::map<std::string, std::string> have;
      for (const auto& label : metric.label) have[label.name] = label.value;
      bool match = true;
      for (const auto& [name, value] : labels) match = match && have[name] == value;
      if (!match) continue;
      if (collected.type == prometheus::MetricType::Counter) sum += metric.counter.value;
      if (collected.type == prometheus::MetricType::Gauge) sum += metric.gauge.value;
      if (collected.type == prometheus::MetricType::Histogram) {
        sum += static_cast<double>(metric.histogram.sample_count);
      }
    }
  }
  return sum;
}

}  // namespace kahve::testing
