// The deal commitment (docs/fairness.md) on its own: the seed material's layout, known answers
// computed outside kahve, and every way a reveal can fail to open a commitment.

#include "services/table/deal_commitment.h"

#include <string>

#include "absl/strings/escaping.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::table {
namespace {

using ::testing::HasSubstr;

// Salt bytes 0x00, 0x01, ..., 0x1f.
std::string CountingSalt() {
  std::string salt;
  for (int i = 0; i < 32; ++i) salt.push_back(static_cast<char>(i));
  return salt;
}

v1::Deal SeedOnly(uint64_t seed) {
  v1::Deal deal;
  deal.set_seed(seed);
  return deal;
}

// A Liar's dice preset whose deterministic serialization without the seed is 52 02 10 01
// (field 10, length 2: field 2 varint 1).
v1::Deal FirstBidderPreset(uint64_t seed) {
  v1::Deal deal = SeedOnly(seed);
  deal.mutable_liars_dice()->set_first_bidder(1);
  return deal;
}

TEST(DealCommitmentTest, TheSeedMaterialIsLaidOutAsDocumented) {
  const std::string material =
      SeedMaterial(v1::DEAL_SOURCE_SERVER_RANDOM, CountingSalt(), 0x0123456789abcdefULL, "");
  ASSERT_EQ(material.size(), kSeedMaterialBytes);
  ASSERT_EQ(material.size(), 97u);
  EXPECT_EQ(material.substr(0, 24), "kahve.deal-commitment.v1");
  EXPECT_EQ(material[24], '\x01');
  EXPECT_EQ(material.substr(25, 32), CountingSalt());
  EXPECT_EQ(absl::BytesToHexString(material.substr(57, 8)), "0123456789abcdef");  // big-endian
  EXPECT_EQ(material.substr(65), std::string(32, '\0'));
}

// Known answers from outside kahve: python3 hashlib (and sha256sum over the same bytes, built
// with xxd -r -p from the material's hex).
TEST(DealCommitmentTest, KnownAnswers) {
  const v1::DealCommitment random =
      Commit(v1::DEAL_SOURCE_SERVER_RANDOM, CountingSalt(), SeedOnly(0x0123456789abcdefULL));
  EXPECT_EQ(random.version(), 1);
  EXPECT_EQ(random.source(), v1::DEAL_SOURCE_SERVER_RANDOM);
  EXPECT_EQ(random.sha256(), "f6d51869814c624b8cacc868a84a7479fbf406efa21e4b2aeeb0f4d1aae282f1");

  // sha256(52 02 10 01), then the material with source 3, seed 42 and that hash.
  EXPECT_EQ(absl::BytesToHexString(PresetSha256(FirstBidderPreset(42))),
            "fc3261c2bc1fc7cfaf09c41a81d817cb41064d2768c470d32ac1f99437293292");
  const v1::DealCommitment preset =
      Commit(v1::DEAL_SOURCE_ADMIN_PRESET, CountingSalt(), FirstBidderPreset(42));
  EXPECT_EQ(preset.sha256(), "2b1e635507dfe5256289f6b22aa4bb492596fc6580d8021303f3de91ed82bf1e");
}

TEST(DealCommitmentTest, TheRevealOpensItsCommitment) {
  const v1::Deal deal = SeedOnly(0x0123456789abcdefULL);
  const v1::DealReveal reveal = Reveal(v1::DEAL_SOURCE_SERVER_RANDOM, CountingSalt(), deal);
  EXPECT_EQ(reveal.seed(), 0x0123456789abcdefULL);
  EXPECT_EQ(reveal.salt(), "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  EXPECT_EQ(reveal.preset_sha256(), "");
  EXPECT_EQ(reveal.material(),
            "6b616876652e6465616c2d636f6d6d69746d656e742e7631"
            "01"
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
            "0123456789abcdef"
            "0000000000000000000000000000000000000000000000000000000000000000");
  EXPECT_TRUE(
      CheckReveal(Commit(v1::DEAL_SOURCE_SERVER_RANDOM, CountingSalt(), deal), reveal, deal).ok());

  const v1::Deal preset = FirstBidderPreset(42);
  EXPECT_EQ(Reveal(v1::DEAL_SOURCE_ADMIN_PRESET, CountingSalt(), preset).preset_sha256(),
            "fc3261c2bc1fc7cfaf09c41a81d817cb41064d2768c470d32ac1f99437293292");
  EXPECT_TRUE(CheckReveal(Commit(v1::DEAL_SOURCE_ADMIN_PRESET, CountingSalt(), preset),
                          Reveal(v1::DEAL_SOURCE_ADMIN_PRESET, CountingSalt(), preset), preset)
                  .ok());
}

TEST(DealCommitmentTest, WhoChoseTheDealIsNamed) {
  EXPECT_EQ(SourceOf(/*practice=*/false, /*seed_chosen=*/false, SeedOnly(7)),
            v1::DEAL_SOURCE_SERVER_RANDOM);
  EXPECT_EQ(SourceOf(/*practice=*/true, /*seed_chosen=*/false, SeedOnly(7)),
            v1::DEAL_SOURCE_SERVER_RANDOM);
  EXPECT_EQ(SourceOf(/*practice=*/false, /*seed_chosen=*/true, SeedOnly(7)),
            v1::DEAL_SOURCE_ADMIN_SEED);
  EXPECT_EQ(SourceOf(/*practice=*/true, /*seed_chosen=*/true, SeedOnly(7)),
            v1::DEAL_SOURCE_PLAYER_SEED);
  EXPECT_EQ(SourceOf(/*practice=*/false, /*seed_chosen=*/true, FirstBidderPreset(7)),
            v1::DEAL_SOURCE_ADMIN_PRESET);
  // The same seed and salt commit differently under another source: a chosen seed cannot be
  // passed off as a random one.
  EXPECT_NE(Commit(v1::DEAL_SOURCE_SERVER_RANDOM, CountingSalt(), SeedOnly(7)).sha256(),
            Commit(v1::DEAL_SOURCE_ADMIN_SEED, CountingSalt(), SeedOnly(7)).sha256());
}

TEST(DealCommitmentTest, PresetHashIgnoresTheSeedAndFollowsThePreset) {
  EXPECT_EQ(PresetSha256(SeedOnly(7)), "");
  EXPECT_EQ(PresetSha256(FirstBidderPreset(7)), PresetSha256(FirstBidderPreset(8)));
  v1::Deal other = FirstBidderPreset(7);
  other.mutable_liars_dice()->set_first_bidder(2);
  EXPECT_NE(PresetSha256(other), PresetSha256(FirstBidderPreset(7)));
}

TEST(DealCommitmentTest, EveryTamperedPartIsNamed) {
  const v1::Deal deal = FirstBidderPreset(42);
  const v1::DealCommitment commitment = Commit(v1::DEAL_SOURCE_ADMIN_PRESET, CountingSalt(), deal);
  const v1::DealReveal reveal = Reveal(v1::DEAL_SOURCE_ADMIN_PRESET, CountingSalt(), deal);
  auto refusal = [](const v1::DealCommitment& c, const v1::DealReveal& r, const v1::Deal& d) {
    const absl::Status status = CheckReveal(c, r, d);
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
    return std::string(status.message());
  };

  v1::DealReveal seed = reveal;
  seed.set_seed(43);
  EXPECT_THAT(refusal(commitment, seed, deal), HasSubstr("reveal.seed: 43, but deal.seed is 42"));
  // Seed changed consistently everywhere: only the hash can tell.
  v1::Deal reseeded = deal;
  reseeded.set_seed(43);
  seed.clear_material();
  EXPECT_THAT(refusal(commitment, seed, reseeded), HasSubstr("commitment.sha256: published"));

  v1::DealReveal salt = reveal;
  salt.set_salt(std::string(64, 'a'));
  salt.clear_material();
  EXPECT_THAT(refusal(commitment, salt, deal), HasSubstr("commitment.sha256: published"));
  salt.set_salt("not hex");
  EXPECT_THAT(refusal(commitment, salt, deal), HasSubstr("reveal.salt"));

  v1::Deal preset = deal;
  preset.mutable_liars_dice()->set_first_bidder(0);
  EXPECT_THAT(refusal(commitment, reveal, preset), HasSubstr("reveal.preset_sha256"));
  v1::DealReveal rehashed = Reveal(v1::DEAL_SOURCE_ADMIN_PRESET, CountingSalt(), preset);
  EXPECT_THAT(refusal(commitment, rehashed, preset), HasSubstr("commitment.sha256: published"));

  v1::DealReveal material = reveal;
  material.set_material(std::string(194, '0'));
  EXPECT_THAT(refusal(commitment, material, deal), HasSubstr("reveal.material"));

  v1::DealCommitment relabelled = commitment;
  relabelled.set_source(v1::DEAL_SOURCE_SERVER_RANDOM);
  EXPECT_THAT(refusal(relabelled, reveal, deal),
              HasSubstr("deal: a preset deal, but the commitment's source is "
                        "DEAL_SOURCE_SERVER_RANDOM"));
  v1::DealCommitment version = commitment;
  version.set_version(2);
  EXPECT_THAT(refusal(version, reveal, deal), HasSubstr("commitment.version: 2"));
  v1::DealCommitment unnamed = commitment;
  unnamed.set_source(v1::DEAL_SOURCE_UNSPECIFIED);
  EXPECT_THAT(refusal(unnamed, reveal, deal), HasSubstr("commitment.source"));
}

TEST(DealCommitmentTest, FreshSaltsAndSeedsDiffer) {
  const absl::StatusOr<std::string> first = NewSalt();
  const absl::StatusOr<std::string> second = NewSalt();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->size(), 32u);
  EXPECT_NE(*first, *second);
  const absl::StatusOr<uint64_t> seed = NewSeed();
  const absl::StatusOr<uint64_t> other = NewSeed();
  ASSERT_TRUE(seed.ok() && other.ok());
  EXPECT_NE(*seed, *other);
}

}  // namespace
}  // namespace kahve::table
