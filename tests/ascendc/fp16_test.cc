// half, bfloat16_t and the rounding of float_format.h, on the host.
#include "npud_ascendc/fp16.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/float_format.h"

namespace {

using npud::ascendc::BinaryFormat;
using npud::ascendc::EncodeBinary;
using npud::ascendc::kBfloat16;
using npud::ascendc::kBinary16;
using npud::ascendc::kBinary32;
using npud::ascendc::Rounding;

uint32_t FloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}
float BitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}
bool IsHalfNan(uint16_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0; }

TEST(HalfTest, KnownValues) {
  EXPECT_EQ(half(1.0f).ToBits(), 0x3c00);
  EXPECT_EQ(half(-2.0).ToBits(), 0xc000);
  EXPECT_EQ(half(0.1f).ToBits(), 0x2e66);
  EXPECT_EQ(half(65504.0f).ToBits(), 0x7bff);
  EXPECT_EQ(half(65519.99f).ToBits(), 0x7bff);
  EXPECT_EQ(half(65520.0f).ToBits(), 0x7c00);  // halfway to 2^16 rounds to even: infinity
  EXPECT_EQ(half(1e9).ToBits(), 0x7c00);
  EXPECT_EQ(half(-1e9).ToBits(), 0xfc00);
  EXPECT_EQ(half(std::ldexp(1.0, -24)).ToBits(), 0x0001);  // smallest subnormal
  EXPECT_EQ(half(std::ldexp(1.0, -25)).ToBits(), 0x0000);  // tie to even
  EXPECT_EQ(half(std::ldexp(1.5, -25)).ToBits(), 0x0001);
  EXPECT_EQ(half(std::ldexp(1.0, -14)).ToBits(), 0x0400);  // smallest normal
  EXPECT_EQ(half(-0.0f).ToBits(), 0x8000);
  EXPECT_EQ(half(3).ToBits(), 0x4200);
  EXPECT_TRUE(IsHalfNan(half(std::numeric_limits<float>::quiet_NaN()).ToBits()));
  EXPECT_EQ(half(std::numeric_limits<float>::infinity()).ToBits(), 0x7c00);
  EXPECT_EQ(static_cast<float>(half::FromBits(0x7bff)), 65504.0f);
  EXPECT_EQ(static_cast<float>(half::FromBits(0x0001)), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(static_cast<float>(half::FromBits(0xfc00))));
}

TEST(HalfTest, TiesRoundToEven) {
  // 2049 lies halfway between 2048 and 2050 (spacing 2): even significand wins.
  EXPECT_EQ(static_cast<float>(half(2049.0f)), 2048.0f);
  EXPECT_EQ(static_cast<float>(half(2051.0f)), 2052.0f);
  // Every midpoint between adjacent positive finite halves rounds to the even one.
  for (uint32_t b = 0; b < 0x7bff; ++b) {
    const double lo = static_cast<float>(half::FromBits(static_cast<uint16_t>(b)));
    const double hi = static_cast<float>(half::FromBits(static_cast<uint16_t>(b + 1)));
    const double mid = (lo + hi) / 2;
    const uint16_t even = (b % 2 == 0) ? b : b + 1;
    ASSERT_EQ(half(mid).ToBits(), even) << "midpoint above bits " << b;
    ASSERT_EQ(half(std::nextafter(mid, 0.0)).ToBits(), b);
    ASSERT_EQ(half(std::nextafter(mid, 1e9)).ToBits(), b + 1);
  }
}

TEST(HalfTest, EveryBitPatternRoundTripsThroughFloat) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const uint16_t bits = static_cast<uint16_t>(b);
    const float f = half::FromBits(bits);
    if (IsHalfNan(bits)) {
      ASSERT_TRUE(std::isnan(f));
      ASSERT_TRUE(IsHalfNan(half(f).ToBits()));
    } else {
      ASSERT_EQ(half(f).ToBits(), bits) << "bits " << b;
    }
  }
}

#ifdef __FLT16_MANT_DIG__
// The compiler's own binary16 conversion is an independent oracle.
TEST(HalfTest, MatchesCompilerFloat16) {
  for (uint64_t b = 0; b <= 0xffffffffull; b += 65521) {
    const float f = BitsFloat(static_cast<uint32_t>(b));
    if (std::isnan(f)) continue;
    const _Float16 ref = static_cast<_Float16>(f);
    uint16_t ref_bits;
    std::memcpy(&ref_bits, &ref, sizeof(ref_bits));
    ASSERT_EQ(half(f).ToBits(), ref_bits) << "float bits " << b;
  }
}
#endif

TEST(HalfTest, ArithmeticRoundsOncePerOperation) {
  half a = 1.5f;
  half b = 2.25;
  half product = a * b;
  EXPECT_EQ(static_cast<float>(product), 3.375f);
  half sum = half(2048.0f) + half(1.0f);  // 2049 is not a half
  EXPECT_EQ(static_cast<float>(sum), 2048.0f);
  a += 1;
  ++a;
  EXPECT_EQ(static_cast<float>(a), 3.5f);
  EXPECT_TRUE(a > b);
  EXPECT_TRUE(half(0.0f) == 0);
  half quotient = half(1.0f) / half(3.0f);
  EXPECT_EQ(quotient.ToBits(), half(1.0 / 3.0).ToBits());
  double widened = half(0.5f);
  EXPECT_EQ(widened, 0.5);
}

TEST(Bfloat16Test, ConversionsRoundToNearestEven) {
  EXPECT_EQ(bfloat16_t(1.0f).ToBits(), 0x3f80);
  EXPECT_EQ(bfloat16_t(1.0 + std::ldexp(1.0, -8)).ToBits(), 0x3f80);      // tie, even
  EXPECT_EQ(bfloat16_t(1.0 + 3 * std::ldexp(1.0, -8)).ToBits(), 0x3f82);  // tie, even
  EXPECT_EQ(bfloat16_t(1.0 + 5 * std::ldexp(1.0, -9)).ToBits(), 0x3f81);
  EXPECT_EQ(static_cast<float>(bfloat16_t::FromBits(0xc0a0)), -5.0f);
  EXPECT_EQ(bfloat16_t(-0.0f).ToBits(), 0x8000);
  EXPECT_EQ(bfloat16_t(std::numeric_limits<float>::infinity()).ToBits(), 0x7f80);
}

// half(float) and bfloat16_t(float) round a float's bits directly; EncodeBinary on
// the exact double is the definition they must keep, flags included. Every
// combination of sign, exponent and the top 7 fraction bits, each with low bits
// that sit on, just off and around the rounding points of both formats (and of
// subnormal halves), plus pseudo-random ones.
template <class Convert>
void ExpectFloatConversionMatchesEncode(const BinaryFormat& format, Convert convert) {
  static const uint32_t kLow[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000,
                                  0x3000, 0x7fff, 0x8000, 0x8001, 0xc000, 0xffff};
  uint32_t lcg = 12345;
  for (uint32_t high = 0; high <= 0xffff; ++high) {
    for (uint32_t i = 0; i < 13 + 6; ++i) {
      lcg = lcg * 1664525u + 1013904223u;
      const uint32_t low = i < 13 ? kLow[i] : lcg >> 16;
      const float f = BitsFloat(high << 16 | low);
      std::feclearexcept(FE_ALL_EXCEPT);
      const uint32_t want = EncodeBinary(static_cast<double>(f), format, Rounding::kNearestEven);
      const bool want_overflow = std::fetestexcept(FE_OVERFLOW) != 0;
      std::feclearexcept(FE_ALL_EXCEPT);
      const uint32_t got = convert(f);
      const bool got_overflow = std::fetestexcept(FE_OVERFLOW) != 0;
      ASSERT_EQ(got, want) << "float bits " << std::hex << (high << 16 | low);
      ASSERT_EQ(got_overflow, want_overflow) << "float bits " << std::hex << (high << 16 | low);
    }
  }
}

TEST(HalfTest, FromFloatIsEncodeBinaryOfTheDouble) {
  ExpectFloatConversionMatchesEncode(kBinary16, [](float f) { return half(f).ToBits(); });
}

TEST(Bfloat16Test, FromFloatIsEncodeBinaryOfTheDouble) {
  ExpectFloatConversionMatchesEncode(kBfloat16, [](float f) { return bfloat16_t(f).ToBits(); });
}

TEST(RoundingTest, DirectedModesToBinary16) {
  const double between = 1.0 + std::ldexp(1.0, -11);  // halfway between 0x3c00 and 0x3c01
  const double above = 1.0 + std::ldexp(3.0, -12);    // three quarters of the way
  EXPECT_EQ(EncodeBinary(between, kBinary16, Rounding::kNearestEven), 0x3c00u);
  EXPECT_EQ(EncodeBinary(between, kBinary16, Rounding::kNearestAway), 0x3c01u);
  EXPECT_EQ(EncodeBinary(above, kBinary16, Rounding::kNearestEven), 0x3c01u);
  EXPECT_EQ(EncodeBinary(above, kBinary16, Rounding::kTowardZero), 0x3c00u);
  EXPECT_EQ(EncodeBinary(above, kBinary16, Rounding::kDown), 0x3c00u);
  EXPECT_EQ(EncodeBinary(between, kBinary16, Rounding::kUp), 0x3c01u);
  EXPECT_EQ(EncodeBinary(-between, kBinary16, Rounding::kDown), 0xbc01u);
  EXPECT_EQ(EncodeBinary(-between, kBinary16, Rounding::kUp), 0xbc00u);
  EXPECT_EQ(EncodeBinary(-above, kBinary16, Rounding::kTowardZero), 0xbc00u);
  EXPECT_EQ(EncodeBinary(between, kBinary16, Rounding::kOdd), 0x3c01u);
  EXPECT_EQ(EncodeBinary(1.0 + std::ldexp(3.0, -11), kBinary16, Rounding::kOdd), 0x3c01u);
  EXPECT_EQ(EncodeBinary(1.0, kBinary16, Rounding::kOdd), 0x3c00u);
}

TEST(RoundingTest, OverflowFollowsTheDirection) {
  EXPECT_EQ(EncodeBinary(70000.0, kBinary16, Rounding::kNearestEven), 0x7c00u);
  EXPECT_EQ(EncodeBinary(70000.0, kBinary16, Rounding::kTowardZero), 0x7bffu);
  EXPECT_EQ(EncodeBinary(70000.0, kBinary16, Rounding::kDown), 0x7bffu);
  EXPECT_EQ(EncodeBinary(70000.0, kBinary16, Rounding::kUp), 0x7c00u);
  EXPECT_EQ(EncodeBinary(-70000.0, kBinary16, Rounding::kDown), 0xfc00u);
  EXPECT_EQ(EncodeBinary(-70000.0, kBinary16, Rounding::kUp), 0xfbffu);
  EXPECT_EQ(EncodeBinary(65504.5, kBinary16, Rounding::kUp), 0x7c00u);
  EXPECT_EQ(EncodeBinary(1e300, kBfloat16, Rounding::kNearestEven), 0x7f80u);
}

TEST(RoundingTest, Binary32FromIntegers) {
  EXPECT_EQ(BitsFloat(EncodeBinary(16777217.0, kBinary32, Rounding::kNearestEven)), 16777216.0f);
  EXPECT_EQ(BitsFloat(EncodeBinary(16777217.0, kBinary32, Rounding::kUp)), 16777218.0f);
  EXPECT_EQ(BitsFloat(EncodeBinary(16777219.0, kBinary32, Rounding::kNearestEven)), 16777220.0f);
  EXPECT_EQ(BitsFloat(EncodeBinary(-2147483647.0, kBinary32, Rounding::kNearestEven)),
            -2147483648.0f);
  EXPECT_EQ(EncodeBinary(std::ldexp(1.0, -149), kBinary32, Rounding::kNearestEven), 1u);
  EXPECT_EQ(FloatBits(0.1f), EncodeBinary(0.1, kBinary32, Rounding::kNearestEven));
}

TEST(RoundingTest, DecodeIsExact) {
  for (uint32_t b = 0; b < 0x7c00; b += 7) {
    EXPECT_EQ(npud::ascendc::DecodeBinary(b, kBinary16), static_cast<double>(half::FromBits(b)));
  }
  EXPECT_TRUE(std::isinf(npud::ascendc::DecodeBinary(0x7f80, kBfloat16)));
}

}  // namespace
