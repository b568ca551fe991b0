// CastDequant (cast_dequant.h) against a host model of the DEQSCALE register: the
// scale cut to 10 mantissa bits, a 9-bit signed offset, signMode's range, rounding to
// nearest even, through kernels/cast_dequant_kernels.cc.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

float Cut(float scale) {
  uint32_t bits = 0;
  std::memcpy(&bits, &scale, 4);
  bits &= 0xFFFFE000u;
  std::memcpy(&scale, &bits, 4);
  return scale;
}

uint8_t Expect(int16_t x, float scale, int offset, bool sign_mode) {
  offset &= 0x1FF;
  if (offset & 0x100) offset -= 0x200;
  double v = std::nearbyint(static_cast<double>(x) * Cut(scale) + offset);
  const double lo = sign_mode ? -128 : 0, hi = sign_mode ? 127 : 255;
  v = v < lo ? lo : v > hi ? hi : v;
  return static_cast<uint8_t>(static_cast<int32_t>(v));
}

TEST(CastDequantTest, Int16ToBytesInBothModesAndBothHalves) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CAST_DEQUANT);
  ASSERT_NE(lib, nullptr);
  std::vector<int16_t> src(64);
  for (int i = 0; i < 64; ++i) src[i] = static_cast<int16_t>((i * 97) % 701 - 350);
  src[5] = 303;  // 303 * (0.5 + 2^-12) - 5 = 146.57, the cut scale 146.5: 147 or 146 (even)
  std::vector<uint8_t> out(512, 0xAA);
  std::vector<float> scales(18);
  scales[0] = 0.37f;
  scales[1] = 0.5f + 1.0f / 4096;  // beyond 10 mantissa bits
  for (int i = 0; i < 16; ++i) scales[2 + i] = 0.05f * static_cast<float>(i + 1);
  auto outcomes = Launch(*lib, "cast_dequant_b8", 1, src.data(), out.data(), scales.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t block = i / 16, k = i % 16;
    EXPECT_EQ(out[block * 32 + 16 + k], Expect(src[i], scales[0], 3, true)) << i;
    EXPECT_EQ(out[block * 32 + k], 0xAA) << i;  // the other half
    EXPECT_EQ(out[128 + block * 32 + k], Expect(src[i], scales[1], -5, false)) << i;
    EXPECT_EQ(out[128 + block * 32 + 16 + k], 0xAA) << i;
  }
  EXPECT_EQ(out[128 + 5], 146);  // the cut scale (the full one would give 147)
  // Vector mode, level 0: lanes 0-15 (source block 0) and 48-63 (block 3), to
  // destination blocks 0 and 6 (stride 2), second halves; set k for element k.
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t block = i / 16, k = i % 16;
    const bool active = block == 0 || block == 3;
    const uint32_t at = 256 + block * 2 * 32 + 16 + k;
    if (active) {
      EXPECT_EQ(out[at], Expect(src[i], scales[2 + k], k * 37 - 256, k % 2 == 0)) << i;
    } else {
      EXPECT_EQ(out[at], 0xAA) << i;
    }
  }
}

TEST(CastDequantTest, Int32ToHalfScalesAndRoundsToEven) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CAST_DEQUANT);
  ASSERT_NE(lib, nullptr);
  std::vector<int32_t> src(64);
  for (int i = 0; i < 64; ++i) src[i] = (i * 104729) % 20011 - 10000;
  src[1] = 8194;  // 2048.5: ties to even, 2048
  src[2] = 8198;  // 2049.5 -> 2050
  std::vector<half> out(128, half(-7.0f));
  auto outcomes = Launch(*lib, "cast_dequant_s32", 1, src.data(), out.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(static_cast<float>(out[i]),
              static_cast<float>(half(static_cast<double>(src[i]) * 0.25)))
        << i;
  }
  EXPECT_EQ(static_cast<float>(out[1]), 2048.0f);
  EXPECT_EQ(static_cast<float>(out[2]), 2050.0f);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(static_cast<float>(out[64 + i]), static_cast<float>(out[i]));
  for (int i = 96; i < 128; ++i) EXPECT_EQ(static_cast<float>(out[i]), -7.0f) << i;
}

}  // namespace
}  // namespace npud::ascendc_test
