// Channels between the services' own processes (services/common/stub_cache.h) dial a peer that
// restarted within about a second (issue 28, finding 8): with gRPC's default backoff, a host that
// forwarded calls to a holder which restarted kept failing them for up to two minutes (8.5 s seen).

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "grpcpp/generic/async_generic_service.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "gtest/gtest.h"
#include "services/common/stub_cache.h"
#include "tools/kahve/health_check.h"

namespace kahve::common {
namespace {

// A server with only gRPC's health service (and an empty callback service, so it needs no
// completion queue of its own), on `port` (0: a free one; port() says which).
class HealthServer {
 public:
  explicit HealthServer(int port) {
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    builder.RegisterCallbackGenericService(&generic_);
    builder.AddListeningPort(absl::StrCat("127.0.0.1:", port), grpc::InsecureServerCredentials(),
                             &port_);
    server_ = builder.BuildAndStart();
  }
  ~HealthServer() { server_->Shutdown(); }
  int port() const { return port_; }

 private:
  grpc::CallbackGenericService generic_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

TEST(ClusterChannelTest, APeerThatRestartsIsDialledAgainWithinSeconds) {
  auto server = std::make_unique<HealthServer>(0);
  const int port = server->port();
  ASSERT_NE(port, 0);
  const std::shared_ptr<grpc::Channel> channel = ClusterChannel(absl::StrCat("127.0.0.1:", port));
  ASSERT_EQ(tools::CheckHealth(channel, "", absl::Seconds(5)).value_or(""), "SERVING");

  // Down for ten seconds, called all along: gRPC's default backoff would have grown past five
  // seconds by now (1, 1.6, 2.6, 4.1, 6.6 s between attempts).
  server.reset();
  const absl::Time down_until = absl::Now() + absl::Seconds(10);
  while (absl::Now() < down_until) {
    EXPECT_FALSE(tools::CheckHealth(channel, "", absl::Milliseconds(200)).ok());
    absl::SleepFor(absl::Milliseconds(300));
  }
  server = std::make_unique<HealthServer>(port);
  ASSERT_EQ(server->port(), port);
  // Back: the channel's next attempt comes within its one-second cap (five allowed for a busy
  // machine); the default's would come after six.
  const absl::Time back = absl::Now();
  bool served = false;
  while (!served && absl::Now() < back + absl::Seconds(5)) {
    served = tools::CheckHealth(channel, "", absl::Milliseconds(200)).value_or("") == "SERVING";
    if (!served) absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_TRUE(served);
  std::printf("served again %.1f s after the peer came back\n",
              absl::ToDoubleSeconds(absl::Now() - back));
}

}  // namespace
}  // namespace kahve::common
