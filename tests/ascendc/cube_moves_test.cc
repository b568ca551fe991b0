// The matrix moves between GM, UB, L1 and L0C, and the Mmad control bits
// (npud_ascendc/cube_copies.h, mmad_config.h, cube.h's ND2NZ): each kernel of
// cube_moves_kernels.cc against a host reference written from the reference's
// parameter definitions (layouts, strides in their units, ND2NZ's zero padding,
// HF32's 11-bit mantissa and its two roundings).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

template <class... A>
void RunKernel(const char* name, uint32_t core_type, A... args) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_MOVES);
  ASSERT_NE(lib, nullptr);
  const NpudKernelInfo* kernel = FindOrFail(*lib, name);
  ASSERT_NE(kernel, nullptr);
  std::vector<uint8_t> packed = PackBytes(npud::kernel::ArgLayout<A...>::Size());
  npud::kernel::Pack(packed.data(), args...);
  LaunchOptions options;
  options.core_type = core_type;
  auto outcomes = RunBlocks(*kernel, 1, packed.data(), packed.size(), options);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
}

std::vector<int16_t> Values(size_t n, int seed) {
  std::vector<int16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int16_t>((i * 7919 + seed * 104729) % 30011);
  return v;
}

struct Nd2Nz {
  uint32_t nd_num, n, d, src_nd_stride, src_d, c0_stride, n_stride, nz_stride;
  std::vector<uint32_t> Params() const {
    return {nd_num, n, d, src_nd_stride, src_d, c0_stride, n_stride, nz_stride};
  }
};

// ND -> NZ of int16 (C0 = 16) into `out`: each row's runs of 16 columns, the last
// padded with zeros to 16.
void ApplyNd2Nz(const Nd2Nz& p, const std::vector<int16_t>& in, std::vector<int16_t>& out) {
  for (uint32_t nd = 0; nd < p.nd_num; ++nd) {
    for (uint32_t r = 0; r < p.n; ++r) {
      for (uint32_t c = 0; c < (p.d + 15) / 16 * 16; ++c) {
        const size_t to = nd * p.nz_stride + (c / 16 * p.c0_stride + r * p.n_stride) * 16 + c % 16;
        out.at(to) = c < p.d ? in.at(nd * p.src_nd_stride + r * p.src_d + c) : int16_t{0};
      }
    }
  }
}

TEST(CubeMovesTest, LoadDataMovesFractalsFromGmToL1) {
  struct Case {
    uint32_t start, repeat, src_stride, dst_gap, addr_mode;
  };
  for (const Case& c : {Case{1, 3, 2, 1, 0}, Case{6, 3, 2, 0, 1}, Case{2, 4, 0, 0, 0}}) {
    const uint32_t total = 8 * 256;
    const std::vector<int16_t> src = Values(8 * 256, 1), background = Values(total, 2);
    std::vector<int16_t> out(total, -1);
    std::vector<uint32_t> q{c.start, c.repeat, c.src_stride, c.dst_gap, c.addr_mode};
    RunKernel("moves_load2d_gm_to_l1", NPUD_CORE_TYPE_CUBE, src.data(), background.data(),
              out.data(), q.data(), total);
    std::vector<int16_t> want = background;
    for (uint32_t i = 0; i < c.repeat; ++i) {
      const uint32_t from =
          c.addr_mode == 0 ? c.start + i * c.src_stride : c.start - i * c.src_stride;
      const uint32_t to = i * (1 + c.dst_gap);
      std::memcpy(&want[to * 256], &src[from * 256], 512);
    }
    ASSERT_EQ(out, want) << "start " << c.start << " addrMode " << c.addr_mode;
  }
}

TEST(CubeMovesTest, L1ToGmCopiesBurstsWithGaps) {
  struct Case {
    uint32_t count, len, src_gap, dst_gap;
  };
  for (const Case& c : {Case{2, 3, 1, 2}, Case{1, 8, 0, 0}, Case{3, 2, 2, 0}}) {
    const uint32_t total = 256;
    const std::vector<int16_t> src = Values(total, 3);
    std::vector<int16_t> out(total, -1), want(total, -1);
    std::vector<uint32_t> q{c.count, c.len, c.src_gap, c.dst_gap};
    RunKernel("moves_l1_to_gm_bursts", NPUD_CORE_TYPE_CUBE, src.data(), out.data(), q.data(),
              total);
    for (uint32_t i = 0; i < c.count; ++i) {
      std::memcpy(&want[i * (c.len + c.dst_gap) * 16], &src[i * (c.len + c.src_gap) * 16],
                  c.len * 32);
    }
    ASSERT_EQ(out, want) << "blockCount " << c.count << " blockLen " << c.len;
  }
}

// Runs moves_ub_to_l1 with `q` and returns L1.
std::vector<int16_t> UbToL1(const std::vector<uint32_t>& q, const std::vector<int16_t>& src,
                            const std::vector<int16_t>& background) {
  std::vector<int16_t> out(background.size(), -1);
  RunKernel("moves_ub_to_l1", NPUD_CORE_TYPE_MIX, src.data(), background.data(), out.data(),
            q.data(), static_cast<uint32_t>(src.size()), static_cast<uint32_t>(background.size()));
  return out;
}

TEST(CubeMovesTest, UbToL1CopiesByCountAndInBursts) {
  const std::vector<int16_t> src = Values(512, 4), background = Values(1024, 5);
  {
    std::vector<int16_t> want = background;
    std::memcpy(&want[64], &src[32], 160 * 2);
    ASSERT_EQ(UbToL1({0, 160, 64, 32}, src, background), want) << "count form";
  }
  {
    // 2 bursts of 8 blocks, no source gap, 1 block between destination bursts.
    std::vector<int16_t> want = background;
    std::memcpy(&want[0], &src[0], 128 * 2);
    std::memcpy(&want[144], &src[128], 128 * 2);
    ASSERT_EQ(UbToL1({1, 2, 8, 0, 1}, src, background), want) << "burst form";
  }
}

TEST(CubeMovesTest, UbToL1ConvertsNdToNzWithZeroPadding) {
  // The reference's example: 2 matrices of 2 rows of 24 halves (the second 16-column
  // run of each row half padding).
  const Nd2Nz p{2, 2, 24, 144, 48, 11, 2, 96};
  const std::vector<int16_t> src = Values(512, 6), background = Values(1024, 7);
  std::vector<uint32_t> q{2};
  for (uint32_t v : p.Params()) q.push_back(v);
  std::vector<int16_t> want = background;
  ApplyNd2Nz(p, src, want);
  ASSERT_EQ(UbToL1(q, src, background), want);
}

TEST(CubeMovesTest, DataCopyPadFromUbGoesThroughTheWorkspaceAsNd) {
  // The reference's example: 3 bursts of 192 bytes, 1 block apart in UB, 64 bytes
  // apart in the workspace, then 3 rows of 96 halves 128 apart to NZ.
  const std::vector<int16_t> src = Values(512, 8), background = Values(1024, 9);
  const Nd2Nz p{1, 3, 96, 0, 128, 7, 2, 0};
  std::vector<uint32_t> q{3, 3, 192, 1, 64};
  for (uint32_t v : p.Params()) q.push_back(v);
  std::vector<int16_t> workspace(3 * 128, 0);
  for (uint32_t i = 0; i < 3; ++i) std::memcpy(&workspace[i * 128], &src[i * 112], 192);
  std::vector<int16_t> want = background;
  ApplyNd2Nz(p, workspace, want);
  ASSERT_EQ(UbToL1(q, src, background), want);
}

TEST(CubeMovesTest, GmToUbConvertsNdToNzWithZeroPadding) {
  const Nd2Nz p{2, 3, 23, 80, 25, 7, 2, 160};
  const uint32_t total = 512;
  const std::vector<int16_t> src = Values(256, 10), background = Values(total, 11);
  std::vector<int16_t> out(total, -1);
  std::vector<uint32_t> q = p.Params();
  RunKernel("moves_gm_to_ub_nd2nz", NPUD_CORE_TYPE_VECTOR, src.data(), background.data(),
            out.data(), q.data(), total);
  std::vector<int16_t> want = background;
  ApplyNd2Nz(p, src, want);
  ASSERT_EQ(out, want);
}

TEST(CubeMovesTest, UbToGmConvertsNzToNd) {
  // After the reference's float example: 2 matrices of 4 rows x 32 columns, rows
  // 144 apart in GM, matrices 40 apart; in UB column blocks of 16 floats 96 apart
  // (more than the 4 rows need) and matrices 512 apart.
  const uint32_t nd_num = 2, n = 4, d = 32, src_nd = 2, src_n = 6, dst_d = 144, dst_nd = 40;
  const uint32_t total = 768;
  std::vector<float> src(total);
  for (uint32_t i = 0; i < total; ++i) src[i] = static_cast<float>(i) + 0.5f;
  std::vector<float> out(600, -1.0f), want(600, -1.0f);
  std::vector<uint32_t> q{nd_num, n, d, src_nd, src_n, dst_d, dst_nd};
  RunKernel("moves_ub_to_gm_nz2nd", NPUD_CORE_TYPE_VECTOR, src.data(), out.data(), q.data(), total);
  for (uint32_t i = 0; i < nd_num; ++i) {
    for (uint32_t r = 0; r < n; ++r) {
      for (uint32_t c = 0; c < d; ++c) {
        want[i * dst_nd + r * dst_d + c] =
            src[i * src_nd * 256 + (c / 16) * src_n * 16 + r * 16 + c % 16];
      }
    }
  }
  ASSERT_EQ(out, want);
}

TEST(CubeMovesTest, L0cToL1ConvertsToHalfInNz) {
  const uint32_t n = 32, k = 32, stride = 20, total = 2 * stride * 16 + 64;
  std::vector<half> a(16 * k), b(n * k), background(total), out(total, half(-1));
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = half(static_cast<int>(i * 5 % 7) - 3);
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = half(static_cast<int>(i * 3 % 5) - 2);
  for (uint32_t i = 0; i < total; ++i) background[i] = half(static_cast<int>(i % 11) + 100);
  for (uint32_t relu : {0u, 1u}) {
    RunKernel("moves_l0c_to_l1", NPUD_CORE_TYPE_CUBE, a.data(), b.data(), background.data(),
              out.data(), n, k, relu, stride, total);
    std::vector<float> want(total);
    for (uint32_t i = 0; i < total; ++i) want[i] = static_cast<float>(background[i]);
    for (uint32_t m = 0; m < 16; ++m) {
      for (uint32_t j = 0; j < n; ++j) {
        float c = 0;
        for (uint32_t p = 0; p < k; ++p) {
          c += static_cast<float>(a[m * k + p]) * static_cast<float>(b[j * k + p]);
        }
        if (relu != 0 && c < 0) c = 0;
        want[(j / 16) * stride * 16 + m * 16 + j % 16] = c;  // small integers: exact in half
      }
    }
    for (uint32_t i = 0; i < total; ++i) {
      ASSERT_EQ(static_cast<float>(out[i]), want[i]) << "element " << i << " relu " << relu;
    }
  }
}

TEST(CubeMovesTest, L0cToL1RefusesNoQuant) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_MOVES);
  ASSERT_NE(lib, nullptr);
  LaunchOptions options;
  options.core_type = NPUD_CORE_TYPE_CUBE;
  const NpudKernelInfo* kernel = FindOrFail(*lib, "moves_l0c_to_l1_without_quant");
  ASSERT_NE(kernel, nullptr);
  auto outcomes = RunBlocks(*kernel, 1, nullptr, 0, options);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("NoQuant"), std::string::npos)
      << outcomes[0].trap_message;
}

// HF32 as the reference defines it, by arithmetic rather than bits: 12 significant
// bits (1 + an 11-bit mantissa), rounded to nearest, ties to even or away from 0.
float Hf32(float x, bool ties_away) {
  int exponent;
  const double fraction = std::frexp(static_cast<double>(x), &exponent);  // [0.5, 1)
  const double scaled = std::ldexp(fraction, 12);                         // [2048, 4096)
  const double rounded = ties_away ? std::copysign(std::floor(std::fabs(scaled) + 0.5), scaled)
                                   : std::nearbyint(scaled);
  return static_cast<float>(std::ldexp(rounded, exponent - 12));
}

float Bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}

// Runs moves_mmad_modes; the reference rounds the operands as `hf32` says and sums
// in float in order of k.
void CheckMmadModes(uint32_t hf32, uint32_t row_major, std::vector<float>* got) {
  const uint32_t n = 32, k = 24;
  std::vector<float> a(16 * k), b(n * k);
  uint32_t state = 12345;
  auto next = [&]() {
    state = state * 1664525u + 1013904223u;
    return state;
  };
  for (float& v : a) v = Bits(0x3F000000u | (next() >> 9)) * ((next() & 1) ? -1.0f : 1.0f);
  for (float& v : b) v = Bits(0x3F800000u | (next() >> 9));
  // Ties between HF32 neighbours: 1 + 2^-12 (rounds down to even, up away from 0)
  // and 1 + 3 * 2^-12 (up either way).
  a[0] = Bits(0x3F800800u);
  a[1] = Bits(0xBF801800u);
  b[0] = Bits(0x3F800800u);
  std::vector<float> c(16 * n, -1.0f);
  RunKernel("moves_mmad_modes", NPUD_CORE_TYPE_CUBE, a.data(), b.data(), c.data(), n, k, hf32,
            row_major);
  for (uint32_t m = 0; m < 16; ++m) {
    for (uint32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (uint32_t p = 0; p < k; ++p) {
        float x = a[m * k + p], y = b[j * k + p];
        if (hf32 != 0) {
          x = Hf32(x, hf32 == 2);
          y = Hf32(y, hf32 == 2);
        }
        const float product = x * y;
        sum = sum + product;
      }
      ASSERT_EQ(c[m * n + j], sum) << "C(" << m << ", " << j << ") hf32 " << hf32;
    }
  }
  *got = c;
}

TEST(CubeMovesTest, Hf32RoundsFloatOperandsBeforeTheMultiply) {
  std::vector<float> plain, even, away, row_major;
  CheckMmadModes(0, 0, &plain);
  CheckMmadModes(1, 0, &even);
  CheckMmadModes(2, 0, &away);
  // The data is such that each mode gives other sums.
  EXPECT_NE(plain, even);
  EXPECT_NE(even, away);
  // Producing C along N first changes no value.
  CheckMmadModes(0, 1, &row_major);
  EXPECT_EQ(row_major, plain);
}

}  // namespace
}  // namespace npud::ascendc_test
