#include "services/rating/rating_process.h"

#include <utility>

#include "services/rating/match_writer.h"

namespace kahve::rating {
namespace {

// The statements the store and the match writer prepare on every connection, added to `pool`.
common::PgPoolSettings WithStatements(common::PgPoolSettings pool) {
  for (auto& statement : RatingStore::PreparedStatements()) pool.prepared.push_back(statement);
  for (auto& statement : MatchWriter::PreparedStatements()) pool.prepared.push_back(statement);
  return pool;
}

}  // namespace

absl::StatusOr<RatingConfig> RatingConfigFromFlags(const common::ServerSettings& server) {
  RatingConfig config;
  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return authenticator.status();
  config.authenticator = *std::move(authenticator);
  config.call_rate = common::CallRateSettingsFromFlags();
  auto pool = common::PgPoolSettingsFromFlags("rating");
  if (!pool.ok()) return pool.status();
  config.pool = *std::move(pool);
  auto settings = RatingServiceSettingsFromFlags();
  if (!settings.ok()) return settings.status();
  config.service = *std::move(settings);
  config.server = server;
  // Only unary calls: clients may be sent to reconnect often, which spreads them over new
  // replicas.
  if (!config.server.max_connection_age.has_value()) {
    config.server.max_connection_age = absl::Minutes(5);
    config.server.max_connection_age_grace = absl::Seconds(30);
  }
  return config;
}

RatingProcess::RatingProcess(RatingConfig config)
    : config_(std::move(config)),
      pool_(WithStatements(config_.pool), &metrics_.registry()),
      store_(&pool_),
      workers_(config_.workers > 0 ? config_.workers : pool_.size()),
      gate_(config_.authenticator.get(), config_.call_rate, &metrics_.registry()),
      rating_metrics_(metrics_.registry()),
      service_(config_.service, &pool_, &store_, &gate_, &workers_,
               &rating_metrics_),
      server_(config_.server, &metrics_) {
  server_.AddService(&service_, v1::RatingService::service_full_name());
}

namespace {

absl::StatusOr<std::unique_ptr<common::ServiceProcess>> StartRating(
    const common::ServerSettings& server) {
  auto config = RatingConfigFromFlags(server);
  if (!config.ok()) return config.status();
  auto process = std::make_unique<RatingProcess>(*std::move(config));
  if (absl::Status listening = process->Start(); !listening.ok()) return listening;
  return process;
}

}  // namespace

const common::ServiceDescription kRatingService{.name = "kahve-rating",
                                                .summary = "ratings and match history (gRPC)",
                                                .default_port = 50053,
                                                .default_metrics_port = 9093,
                                                .start = &StartRating};

}  // namespace kahve::rating
