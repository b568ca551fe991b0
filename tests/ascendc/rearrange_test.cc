// Brcb, CreateVecIndex, GatherMask, Sort32 + MrgSort, SetPadValue and the comparison
// mask register (data_fill.h, gather_transpose.h, sort.h, data_copy.h,
// compare_select.h).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

void ExpectRan(const std::vector<BlockOutcome>& outcomes) {
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
}

TEST(RearrangeTest, BrcbIndicesAndGatherMask) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_REARRANGE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> src(64), out(256, -1.0f);
  std::vector<uint32_t> count(8, 0);
  for (uint32_t i = 0; i < 64; ++i) src[i] = 0.5f * static_cast<float>(i) + 3;
  ExpectRan(Launch(*lib, "fill_and_gather", 1, src.data(), out.data(), count.data()));
  for (uint32_t i = 0; i < 128; ++i) EXPECT_EQ(out[i], src[i / 8]) << i;
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(out[128 + i], static_cast<float>(10 + i)) << i;
  EXPECT_EQ(count[0], 32u);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[192 + i], src[2 * i + 1]) << i;
}

TEST(RearrangeTest, Sort32ThenMrgSortOrdersAllPairs) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_REARRANGE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> scores(128), out(256, 0);
  for (uint32_t i = 0; i < 128; ++i) scores[i] = static_cast<float>((i * 53) % 40);  // ties
  ExpectRan(Launch(*lib, "sort_and_merge", 1, scores.data(), out.data()));
  std::vector<uint32_t> want(128);
  for (uint32_t i = 0; i < 128; ++i) want[i] = i;
  // Descending; equal scores by queue (32-element repeat) then position: stable by index.
  std::stable_sort(want.begin(), want.end(),
                   [&](uint32_t x, uint32_t y) { return scores[x] > scores[y]; });
  for (uint32_t i = 0; i < 128; ++i) {
    uint32_t index;
    std::memcpy(&index, &out[2 * i + 1], sizeof(index));
    EXPECT_EQ(out[2 * i], scores[want[i]]) << i;
    EXPECT_EQ(index, want[i]) << i;
  }
}

TEST(RearrangeTest, PadValueAndTheCompareRegister) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_REARRANGE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a(64), b(64), padded(8, -1.0f);
  std::vector<uint64_t> mask(2, 0);
  for (uint32_t i = 0; i < 64; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>((i * 7) % 64);
  }
  ExpectRan(Launch(*lib, "pad_and_cmpmask", 1, a.data(), b.data(), padded.data(), mask.data()));
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(padded[i], a[i]) << i;
  for (uint32_t i = 5; i < 8; ++i) EXPECT_EQ(padded[i], 7.5f) << i;
  uint64_t want = 0;
  for (uint32_t i = 0; i < 64; ++i) want |= a[i] < b[i] ? uint64_t{1} << i : 0;
  EXPECT_EQ(mask[0], want);
  EXPECT_EQ(mask[1], 0u);
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(RearrangeTest, TransposesAndTransDataTo5HD) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_REARRANGE);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t N = 2, C = 3, HW = 32;
  std::vector<float> x(192), out(192), back(192);
  for (uint32_t i = 0; i < 192; ++i) x[i] = static_cast<float>(i);
  std::vector<half> square(256), planes(512), five(512);
  for (uint32_t i = 0; i < 256; ++i) square[i] = half(static_cast<float>(i));
  for (uint32_t i = 0; i < 512; ++i) planes[i] = half(static_cast<float>(i % 1024));
  ExpectRan(Launch(*lib, "transposes", 1, x.data(), out.data(), back.data(), square.data(),
                   planes.data(), five.data()));
  for (uint32_t n = 0; n < N; ++n) {
    for (uint32_t c = 0; c < C; ++c) {
      for (uint32_t p = 0; p < HW; ++p) {
        EXPECT_EQ(out[(n * HW + p) * C + c], x[(n * C + c) * HW + p]) << n << c << p;
      }
    }
  }
  EXPECT_EQ(back, x);
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 16; ++c) {
      EXPECT_EQ(static_cast<float>(square[r * 16 + c]), static_cast<float>(c * 16 + r));
    }
  }
  // Repeat k reads block k of each plane (srcRepStride 1) and writes 16 blocks from
  // block 16k (dstRepStride 16): five[(16k + i) * 16 + j] = planes[j * 32 + 16k + i].
  for (uint32_t k = 0; k < 2; ++k) {
    for (uint32_t i = 0; i < 16; ++i) {
      for (uint32_t j = 0; j < 16; ++j) {
        EXPECT_EQ(static_cast<float>(five[(16 * k + i) * 16 + j]),
                  static_cast<float>(planes[j * 32 + 16 * k + i]))
            << k << "," << i << "," << j;
      }
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test
