#include "services/common/auth.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace kahve::common {
namespace {

// Tokens here are built by hand with OpenSSL, not by the code under test, so a bug shared by
// minting and verifying cannot hide.

const absl::Time kNow = absl::FromUnixSeconds(1'700'000'000);
constexpr char kSecret[] = "a-test-secret-of-thirty-two-bytes";
constexpr char kHs256Header[] = R"({"alg":"HS256","typ":"JWT"})";
constexpr char kRs256Header[] = R"({"alg":"RS256","typ":"JWT"})";
constexpr char kPlayerClaims[] = R"({"sub":"p1","exp":1700003600})";

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

std::string B64(std::string_view bytes) { return absl::WebSafeBase64Escape(std::string(bytes)); }

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length);
  return std::string(reinterpret_cast<const char*>(mac), length);
}

std::string SignHs256(std::string_view secret, std::string_view header, std::string_view claims) {
  const std::string input = absl::StrCat(B64(header), ".", B64(claims));
  return absl::StrCat(input, ".", B64(HmacSha256(secret, input)));
}

std::string SignRs256(EVP_PKEY* private_key, std::string_view header, std::string_view claims) {
  const std::string input = absl::StrCat(B64(header), ".", B64(claims));
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  size_t length = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(input.data());
  EXPECT_EQ(EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, private_key), 1);
  EXPECT_EQ(EVP_DigestSign(ctx, nullptr, &length, data, input.size()), 1);
  std::string signature(length, '\0');
  EXPECT_EQ(EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(signature.data()), &length, data,
                           input.size()),
            1);
  EVP_MD_CTX_free(ctx);
  signature.resize(length);
  return absl::StrCat(input, ".", B64(signature));
}

std::string PublicPem(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  EXPECT_EQ(PEM_write_bio_PUBKEY(bio, key), 1);
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(length));
  BIO_free(bio);
  return pem;
}

std::string PrivatePem(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  EXPECT_EQ(PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr), 1);
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(length));
  BIO_free(bio);
  return pem;
}

testing::AssertionResult FailsWith(const absl::Status& status, absl::StatusCode code,
                                   std::string_view reason) {
  if (status.code() == code && status.message().find(std::string(reason)) != std::string::npos) {
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure()
         << "got " << status << ", want code " << absl::StatusCodeToString(code) << " with \""
         << reason << "\"";
}

testing::AssertionResult Unauthenticated(const absl::StatusOr<Identity>& result,
                                         std::string_view reason) {
  return FailsWith(result.status(), absl::StatusCode::kUnauthenticated, reason);
}

std::string Bearer(std::string_view token) { return absl::StrCat("Bearer ", std::string(token)); }

class AuthTest : public testing::Test {
 protected:
  // RSA key generation takes a while: one key pair for the whole suite.
  static void SetUpTestSuite() {
    rsa_key_ = EVP_RSA_gen(2048);
    ASSERT_NE(rsa_key_, nullptr);
    rsa_public_pem_ = new std::string(PublicPem(rsa_key_));
  }
  static void TearDownTestSuite() {
    EVP_PKEY_free(rsa_key_);
    delete rsa_public_pem_;
  }

  static std::unique_ptr<Authenticator> Make(const AuthSettings& settings) {
    auto authenticator = Authenticator::Create(settings);
    EXPECT_TRUE(authenticator.ok()) << authenticator.status();
    return authenticator.ok() ? std::move(*authenticator) : nullptr;
  }
  static std::unique_ptr<Authenticator> Hs256Only() { return Make({.hs256_secret = kSecret}); }
  static std::unique_ptr<Authenticator> Rs256Only() {
    return Make({.rs256_public_key_pem = *rsa_public_pem_});
  }

  static EVP_PKEY* rsa_key_;
  static std::string* rsa_public_pem_;
};

EVP_PKEY* AuthTest::rsa_key_ = nullptr;
std::string* AuthTest::rsa_public_pem_ = nullptr;

TEST_F(AuthTest, MintedTokenVerifies) {
  const std::string token = MintHs256Token(
      kSecret, {.subject = "p1", .issued_at = kNow, .expires_at = kNow + absl::Hours(1)});
  const absl::StatusOr<Identity> identity = Hs256Only()->Verify(Bearer(token), kNow);
  ASSERT_TRUE(identity.ok()) << identity.status();
  EXPECT_EQ(identity->subject, "p1");
  EXPECT_EQ(identity->role, kRolePlayer);
}

TEST_F(AuthTest, MintWritesStandardHeaderAndClaims) {
  const std::string token = MintHs256Token(kSecret, {.subject = "p\"1\\",
                                                     .role = kRoleService,
                                                     .issuer = "kahve",
                                                     .audience = "kahve-api",
                                                     .issued_at = kNow});
  const size_t first = token.find('.');
  const size_t second = token.find('.', first + 1);
  std::string header;
  std::string claims;
  ASSERT_TRUE(absl::WebSafeBase64Unescape(token.substr(0, first), &header));
  ASSERT_TRUE(absl::WebSafeBase64Unescape(token.substr(first + 1, second - first - 1), &claims));
  EXPECT_EQ(header, R"({"alg":"HS256","typ":"JWT"})");
  EXPECT_EQ(claims,
            R"({"sub":"p\"1\\","role":"service","iss":"kahve","aud":"kahve-api",)"
            R"("iat":1700000000})");  // An infinite expiry writes no exp.
  const auto authenticator =
      Make({.hs256_secret = kSecret, .issuer = "kahve", .audience = "kahve-api"});
  const absl::StatusOr<Identity> identity = authenticator->Verify(Bearer(token), kNow);
  ASSERT_TRUE(identity.ok()) << identity.status();
  EXPECT_EQ(identity->subject, "p\"1\\");
  EXPECT_EQ(identity->role, kRoleService);
}

TEST_F(AuthTest, RoleClaimIsReturned) {
  const auto authenticator = Hs256Only();
  for (const char* role : {kRolePlayer, kRoleService, kRoleAdmin}) {
    const std::string token =
        SignHs256(kSecret, kHs256Header, absl::StrCat(R"({"sub":"s1","role":")", role, R"("})"));
    const absl::StatusOr<Identity> identity = authenticator->Verify(Bearer(token), kNow);
    ASSERT_TRUE(identity.ok()) << identity.status();
    EXPECT_EQ(identity->role, role);
  }
}

TEST_F(AuthTest, MissingHeaderIsUnauthenticated) {
  EXPECT_TRUE(Unauthenticated(Hs256Only()->Verify("", kNow), "missing authorization header"));
  EXPECT_TRUE(Unauthenticated(Hs256Only()->Verify("  ", kNow), "missing authorization header"));
}

TEST_F(AuthTest, OtherSchemesAreUnauthenticated) {
  const auto authenticator = Hs256Only();
  const std::string token = SignHs256(kSecret, kHs256Header, kPlayerClaims);
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(token, kNow), "not a Bearer token"));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify("Basic " + token, kNow), "not a Bearer token"));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify("Bearer" + token, kNow), "not a Bearer token"));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify("Bearer ", kNow), "missing bearer token"));
}

// RFC 7235 section 2.1: the scheme is case-insensitive, so these are not errors.
TEST_F(AuthTest, SchemeCaseIsIgnored) {
  const auto authenticator = Hs256Only();
  const std::string token = SignHs256(kSecret, kHs256Header, kPlayerClaims);
  EXPECT_TRUE(authenticator->Verify("bearer " + token, kNow).ok());
  EXPECT_TRUE(authenticator->Verify("BEARER  " + token, kNow).ok());
}

TEST_F(AuthTest, MalformedBase64IsUnauthenticated) {
  const auto authenticator = Hs256Only();
  const std::string claims = B64(kPlayerClaims);
  const std::string header = B64(kHs256Header);
  const std::string input = absl::StrCat(header, ".", claims);
  const std::string signature = B64(HmacSha256(kSecret, input));
  EXPECT_TRUE(Unauthenticated(
      authenticator->Verify(Bearer(absl::StrCat("e!J.", claims, ".", signature)), kNow),
      "header is not base64url"));
  // Padding is not base64url as JWT spells it (RFC 7515 section 2).
  EXPECT_TRUE(
      Unauthenticated(authenticator->Verify(Bearer(absl::StrCat(input, ".", signature, "=")), kNow),
                      "signature is not base64url"));
  // 32 bytes take 43 characters whose last two bits are zero; setting one spells the same bytes
  // differently, which would let a token be replayed under a second spelling.
  constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  ASSERT_EQ(signature.size(), 43u);
  std::string stray_bits = signature;
  stray_bits.back() = kAlphabet[kAlphabet.find(signature.back()) | 1];
  EXPECT_TRUE(
      Unauthenticated(authenticator->Verify(Bearer(absl::StrCat(input, ".", stray_bits)), kNow),
                      "signature is not base64url"));
  EXPECT_TRUE(Unauthenticated(
      authenticator->Verify(Bearer(absl::StrCat(input, ".", signature.substr(0, 40))), kNow),
      "bad signature"));
  // Correctly signed, but the payload itself is not base64url.
  const std::string bad_input = absl::StrCat(header, ".", "ab*d");
  EXPECT_TRUE(Unauthenticated(
      authenticator->Verify(
          Bearer(absl::StrCat(bad_input, ".", B64(HmacSha256(kSecret, bad_input)))), kNow),
      "payload is not base64url"));
}

TEST_F(AuthTest, WrongPartCountIsUnauthenticated) {
  const auto authenticator = Hs256Only();
  const std::string token = SignHs256(kSecret, kHs256Header, kPlayerClaims);
  const std::string two_parts = token.substr(0, token.rfind('.'));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(two_parts), kNow),
                              "expected three dot-separated parts"));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(token + ".e30"), kNow),
                              "expected three dot-separated parts"));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer("abc"), kNow),
                              "expected three dot-separated parts"));
}

TEST_F(AuthTest, BadJsonIsUnauthenticated) {
  const auto authenticator = Hs256Only();
  EXPECT_TRUE(Unauthenticated(
      authenticator->Verify(Bearer(SignHs256(kSecret, R"({"alg":"HS256")", kPlayerClaims)), kNow),
      "header is not a JSON object"));
  EXPECT_TRUE(Unauthenticated(
      authenticator->Verify(Bearer(SignHs256(kSecret, kHs256Header, R"({"sub":)")), kNow),
      "payload is not a JSON object"));
  EXPECT_TRUE(Unauthenticated(
      authenticator->Verify(Bearer(SignHs256(kSecret, kHs256Header, R"(["p1"])")), kNow),
      "payload is not a JSON object"));
}

TEST_F(AuthTest, TamperedPayloadFailsSignature) {
  const std::string token = SignHs256(kSecret, kHs256Header, kPlayerClaims);
  const size_t first = token.find('.');
  const size_t second = token.find('.', first + 1);
  const std::string forged = absl::StrCat(
      token.substr(0, first), ".", B64(R"({"sub":"p1","role":"admin"})"), token.substr(second));
  const absl::StatusOr<Identity> result = Hs256Only()->Verify(Bearer(forged), kNow);
  EXPECT_TRUE(Unauthenticated(result, "bad signature"));
  // The reason names the problem, never the token.
  EXPECT_EQ(result.status().message().find(forged.substr(0, first)), std::string::npos);
}

TEST_F(AuthTest, WrongSecretFailsSignature) {
  const std::string token =
      SignHs256("another-secret-of-thirty-two-bytes", kHs256Header, kPlayerClaims);
  EXPECT_TRUE(Unauthenticated(Hs256Only()->Verify(Bearer(token), kNow), "bad signature"));
}

TEST_F(AuthTest, AlgNoneIsRejected) {
  const auto authenticator =
      Make({.hs256_secret = kSecret, .rs256_public_key_pem = *rsa_public_pem_});
  for (const char* header : {R"({"alg":"none"})", R"({"alg":"None","typ":"JWT"})",
                             R"({"alg":"HS512"})", R"({"typ":"JWT"})"}) {
    const std::string token = absl::StrCat(B64(header), ".", B64(kPlayerClaims), ".");
    EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(token), kNow), "alg")) << header;
  }
}

TEST_F(AuthTest, AlgWithoutConfiguredKeyIsRejected) {
  const std::string rs256 = SignRs256(rsa_key_, kRs256Header, kPlayerClaims);
  EXPECT_TRUE(Unauthenticated(Hs256Only()->Verify(Bearer(rs256), kNow), "unsupported alg"));
  const std::string hs256 = SignHs256(kSecret, kHs256Header, kPlayerClaims);
  EXPECT_TRUE(Unauthenticated(Rs256Only()->Verify(Bearer(hs256), kNow), "unsupported alg"));
}

// The classic confusion attack: HMAC keyed with the (public) RSA key, hoping the verifier uses
// its RS256 key as an HS256 secret.
TEST_F(AuthTest, AlgConfusionIsRejected) {
  const std::string forged = SignHs256(*rsa_public_pem_, kHs256Header, kPlayerClaims);
  EXPECT_TRUE(Unauthenticated(Rs256Only()->Verify(Bearer(forged), kNow), "unsupported alg"));
  const auto both = Make({.hs256_secret = kSecret, .rs256_public_key_pem = *rsa_public_pem_});
  EXPECT_TRUE(Unauthenticated(both->Verify(Bearer(forged), kNow), "bad signature"));
}

TEST_F(AuthTest, ExpiryHonoursLeewayBoundary) {
  const auto authenticator = Make({.hs256_secret = kSecret, .leeway = absl::Seconds(30)});
  const std::string token = SignHs256(kSecret, kHs256Header, R"({"sub":"p1","exp":1700000000})");
  EXPECT_TRUE(authenticator->Verify(Bearer(token), kNow + absl::Seconds(29)).ok());
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(token), kNow + absl::Seconds(30)),
                              "token expired"));
  const std::string fractional =
      SignHs256(kSecret, kHs256Header, R"({"sub":"p1","exp":1699999970.5})");
  EXPECT_TRUE(authenticator->Verify(Bearer(fractional), kNow).ok());
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(fractional), kNow + absl::Seconds(1)),
                              "token expired"));
  const std::string text_exp = SignHs256(kSecret, kHs256Header, R"({"sub":"p1","exp":"soon"})");
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(text_exp), kNow), "malformed exp"));
}

// Verified tokens are remembered (a client calls many times with one token); a remembered token
// still expires, and only the very same token is taken on trust.
TEST_F(AuthTest, ARememberedTokenStillExpiresAndOnlyItsExactCopyIsTrusted) {
  const auto authenticator = Make({.hs256_secret = kSecret, .leeway = absl::Seconds(30)});
  const std::string token =
      SignHs256(kSecret, kHs256Header, R"({"sub":"p1","nbf":1699999990,"exp":1700000060})");
  for (int call = 0; call < 3; ++call) {
    const auto identity = authenticator->Verify(Bearer(token), kNow);
    ASSERT_TRUE(identity.ok()) << identity.status();
    EXPECT_EQ(identity->subject, "p1");
  }
  EXPECT_TRUE(authenticator->Verify(Bearer(token), kNow + absl::Seconds(89)).ok());
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(token), kNow + absl::Seconds(90)),
                              "token expired"));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(token), kNow - absl::Seconds(41)),
                              "not yet valid"));
  std::string altered = token;
  altered.back() = altered.back() == 'A' ? 'B' : 'A';
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(altered), kNow), "bad signature"));
  EXPECT_TRUE(authenticator->Verify(Bearer(token), kNow).ok()) << "the original still verifies";
}

TEST_F(AuthTest, NotBeforeInFutureIsRejected) {
  const auto authenticator = Make({.hs256_secret = kSecret, .leeway = absl::Seconds(30)});
  const std::string token = SignHs256(kSecret, kHs256Header, R"({"sub":"p1","nbf":1700000031})");
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(token), kNow), "not yet valid"));
  EXPECT_TRUE(authenticator->Verify(Bearer(token), kNow + absl::Seconds(1)).ok());
  const std::string text_nbf = SignHs256(kSecret, kHs256Header, R"({"sub":"p1","nbf":null})");
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(text_nbf), kNow), "malformed nbf"));
}

TEST_F(AuthTest, IssuerAndAudienceMustMatchWhenConfigured) {
  const auto authenticator =
      Make({.hs256_secret = kSecret, .issuer = "kahve", .audience = "kahve-api"});
  const auto verify = [&](const char* claims) {
    return authenticator->Verify(Bearer(SignHs256(kSecret, kHs256Header, claims)), kNow);
  };
  EXPECT_TRUE(verify(R"({"sub":"p1","iss":"kahve","aud":"kahve-api"})").ok());
  EXPECT_TRUE(
      Unauthenticated(verify(R"({"sub":"p1","iss":"evil","aud":"kahve-api"})"), "wrong issuer"));
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":"p1","aud":"kahve-api"})"), "wrong issuer"));
  EXPECT_TRUE(
      Unauthenticated(verify(R"({"sub":"p1","iss":"kahve","aud":"other"})"), "wrong audience"));
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":"p1","iss":"kahve"})"), "wrong audience"));
  // Unconfigured, neither is checked.
  EXPECT_TRUE(Hs256Only()
                  ->Verify(Bearer(SignHs256(kSecret, kHs256Header,
                                            R"({"sub":"p1","iss":"any","aud":"any"})")),
                           kNow)
                  .ok());
}

TEST_F(AuthTest, AudienceMayBeAnArray) {
  const auto authenticator = Make({.hs256_secret = kSecret, .audience = "kahve-api"});
  const auto verify = [&](const char* claims) {
    return authenticator->Verify(Bearer(SignHs256(kSecret, kHs256Header, claims)), kNow);
  };
  EXPECT_TRUE(verify(R"({"sub":"p1","aud":["billing","kahve-api"]})").ok());
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":"p1","aud":["billing"]})"), "wrong audience"));
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":"p1","aud":[]})"), "wrong audience"));
}

TEST_F(AuthTest, SubjectMustBeShortNonEmptyString) {
  const auto authenticator = Hs256Only();
  const auto verify = [&](const std::string& claims) {
    return authenticator->Verify(Bearer(SignHs256(kSecret, kHs256Header, claims)), kNow);
  };
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":""})"), "missing sub"));
  EXPECT_TRUE(Unauthenticated(verify(R"({"role":"player"})"), "missing sub"));
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":42})"), "missing sub"));
  EXPECT_TRUE(verify(absl::StrCat(R"({"sub":")", std::string(128, 'x'), R"("})")).ok());
  EXPECT_TRUE(Unauthenticated(verify(absl::StrCat(R"({"sub":")", std::string(129, 'x'), R"("})")),
                              "sub too long"));
  // A subject becomes a player id in SQL and logs: JSON escapes cannot smuggle a NUL or a newline.
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":"ana\u0000bo"})"), "sub has control characters"));
  EXPECT_TRUE(Unauthenticated(verify(R"({"sub":"ana\nbo"})"), "sub has control characters"));
  EXPECT_TRUE(verify(R"({"sub":"Zeynep Y\u0131lmaz"})").ok());
}

TEST_F(AuthTest, UnknownRoleIsRejected) {
  const auto authenticator = Hs256Only();
  for (const char* claims : {R"({"sub":"p1","role":"root"})", R"({"sub":"p1","role":"Admin"})",
                             R"({"sub":"p1","role":""})", R"({"sub":"p1","role":["admin"]})"}) {
    EXPECT_TRUE(Unauthenticated(
        authenticator->Verify(Bearer(SignHs256(kSecret, kHs256Header, claims)), kNow),
        "unknown role"))
        << claims;
  }
}

TEST_F(AuthTest, HeaderTypeAndCritAreChecked) {
  const auto authenticator = Hs256Only();
  const auto verify = [&](const char* header) {
    return authenticator->Verify(Bearer(SignHs256(kSecret, header, kPlayerClaims)), kNow);
  };
  EXPECT_TRUE(verify(R"({"alg":"HS256"})").ok());
  EXPECT_TRUE(verify(R"({"alg":"HS256","typ":"at+jwt"})").ok());
  EXPECT_TRUE(Unauthenticated(verify(R"({"alg":"HS256","typ":"JWE"})"), "typ is not JWT"));
  EXPECT_TRUE(
      Unauthenticated(verify(R"({"alg":"HS256","crit":["exp"]})"), "unsupported crit header"));
}

TEST_F(AuthTest, OversizedTokenIsRejected) {
  const std::string token =
      SignHs256(kSecret, kHs256Header,
                absl::StrCat(R"({"sub":"p1","pad":")", std::string(8192, 'x'), R"("})"));
  EXPECT_TRUE(Unauthenticated(Hs256Only()->Verify(Bearer(token), kNow), "token too long"));
}

TEST_F(AuthTest, Rs256TokenVerifies) {
  const auto authenticator = Rs256Only();
  const std::string token =
      SignRs256(rsa_key_, kRs256Header, R"({"sub":"idp|42","role":"service","exp":1700003600})");
  const absl::StatusOr<Identity> identity = authenticator->Verify(Bearer(token), kNow);
  ASSERT_TRUE(identity.ok()) << identity.status();
  EXPECT_EQ(identity->subject, "idp|42");
  EXPECT_EQ(identity->role, kRoleService);

  const size_t first = token.find('.');
  const size_t second = token.find('.', first + 1);
  const std::string forged =
      absl::StrCat(token.substr(0, first), ".", B64(R"({"sub":"idp|43","role":"service"})"),
                   token.substr(second));
  EXPECT_TRUE(Unauthenticated(authenticator->Verify(Bearer(forged), kNow), "bad signature"));
}

TEST(RequireRoleTest, AdminHasEveryRole) {
  const Identity player{.subject = "p1", .role = kRolePlayer};
  const Identity service{.subject = "matchmaking", .role = kRoleService};
  const Identity admin{.subject = "ops", .role = kRoleAdmin};
  EXPECT_TRUE(FailsWith(RequireRole(player, kRoleService), absl::StatusCode::kPermissionDenied,
                        "requires role service"));
  EXPECT_TRUE(FailsWith(RequireRole(player, kRoleAdmin), absl::StatusCode::kPermissionDenied,
                        "requires role admin"));
  EXPECT_TRUE(FailsWith(RequireRole(service, kRoleAdmin), absl::StatusCode::kPermissionDenied,
                        "requires role admin"));
  EXPECT_TRUE(RequireRole(player, kRolePlayer).ok());
  EXPECT_TRUE(RequireRole(service, kRoleService).ok());
  for (const char* role : {kRolePlayer, kRoleService, kRoleAdmin}) {
    EXPECT_TRUE(RequireRole(admin, role).ok()) << role;
  }
}

TEST_F(AuthTest, CreateRejectsMissingOrBadKeys) {
  EXPECT_TRUE(FailsWith(Authenticator::Create({}).status(), absl::StatusCode::kInvalidArgument,
                        "no JWT key configured"));
  EXPECT_TRUE(FailsWith(
      Authenticator::Create({.rs256_public_key_pem = "-----BEGIN PUBLIC KEY-----\nnope\n"})
          .status(),
      absl::StatusCode::kInvalidArgument, "not a PEM public key"));
  // A private key is not what the verifier should hold, and PEM_read_bio_PUBKEY refuses it.
  EXPECT_TRUE(
      FailsWith(Authenticator::Create({.rs256_public_key_pem = PrivatePem(rsa_key_)}).status(),
                absl::StatusCode::kInvalidArgument, "not a PEM public key"));
  PkeyPtr ec_key(EVP_EC_gen("P-256"));
  ASSERT_NE(ec_key, nullptr);
  EXPECT_TRUE(
      FailsWith(Authenticator::Create({.rs256_public_key_pem = PublicPem(ec_key.get())}).status(),
                absl::StatusCode::kInvalidArgument, "not an RSA public key"));
  PkeyPtr short_key(EVP_RSA_gen(1024));
  ASSERT_NE(short_key, nullptr);
  EXPECT_TRUE(FailsWith(
      Authenticator::Create({.rs256_public_key_pem = PublicPem(short_key.get())}).status(),
      absl::StatusCode::kInvalidArgument, "shorter than 2048 bits"));
}

TEST_F(AuthTest, SettingsFromFlagsReadsTheKeyFile) {
  absl::FlagSaver restore_flags;
  const std::string path = testing::TempDir() + "/auth_test_key.pem";
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  std::fputs(rsa_public_pem_->c_str(), file);
  std::fclose(file);
  absl::SetFlag(&FLAGS_jwt_hs256_secret, kSecret);
  absl::SetFlag(&FLAGS_jwt_rs256_public_key_file, path);
  absl::SetFlag(&FLAGS_jwt_issuer, "kahve");
  absl::SetFlag(&FLAGS_jwt_audience, "kahve-api");
  const absl::StatusOr<AuthSettings> settings = AuthSettingsFromFlags();
  ASSERT_TRUE(settings.ok()) << settings.status();
  EXPECT_EQ(settings->hs256_secret, kSecret);
  EXPECT_EQ(settings->rs256_public_key_pem, *rsa_public_pem_);
  EXPECT_EQ(settings->issuer, "kahve");
  EXPECT_EQ(settings->audience, "kahve-api");
  EXPECT_TRUE(Authenticator::Create(*settings).ok());
  std::remove(path.c_str());

  absl::SetFlag(&FLAGS_jwt_rs256_public_key_file, path + ".missing");
  EXPECT_TRUE(FailsWith(AuthSettingsFromFlags().status(), absl::StatusCode::kInvalidArgument,
                        "cannot open --jwt_rs256_public_key_file"));
}

// Keys that sign (page tokens, seat tokens) come from their own flag, else the HS256 secret; with
// neither, starting must fail rather than sign with an empty key.
TEST_F(AuthTest, SecretFromFlagsNeverGivesAnEmptyKey) {
  absl::FlagSaver restore_flags;
  absl::SetFlag(&FLAGS_jwt_hs256_secret, "");
  EXPECT_TRUE(FailsWith(SecretFromFlags("", "page_token_secret").status(),
                        absl::StatusCode::kInvalidArgument,
                        "--page_token_secret (or --jwt_hs256_secret) required"));
  EXPECT_EQ(SecretFromFlags("own-key", "page_token_secret").value_or(""), "own-key");
  absl::SetFlag(&FLAGS_jwt_hs256_secret, kSecret);
  EXPECT_EQ(SecretFromFlags("", "page_token_secret").value_or(""), kSecret);
  EXPECT_EQ(SecretFromFlags("own-key", "page_token_secret").value_or(""), "own-key");
}

}  // namespace
}  // namespace kahve::common
