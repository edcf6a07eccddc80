// The `kahve load` drivers own every call they make until it is destroyed: when a run returns, no
// ClientContext of it is left. A context holds a reference to its channel; one destroyed by a
// completion after the driver had released its channels dropped the channel's last reference on
// gRPC's callback thread, which tore the channel down under that thread and aborted the process
// at exit now and then (`ref_counted.h:183 assertion failed: prior > 0`, about one `kahve load
// matchmaking --concurrency 1` in three).
//
// Fake servers answer at once; every call's channel has an interceptor whose destruction (with
// the call's context) is slow, as a thread descheduled right there would make it, and counts the
// contexts still alive. A driver that lets its run end before its last calls are destroyed
// returns with some still counted, every time.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/support/client_interceptor.h"
#include "gtest/gtest.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "kahve/v1/table.grpc.pb.h"
#include "tools/kahve/matchmaking_driver.h"
#include "tools/kahve/table_driver.h"

namespace kahve::tools {
namespace {

// How long destroying one call's context takes here.
constexpr auto kSlowTeardown = std::chrono::milliseconds(60);

// Client contexts (calls) of the drivers not destroyed yet.
std::atomic<int> live_calls{0};

class SlowTeardown : public grpc::experimental::Interceptor {
 public:
  SlowTeardown() { ++live_calls; }
  ~SlowTeardown() override {
    std::this_thread::sleep_for(kSlowTeardown);
    --live_calls;
  }
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    methods->Proceed();
  }
};

class SlowTeardownFactory : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* /*info*/) override {
    return new SlowTeardown;
  }
};

std::shared_ptr<grpc::Channel> SlowTeardownChannel(const std::string& target,
                                                   const grpc::ChannelArguments& args) {
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> factories;
  factories.push_back(std::make_unique<SlowTeardownFactory>());
  return grpc::experimental::CreateCustomChannelWithInterceptors(
      target, grpc::InsecureChannelCredentials(), args, std::move(factories));
}

// Every ticket is matched at once, to a table of its own.
class FakeMatchmaking final : public v1::MatchmakingService::Service {
 public:
  grpc::Status Enqueue(grpc::ServerContext* /*context*/, const v1::EnqueueRequest* request,
                       v1::EnqueueResponse* response) override {
    response->set_ticket_id(absl::StrCat("ticket-", request->request_id()));
    return grpc::Status::OK;
  }
  grpc::Status WatchTicket(grpc::ServerContext* /*context*/, const v1::WatchTicketRequest* request,
                           grpc::ServerWriter<v1::TicketUpdate>* writer) override {
    v1::TicketUpdate update;
    update.set_ticket_id(request->ticket_id());
    update.set_state(v1::TicketUpdate::MATCHED);
    v1::Assignment* assignment = update.mutable_assignment();
    assignment->set_table_id(absl::StrCat("table-", request->ticket_id()));
    assignment->set_table_endpoint("127.0.0.1:1");
    assignment->set_seat(0);
    assignment->set_seat_token("seat-token");
    writer->Write(update);
    return grpc::Status::OK;
  }
  grpc::Status CancelTicket(grpc::ServerContext* /*context*/,
                            const v1::CancelTicketRequest* /*request*/,
                            v1::CancelTicketResponse* /*response*/) override {
    return grpc::Status::OK;
  }
};

// Creates tables whose game is already over.
class FakeTables final : public v1::TableService::Service {
 public:
  grpc::Status CreateTable(grpc::ServerContext* /*context*/, const v1::CreateTableRequest* request,
                           v1::CreateTableResponse* response) override {
    response->set_table_id(absl::StrCat("table-", request->match_id()));
    for (int seat = 0; seat < request->seats_size(); ++seat) {
      v1::CreateTableResponse::SeatGrant* grant = response->add_seats();
      grant->set_seat(seat);
      grant->set_seat_token(absl::StrCat("seat-", seat));
    }
    return grpc::Status::OK;
  }
  grpc::Status GetView(grpc::ServerContext* /*context*/, const v1::GetViewRequest* /*request*/,
                       v1::GetViewResponse* response) override {
    response->mutable_view()->set_over(true);
    return grpc::Status::OK;
  }
};

// `service` on a free local port.
class FakeServer {
 public:
  explicit FakeServer(grpc::Service* service) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(service);
    server_ = builder.BuildAndStart();
  }
  ~FakeServer() { server_->Shutdown(std::chrono::system_clock::now()); }
  std::string target() const { return absl::StrCat("127.0.0.1:", port_); }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

// After a failed expectation, lets the stragglers finish before the next test.
void AwaitNoLiveCalls() {
  for (int i = 0; i < 200 && live_calls.load() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

TEST(LoadDriversTest, MatchmakingLoadReturnsOnlyOnceEveryCallIsDestroyed) {
  FakeMatchmaking service;
  FakeServer server(&service);
  for (const int concurrency : {1, 3}) {
    MatchmakingLoadSettings settings;
    settings.target = server.target();
    settings.jwt_secret = "load-drivers-test-secret-0123456789";
    settings.concurrency = concurrency;
    settings.warmup = absl::Milliseconds(100);
    settings.length = absl::Milliseconds(400);
    settings.drain = absl::Seconds(2);
    settings.channel_factory = &SlowTeardownChannel;
    const MatchmakingLoadReport report = RunMatchmakingLoad(settings);
    EXPECT_EQ(live_calls.load(), 0)
        << "calls of the run still alive when it returned (concurrency " << concurrency << ")";
    AwaitNoLiveCalls();
    EXPECT_GT(report.matched_total, 0) << report.first_error;
    EXPECT_EQ(report.duplicate_seats, 0);
    EXPECT_EQ(report.bad_assignments, 0) << report.first_error;
    EXPECT_TRUE(report.failures.empty()) << report.first_error;
  }
}

TEST(LoadDriversTest, TableLoadReturnsOnlyOnceEveryCallIsDestroyed) {
  FakeTables service;
  FakeServer server(&service);
  for (const int concurrency : {1, 3}) {
    TableDriverSettings settings;
    settings.target = server.target();
    settings.jwt_secret = "load-drivers-test-secret-0123456789";
    settings.tables = 4;
    settings.concurrency = concurrency;
    settings.games_per_table = 1;
    settings.length = absl::Seconds(20);
    settings.channel_factory = &SlowTeardownChannel;
    const TableDriverReport report = RunTableLoad(settings);
    EXPECT_EQ(live_calls.load(), 0)
        << "calls of the run still alive when it returned (concurrency " << concurrency << ")";
    AwaitNoLiveCalls();
    EXPECT_EQ(report.tables_created, 4) << report.first_error;
    EXPECT_EQ(report.games_finished, 4) << report.first_error;
    EXPECT_TRUE(report.complete);
  }
}

}  // namespace
}  // namespace kahve::tools
