// DataCopy with burst parameters, local->local copies, DataCopyPad and atomic adds.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

constexpr float kSentinel = -1.0f;

TEST(DataCopyTest, BurstsGatherWithSourceGapsAndScatterWithDestinationGaps) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COPY);
  ASSERT_NE(lib, nullptr);
  // 4 bursts of 2 blocks (16 floats); 1 block (8 floats) between source bursts, 3
  // blocks (24 floats) between destination bursts.
  const uint16_t count = 4, len = 2, src_gap = 1, dst_gap = 3;
  std::vector<float> src(200);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  std::vector<float> dst(200, kSentinel);
  auto outcomes =
      Launch(*lib, "strided_copy", 1, src.data(), dst.data(), count, len, src_gap, dst_gap);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  std::vector<float> want(200, kSentinel);
  for (int k = 0; k < count; ++k) {
    for (int j = 0; j < 16; ++j) want[k * 40 + j] = src[k * 24 + j];
  }
  EXPECT_EQ(dst, want);
}

TEST(DataCopyTest, PadRightWithValue) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COPY);
  ASSERT_NE(lib, nullptr);
  std::vector<float> src(40);
  for (size_t i = 0; i < src.size(); ++i) src[i] = 100.0f + static_cast<float>(i);
  std::vector<float> rows(24, 0.0f);
  std::vector<float> back(24, kSentinel);
  // 3 rows of 5 floats (20 bytes), 2 floats of right padding: 32-byte rows.
  auto outcomes = Launch(*lib, "pad_copy", 1, src.data(), rows.data(), back.data(), uint32_t{3},
                         uint32_t{20}, uint32_t{0}, uint32_t{2}, 9.5f, uint32_t{24});
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (int r = 0; r < 3; ++r) {
    for (int j = 0; j < 5; ++j) EXPECT_EQ(rows[r * 8 + j], src[r * 5 + j]) << r << "," << j;
    EXPECT_EQ(rows[r * 8 + 5], 9.5f);
    EXPECT_EQ(rows[r * 8 + 6], 9.5f);
    EXPECT_EQ(rows[r * 8 + 7], kSentinel);  // beyond the padding: untouched
  }
  for (int i = 0; i < 15; ++i) EXPECT_EQ(back[i], src[i]) << i;
  EXPECT_EQ(back[15], kSentinel);
}

TEST(DataCopyTest, PadLeftAndRight) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COPY);
  ASSERT_NE(lib, nullptr);
  std::vector<float> src(16);
  for (size_t i = 0; i < src.size(); ++i) src[i] = 1.0f + static_cast<float>(i);
  std::vector<float> rows(32, 0.0f);
  std::vector<float> back(16, kSentinel);
  // 2 rows of 3 floats, 8 floats of left and 1 of right padding: 64-byte rows.
  Launch(*lib, "pad_copy", 1, src.data(), rows.data(), back.data(), uint32_t{2}, uint32_t{12},
         uint32_t{8}, uint32_t{1}, -2.0f, uint32_t{32});
  for (int r = 0; r < 2; ++r) {
    for (int j = 0; j < 8; ++j) EXPECT_EQ(rows[r * 16 + j], -2.0f);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(rows[r * 16 + 8 + j], src[r * 3 + j]);
    EXPECT_EQ(rows[r * 16 + 11], -2.0f);
    for (int j = 12; j < 16; ++j) EXPECT_EQ(rows[r * 16 + j], kSentinel);
  }
  for (int i = 0; i < 6; ++i) EXPECT_EQ(back[i], src[i]) << i;
  EXPECT_EQ(back[6], kSentinel);
}

TEST(DataCopyTest, AtomicAddFromEveryBlock) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COPY);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kBlocks = 8;
  constexpr uint32_t kN = 64;
  std::vector<float> dst(kN, 0.5f);
  auto outcomes = Launch(*lib, "atomic_accumulate", kBlocks, dst.data(), kN);
  ASSERT_EQ(outcomes.size(), kBlocks);
  for (const BlockOutcome& o : outcomes) EXPECT_FALSE(o.trapped) << o.trap_message;
  // 50 copies from each block b of (b + 1): 50 * (1 + ... + 8) = 1800.
  for (uint32_t i = 0; i < kN; ++i) EXPECT_EQ(dst[i], 1800.5f) << i;
}

TEST(DataCopyTest, L1QueueHoldsMoreThanTheUnifiedBuffer) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COPY);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kN = 65536;  // 256 KiB per block: more than the 192 KiB unified buffer
  std::vector<float> src(2 * kN);
  for (uint32_t i = 0; i < 2 * kN; ++i) src[i] = static_cast<float>(i) * 3.0f;
  std::vector<float> dst(2 * kN, 0.0f);
  auto outcomes = Launch(*lib, "l1_roundtrip", 2, src.data(), dst.data(), kN);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_FALSE(outcomes[1].trapped) << outcomes[1].trap_message;
  EXPECT_EQ(dst, src);

  std::vector<float> big(200000);
  outcomes = Launch(*lib, "l1_roundtrip", 1, big.data(), big.data(), uint32_t{200000});  // 800 KB
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("exceeds the L1 buffer size of 524288 bytes"),
            std::string::npos)
      << outcomes[0].trap_message;
}

// Copies of 16 KiB and more to GM take the streaming-store path; its head and
// tail around 16-byte boundaries must land exactly, with neighbours untouched.
TEST(DataCopyTest, LargeStoresToGmLandExactlyAtAnyAlignment) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COPY);
  ASSERT_NE(lib, nullptr);
  for (const uint32_t n : {uint32_t{4104}, uint32_t{100000}, uint32_t{4088}}) {
    for (const size_t shift : {size_t{0}, size_t{1}, size_t{3}}) {
      std::vector<float> src(n);
      for (uint32_t i = 0; i < n; ++i) src[i] = static_cast<float>(i) + 0.5f;
      std::vector<float> dst(n + 8, kSentinel);
      auto outcomes = Launch(*lib, "l1_roundtrip", 1, src.data(), dst.data() + shift, n);
      ASSERT_EQ(outcomes.size(), 1u);
      ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
      for (size_t i = 0; i < dst.size(); ++i) {
        const bool inside = i >= shift && i < shift + n;
        ASSERT_EQ(dst[i], inside ? src[i - shift] : kSentinel)
            << "n " << n << " shift " << shift << " index " << i;
      }
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test
