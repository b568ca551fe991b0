// The cube's moves and arithmetic (npud_ascendc/cube.h, load_data.h, fixpipe.h): each
// kernel of cube_ops_kernels.cc against a host reference computed from the
// reference's definitions (layouts, quantisation formula, im2col, 4:2 sparsity).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

LaunchOptions Cube() {
  LaunchOptions options;
  options.core_type = NPUD_CORE_TYPE_CUBE;
  return options;
}

template <class... A>
void RunCube(const KernelLibrary& lib, const char* name, A... args) {
  const NpudKernelInfo* kernel = FindOrFail(lib, name);
  ASSERT_NE(kernel, nullptr);
  std::vector<uint8_t> packed = PackBytes(npud::kernel::ArgLayout<A...>::Size());
  npud::kernel::Pack(packed.data(), args...);
  auto outcomes = RunBlocks(*kernel, 1, packed.data(), packed.size(), Cube());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
}

// A deterministic small integer in [lo, hi].
int Small(uint32_t i, int seed, int lo, int hi) {
  return lo + static_cast<int>((i * 2654435761u + static_cast<uint32_t>(seed) * 40503u) >> 7) %
                  (hi - lo + 1);
}

// rows x cols values in [lo, hi].
std::vector<int> Ints(uint32_t rows, uint32_t cols, int seed, int lo, int hi) {
  std::vector<int> v(rows * cols);
  for (uint32_t i = 0; i < v.size(); ++i) v[i] = Small(i, seed, lo, hi);
  return v;
}

// a (m x k) * b^T (b is n x k).
std::vector<int64_t> MatMulBT(const std::vector<int>& a, const std::vector<int>& b, uint32_t m,
                              uint32_t n, uint32_t k) {
  std::vector<int64_t> c(m * n, 0);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      for (uint32_t p = 0; p < k; ++p) c[i * n + j] += int64_t{a[i * k + p]} * b[j * k + p];
    }
  }
  return c;
}

TEST(CubeOpsTest, Int4GemmMatchesTheIntegerProduct) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 32, n = 48, k = 128;
  const std::vector<int> a = Ints(m, k, 1, -8, 7), b = Ints(n, k, 2, -8, 7);
  auto pack = [](const std::vector<int>& v) {
    std::vector<uint8_t> out(v.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = static_cast<uint8_t>((v[2 * i] & 0xF) | ((v[2 * i + 1] & 0xF) << 4));
    }
    return out;
  };
  std::vector<uint8_t> pa = pack(a), pb = pack(b);
  std::vector<int32_t> c(m * n, -1);
  RunCube(*lib, "cube_int4_gemm", pa.data(), pb.data(), c.data(), m, n, k);
  const std::vector<int64_t> want = MatMulBT(a, b, m, n, k);
  for (uint32_t i = 0; i < m * n; ++i) ASSERT_EQ(c[i], want[i]) << "element " << i;
}

TEST(CubeOpsTest, LoadDataWithTransposeTransposesInt8Squares) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 32, n = 64, k = 96;
  const std::vector<int> a = Ints(m, k, 3, -5, 5), b_kn = Ints(k, n, 4, -5, 5);
  std::vector<int8_t> a8(a.begin(), a.end()), b8(b_kn.begin(), b_kn.end());
  std::vector<int> b_nk(n * k);
  for (uint32_t r = 0; r < k; ++r) {
    for (uint32_t col = 0; col < n; ++col) b_nk[col * k + r] = b_kn[r * n + col];
  }
  std::vector<int32_t> c(m * n, -1);
  RunCube(*lib, "cube_int8_gemm_transposing_b", a8.data(), b8.data(), c.data(), m, n, k);
  const std::vector<int64_t> want = MatMulBT(a, b_nk, m, n, k);
  for (uint32_t i = 0; i < m * n; ++i) ASSERT_EQ(c[i], want[i]) << "element " << i;
}

TEST(CubeOpsTest, Load3dBuildsTheImageToColumnMatrixWithPadding) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t h = 4, w = 8, channels = 16, filters = 16;
  const float pad = 2.0f;
  const std::vector<int> f = Ints(h * w, channels, 5, -3, 3);  // [h][w][c]
  const std::vector<int> wt = Ints(filters, 144, 6, -2, 2);    // [n][(kh*3+kw)*16+c]
  std::vector<half> fh(f.begin(), f.end()), wh(wt.begin(), wt.end());
  std::vector<float> out(2 * h * w * filters, -1.0f);
  RunCube(*lib, "cube_conv3x3_load3d", fh.data(), wh.data(), out.data(), h, w, pad);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      for (uint32_t o = 0; o < filters; ++o) {
        float want = 0;
        for (int kh = 0; kh < 3; ++kh) {
          for (int kw = 0; kw < 3; ++kw) {
            const int iy = static_cast<int>(y) + kh - 1, ix = static_cast<int>(x) + kw - 1;
            const bool inside =
                iy >= 0 && ix >= 0 && iy < static_cast<int>(h) && ix < static_cast<int>(w);
            for (uint32_t c = 0; c < channels; ++c) {
              const float v = inside ? static_cast<float>(f[(iy * w + ix) * channels + c]) : pad;
              want += v * static_cast<float>(wt[o * 144 + (kh * 3 + kw) * 16 + c]);
            }
          }
        }
        ASSERT_EQ(out[(y * w + x) * filters + o], want) << "y " << y << " x " << x << " o " << o;
        ASSERT_EQ(out[(h * w + y * w + x) * filters + o], want)
            << "V2 Pro: y " << y << " x " << x << " o " << o;
      }
    }
  }
}

// The REQ8 formula of the reference (fixpipe_l0c2gm/scripts/gen_data_s322s8.py).
int Req8(int64_t x, uint64_t word, bool relu) {
  uint32_t bits = static_cast<uint32_t>(word) & 0xFFFFE000u;
  float m1;
  std::memcpy(&m1, &bits, sizeof(m1));
  const float v = static_cast<float>(x);
  const float scaled = v >= 0 ? v * m1 : v * (relu ? 0.0f : m1);
  float q = std::nearbyint(std::fmin(std::fmax(scaled, -256.0f), 255.0f));
  q += static_cast<float>((word >> 37) & 0x1FF);
  const bool is_signed = ((word >> 46) & 1) != 0;
  return static_cast<int>(is_signed ? std::fmin(std::fmax(q, -128.0f), 127.0f)
                                    : std::fmin(std::fmax(q, 0.0f), 255.0f));
}

TEST(CubeOpsTest, FixpipeQuantisesAndWritesNzWithInt8ChannelMerge) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 32, n = 64, k = 32;
  const std::vector<int> a = Ints(m, k, 7, -6, 6), b = Ints(n, k, 8, -6, 6);
  std::vector<int8_t> a8(a.begin(), a.end()), b8(b.begin(), b.end());
  const float scale = 0.3f;  // not exact in (1, 8, 10): the low 13 bits must be dropped
  uint32_t scale_bits;
  std::memcpy(&scale_bits, &scale, sizeof(scale));
  const uint64_t word = scale_bits | (uint64_t{5} << 37) | (uint64_t{1} << 46);
  const std::vector<int64_t> c = MatMulBT(a, b, m, n, k);
  for (const bool relu : {false, true}) {
    std::vector<int8_t> q(m * n, 99), nz8(m * n, 99);
    std::vector<int32_t> nz32(m * n, -1);
    RunCube(*lib, "cube_fixpipe_outputs", a8.data(), b8.data(), q.data(), nz32.data(), nz8.data(),
            m, n, word, uint32_t{relu});
    int negatives = 0;
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t col = 0; col < n; ++col) {
        const int64_t v = c[r * n + col];
        negatives += v < 0;
        ASSERT_EQ(q[r * n + col], Req8(v, word, relu)) << "row " << r << " col " << col;
        ASSERT_EQ(nz32[(col / 16) * m * 16 + r * 16 + col % 16], v)
            << "row " << r << " col " << col;
        ASSERT_EQ(nz8[(col / 32) * m * 32 + r * 32 + col % 32], Req8(v, word, false))
            << "row " << r << " col " << col;
      }
    }
    EXPECT_GT(negatives, 0);
  }
}

TEST(CubeOpsTest, BiasFromTheBiasTableStartsTheSums) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 16, n = 32, k = 16;
  const std::vector<int> a = Ints(m, k, 9, -4, 4), b = Ints(n, k, 10, -4, 4);
  std::vector<half> ah(a.begin(), a.end()), bh(b.begin(), b.end());
  std::vector<float> bias(n);
  for (uint32_t i = 0; i < n; ++i) bias[i] = 0.5f * static_cast<float>(i) - 3.0f;
  std::vector<float> with_tensor(m * n, -1), from_table(m * n, -1);
  RunCube(*lib, "cube_bias_gemm", ah.data(), bh.data(), bias.data(), with_tensor.data(),
          from_table.data(), m, n);
  const std::vector<int64_t> c = MatMulBT(a, b, m, n, k);
  for (uint32_t i = 0; i < m * n; ++i) {
    const float want = static_cast<float>(c[i]) + bias[i % n];
    ASSERT_EQ(with_tensor[i], want) << "element " << i;
    ASSERT_EQ(from_table[i], want) << "element " << i;
  }
}

TEST(CubeOpsTest, MmadWithMEqualOneIsAGemvOverAContiguousRow) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t n = 32, k = 256;
  const std::vector<int> a = Ints(1, k, 11, -3, 3), b = Ints(n, k, 12, -3, 3);
  std::vector<half> ah(a.begin(), a.end()), bh(b.begin(), b.end());
  std::vector<float> c(n, -1);
  RunCube(*lib, "cube_gemv", ah.data(), bh.data(), c.data(), n, k);
  const std::vector<int64_t> want = MatMulBT(a, b, 1, n, k);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], static_cast<float>(want[i])) << "column " << i;
}

TEST(CubeOpsTest, SparseMmadSelectsARowsByTheIndices) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_OPS);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 16, n = 32, k = 128, kd = k / 2;
  const std::vector<int> a = Ints(m, k, 13, -5, 5);
  // The full B (n x k): in every group of 4 along k, two non-zeros at positions
  // p0 < p1 chosen per group; dense keeps them, the indices are p0 and p1 - 1.
  std::vector<int> full(n * k, 0);
  std::vector<int8_t> dense(n * kd);  // L0B order: fractal (kd/32, n/16), 16 x 32
  std::vector<uint8_t> idx(n * kd / 4, 0);
  for (uint32_t col = 0; col < n; ++col) {
    for (uint32_t g = 0; g < k / 4; ++g) {
      const int choice = Small(col * 64 + g, 14, 0, 5);
      static const int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
      const int p0 = kPairs[choice][0], p1 = kPairs[choice][1];
      const int v0 = Small(col * 64 + g, 15, 1, 7), v1 = -Small(col * 64 + g, 16, 1, 7);
      full[col * k + g * 4 + p0] = v0;
      full[col * k + g * 4 + p1] = v1;
      for (int t = 0; t < 2; ++t) {
        const uint32_t row = g * 2 + t;  // row of the dense B
        const uint64_t e = ((row / 32) * (n / 16) + col / 16) * 512 + (col % 16) * 32 + row % 32;
        dense[e] = static_cast<int8_t>(t == 0 ? v0 : v1);
        const int index = t == 0 ? p0 : p1 - 1;
        idx[e / 4] = static_cast<uint8_t>(idx[e / 4] | (index << (2 * (e % 4))));
      }
    }
  }
  std::vector<int8_t> a8(a.begin(), a.end());
  std::vector<int32_t> c(m * n, -1);
  RunCube(*lib, "cube_sparse_gemm", a8.data(), dense.data(), idx.data(), c.data(), m, n, k);
  const std::vector<int64_t> want = MatMulBT(a, full, m, n, k);
  for (uint32_t i = 0; i < m * n; ++i) ASSERT_EQ(c[i], want[i]) << "element " << i;
}

}  // namespace
}  // namespace npud::ascendc_test
