#ifndef KAHVE_SERVICES_COMMON_AUTH_H_
#define KAHVE_SERVICES_COMMON_AUTH_H_

// Bearer-JWT authentication for every service. Clients send `authorization: Bearer <JWT>`; the
// token is HS256 (a shared secret) or RS256 (an identity provider's public key). `sub` is the
// player id; the optional `role` claim is "service" (internal RPCs) or "admin"; absent: a player.

#include <memory>
#include <string>
#include <string_view>

#include "absl/flags/declare.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

// Defined in auth.cc; declared here for `kahve token`, which signs with the same secret.
ABSL_DECLARE_FLAG(std::string, jwt_hs256_secret);
ABSL_DECLARE_FLAG(std::string, jwt_rs256_public_key_file);
ABSL_DECLARE_FLAG(std::string, jwt_issuer);
ABSL_DECLARE_FLAG(std::string, jwt_audience);

namespace kahve::common {

inline constexpr char kRolePlayer[] = "player";
inline constexpr char kRoleService[] = "service";
inline constexpr char kRoleAdmin[] = "admin";

// The longest `sub` accepted, in bytes.
inline constexpr size_t kMaxSubjectLength = 128;

struct Identity {
  std::string subject;  // `sub`
  std::string role;     // kRolePlayer, kRoleService or kRoleAdmin
  // The call's request id (request_id.h), set by the call gate.
  std::string request_id;
};

struct AuthSettings {
  // HS256 shared secret; empty disables HS256.
  std::string hs256_secret;
  // RS256 public key in PEM; empty disables RS256.
  std::string rs256_public_key_pem;
  // When set, `iss` / `aud` must match.
  std::string issuer;
  std::string audience;
  // Clock skew allowed on exp / nbf.
  absl::Duration leeway = absl::Seconds(30);
};

// The settings from --jwt_hs256_secret, --jwt_rs256_public_key_file (read here), --jwt_issuer and
// --jwt_audience. InvalidArgument when the key file cannot be read; the keys themselves are
// checked by Authenticator::Create.
absl::StatusOr<AuthSettings> AuthSettingsFromFlags();

class Authenticator {
 public:
  // InvalidArgument when neither key is set, or the PEM is not an RSA public key ("BEGIN PUBLIC
  // KEY") of at least 2048 bits.
  static absl::StatusOr<std::unique_ptr<Authenticator>> Create(const AuthSettings& settings);
  virtual ~Authenticator() = default;

  // Verifies the value of an `authorization` header ("Bearer <JWT>"; the scheme is
  // case-insensitive, RFC 7235). Unauthenticated, with a short reason (missing, malformed, bad
  // signature, unsupported alg, expired, not yet valid, wrong issuer or audience, no sub, unknown
  // role), for anything but a valid token; the reason never quotes the token. A token is valid
  // when its alg is HS256 or RS256 and a key is configured for that alg, its signature checks,
  // now < exp + leeway and now >= nbf - leeway (each when present), iss and aud match when
  // configured (aud may be an array), sub is 1 to kMaxSubjectLength bytes and role is absent
  // (a player) or one of the three roles. Safe to call from many threads at once.
  virtual absl::StatusOr<Identity> Verify(std::string_view authorization, absl::Time now) const = 0;
};

// PermissionDenied unless the identity has `role` (an admin has every role).
absl::Status RequireRole(const Identity& identity, std::string_view role);

struct TokenClaims {
  std::string subject;
  std::string role;  // empty: a player
  std::string issuer;
  std::string audience;
  absl::Time issued_at = absl::UnixEpoch();
  absl::Time expires_at = absl::InfiniteFuture();  // InfiniteFuture: no exp claim
};

// An HS256 JWT for the claims (`kahve token`, tests, local use): header
// {"alg":"HS256","typ":"JWT"}; claims sub, role / iss / aud when non-empty, iat, and exp when
// finite (whole seconds).
std::string MintHs256Token(const std::string& secret, const TokenClaims& claims);

// The Authenticator the --jwt_* flags describe (AuthSettingsFromFlags, then Create).
absl::StatusOr<std::unique_ptr<Authenticator>> AuthenticatorFromFlags();

// A signing key: `configured` (the value of the service's --`flag`) when set, else
// --jwt_hs256_secret. InvalidArgument when neither is set: nothing may be signed with an empty key.
absl::StatusOr<std::string> SecretFromFlags(const std::string& configured, const std::string& flag);

// The bearer token a service presents to the services it calls: `configured` (the value of the
// service's --`flag`) when set, else one minted for `subject` with the service role (and the
// configured issuer and audience) from --jwt_hs256_secret. InvalidArgument when neither is there.
absl::StatusOr<std::string> ServiceTokenFromFlags(const std::string& configured,
                                                  const std::string& subject,
                                                  const std::string& flag);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_AUTH_H_
