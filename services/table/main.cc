// kahve-table: the table service (the referee). Flags and wiring only; see docs/configuration.md
// for every flag (each also read from KAHVE_<NAME>).

#include <unistd.h>

#include <memory>
#include <thread>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/config.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/worker_pool.h"
#include "services/table/event_log.h"
#include "services/table/outbox.h"
#include "services/table/table_host.h"
#include "services/table/table_service.h"

ABSL_FLAG(std::string, host_id, "",
          "Table: this host's id in the host registry; it owns the tables it creates and reloads "
          "them at start. Empty: the machine's hostname.");
ABSL_FLAG(std::string, advertise, "",
          "Table: the endpoint (host:port) matchmaking hands to clients for this host. Empty: "
          "<hostname>:<port>.");
ABSL_FLAG(std::string, seat_token_secret, "",
          "Table: key seat tokens derive from; empty: --jwt_hs256_secret.");
ABSL_FLAG(std::string, rating_target, "127.0.0.1:50053",
          "Table: the rating service (host:port) finished matches are sent to.");
ABSL_FLAG(std::string, rating_token, "",
          "Table: bearer token (service role) for calling the rating service; empty: minted from "
          "--jwt_hs256_secret.");
ABSL_FLAG(int32_t, log_writers, 1, "Table: event log group-commit threads.");
ABSL_FLAG(int32_t, finished_linger_seconds, 60,
          "Table: how long a finished table stays in memory for late streams.");
ABSL_DECLARE_FLAG(std::string, database);
ABSL_DECLARE_FLAG(int32_t, port);

namespace {

constexpr int kDefaultPort = 50052;
constexpr int kDefaultMetricsPort = 9092;

std::string Hostname() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kahve;  // NOLINT: main wires many namespaces
  common::StartServiceProcess(argc, argv);

  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return common::CannotStart("kahve-table", authenticator.status());
  auto pool_settings = common::PgPoolSettingsFromFlags("table");
  if (!pool_settings.ok()) return common::CannotStart("kahve-table", pool_settings.status());
  auto seat_key_or =
      common::SecretFromFlags(absl::GetFlag(FLAGS_seat_token_secret), "seat_token_secret");
  if (!seat_key_or.ok()) return common::CannotStart("kahve-table", seat_key_or.status());
  const std::string seat_key = *seat_key_or;
  auto rating_bearer_or = common::ServiceTokenFromFlags(absl::GetFlag(FLAGS_rating_token),
                                                        "kahve-table", "rating_token");
  if (!rating_bearer_or.ok()) return common::CannotStart("kahve-table", rating_bearer_or.status());
  const std::string rating_bearer = *rating_bearer_or;
  const std::string host_id =
      absl::GetFlag(FLAGS_host_id).empty() ? Hostname() : absl::GetFlag(FLAGS_host_id);

  common::Metrics metrics;
  common::PgPool pool(*pool_settings, &metrics.registry());
  table::EventLog log(
      table::EventLogSettings{.url = pool_settings->url,
                              .host_id = host_id,
                              .writers = std::max(1, absl::GetFlag(FLAGS_log_writers))},
      pool, metrics.registry());
  table::TableMetrics table_metrics(metrics.registry());
  table::TableHost host(table::TableHostSettings{.seat_token_key = seat_key,
                                                 .finished_linger = absl::Seconds(
                                                     absl::GetFlag(FLAGS_finished_linger_seconds))},
                        &log, &table_metrics);
  const absl::Status loaded = host.LoadUnfinished();
  if (!loaded.ok()) return common::CannotStart("kahve-table", loaded);
  common::WorkerPool workers(4);
  table::TableService service(&host, authenticator->get(), &workers);
  common::GrpcServer server(common::ServerSettingsFromFlags(kDefaultPort, kDefaultMetricsPort),
                            &metrics);
  server.AddService(&service, v1::TableService::service_full_name());
  const absl::Status started = server.Start();
  if (!started.ok()) return common::CannotStart("kahve-table", started);
  const std::string endpoint = absl::GetFlag(FLAGS_advertise).empty()
                                   ? absl::StrCat(Hostname(), ":", server.port())
                                   : absl::GetFlag(FLAGS_advertise);

  // Finished matches go to the rating service from the durable outbox, retried until acknowledged.
  auto rating = v1::RatingService::NewStub(
      grpc::CreateChannel(absl::GetFlag(FLAGS_rating_target), grpc::InsecureChannelCredentials()));
  table::Outbox outbox(pool, metrics.registry());
  table::OutboxRelay relay(outbox, [&](const std::string& match_id, const std::string& payload) {
    v1::RecordMatchRequest request;
    if (!request.ParseFromString(payload)) return absl::DataLossError("outbox payload unreadable");
    grpc::ClientContext context;
    context.AddMetadata("authorization", absl::StrCat("Bearer ", rating_bearer));
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::RecordMatchResponse response;
    const grpc::Status status = rating->RecordMatch(&context, request, &response);
    if (status.ok()) return absl::OkStatus();
    return absl::UnavailableError(
        absl::StrCat("RecordMatch of ", match_id, ": ", status.error_message()));
  });

  // The host registry: matchmaking places tables on live hosts, least loaded first.
  absl::Notification stop_heartbeat;
  std::thread heartbeat([&] {
    bool draining = false;
    do {
      draining = stop_heartbeat.HasBeenNotified();
      const absl::Status beat = log.Heartbeat(host_id, endpoint, host.live_tables(), draining);
      if (!beat.ok()) {
        common::LogWarning("heartbeat failed", {{"error", std::string(beat.message())}});
      }
    } while (!draining && !stop_heartbeat.WaitForNotificationWithTimeout(absl::Seconds(2)));
  });
  common::LogInfo("kahve-table serving",
                  {{"host_id", host_id}, {"endpoint", endpoint}, {"tables", host.live_tables()}});

  common::WaitForTerminationSignal();
  stop_heartbeat.Notify();
  heartbeat.join();
  server.Shutdown([&host] { host.BeginShutdown(); });
  log.Shutdown();
  relay.Stop();
  return 0;
}
