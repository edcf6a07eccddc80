#include "services/table/deal_commitment.h"

#include <openssl/rand.h>

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "services/common/sha256.h"

namespace kahve::table {
namespace {

bool IsLowerHex(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

absl::StatusOr<std::string> NewSalt() {
  std::string salt(kSaltBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), static_cast<int>(salt.size())) !=
      1) {
    return absl::InternalError("no randomness for the deal's salt");
  }
  return salt;
}

absl::StatusOr<uint64_t> NewSeed() {
  unsigned char bytes[8];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) {
    // A seed of 0 in its place would be one anybody could guess.
    return absl::InternalError("no randomness for the deal's seed");
  }
  uint64_t seed = 0;
  for (const unsigned char byte : bytes) seed = (seed << 8) | byte;
  return seed;
}

v1::DealSource SourceOf(bool practice, bool seed_chosen, const v1::Deal& deal) {
  if (deal.preset_case() != v1::Deal::PRESET_NOT_SET) return v1::DEAL_SOURCE_ADMIN_PRESET;
  if (!seed_chosen) return v1::DEAL_SOURCE_SERVER_RANDOM;
  return practice ? v1::DEAL_SOURCE_PLAYER_SEED : v1::DEAL_SOURCE_ADMIN_SEED;
}

std::string PresetSha256(const v1::Deal& deal) {
  if (deal.preset_case() == v1::Deal::PRESET_NOT_SET) return "";
  v1::Deal preset = deal;
  preset.clear_seed();
  std::string bytes;
  {
    // Deterministic: fields in number order, so every reader of the replay gets the same bytes.
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    preset.SerializeToCodedStream(&coded);
  }
  return common::Sha256(bytes);
}

std::string SeedMaterial(v1::DealSource source, const std::string& salt, uint64_t seed,
                         const std::string& preset_sha256) {
  std::string material(kCommitmentLabel);
  material.push_back(static_cast<char>(static_cast<uint8_t>(source)));
  material.append(salt);
  for (int shift = 56; shift >= 0; shift -= 8) {
    material.push_back(static_cast<char>(static_cast<uint8_t>(seed >> shift)));
  }
  if (preset_sha256.empty()) {
    material.append(32, '\0');
  } else {
    material.append(preset_sha256);
  }
  return material;
}

v1::DealCommitment Commit(v1::DealSource source, const std::string& salt, const v1::Deal& deal) {
  v1::DealCommitment commitment;
  commitment.set_version(kCommitmentVersion);
  commitment.set_source(source);
  commitment.set_sha256(
      common::Sha256Hex(SeedMaterial(source, salt, deal.seed(), PresetSha256(deal))));
  return commitment;
}

v1::DealReveal Reveal(v1::DealSource source, const std::string& salt, const v1::Deal& deal) {
  const std::string preset_sha256 = PresetSha256(deal);
  v1::DealReveal reveal;
  reveal.set_seed(deal.seed());
  reveal.set_salt(absl::BytesToHexString(salt));
  reveal.set_preset_sha256(absl::BytesToHexString(preset_sha256));
  reveal.set_material(
      absl::BytesToHexString(SeedMaterial(source, salt, deal.seed(), preset_sha256)));
  return reveal;
}

absl::StatusOr<std::string> DecodeHex32(const std::string& hex, const std::string& field) {
  if (hex.size() != 64 || !IsLowerHex(hex)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": \"", hex, "\" is not 64 lowercase hex digits"));
  }
  return absl::HexStringToBytes(hex);
}

absl::Status CheckReveal(const v1::DealCommitment& commitment, const v1::DealReveal& reveal,
                         const v1::Deal& deal) {
  if (commitment.version() != kCommitmentVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat("commitment.version: ", commitment.version(), " is not ", kCommitmentVersion));
  }
  const v1::DealSource source = commitment.source();
  if (source == v1::DEAL_SOURCE_UNSPECIFIED || !v1::DealSource_IsValid(source)) {
    return absl::FailedPreconditionError(
        absl::StrCat("commitment.source: ", static_cast<int>(source), " names no deal source"));
  }
  const bool preset = deal.preset_case() != v1::Deal::PRESET_NOT_SET;
  if (preset != (source == v1::DEAL_SOURCE_ADMIN_PRESET)) {
    return absl::FailedPreconditionError(
        absl::StrCat("deal: ", preset ? "a preset deal" : "no preset",
                     ", but the commitment's source is ", v1::DealSource_Name(source)));
  }
  if (reveal.seed() != deal.seed()) {
    return absl::FailedPreconditionError(
        absl::StrCat("reveal.seed: ", reveal.seed(), ", but deal.seed is ", deal.seed()));
  }
  absl::StatusOr<std::string> salt = DecodeHex32(reveal.salt(), "reveal.salt");
  if (!salt.ok()) return absl::FailedPreconditionError(salt.status().message());
  const std::string preset_sha256 = absl::BytesToHexString(PresetSha256(deal));
  if (reveal.preset_sha256() != preset_sha256) {
    return absl::FailedPreconditionError(
        absl::StrCat("reveal.preset_sha256: \"", reveal.preset_sha256(),
                     "\", but the deal's preset hashes to \"", preset_sha256, "\""));
  }
  const std::string material = SeedMaterial(source, *salt, deal.seed(), PresetSha256(deal));
  const std::string material_hex = absl::BytesToHexString(material);
  if (!reveal.material().empty() && reveal.material() != material_hex) {
    return absl::FailedPreconditionError(
        absl::StrCat("reveal.material: ", reveal.material(),
                     ", but the reveal's source, salt, seed and preset lay out as ", material_hex));
  }
  const std::string sha256 = common::Sha256Hex(material);
  if (commitment.sha256() != sha256) {
    return absl::FailedPreconditionError(
        absl::StrCat("commitment.sha256: published ", commitment.sha256(),
                     ", but the SHA-256 of the revealed seed material is ", sha256,
                     " (the seed, salt, source or preset differs from the one committed to)"));
  }
  return absl::OkStatus();
}

}  // namespace kahve::table
