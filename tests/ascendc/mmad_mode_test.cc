// The Mmad control bits at the level of the dense multiply (npud_ascendc/hf32.h,
// cube_panels.h's DenseMmadMode): HF32 rounding on the bits, including its edges,
// and the order in which the cube produces C (SetMMColumnMajor / SetMMRowMajor),
// which no value shows but the order the sums start in does.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/cube_panels.h"
#include "npud_ascendc/hf32.h"
#include "npud_ascendc/mmad_config.h"

namespace {

float Bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}
uint32_t BitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

TEST(MmadModeTest, Hf32KeepsElevenMantissaBitsRoundingAsTold) {
  using npud::ascendc::RoundToHf32;
  struct Case {
    uint32_t in, even, away;
  };
  for (const Case& c : {
           Case{0x3F800800u, 0x3F800000u, 0x3F801000u},  // a tie, even below
           Case{0x3F801800u, 0x3F802000u, 0x3F802000u},  // a tie, even above
           Case{0xBF800800u, 0xBF800000u, 0xBF801000u},  // negative: away is downwards
           Case{0x3F8007FFu, 0x3F800000u, 0x3F800000u},  // below half
           Case{0x3F800801u, 0x3F801000u, 0x3F801000u},  // above half
           Case{0x3FFFF800u, 0x40000000u, 0x40000000u},  // carries into the exponent
           Case{0x7F7FF800u, 0x7F800000u, 0x7F800000u},  // beyond the largest: infinity
           Case{0x7F800000u, 0x7F800000u, 0x7F800000u},  // infinity stays
           Case{0x12345000u, 0x12345000u, 0x12345000u},  // already HF32
       }) {
    EXPECT_EQ(BitsOf(RoundToHf32(Bits(c.in), false)), c.even) << std::hex << c.in;
    EXPECT_EQ(BitsOf(RoundToHf32(Bits(c.in), true)), c.away) << std::hex << c.in;
  }
  // A NaN whose payload lies in the dropped bits stays a NaN.
  EXPECT_TRUE(std::isnan(RoundToHf32(Bits(0x7F800001u), false)));
  EXPECT_TRUE(std::isnan(RoundToHf32(Bits(0xFFC00000u), true)));
}

// The setters write the bits Mmad hands to RunDenseMmad (cube.h passes
// MmadControl(); the HF32 kernel test shows that it arrives).
TEST(MmadModeTest, TheSettersWriteTheCoresControlBits) {
  const npud::ascendc::DenseMmadMode& bits = npud::ascendc::MmadControl();
  AscendC::SetMMRowMajor();
  EXPECT_TRUE(bits.n_first);
  AscendC::SetMMColumnMajor();
  EXPECT_FALSE(bits.n_first);
  AscendC::SetMMLayoutTransform(true);
  EXPECT_TRUE(bits.n_first);
  AscendC::SetMMLayoutTransform(false);
  AscendC::SetHF32Mode(AscendC::HF32Mode::ENABLE);
  EXPECT_TRUE(bits.hf32);
  AscendC::SetHF32TransMode(AscendC::HF32TransMode::NEAREST_ZERO);
  EXPECT_TRUE(bits.hf32_ties_away);
  AscendC::SetHF32TransMode(AscendC::HF32TransMode::NEAREST_EVEN);
  EXPECT_FALSE(bits.hf32_ties_away);
  AscendC::SetHF32Mode(AscendC::HF32Mode::DISABLE);
  EXPECT_FALSE(bits.hf32);
}

// The (row group of 4, column block of 16) tiles in the order their sums start.
std::vector<std::pair<uint32_t, uint32_t>> TileOrder(bool n_first) {
  npud::ascendc::MmadShape s{};
  s.m = 8;
  s.n = 40;
  s.k = 8;
  s.c0 = 8;
  s.k_blocks = 1;
  s.n_blocks = 3;
  s.m_padded = 16;
  s.gemv = false;
  std::vector<float> a(16 * 8, 1.0f), b(3 * 16 * 8, 1.0f), c(3 * 16 * 16, 0.0f);
  std::vector<std::pair<uint32_t, uint32_t>> order;
  npud::ascendc::DenseMmadMode mode;
  mode.n_first = n_first;
  npud::ascendc::RunDenseMmad(
      s, c.data(), a.data(), b.data(), s.k,
      [&](uint32_t row, uint32_t col, float) {
        const std::pair<uint32_t, uint32_t> tile{row / 4, col / 16};
        if (order.empty() || order.back() != tile) order.push_back(tile);
        return 0.0f;
      },
      mode);
  return order;
}

TEST(MmadModeTest, ColumnMajorGoesDownMFirstAndRowMajorAlongNFirst) {
  using Tiles = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(TileOrder(false), (Tiles{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}));
  EXPECT_EQ(TileOrder(true), (Tiles{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
}

}  // namespace
