// Mmad's arithmetic on shapes of any size (npud_ascendc/cube_panels.h), through the
// raw Mmad kernels of cube_ops_kernels.cc. The values are not small integers: their
// sums round, so only sums taken in the reference's order (from C's start, k = 0
// first, one float addition per product) give its bits. The host lays the operands
// out as the L0A / L0B fractals, with signalling NaNs (or, for int8, large values)
// in the padding that no product may read: a product with one raises FE_INVALID,
// which the kernel reports, even where its result is thrown away.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

struct Shape {
  uint32_t m, n, k;
  uint32_t mode;  // 0 C = A x B, 1 then C += A x B, 2 bias table, 3 bias tensor
  bool k_align;   // float A: kDirectionAlign
};

// A deterministic value in [-1, 1) for position i of stream `seed`.
float Noise(uint32_t i, uint32_t seed) {
  const uint32_t x = (i + 1) * 2654435761u ^ (seed + 1) * 40503u * 2246822519u;
  return static_cast<float>((x >> 8) % 65536) / 32768.0f - 1.0f;
}

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Runs `kernel` on the shape and checks C and the exception flags against a
// reference that sums element by element. `value(i, seed)` makes an element,
// `pad` fills what the shape does not cover.
template <class T, class C>
void CheckMmad(const char* kernel, const Shape& s, T pad,
               const std::function<T(uint32_t, uint32_t)>& value) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t c0 = 32 / sizeof(T);
  const bool gemv = s.m == 1;
  const uint32_t a_k_blocks =
      std::is_same_v<T, float> && s.k_align ? CeilDiv(s.k, 16) * 2 : CeilDiv(s.k, c0);
  const uint32_t a_fractals = gemv ? CeilDiv(s.k, 16 * c0) : CeilDiv(s.m, 16) * a_k_blocks;
  const uint32_t n_blocks = CeilDiv(s.n, 16);
  const uint32_t b_fractals = CeilDiv(s.k, c0) * n_blocks;
  std::vector<T> a(a_fractals * 16 * c0, pad), b(b_fractals * 16 * c0, pad);
  std::vector<T> av(s.m * s.k), bv(s.k * s.n);  // row-major, for the reference
  for (uint32_t r = 0; r < s.m; ++r) {
    for (uint32_t i = 0; i < s.k; ++i) {
      av[r * s.k + i] = value(r * s.k + i, 1);
      const uint64_t at =
          gemv ? i : ((r / 16) * a_k_blocks + i / c0) * 16 * c0 + (r % 16) * c0 + i % c0;
      a[at] = av[r * s.k + i];
    }
  }
  for (uint32_t i = 0; i < s.k; ++i) {
    for (uint32_t col = 0; col < s.n; ++col) {
      bv[i * s.n + col] = value(i * s.n + col, 2);
      b[((i / c0) * n_blocks + col / 16) * 16 * c0 + (col % 16) * c0 + i % c0] = bv[i * s.n + col];
    }
  }
  std::vector<float> bias(n_blocks * 16);
  for (uint32_t i = 0; i < bias.size(); ++i) bias[i] = Noise(i, 3) * 4.0f;
  std::vector<C> c(s.m * s.n, C{});
  int32_t flags = -1;
  const NpudKernelInfo* info = FindOrFail(*lib, kernel);
  ASSERT_NE(info, nullptr);
  std::vector<uint8_t> packed =
      PackBytes(npud::kernel::ArgLayout<T*, T*, float*, C*, int32_t*, uint32_t, uint32_t, uint32_t,
                                        uint32_t, uint32_t, uint32_t, uint32_t>::Size());
  npud::kernel::Pack(packed.data(), a.data(), b.data(), bias.data(), c.data(), &flags, s.m, s.n,
                     s.k, a_fractals, b_fractals, s.mode, uint32_t{s.k_align});
  LaunchOptions cube;
  cube.core_type = NPUD_CORE_TYPE_CUBE;
  auto outcomes = RunBlocks(*info, 1, packed.data(), packed.size(), cube);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(flags, 0) << "the Mmads raised floating-point exceptions";
  using Acc = std::conditional_t<std::is_integral_v<C>, int64_t, float>;
  for (uint32_t r = 0; r < s.m; ++r) {
    for (uint32_t col = 0; col < s.n; ++col) {
      Acc sum = s.mode >= 2 ? static_cast<Acc>(bias[col]) : Acc{};
      for (int round = 0; round < (s.mode == 1 ? 2 : 1); ++round) {
        for (uint32_t i = 0; i < s.k; ++i) {
          sum += static_cast<Acc>(av[r * s.k + i]) * static_cast<Acc>(bv[i * s.n + col]);
        }
      }
      const C want = static_cast<C>(sum);
      ASSERT_EQ(std::memcmp(&c[r * s.n + col], &want, sizeof(C)), 0)
          << kernel << " m " << s.m << " n " << s.n << " k " << s.k << " mode " << s.mode
          << ": row " << r << " col " << col << " got " << c[r * s.n + col] << " want " << want;
    }
  }
}

// Shapes with partial fractals on every axis, an odd row count, a GEMV, and one
// row pair short of a whole block.
const Shape kShapes[] = {
    {40, 40, 70, 0, false}, {40, 40, 70, 1, false}, {17, 48, 50, 2, false},
    {17, 33, 50, 3, false}, {1, 33, 50, 0, false},  {32, 16, 16, 1, false},
};

TEST(CubeMmadTest, HalfSumsInTheCubesOrderOnAnyShape) {
  for (const Shape& s : kShapes) {
    CheckMmad<half, float>("cube_raw_mmad_half", s, half::FromBits(0x7d00),
                           [](uint32_t i, uint32_t seed) { return half(Noise(i, seed) * 3.0f); });
  }
}

TEST(CubeMmadTest, Bfloat16SumsInTheCubesOrderOnAnyShape) {
  for (const Shape& s : kShapes) {
    CheckMmad<bfloat16_t, float>(
        "cube_raw_mmad_bf16", s, bfloat16_t::FromBits(0x7fa0),
        [](uint32_t i, uint32_t seed) { return bfloat16_t(Noise(i, seed) * 3.0f); });
  }
}

TEST(CubeMmadTest, FloatRoundsEachProductThenSumsInOrder) {
  for (Shape s : kShapes) {
    for (const bool align : {false, true}) {
      s.k_align = align;
      CheckMmad<float, float>("cube_raw_mmad_float", s, std::numeric_limits<float>::signaling_NaN(),
                              [](uint32_t i, uint32_t seed) { return Noise(i, seed) * 3.3f; });
    }
  }
}

TEST(CubeMmadTest, Int8SumsExactlyOnAnyShape) {
  for (const Shape& s : kShapes) {
    if (s.mode >= 2) continue;  // the bias table holds floats; int32 biases are not tested here
    CheckMmad<int8_t, int32_t>("cube_raw_mmad_int8", s, int8_t{127}, [](uint32_t i, uint32_t seed) {
      return static_cast<int8_t>(Noise(i, seed) * 127.0f);
    });
  }
}

}  // namespace
}  // namespace npud::ascendc_test
