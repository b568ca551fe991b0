// The scalar unit's bit operations (npud_ascendc/scalar_ops.h) against upstream's
// documented examples, and NumericLimits (npud_ascendc/numeric_limits.h).
#include <cstdint>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "npud_ascendc/numeric_limits.h"
#include "npud_ascendc/scalar_ops.h"

namespace {

using namespace AscendC;

TEST(ScalarOpsTest, BitCounts) {
  EXPECT_EQ(GetBitCount<1>(0xFFFF), 16);
  EXPECT_EQ(GetBitCount<0>(0xFFFF), 48);
  EXPECT_EQ(CountLeadingZero(0), 64);
  EXPECT_EQ(CountLeadingZero(1), 63);
  EXPECT_EQ(CountBitsCntSameAsSignBit(0x0100000000000020), 6);
  EXPECT_EQ(CountBitsCntSameAsSignBit(1), 62);
  EXPECT_EQ(CountBitsCntSameAsSignBit(std::numeric_limits<int64_t>::max()), 0);
  EXPECT_EQ(CountBitsCntSameAsSignBit(std::numeric_limits<int64_t>::min()), 0);
  EXPECT_EQ(CountBitsCntSameAsSignBit(0), -1);
  EXPECT_EQ(CountBitsCntSameAsSignBit(-1), -1);
  EXPECT_EQ(GetSFFValue<1>(0x1000000000000100), 8);
  EXPECT_EQ(GetSFFValue<0>(0xFF00), 0);
  EXPECT_EQ(GetSFFValue<0>(0x00FF), 8);
  EXPECT_EQ(GetSFFValue<1>(0), -1);
  EXPECT_EQ(CeilDivision(7, 2), 4);
  EXPECT_EQ(CeilDivision(7, 0), 0);
  EXPECT_EQ(DivCeil(64u, 32u), 2u);
  EXPECT_EQ(DivCeil(65u, 32u), 3u);
  // The integer Ceil (matmul examples' tiling code calls it with int64_t).
  const int64_t m = 1000, l1 = 128;
  EXPECT_EQ(Ceil(m, l1), int64_t{8});
  EXPECT_EQ(Ceil(int64_t{1024}, l1), int64_t{8});
  EXPECT_EQ(Ceil(int64_t{5}, int64_t{0}), int64_t{0});
}

uint16_t Bits(half h) {
  uint16_t b;
  std::memcpy(&b, &h, sizeof(b));
  return b;
}

TEST(NumericLimitsTest, ValuesOfEachType) {
  EXPECT_EQ(NumericLimits<int16_t>::Max(), 32767);
  EXPECT_EQ(NumericLimits<uint8_t>::Lowest(), 0);
  EXPECT_EQ(NumericLimits<int32_t>::Min(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(static_cast<float>(NumericLimits<half>::Max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(NumericLimits<half>::Lowest()), -65504.0f);
  EXPECT_EQ(Bits(NumericLimits<half>::Min()), 0x0400);
  EXPECT_EQ(Bits(NumericLimits<half>::QuietNaN()), 0x7E00);
  EXPECT_EQ(NumericLimits<float>::Max(), std::numeric_limits<float>::max());
  EXPECT_EQ(NumericLimits<float>::Min(), std::numeric_limits<float>::min());
  EXPECT_EQ(NumericLimits<float>::Infinity(), std::numeric_limits<float>::infinity());
  EXPECT_EQ(NumericLimits<float>::DeNormMin(), std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(static_cast<float>(NumericLimits<bfloat16_t>::NegativeInfinity()),
            -std::numeric_limits<float>::infinity());
}

}  // namespace
