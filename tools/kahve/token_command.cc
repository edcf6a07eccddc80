// kahve token: mints an HS256 bearer token for local use (the same secret the services verify).

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "services/common/auth.h"
#include "tools/kahve/commands.h"

ABSL_FLAG(std::string, player, "", "token: the player id, written as `sub` (required)");
ABSL_FLAG(std::string, role, "player",
          "token, replay: the role claim, one of player, service, admin (replay: admin may read "
          "a game still running)");
ABSL_FLAG(absl::Duration, ttl, absl::Hours(24),
          "token: how long the token stays valid (\"inf\": no exp claim)");

namespace kahve::tools {
namespace {

bool IsKnownRole(const std::string& role) {
  return role == common::kRolePlayer || role == common::kRoleService || role == common::kRoleAdmin;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "kahve token: %s\n", message.c_str());
  return 2;
}

}  // namespace

int TokenCommand(const std::vector<std::string>& args) {
  if (!args.empty()) return Fail("unexpected argument \"" + args[0] + "\"");
  const std::string secret = absl::GetFlag(FLAGS_jwt_hs256_secret);
  if (secret.empty()) {
    return Fail("no signing secret: set --jwt_hs256_secret or KAHVE_JWT_HS256_SECRET");
  }
  common::TokenClaims claims;
  claims.subject = absl::GetFlag(FLAGS_player);
  // Checked here too, so a token the services would refuse is never printed.
  if (claims.subject.empty()) return Fail("--player is required");
  if (claims.subject.size() > common::kMaxSubjectLength) {
    return Fail("--player is longer than " + std::to_string(common::kMaxSubjectLength) + " bytes");
  }
  claims.role = absl::GetFlag(FLAGS_role);
  if (!IsKnownRole(claims.role)) return Fail("--role must be player, service or admin");
  const absl::Duration ttl = absl::GetFlag(FLAGS_ttl);
  if (ttl <= absl::ZeroDuration()) return Fail("--ttl must be positive");
  // Issuer and audience as the services expect them, so the token verifies there unchanged.
  claims.issuer = absl::GetFlag(FLAGS_jwt_issuer);
  claims.audience = absl::GetFlag(FLAGS_jwt_audience);
  claims.issued_at = absl::Now();
  claims.expires_at =
      ttl == absl::InfiniteDuration() ? absl::InfiniteFuture() : claims.issued_at + ttl;
  std::printf("%s\n", common::MintHs256Token(secret, claims).c_str());
  return 0;
}

}  // namespace kahve::tools
