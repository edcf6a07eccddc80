// kahve-rating: the rating and match history service. Flags and wiring only; see
// docs/configuration.md for every flag (each also read from KAHVE_<NAME>).

#include <cstdio>
#include <memory>

#include "services/common/auth.h"
#include "services/common/config.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/worker_pool.h"
#include "services/rating/rating_service.h"
#include "services/rating/rating_store.h"

namespace {

constexpr int kDefaultPort = 50053;
constexpr int kDefaultMetricsPort = 9093;

}  // namespace

int main(int argc, char** argv) {
  using namespace kahve;  // NOLINT: main wires many namespaces
  common::StartServiceProcess(argc, argv);

  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return common::CannotStart("kahve-rating", authenticator.status());
  auto pool_settings = common::PgPoolSettingsFromFlags("rating");
  if (!pool_settings.ok()) return common::CannotStart("kahve-rating", pool_settings.status());
  pool_settings->prepared = rating::RatingStore::PreparedStatements();
  for (auto& statement : rating::MatchWriter::PreparedStatements())
    pool_settings->prepared.push_back(std::move(statement));

  auto settings = rating::RatingServiceSettingsFromFlags();
  if (!settings.ok()) return common::CannotStart("kahve-rating", settings.status());

  common::Metrics metrics;
  common::PgPool pool(*pool_settings, &metrics.registry());
  rating::RatingStore store(&pool);
  common::WorkerPool workers(pool.size());
  rating::RatingMetrics rating_metrics(metrics.registry());
  rating::RatingService service(*std::move(settings), &pool, &store, authenticator->get(), &workers,
                                &rating_metrics);
  common::GrpcServer server(common::ServerSettingsFromFlags(kDefaultPort, kDefaultMetricsPort),
                            &metrics);
  server.AddService(&service, v1::RatingService::service_full_name());
  const absl::Status started = server.Start();
  if (!started.ok()) return common::CannotStart("kahve-rating", started);
  common::LogInfo("kahve-rating serving", {{"port", server.port()}});

  common::WaitForTerminationSignal();
  server.Shutdown();
  // The rest is torn down in reverse order of creation as main returns.
  return 0;
}
