// The edge every service shares (services/common/server.cc, connection_gate.cc, call_gate.cc),
// attacked the way issue 28 found it open, on a real kahve-rating over real gRPC and PostgreSQL:
// metric series made from method names a caller invents, a gzip bomb, connections held idle past
// every cap, and one identity's flood of calls.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "kahve/v1/errors.pb.h"
#include "tests/services/rating/rating_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::rating {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ServerEdgeTest : public testing::PgTest {
 protected:
  void Start(RatingConfig config) { server_ = std::make_unique<RatingServer>(std::move(config)); }
  RatingConfig Config() { return RatingServer::Config(url(), kProvisionalGames); }
  void TearDown() override {
    server_.reset();
    PgTest::TearDown();
  }
  double Metric(const std::string& family, const std::map<std::string, std::string>& labels = {}) {
    return testing::MetricSum(server_->metrics().registry(), family, labels);
  }
  grpc::Status GetRatings(const std::string& player, v1::RatingService::Stub* stub = nullptr,
                          grpc::ClientContext* context = nullptr) {
    std::unique_ptr<grpc::ClientContext> own;
    if (context == nullptr) {
      own = testing::ContextFor(player);
      context = own.get();
    }
    v1::GetRatingsRequest request;
    request.add_player_ids(player);
    v1::GetRatingsResponse response;
    return (stub != nullptr ? *stub : server_->stub()).GetRatings(context, request, &response);
  }

  std::unique_ptr<RatingServer> server_;
};

// A TCP connection from `source` (a loopback address) to the server that sends nothing.
int IdleConnection(int port, const char* source) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  inet_pton(AF_INET, source, &from.sin_addr);
  bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof(from));
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  return fd;
}

// How many of `fds` the server closed within `wait` (end of file or reset; data is the HTTP/2
// server preface of a connection it kept).
int ClosedByServer(const std::vector<int>& fds, absl::Duration wait) {
  const absl::Time deadline = absl::Now() + wait;
  std::set<int> closed;
  char buffer[4096];
  while (absl::Now() < deadline && closed.size() < fds.size()) {
    std::vector<pollfd> open;
    for (int fd : fds) {
      if (!closed.contains(fd)) open.push_back({.fd = fd, .events = POLLIN, .revents = 0});
    }
    if (poll(open.data(), open.size(), 50) <= 0) continue;
    for (const pollfd& one : open) {
      if (one.revents == 0) continue;
      const ssize_t got = recv(one.fd, buffer, sizeof(buffer), MSG_DONTWAIT);
      if (got == 0 || (got < 0 && errno != EAGAIN)) closed.insert(one.fd);
    }
  }
  return static_cast<int>(closed.size());
}

// Finding 1: each unknown method name made a series of grpc_server_handled_total (80,000 names
// took /metrics to 162 MB). Now they all count as one.
TEST_F(ServerEdgeTest, CallsToMethodsNobodyServesCountInOneSeries) {
  Start(Config());
  grpc::GenericStub generic(testing::LocalChannel(server_->port()));
  const std::string families_before = *testing::HttpGet(server_->metrics_port(), "/metrics");
  for (int i = 0; i < 300; ++i) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    grpc::Slice empty("");
    grpc::ByteBuffer request(&empty, 1);
    grpc::ByteBuffer response;
    absl::Notification done;
    grpc::Status status;
    const std::string method = i % 2 == 0 ? absl::StrCat("/evil", i, ".Service/Method", i)
                                          : absl::StrCat("/kahve.v1.RatingService/NoSuchMethod", i);
    generic.UnaryCall(&context, method, grpc::StubOptions(), &request, &response,
                      [&](grpc::Status s) {
                        status = std::move(s);
                        done.Notify();
                      });
    done.WaitForNotification();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED) << method;
  }
  ASSERT_TRUE(GetRatings("ana").ok());
  const std::string metrics = *testing::HttpGet(server_->metrics_port(), "/metrics");
  EXPECT_THAT(metrics, Not(HasSubstr("evil")));
  EXPECT_THAT(metrics, Not(HasSubstr("NoSuchMethod")));
  EXPECT_EQ(Metric("grpc_server_handled_total",
                   {{"grpc_service", "unknown"}, {"grpc_method", "unknown"}}),
            300);
  EXPECT_EQ(Metric("grpc_server_handled_total", {{"grpc_method", "GetRatings"}}), 1);
  EXPECT_LT(metrics.size(), families_before.size() + 8192);
}

// Finding 4: a compressed request was inflated whole before the size limit applied (400 KB of
// gzip became 400 MB). Compressed requests are refused now, before they are inflated.
TEST_F(ServerEdgeTest, ACompressedRequestIsRefusedBeforeItIsInflated) {
  Start(Config());
  auto context = testing::ContextFor("mallory");
  context->set_compression_algorithm(GRPC_COMPRESS_GZIP);
  v1::GetRatingsRequest request;
  request.add_player_ids(std::string(64 << 20, 'a'));  // 64 MiB that gzip makes a few dozen KB
  v1::GetRatingsResponse response;
  const grpc::Status status = server_->stub().GetRatings(context.get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED) << status.error_message();
  ASSERT_TRUE(GetRatings("ana").ok());
}

// Deliverable 4: caps on connections in all and per peer address, closed at accept, so held idle
// connections never stop the server from accepting; once they close, new clients are served.
TEST_F(ServerEdgeTest, IdleConnectionsPastTheCapsAreClosedAndNewClientsServedOnceTheyGo) {
  RatingConfig config = Config();
  config.server.connection_caps = {.max_connections = 20, .max_connections_per_peer = 10};
  Start(std::move(config));
  std::vector<int> idle;
  // Twice the per-peer cap from one address: half are closed at once.
  for (int i = 0; i < 20; ++i) idle.push_back(IdleConnection(server_->port(), "127.0.0.2"));
  EXPECT_EQ(ClosedByServer(idle, absl::Seconds(1)), 10);
  EXPECT_EQ(Metric("kahve_connections_refused_total", {{"cap", "max_connections_per_peer"}}), 10);
  // Twice the server's cap in all, from a second address: the server is full at 20.
  std::vector<int> second;
  for (int i = 0; i < 20; ++i) second.push_back(IdleConnection(server_->port(), "127.0.0.3"));
  EXPECT_EQ(ClosedByServer(second, absl::Seconds(1)), 10);
  EXPECT_EQ(Metric("kahve_connections_refused_total", {{"cap", "max_connections"}}), 10);
  EXPECT_EQ(Metric("kahve_connections_open"), 20);
  idle.insert(idle.end(), second.begin(), second.end());
  // Full: a client is refused too.
  auto refused_client = v1::RatingService::NewStub(testing::LocalChannel(server_->port()));
  EXPECT_EQ(GetRatings("ana", refused_client.get()).error_code(), grpc::StatusCode::UNAVAILABLE);

  for (int fd : idle) close(fd);
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (Metric("kahve_connections_open") > 0 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  auto client = v1::RatingService::NewStub(testing::LocalChannel(server_->port()));
  const grpc::Status served = GetRatings("ana", client.get());
  EXPECT_TRUE(served.ok()) << served.error_message();
}

// Finding 3: 5,000 idle connections were never closed. Idle ones close after the timeout now.
TEST_F(ServerEdgeTest, AnIdleConnectionIsClosedAfterTheIdleTimeout) {
  RatingConfig config = Config();
  config.server.idle_timeout = absl::Seconds(1);
  Start(std::move(config));
  const int idle = IdleConnection(server_->port(), "127.0.0.1");
  EXPECT_EQ(ClosedByServer({idle}, absl::Seconds(10)), 1);
  close(idle);
}

// Deliverable 3: one identity's flood of calls is refused with RESOURCE_EXHAUSTED and a retry
// hint, alone: other players and the platform's own services go on.
TEST_F(ServerEdgeTest, OneIdentitysFloodIsRateLimitedAloneWithARetryHint) {
  RatingConfig config = Config();
  config.call_rate = {.calls_per_second = 5, .burst = 5};
  Start(std::move(config));
  int ok = 0;
  std::optional<grpc::Status> refusal;
  std::multimap<std::string, std::string> trailers;
  for (int i = 0; i < 30; ++i) {
    auto context = testing::ContextFor("mallory");
    const grpc::Status status = GetRatings("mallory", nullptr, context.get());
    if (status.ok()) {
      ++ok;
    } else if (!refusal.has_value()) {
      refusal = status;
      for (const auto& [key, value] : context->GetServerTrailingMetadata()) {
        trailers.emplace(std::string(key.data(), key.size()),
                         std::string(value.data(), value.size()));
      }
    }
  }
  EXPECT_GE(ok, 5);
  EXPECT_LT(ok, 30);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(refusal->error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refusal->error_message(), HasSubstr("max_calls_per_second"));
  absl::StatusOr<v1::RetryAfter> hint = testing::DetailOf<v1::RetryAfter>(*refusal);
  ASSERT_TRUE(hint.ok()) << hint.status();
  EXPECT_EQ(hint->limit(), "max_calls_per_second");
  const int64_t delay_ms = hint->delay().seconds() * 1000 + hint->delay().nanos() / 1000000;
  EXPECT_GT(delay_ms, 0);
  EXPECT_LE(delay_ms, 200);
  ASSERT_EQ(trailers.count("grpc-retry-pushback-ms"), 1u);
  int64_t pushback_ms = 0;
  EXPECT_TRUE(absl::SimpleAtoi(trailers.find("grpc-retry-pushback-ms")->second, &pushback_ms));
  EXPECT_EQ(pushback_ms, delay_ms);
  EXPECT_EQ(Metric("kahve_calls_rate_limited_total"), 30 - ok);

  // Another player, and the table service's own calls, are not slowed by mallory's flood.
  EXPECT_TRUE(GetRatings("ana").ok());
  for (int i = 0; i < 20; ++i) {
    auto service = testing::ContextFor("table-service", common::kRoleService);
    EXPECT_TRUE(GetRatings("ben", nullptr, service.get()).ok()) << i;
  }
  // After the hinted wait, mallory may call again. The hint is the one of mallory's latest
  // refusal: a call let through after the first refusal (the bucket refills while the flood goes
  // on, slowly under the sanitizers) took a token the first hint did not know about.
  absl::Duration latest_hint;
  bool refused_again = false;
  for (int i = 0; i < 100 && !refused_again; ++i) {
    auto context = testing::ContextFor("mallory");
    const grpc::Status status = GetRatings("mallory", nullptr, context.get());
    if (status.ok()) continue;
    ASSERT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
    absl::StatusOr<v1::RetryAfter> latest = testing::DetailOf<v1::RetryAfter>(status);
    ASSERT_TRUE(latest.ok()) << latest.status();
    latest_hint =
        absl::Seconds(latest->delay().seconds()) + absl::Nanoseconds(latest->delay().nanos());
    refused_again = true;
  }
  ASSERT_TRUE(refused_again);
  absl::SleepFor(latest_hint + absl::Milliseconds(50));
  const grpc::Status after_wait = GetRatings("mallory");
  EXPECT_TRUE(after_wait.ok()) << after_wait.error_message();
}

}  // namespace
}  // namespace kahve::rating
