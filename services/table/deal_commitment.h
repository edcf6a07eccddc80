#ifndef KAHVE_SERVICES_TABLE_DEAL_COMMITMENT_H_
#define KAHVE_SERVICES_TABLE_DEAL_COMMITMENT_H_

// Provably fair deals (docs/fairness.md): the commitment a table publishes at creation, the seed
// material it reveals at the end, and the check that the two agree. No engine, no I/O: the table
// service commits and reveals with it, `kahve verify` checks with it.
//
// Seed material, version 1 (97 bytes):
//   the 24 ASCII bytes "kahve.deal-commitment.v1"
//   1 byte: the DealSource's number
//   32 bytes: the salt
//   8 bytes: the seed, big-endian
//   32 bytes: the preset's SHA-256 (DEAL_SOURCE_ADMIN_PRESET), else 32 zero bytes
// The commitment is the SHA-256 of these bytes.

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/fairness.pb.h"

namespace kahve::table {

inline constexpr int kCommitmentVersion = 1;
inline constexpr char kCommitmentLabel[] = "kahve.deal-commitment.v1";
inline constexpr size_t kSaltBytes = 32;
inline constexpr size_t kSeedMaterialBytes = 24 + 1 + 32 + 8 + 32;

// 32 bytes from OpenSSL's CSPRNG; Internal when it has none to give.
absl::StatusOr<std::string> NewSalt();
// A 64-bit seed from OpenSSL's CSPRNG; Internal when it has none to give.
absl::StatusOr<uint64_t> NewSeed();

// Who chose the deal of a new table: a preset deal is ADMIN_PRESET, a seed the caller set is
// PLAYER_SEED at a practice table and ADMIN_SEED elsewhere, otherwise SERVER_RANDOM.
v1::DealSource SourceOf(bool practice, bool seed_chosen, const v1::Deal& deal);

// The SHA-256 (32 raw bytes) of `deal` with its seed set to 0, serialized deterministically;
// empty when the deal has no preset.
std::string PresetSha256(const v1::Deal& deal);

// The seed material above. `salt` is kSaltBytes raw bytes, `preset_sha256` 32 raw bytes or empty.
std::string SeedMaterial(v1::DealSource source, const std::string& salt, uint64_t seed,
                         const std::string& preset_sha256);

// The commitment to `deal` (its seed and preset) under `salt` (raw bytes).
v1::DealCommitment Commit(v1::DealSource source, const std::string& salt, const v1::Deal& deal);
// What the table reveals at the end: the seed, the salt, the preset's hash and the material.
v1::DealReveal Reveal(v1::DealSource source, const std::string& salt, const v1::Deal& deal);

// Whether `reveal` opens `commitment` for `deal`: the version and source are known, the preset
// agrees with the source, the reveal's seed is the deal's, the salt is 32 bytes of hex, the
// preset hash and material (when given) are the ones recomputed from the deal, and the SHA-256
// of the material is the commitment. FailedPrecondition naming the first field that disagrees,
// with both values.
absl::Status CheckReveal(const v1::DealCommitment& commitment, const v1::DealReveal& reveal,
                         const v1::Deal& deal);

// Lowercase hex of 64 digits decoded to 32 bytes; InvalidArgument naming `field` otherwise.
absl::StatusOr<std::string> DecodeHex32(const std::string& hex, const std::string& field);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_DEAL_COMMITMENT_H_
