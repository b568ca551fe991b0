// DataCopy with burst parameters, local->local copies, DataCopyPad, atomic adds and
// the masked Copy.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/ascendc/kernel_harness.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

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

// ---- Copy (UB -> UB, masked, repeated) ----------------------------------------------

using npud_test::kCopyBitMask;
using npud_test::kCopyCounterMode;
using npud_test::kCopyCountMask;

struct CopyCase {
  uint32_t mode;
  uint64_t mask_low;
  uint64_t mask_high;
  uint32_t repeat;
  uint16_t dst_stride;
  uint16_t src_stride;
  uint16_t dst_repeat;
  uint16_t src_repeat;
};

// What Copy leaves in dst, from the reference's description: lane k of repeat r is
// element (r * repeatSize + (k / e) * stride) * e + k % e on either side, e elements
// per 32-byte block; a repeat has 256 bytes of lanes selected by the mask, or in
// counter mode `count` lanes.
template <class T>
std::vector<T> ExpectedCopy(const std::vector<T>& src, std::vector<T> dst, const CopyCase& c) {
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  const uint64_t lanes = c.mode == kCopyCounterMode ? c.mask_low : 256 / sizeof(T);
  for (uint32_t r = 0; r < c.repeat; ++r) {
    for (uint64_t k = 0; k < lanes; ++k) {
      bool active = true;
      if (c.mode == kCopyCountMask) active = k < c.mask_low;
      if (c.mode == kCopyBitMask) active = ((k < 64 ? c.mask_low : c.mask_high) >> (k % 64)) & 1;
      if (!active) continue;
      const uint64_t d =
          (uint64_t{r} * c.dst_repeat + k / kPerBlock * c.dst_stride) * kPerBlock + k % kPerBlock;
      const uint64_t s =
          (uint64_t{r} * c.src_repeat + k / kPerBlock * c.src_stride) * kPerBlock + k % kPerBlock;
      dst.at(d) = src.at(s);
    }
  }
  return dst;
}

// Runs ub_copy_f32 or ub_copy_u16 on one block; dst in and out.
template <class T>
BlockOutcome RunCopy(const std::vector<T>& src, std::vector<T>* dst, const CopyCase& c) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COPY);
  if (lib == nullptr) return {};
  const char* kernel = sizeof(T) == 4 ? "ub_copy_f32" : "ub_copy_u16";
  auto outcomes = Launch(*lib, kernel, 1, const_cast<T*>(src.data()), dst->data(),
                         static_cast<uint32_t>(src.size()), static_cast<uint32_t>(dst->size()),
                         c.mode, c.mask_low, c.mask_high, c.repeat, c.dst_stride, c.src_stride,
                         c.dst_repeat, c.src_repeat);
  return outcomes.size() == 1 ? outcomes[0] : BlockOutcome{};
}

std::vector<float> Iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) + 0.25f;
  return v;
}

// The first 8 columns of each row of an 18 x 64 float matrix.
std::vector<float> FirstColumns(const std::vector<float>& matrix) {
  std::vector<float> out;
  for (int row = 0; row < 18; ++row) {
    for (int col = 0; col < 8; ++col) out.push_back(matrix[row * 64 + col]);
  }
  return out;
}

TEST(CopyTest, CountMaskCopiesTheFirstLanesOfEachRepeat) {
  const std::vector<float> src = Iota(256);
  std::vector<float> dst(256, kSentinel);
  const CopyCase c{kCopyCountMask, 20, 0, 4, 1, 1, 8, 8};
  const BlockOutcome o = RunCopy(src, &dst, c);
  ASSERT_FALSE(o.trapped) << o.trap_message;
  ASSERT_EQ(o.entry_result, NPUD_KERNEL_ENTRY_OK);
  for (size_t i = 0; i < dst.size(); ++i) {
    EXPECT_EQ(dst[i], i % 64 < 20 ? src[i] : kSentinel) << i;
  }
  EXPECT_EQ(dst, ExpectedCopy(src, std::vector<float>(256, kSentinel), c));
}

// The reference's [18, 64] -> [18, 8] example: 8 lanes a repeat, one repeat a row.
TEST(CopyTest, RepeatStridesGatherTheFirstColumnsOfEachRow) {
  const std::vector<float> src = Iota(18 * 64);
  std::vector<float> dst(18 * 8, kSentinel);
  const BlockOutcome o = RunCopy(src, &dst, {kCopyCountMask, 8, 0, 18, 1, 1, 1, 8});
  ASSERT_FALSE(o.trapped) << o.trap_message;
  EXPECT_EQ(dst, FirstColumns(src));
}

TEST(CopyTest, BlockStridesSpreadTheBlocksOfARepeat) {
  const std::vector<float> src = Iota(192);
  std::vector<float> dst(512, kSentinel);
  // Destination blocks 2 apart and repeats 16 blocks apart; source repeats overlap
  // (4 blocks apart) and its blocks are 1 apart.
  const CopyCase c{kCopyCountMask, 64, 0, 3, 2, 1, 16, 4};
  const BlockOutcome o = RunCopy(src, &dst, c);
  ASSERT_FALSE(o.trapped) << o.trap_message;
  const std::vector<float> want = ExpectedCopy(src, std::vector<float>(512, kSentinel), c);
  for (size_t i = 0; i < dst.size(); ++i) ASSERT_EQ(dst[i], want[i]) << i;
  // Spot checks independent of the model: repeat 1, block 3, element 5 lands at
  // block 16 + 6 and comes from block 4 + 3.
  EXPECT_EQ(dst[(16 + 6) * 8 + 5], src[(4 + 3) * 8 + 5]);
  EXPECT_EQ(dst[8], kSentinel);  // the gap after the first block
}

TEST(CopyTest, BitMaskLeavesUnmaskedLanesUntouched) {
  std::vector<uint16_t> src(512);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint16_t>(1000 + i);
  std::vector<uint16_t> dst(512, 0xBEEF);
  // Lanes 4-7 and 12-15 of each 16 among the low 64, lanes 64 and 127 of the high.
  const CopyCase c{kCopyBitMask, 0xF0F0F0F0F0F0F0F0ull, 0x8000000000000001ull, 3, 1, 1, 8, 8};
  const BlockOutcome o = RunCopy(src, &dst, c);
  ASSERT_FALSE(o.trapped) << o.trap_message;
  for (size_t i = 0; i < dst.size(); ++i) {
    const size_t r = i / 128, k = i % 128;
    const bool active = r < 3 && (k < 64 ? (k % 8 >= 4) : (k == 64 || k == 127));
    EXPECT_EQ(dst[i], active ? src[i] : 0xBEEF) << i;
  }
  EXPECT_EQ(dst, ExpectedCopy(src, std::vector<uint16_t>(512, 0xBEEF), c));
}

// The reference's counter-mode example: 144 elements in one repeat, the source's
// blocks a row (8 blocks) apart; and the same in two repeats of 72 elements.
TEST(CopyTest, CounterModeCountsElementsPerRepeat) {
  const std::vector<float> src = Iota(18 * 64);
  std::vector<float> dst(18 * 8, kSentinel);
  BlockOutcome o = RunCopy(src, &dst, {kCopyCounterMode, 144, 0, 1, 1, 8, 8, 8});
  ASSERT_FALSE(o.trapped) << o.trap_message;
  EXPECT_EQ(dst, FirstColumns(src));

  std::fill(dst.begin(), dst.end(), kSentinel);
  o = RunCopy(src, &dst, {kCopyCounterMode, 72, 0, 2, 1, 8, 9, 72});
  ASSERT_FALSE(o.trapped) << o.trap_message;
  EXPECT_EQ(dst, FirstColumns(src));
}

TEST(CopyTest, ZeroRepeatsCopyNothing) {
  const std::vector<float> src = Iota(64);
  std::vector<float> dst(64, kSentinel);
  const BlockOutcome o = RunCopy(src, &dst, {kCopyCountMask, 64, 0, 0, 1, 1, 8, 8});
  ASSERT_FALSE(o.trapped) << o.trap_message;
  EXPECT_EQ(dst, std::vector<float>(64, kSentinel));
}

TEST(CopyTest, RepeatsPastTheTensorFailTheBlock) {
  const std::vector<float> src = Iota(128);
  std::vector<float> dst(64, kSentinel);
  // The second repeat writes elements 64..127 of a 64-element destination.
  BlockOutcome o = RunCopy(src, &dst, {kCopyCountMask, 64, 0, 2, 1, 1, 8, 8});
  EXPECT_TRUE(o.trapped);
  EXPECT_EQ(o.trap_kind, NPUD_TRAP_KIND_CHECK);
  EXPECT_NE(o.trap_message.find("Copy: repeat 1, lane 0 of the destination tensor"),
            std::string::npos)
      << o.trap_message;

  // A source block stride that reads past the source.
  std::vector<float> wide(128, kSentinel);
  o = RunCopy(Iota(64), &wide, {kCopyCountMask, 64, 0, 1, 1, 2, 8, 8});
  EXPECT_TRUE(o.trapped);
  EXPECT_EQ(o.trap_kind, NPUD_TRAP_KIND_CHECK);
  EXPECT_NE(o.trap_message.find("of the source tensor"), std::string::npos) << o.trap_message;

  // Repeat strides are 12-bit fields.
  o = RunCopy(Iota(64), &wide, {kCopyCountMask, 64, 0, 1, 1, 1, 4096, 8});
  EXPECT_TRUE(o.trapped);
  EXPECT_EQ(o.trap_kind, NPUD_TRAP_KIND_CHECK);
  EXPECT_NE(o.trap_message.find("exceed 4095"), std::string::npos) << o.trap_message;
}

}  // namespace
}  // namespace npud::ascendc_test
