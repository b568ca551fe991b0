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

}  // namespace
}  // namespace npud::ascendc_test
