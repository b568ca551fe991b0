// BilinearInterpolation (bilinear_interpolation.h) against the reference page's
// worked example, recomputed on the host with half rounding after each product and
// sum, through kernels/bilinear_kernels.cc.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

struct Inputs {
  std::vector<half> src0, src1;
  std::vector<uint32_t> offsets;
};

Inputs PageExample(bool reversed) {
  Inputs in;
  for (int i = 0; i < 512; ++i) in.src0.push_back(half(static_cast<float>(i + 1)));
  for (int i = 0; i < 32; ++i) in.src1.push_back(half(static_cast<float>(i + 2)));
  for (uint32_t i = 0; i < 32; ++i) in.offsets.push_back((reversed ? 31 - i : i) * 32);
  return in;
}

// The product of element k (0..127) of repeat r (gathered block k / 16).
float Product(const Inputs& in, uint32_t r, uint32_t k, bool repeat_mode) {
  const uint32_t block = in.offsets[r * 8 + k / 16] / 2;  // bytes -> halves
  const half a = in.src0[block + k % 16];
  const half b = in.src1[repeat_mode ? r * 8 + k / 16 : r];
  return static_cast<float>(half(static_cast<float>(a) * static_cast<float>(b)));
}

std::vector<half> RunKernel(const Inputs& in, uint32_t which) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BILINEAR);
  std::vector<half> out(256, half(-1.0f));
  if (lib == nullptr) return out;
  Inputs copy = in;
  auto outcomes = Launch(*lib, "bilinear_interpolation", 1, copy.src0.data(), copy.src1.data(),
                         copy.offsets.data(), out.data(), which);
  EXPECT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  return out;
}

TEST(BilinearInterpolationTest, ThePageExampleInBothRepeatModes) {
  const Inputs in = PageExample(false);
  for (uint32_t which : {0u, 1u}) {
    const bool repeat_mode = which == 1;
    const std::vector<half> out = RunKernel(in, which);
    for (uint32_t v = 0; v < 2; ++v) {
      for (uint32_t k = 0; k < 128; ++k) {
        const float p0 = Product(in, v * 2, k, repeat_mode);
        const float p1 = Product(in, v * 2 + 1, k, repeat_mode);
        EXPECT_EQ(static_cast<float>(out[v * 128 + k]), static_cast<float>(half(p1 + p0)))
            << which << " " << v << "," << k;
      }
    }
  }
  // The page's first values: repeatMode false, dst[0] = 1 * 2 + 129 * 3.
  EXPECT_EQ(static_cast<float>(RunKernel(in, 0)[0]), 389.0f);
}

TEST(BilinearInterpolationTest, ThreeRepeatsAMaskAndABlockStride) {
  const Inputs in = PageExample(true);  // offsets in reverse: gathers blocks 31, 30, ...
  const std::vector<half> out = RunKernel(in, 2);
  for (uint32_t k = 0; k < 128; ++k) {
    const uint32_t block = k / 16;
    const uint32_t at = block * 2 * 16 + k % 16;  // dstBlkStride 2
    if (block == 0 || block == 2) {
      // acc = p1 + p0, then p2 + acc.
      const float p0 = Product(in, 0, k, true), p1 = Product(in, 1, k, true);
      const float p2 = Product(in, 2, k, true);
      const float want = static_cast<float>(half(p2 + static_cast<float>(half(p1 + p0))));
      EXPECT_EQ(static_cast<float>(out[at]), want) << k;
    } else {
      EXPECT_EQ(static_cast<float>(out[at]), -1.0f) << k;  // masked off
    }
  }
  for (uint32_t b = 0; b < 8; ++b) {  // the skipped blocks between
    for (uint32_t i = 0; i < 16; ++i)
      EXPECT_EQ(static_cast<float>(out[(2 * b + 1) * 16 + i]), -1.0f);
  }
}

}  // namespace
}  // namespace npud::ascendc_test
