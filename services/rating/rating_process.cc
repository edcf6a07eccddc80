#include "services/rating/rating_process.h"

#include <memory>
#include <utility>

#include "services/common/auth.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/worker_pool.h"
#include "services/rating/match_writer.h"
#include "services/rating/rating_service.h"
#include "services/rating/rating_store.h"

namespace kahve::rating {
namespace {

class RatingProcess final : public common::ServiceProcess {
 public:
  RatingProcess(std::unique_ptr<common::Authenticator> authenticator,
                common::PgPoolSettings pool_settings, RatingServiceSettings settings,
                const common::ServerSettings& server_settings)
      : authenticator_(std::move(authenticator)),
        pool_(std::move(pool_settings), &metrics_.registry()),
        store_(&pool_),
        workers_(pool_.size()),
        rating_metrics_(metrics_.registry()),
        service_(std::move(settings), &pool_, &store_, authenticator_.get(), &workers_,
                 &rating_metrics_),
        server_(server_settings, &metrics_) {
    server_.AddService(&service_, v1::RatingService::service_full_name());
  }

  absl::Status Listen() { return server_.Start(); }
  int port() const override { return server_.port(); }
  void Stop() override { server_.Shutdown(); }

 private:
  std::unique_ptr<common::Authenticator> authenticator_;
  common::Metrics metrics_;
  common::PgPool pool_;
  RatingStore store_;
  common::WorkerPool workers_;
  RatingMetrics rating_metrics_;
  RatingService service_;
  common::GrpcServer server_;
};

absl::StatusOr<std::unique_ptr<common::ServiceProcess>> StartRating(
    const common::ServerSettings& server) {
  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return authenticator.status();
  auto pool_settings = common::PgPoolSettingsFromFlags("rating");
  if (!pool_settings.ok()) return pool_settings.status();
  pool_settings->prepared = RatingStore::PreparedStatements();
  for (auto& statement : MatchWriter::PreparedStatements())
    pool_settings->prepared.push_back(std::move(statement));
  auto settings = RatingServiceSettingsFromFlags();
  if (!settings.ok()) return settings.status();

  // Only unary calls: clients may be sent to reconnect, which spreads them over new replicas.
  common::ServerSettings server_settings = server;
  server_settings.max_connection_age = absl::Minutes(5);
  auto process = std::make_unique<RatingProcess>(
      *std::move(authenticator), *std::move(pool_settings), *std::move(settings), server_settings);
  if (absl::Status listening = process->Listen(); !listening.ok()) return listening;
  return process;
}

}  // namespace

const common::ServiceDescription kRatingService{.name = "kahve-rating",
                                                .summary = "ratings and match history (gRPC)",
                                                .default_port = 50053,
                                                .default_metrics_port = 9093,
                                                .start = &StartRating};

}  // namespace kahve::rating
