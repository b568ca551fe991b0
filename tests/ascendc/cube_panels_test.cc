// The vector variants of Mmad's inner product (npud_ascendc/cube_panels.h), on
// the host: each must give the plain loop's bits, whichever one the CPU running
// a kernel picks (cube_mmad_test.cc runs the one this machine picks).
#include "npud_ascendc/cube_panels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

namespace {

using npud::ascendc::kPanelWidth;

// Values whose products and sums round, so that any other order shows.
std::vector<float> Values(size_t count, uint32_t seed) {
  std::vector<float> v(count);
  uint32_t x = seed;
  for (float& f : v) {
    x = x * 1664525u + 1013904223u;
    f = static_cast<float>(static_cast<int32_t>(x >> 8) - (1 << 23)) / 1048576.0f;
  }
  return v;
}

// With `zeros`, sums that start at -0 and add products -0 x 1: they stay -0 only if
// A's element reaches the lanes as it is (adding a +0 vector would make it +0).
template <class Accumulate>
void ExpectPlainLoopsBits(uint32_t row_count, Accumulate accumulate, bool zeros = false) {
  const uint32_t depth = 37;
  std::vector<float> a = Values(row_count * depth, 1), panel = Values(depth * kPanelWidth, 2);
  std::vector<float> start = Values(row_count * kPanelWidth, 3);
  if (zeros) {
    std::fill(a.begin(), a.end(), -0.0f);
    std::fill(panel.begin(), panel.end(), 1.0f);
    std::fill(start.begin(), start.end(), -0.0f);
  }
  std::vector<const float*> rows;
  for (uint32_t r = 0; r < row_count; ++r) rows.push_back(a.data() + r * depth);
  std::vector<float> want = start, got = start;
  npud::ascendc::AccumulateNarrow(rows.data(), row_count, panel.data(), depth, kPanelWidth,
                                  want.data());
  accumulate(rows.data(), panel.data(), depth, got.data());
  ASSERT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0);
  if (zeros) {
    EXPECT_TRUE(std::signbit(got[0]));
  } else {
    EXPECT_NE(std::memcmp(got.data(), start.data(), start.size() * sizeof(float)), 0);
  }
}

TEST(CubePanelsTest, SseVariantsKeepThePlainLoopsOrder) {
  ExpectPlainLoopsBits(2, npud::ascendc::AccumulateSse<2>);
  ExpectPlainLoopsBits(1, npud::ascendc::AccumulateSse<1>);
}

TEST(CubePanelsTest, Avx2VariantsKeepThePlainLoopsOrder) {
  if (!npud::ascendc::HasAvx2()) GTEST_SKIP() << "this CPU has no AVX2";
  ExpectPlainLoopsBits(4, npud::ascendc::AccumulateAvx2<4>);
  ExpectPlainLoopsBits(1, npud::ascendc::AccumulateAvx2<1>);
}

TEST(CubePanelsTest, FullBlocksOfAnyRowCountKeepThePlainLoopsOrder) {
  for (const bool zeros : {false, true}) {
    for (uint32_t row_count = 1; row_count <= 4; ++row_count) {
      ExpectPlainLoopsBits(
          row_count,
          [&](const float* const* rows, const float* panel, uint32_t depth, float* sums) {
            npud::ascendc::AccumulateFull(rows, row_count, panel, depth, sums);
          },
          zeros);
    }
  }
}

TEST(CubePanelsTest, NegativeZerosStayNegative) {
  ExpectPlainLoopsBits(2, npud::ascendc::AccumulateSse<2>, true);
  if (npud::ascendc::HasAvx2()) ExpectPlainLoopsBits(4, npud::ascendc::AccumulateAvx2<4>, true);
}

}  // namespace
