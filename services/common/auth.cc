#include "services/common/auth.h"

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "base/status_macros.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "services/common/logging.h"
#include "services/common/request_checks.h"
#include "services/common/sha256.h"

ABSL_FLAG(
    std::string, jwt_hs256_secret, "",
    "Shared secret that signs and verifies HS256 bearer tokens (use at least 32 random bytes); "
    "empty: HS256 tokens are rejected");
ABSL_FLAG(
    std::string, jwt_rs256_public_key_file, "",
    "PEM file holding the identity provider's RSA public key (BEGIN PUBLIC KEY, at least 2048 "
    "bits) that verifies RS256 bearer tokens; empty: RS256 tokens are rejected");
ABSL_FLAG(std::string, jwt_issuer, "",
          "When set, bearer tokens must carry this `iss` claim (and `kahve token` writes it)");
ABSL_FLAG(std::string, jwt_audience, "",
          "When set, bearer tokens must name this audience in `aud`, a string or an array (and "
          "`kahve token` writes it)");

namespace kahve::common {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

constexpr char kAlgHs256[] = "HS256";
constexpr char kAlgRs256[] = "RS256";
// Far above any real token, well under gRPC's 8 KiB metadata default: bounds the work per call.
constexpr size_t kMaxTokenLength = 8192;
// RFC 7518 section 3.3: RS256 keys must have at least 2048 bits.
constexpr int kMinRsaBits = 2048;
constexpr size_t kHs256SignatureLength = 32;

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

absl::Status Unauthenticated(const char* reason) { return absl::UnauthenticatedError(reason); }

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

std::string Base64UrlEncode(std::string_view bytes) {
  return absl::WebSafeBase64Escape(std::string(bytes));
}

// Accepts only the canonical unpadded spelling (no '=', whitespace or stray low bits), so a token
// has exactly one spelling that verifies.
bool Base64UrlDecode(std::string_view text, std::string* bytes) {
  return absl::WebSafeBase64Unescape(std::string(text), bytes) && Base64UrlEncode(*bytes) == text;
}

bool VerifyRs256(EVP_PKEY* key, std::string_view signing_input, std::string_view signature) {
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  EVP_PKEY_CTX* key_ctx = nullptr;  // Owned by ctx.
  bool ok = ctx != nullptr &&
            EVP_DigestVerifyInit(ctx.get(), &key_ctx, EVP_sha256(), nullptr, key) == 1 &&
            EVP_PKEY_CTX_set_rsa_padding(key_ctx, RSA_PKCS1_PADDING) == 1 &&
            EVP_DigestVerify(ctx.get(), Bytes(signature), signature.size(), Bytes(signing_input),
                             signing_input.size()) == 1;
  // A failed check queues errors on this thread; leave the queue clean for the next OpenSSL user.
  ERR_clear_error();
  return ok;
}

// Protobuf's JSON mapping of Struct: numbers become doubles, which is all JWT needs.
bool ParseJsonObject(const std::string& json, Struct* object) {
  return google::protobuf::util::JsonStringToMessage(json, object).ok();
}

const Value* FindField(const Struct& object, const std::string& name) {
  auto it = object.fields().find(name);
  return it == object.fields().end() ? nullptr : &it->second;
}

bool IsString(const Value* value) {
  return value != nullptr && value->kind_case() == Value::kStringValue;
}

// RFC 7519 section 5.1 recommends "JWT"; RFC 9068 access tokens say "at+jwt". Media types are
// case-insensitive and may carry the "application/" prefix (RFC 7515 section 4.1.9).
bool IsJwtType(std::string type) {
  absl::AsciiStrToLower(&type);
  if (type.rfind("application/", 0) == 0) type.erase(0, std::strlen("application/"));
  return type == "jwt" || type == "at+jwt";
}

// The token after "Bearer " (scheme case-insensitive, RFC 7235 section 2.1).
absl::StatusOr<std::string_view> BearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer";
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!authorization.empty() && blank(authorization.front())) authorization.remove_prefix(1);
  while (!authorization.empty() && blank(authorization.back())) authorization.remove_suffix(1);
  if (authorization.empty()) return Unauthenticated("missing authorization header");
  const bool bearer =
      authorization.size() >= kScheme.size() &&
      std::equal(kScheme.begin(), kScheme.end(), authorization.begin(),
                 [](char want, char got) { return want == absl::ascii_tolower(got); }) &&
      (authorization.size() == kScheme.size() || authorization[kScheme.size()] == ' ');
  if (!bearer) return Unauthenticated("authorization is not a Bearer token");
  authorization.remove_prefix(kScheme.size());
  while (!authorization.empty() && authorization.front() == ' ') authorization.remove_prefix(1);
  if (authorization.empty()) return Unauthenticated("missing bearer token");
  if (authorization.size() > kMaxTokenLength) return Unauthenticated("token too long");
  return authorization;
}

struct TokenParts {
  std::string_view header;
  std::string_view payload;
  std::string_view signature;
  std::string_view signing_input;  // header '.' payload: what the signature covers
};

absl::StatusOr<TokenParts> SplitToken(std::string_view token) {
  const size_t first = token.find('.');
  const size_t second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    return Unauthenticated("malformed token: expected three dot-separated parts");
  }
  TokenParts parts;
  parts.header = token.substr(0, first);
  parts.payload = token.substr(first + 1, second - first - 1);
  parts.signature = token.substr(second + 1);
  parts.signing_input = token.substr(0, second);
  return parts;
}

absl::StatusOr<Struct> DecodeJsonPart(std::string_view part, const char* not_base64,
                                      const char* not_json) {
  std::string json;
  if (!Base64UrlDecode(part, &json)) return Unauthenticated(not_base64);
  Struct object;
  if (!ParseJsonObject(json, &object)) return Unauthenticated(not_json);
  return object;
}

// A NumericDate claim (RFC 7519 section 2): seconds since the epoch, fractions allowed.
absl::StatusOr<std::optional<absl::Time>> NumericDate(const Struct& claims, const char* name,
                                                      const char* malformed) {
  const Value* value = FindField(claims, name);
  if (value == nullptr) return std::nullopt;
  if (value->kind_case() != Value::kNumberValue || !std::isfinite(value->number_value())) {
    return Unauthenticated(malformed);
  }
  return absl::UnixEpoch() + absl::Seconds(value->number_value());
}

bool AudienceMatches(const Value* aud, const std::string& audience) {
  if (IsString(aud)) return aud->string_value() == audience;
  if (aud == nullptr || aud->kind_case() != Value::kListValue) return false;
  for (const Value& entry : aud->list_value().values()) {
    if (IsString(&entry) && entry.string_value() == audience) return true;
  }
  return false;
}

// Tokens that passed verification, so that a client's next call with the same token costs a
// lookup instead of a signature check and two JSON parses (a client makes many calls with one
// token: every move of a game). Only the times are checked again. Bounded: when full it starts
// over, which costs one full verification per token in use.
class VerifiedTokens {
 public:
  struct Entry {
    Identity identity;
    // Accepted while not_before <= now < expires (the leeway already applied).
    absl::Time not_before = absl::InfinitePast();
    absl::Time expires = absl::InfiniteFuture();
  };

  std::optional<Identity> Find(std::string_view token, absl::Time now) const {
    absl::MutexLock lock(&mu_);
    // Debian's absl::string_view is not std::string_view.
    const auto found = entries_.find(absl::string_view(token.data(), token.size()));
    if (found == entries_.end()) return std::nullopt;
    const Entry& entry = found->second;
    // Outside its window the full verification runs again and gives the precise refusal.
    if (now < entry.not_before || now >= entry.expires) return std::nullopt;
    return entry.identity;
  }

  void Add(std::string_view token, Entry entry) const {
    absl::MutexLock lock(&mu_);
    if (entries_.size() >= kMaxEntries) entries_.clear();
    entries_.insert_or_assign(std::string(token), std::move(entry));
  }

 private:
  static constexpr size_t kMaxEntries = 65536;
  mutable absl::Mutex mu_;
  mutable absl::flat_hash_map<std::string, Entry> entries_ ABSL_GUARDED_BY(mu_);
};

class JwtAuthenticator final : public Authenticator {
 public:
  JwtAuthenticator(const AuthSettings& settings, PkeyPtr rsa_key)
      : settings_(settings), rsa_key_(std::move(rsa_key)) {}

  absl::StatusOr<Identity> Verify(std::string_view authorization, absl::Time now) const override {
    KAHVE_ASSIGN_OR_RETURN(const std::string_view token, BearerToken(authorization));
    if (std::optional<Identity> known = verified_.Find(token, now)) return *std::move(known);
    KAHVE_ASSIGN_OR_RETURN(const TokenParts parts, SplitToken(token));
    KAHVE_ASSIGN_OR_RETURN(const Struct header,
                           DecodeJsonPart(parts.header, "malformed token: header is not base64url",
                                          "malformed token: header is not a JSON object"));
    KAHVE_RETURN_IF_ERROR(CheckHeaderAndSignature(header, parts));
    // The payload is parsed only once its signature holds.
    KAHVE_ASSIGN_OR_RETURN(
        const Struct claims,
        DecodeJsonPart(parts.payload, "malformed token: payload is not base64url",
                       "malformed token: payload is not a JSON object"));
    KAHVE_ASSIGN_OR_RETURN(VerifiedTokens::Entry entry, CheckTimes(claims, now));
    KAHVE_RETURN_IF_ERROR(CheckIssuerAndAudience(claims));
    KAHVE_ASSIGN_OR_RETURN(entry.identity, IdentityOf(claims));
    verified_.Add(token, entry);
    return entry.identity;
  }

 private:
  absl::Status CheckHeaderAndSignature(const Struct& header, const TokenParts& parts) const {
    const Value* alg = FindField(header, "alg");
    if (!IsString(alg)) return Unauthenticated("malformed token: header has no alg");
    const Value* typ = FindField(header, "typ");
    if (typ != nullptr && !(IsString(typ) && IsJwtType(typ->string_value()))) {
      return Unauthenticated("malformed token: typ is not JWT");
    }
    // RFC 7515 section 4.1.11: extensions we do not implement must not be ignored.
    if (FindField(header, "crit") != nullptr) return Unauthenticated("unsupported crit header");
    std::string signature;
    if (!Base64UrlDecode(parts.signature, &signature)) {
      return Unauthenticated("malformed token: signature is not base64url");
    }
    // Each alg uses only its own key: an RS256 public key is never tried as an HMAC secret, and
    // "none" or any other alg has no key at all.
    bool valid = false;
    if (alg->string_value() == kAlgHs256 && !settings_.hs256_secret.empty()) {
      const std::string expected = HmacSha256(settings_.hs256_secret, parts.signing_input);
      valid = signature.size() == kHs256SignatureLength && expected.size() == signature.size() &&
              CRYPTO_memcmp(expected.data(), signature.data(), signature.size()) == 0;
    } else if (alg->string_value() == kAlgRs256 && rsa_key_ != nullptr) {
      valid = VerifyRs256(rsa_key_.get(), parts.signing_input, signature);
    } else {
      return Unauthenticated("unsupported alg: expected HS256 or RS256 with a configured key");
    }
    return valid ? absl::OkStatus() : Unauthenticated("bad signature");
  }

  // The window in which the token is valid (leeway applied); refused when `now` is outside it.
  absl::StatusOr<VerifiedTokens::Entry> CheckTimes(const Struct& claims, absl::Time now) const {
    VerifiedTokens::Entry window;
    KAHVE_ASSIGN_OR_RETURN(const std::optional<absl::Time> exp,
                           NumericDate(claims, "exp", "malformed exp claim"));
    if (exp.has_value()) window.expires = *exp + settings_.leeway;
    if (now >= window.expires) return Unauthenticated("token expired");
    KAHVE_ASSIGN_OR_RETURN(const std::optional<absl::Time> nbf,
                           NumericDate(claims, "nbf", "malformed nbf claim"));
    if (nbf.has_value()) window.not_before = *nbf - settings_.leeway;
    if (now < window.not_before) return Unauthenticated("token not yet valid");
    return window;
  }

  absl::Status CheckIssuerAndAudience(const Struct& claims) const {
    if (!settings_.issuer.empty()) {
      const Value* iss = FindField(claims, "iss");
      if (!IsString(iss) || iss->string_value() != settings_.issuer) {
        return Unauthenticated("wrong issuer");
      }
    }
    if (!settings_.audience.empty() &&
        !AudienceMatches(FindField(claims, "aud"), settings_.audience)) {
      return Unauthenticated("wrong audience");
    }
    return absl::OkStatus();
  }

  static absl::StatusOr<Identity> IdentityOf(const Struct& claims) {
    const Value* sub = FindField(claims, "sub");
    if (!IsString(sub) || sub->string_value().empty()) return Unauthenticated("missing sub");
    if (sub->string_value().size() > kMaxSubjectLength) return Unauthenticated("sub too long");
    // The subject becomes a player id in SQL, logs and other players' views.
    if (!IsPrintable(sub->string_value())) return Unauthenticated("sub has control characters");
    Identity identity{.subject = sub->string_value(), .role = kRolePlayer};
    const Value* role = FindField(claims, "role");
    if (role == nullptr) return identity;
    if (IsString(role) &&
        (role->string_value() == kRolePlayer || role->string_value() == kRoleService ||
         role->string_value() == kRoleAdmin)) {
      identity.role = role->string_value();
      return identity;
    }
    return Unauthenticated("unknown role");
  }

  const AuthSettings settings_;
  const PkeyPtr rsa_key_;  // null: RS256 disabled
  VerifiedTokens verified_;
};

absl::StatusOr<PkeyPtr> ParseRsaPublicKey(const std::string& pem) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  PkeyPtr key(bio == nullptr ? nullptr : PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
  ERR_clear_error();
  if (key == nullptr) {
    return absl::InvalidArgumentError("RS256 key is not a PEM public key (BEGIN PUBLIC KEY)");
  }
  // Anything but RSA (EC, Ed25519, RSA-PSS) would verify a different algorithm than RS256.
  if (EVP_PKEY_is_a(key.get(), "RSA") != 1) {
    return absl::InvalidArgumentError("RS256 key is not an RSA public key");
  }
  if (EVP_PKEY_get_bits(key.get()) < kMinRsaBits) {
    return absl::InvalidArgumentError("RS256 key is shorter than 2048 bits");
  }
  return key;
}

absl::StatusOr<std::string> ReadKeyFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open --jwt_rs256_public_key_file ", path, ": ", std::strerror(errno)));
  }
  std::string contents;
  char buffer[4096];
  size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof(buffer), file)) > 0) contents.append(buffer, read);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read --jwt_rs256_public_key_file ", path));
  }
  return contents;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Authenticator>> Authenticator::Create(const AuthSettings& settings) {
  if (settings.hs256_secret.empty() && settings.rs256_public_key_pem.empty()) {
    return absl::InvalidArgumentError(
        "no JWT key configured: set an HS256 secret or an RS256 public key "
        "(--jwt_hs256_secret, --jwt_rs256_public_key_file)");
  }
  PkeyPtr rsa_key;
  if (!settings.rs256_public_key_pem.empty()) {
    KAHVE_ASSIGN_OR_RETURN(rsa_key, ParseRsaPublicKey(settings.rs256_public_key_pem));
  }
  return std::make_unique<JwtAuthenticator>(settings, std::move(rsa_key));
}

absl::Status RequireRole(const Identity& identity, std::string_view role) {
  if (identity.role == role || identity.role == kRoleAdmin) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat("requires role ", std::string(role)));
}

absl::StatusOr<AuthSettings> AuthSettingsFromFlags() {
  AuthSettings settings;
  settings.hs256_secret = absl::GetFlag(FLAGS_jwt_hs256_secret);
  settings.issuer = absl::GetFlag(FLAGS_jwt_issuer);
  settings.audience = absl::GetFlag(FLAGS_jwt_audience);
  const std::string key_file = absl::GetFlag(FLAGS_jwt_rs256_public_key_file);
  if (!key_file.empty()) {
    KAHVE_ASSIGN_OR_RETURN(settings.rs256_public_key_pem, ReadKeyFile(key_file));
  }
  return settings;
}

absl::StatusOr<std::unique_ptr<Authenticator>> AuthenticatorFromFlags() {
  KAHVE_ASSIGN_OR_RETURN(const AuthSettings settings, AuthSettingsFromFlags());
  return Authenticator::Create(settings);
}

absl::StatusOr<std::string> SecretFromFlags(const std::string& configured,
                                            const std::string& flag) {
  if (!configured.empty()) return configured;
  const std::string secret = absl::GetFlag(FLAGS_jwt_hs256_secret);
  if (secret.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, " (or --jwt_hs256_secret) required"));
  }
  return secret;
}

absl::StatusOr<std::string> ServiceTokenFromFlags(const std::string& configured,
                                                  const std::string& subject,
                                                  const std::string& flag) {
  if (!configured.empty()) return configured;
  auto secret = SecretFromFlags("", flag);
  if (!secret.ok()) return secret.status();
  TokenClaims claims;
  claims.subject = subject;
  claims.role = kRoleService;
  // The services it calls check issuer and audience when configured: the token must carry them.
  claims.issuer = absl::GetFlag(FLAGS_jwt_issuer);
  claims.audience = absl::GetFlag(FLAGS_jwt_audience);
  return MintHs256Token(*secret, claims);
}

std::string MintHs256Token(const std::string& secret, const TokenClaims& claims) {
  std::string payload = absl::StrCat("{\"sub\":", JsonString(claims.subject));
  if (!claims.role.empty()) absl::StrAppend(&payload, ",\"role\":", JsonString(claims.role));
  if (!claims.issuer.empty()) absl::StrAppend(&payload, ",\"iss\":", JsonString(claims.issuer));
  if (!claims.audience.empty()) {
    absl::StrAppend(&payload, ",\"aud\":", JsonString(claims.audience));
  }
  absl::StrAppend(&payload, ",\"iat\":", absl::ToUnixSeconds(claims.issued_at));
  if (claims.expires_at != absl::InfiniteFuture()) {
    absl::StrAppend(&payload, ",\"exp\":", absl::ToUnixSeconds(claims.expires_at));
  }
  payload += '}';
  const std::string signing_input = absl::StrCat(Base64UrlEncode(R"({"alg":"HS256","typ":"JWT"})"),
                                                 ".", Base64UrlEncode(payload));
  return absl::StrCat(signing_input, ".", Base64UrlEncode(HmacSha256(secret, signing_input)));
}

}  // namespace kahve::common
