// The cube path (npud_ascendc/cube.h, LocalMemAllocator beyond the UB): GEMMs
// through L1 / L0A / L0B / L0C against a host golden, and misuses that fail the block.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

// Small integers: their products and sums are exact in float, so the golden
// does not depend on the order of the accumulation.
std::vector<half> Matrix(uint32_t rows, uint32_t cols, int seed) {
  std::vector<half> m(rows * cols);
  for (uint32_t i = 0; i < m.size(); ++i) m[i] = half(static_cast<int>((i * 7 + seed) % 9) - 4);
  return m;
}

std::vector<float> Golden(const std::vector<half>& a, const std::vector<half>& b, uint32_t m,
                          uint32_t n, uint32_t k) {
  std::vector<float> c(m * n, 0.0f);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      for (uint32_t p = 0; p < k; ++p) {
        c[i * n + j] += static_cast<float>(a[i * k + p]) * static_cast<float>(b[p * n + j]);
      }
    }
  }
  return c;
}

TEST(CubeTest, HalfGemmThroughL1AndL0MatchesTheGolden) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE);
  ASSERT_NE(lib, nullptr);
  for (const bool relu : {false, true}) {
    const uint32_t m = 32, n = 48, k = 64;
    const std::vector<half> a = Matrix(m, k, 1), b = Matrix(k, n, 5);
    std::vector<half> c(m * n, half(99));
    auto outcomes =
        Launch(*lib, "cube_gemm_half", 1, a.data(), b.data(), c.data(), m, n, k, uint32_t{relu});
    ASSERT_EQ(outcomes.size(), 1u);
    ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
    const std::vector<float> golden = Golden(a, b, m, n, k);
    int negatives = 0;
    for (uint32_t i = 0; i < m * n; ++i) {
      const float want = relu && golden[i] < 0 ? 0.0f : golden[i];
      negatives += golden[i] < 0;
      ASSERT_EQ(static_cast<float>(c[i]), want) << "element " << i << " relu " << relu;
    }
    EXPECT_GT(negatives, 0);  // the ReLU case is not vacuous
  }
}

TEST(CubeTest, AccumulatingMmadAndFloatOutput) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 16, n = 32, k = 16;
  const std::vector<half> a = Matrix(m, k, 2), b = Matrix(k, n, 3);
  std::vector<float> c(m * n, -1.0f);
  auto outcomes = Launch(*lib, "cube_gemm_float_twice", 1, a.data(), b.data(), c.data(), m, n, k);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  const std::vector<float> golden = Golden(a, b, m, n, k);
  for (uint32_t i = 0; i < m * n; ++i) ASSERT_EQ(c[i], 2 * golden[i]) << "element " << i;
}

TEST(CubeTest, MisusesFailTheBlockWithAMessage) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE);
  ASSERT_NE(lib, nullptr);
  std::vector<half> c(256);
  auto quant = Launch(*lib, "cube_fixpipe_without_quant", 1, c.data());
  ASSERT_EQ(quant.size(), 1u);
  EXPECT_TRUE(quant[0].trapped);
  EXPECT_NE(quant[0].trap_message.find("Fixpipe: quantPre 0"), std::string::npos)
      << quant[0].trap_message;
  auto overflow = Launch(*lib, "cube_l1_overflow", 1);
  ASSERT_EQ(overflow.size(), 1u);
  EXPECT_TRUE(overflow[0].trapped);
  EXPECT_NE(overflow[0].trap_message.find("outside the L1"), std::string::npos)
      << overflow[0].trap_message;
}

// Nd2NzParams{ndNum 2, nValue 5, dValue 20, srcNdMatrixStride 120, srcDValue 24,
// dstNzC0Stride 6, dstNzNStride 1, dstNzMatrixStride 200}: element (r, c) of matrix
// nd lands at nd * 200 + ((c / 16) * 6 + r) * 16 + c % 16, and nothing else changes.
TEST(CubeTest, Nd2NzPlacesEveryElementAsTheLayoutSays) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE);
  ASSERT_NE(lib, nullptr);
  std::vector<half> a(240), out(1024, half(7));
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = half(static_cast<int>(i));
  auto outcomes = Launch(*lib, "cube_nd2nz_layout", 1, a.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  std::vector<float> want(1024, -1.0f);
  for (uint32_t nd = 0; nd < 2; ++nd) {
    for (uint32_t r = 0; r < 5; ++r) {
      // dValue 20 is not a whole number of 16-column runs: the last run is padded
      // with zeros to 16 (the reference's ND2NZ pads to 32 bytes).
      for (uint32_t c = 0; c < 32; ++c) {
        want[nd * 200 + ((c / 16) * 6 + r) * 16 + c % 16] =
            c < 20 ? static_cast<float>(a[nd * 120 + r * 24 + c]) : 0.0f;
      }
    }
  }
  for (uint32_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(static_cast<float>(out[i]), want[i]) << "element " << i;
  }
}

// The copies check their whole extent once, and name the first element outside in
// the NPU's order when there is one.
TEST(CubeTest, CopiesPastTheirTensorsFailNamingTheElement) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE);
  ASSERT_NE(lib, nullptr);
  std::vector<half> a(16 * 32, half(1));
  auto nd2nz = Launch(*lib, "cube_nd2nz_past_tensor", 1, a.data());
  ASSERT_EQ(nd2nz.size(), 1u);
  EXPECT_TRUE(nd2nz[0].trapped);
  EXPECT_NE(nd2nz[0].trap_message.find("element (0, 16) of matrix 0 lands at 256"),
            std::string::npos)
      << nd2nz[0].trap_message;
  std::vector<float> c(16 * 32);
  auto fixpipe = Launch(*lib, "cube_fixpipe_past_source", 1, c.data());
  ASSERT_EQ(fixpipe.size(), 1u);
  EXPECT_TRUE(fixpipe[0].trapped);
  EXPECT_NE(fixpipe[0].trap_message.find("element (0, 16) of matrix 0 is at 256"),
            std::string::npos)
      << fixpipe[0].trap_message;
}

}  // namespace
}  // namespace npud::ascendc_test
