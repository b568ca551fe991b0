// Multi-block TPipe/TQue pipelines: float add over 64K elements in 8 blocks, and the
// half add/sub/mul/div pipeline in the shape of the runtime's add_custom.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

namespace npud::ascendc_test {
namespace {

// Deterministic pseudo-random values in [lo, hi).
class Lcg {
 public:
  explicit Lcg(uint32_t seed) : state_(seed) {}
  float Next(float lo, float hi) {
    state_ = state_ * 1664525u + 1013904223u;
    return lo + (hi - lo) * static_cast<float>(state_ >> 8) / 16777216.0f;
  }

 private:
  uint32_t state_;
};

TEST(VectorAddTest, FloatPipeline64KElementsIn8Blocks) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_VECTOR);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kTotal = 64 * 1024;
  constexpr uint32_t kBlocks = 8;
  std::vector<float> a(kTotal);
  std::vector<float> b(kTotal);
  std::vector<float> dst(kTotal, -1.0f);
  Lcg rng(7);
  for (uint32_t i = 0; i < kTotal; ++i) {
    a[i] = rng.Next(-1000, 1000);
    b[i] = static_cast<float>(i) * 0.25f;
  }
  auto outcomes =
      Launch(*lib, "add_float_pipeline", kBlocks, a.data(), b.data(), dst.data(), kTotal);
  ASSERT_EQ(outcomes.size(), kBlocks);
  for (const BlockOutcome& o : outcomes) {
    EXPECT_EQ(o.entry_result, NPUD_KERNEL_ENTRY_OK);
    EXPECT_FALSE(o.trapped) << o.trap_message;
  }
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < kTotal; ++i) {
    if (dst[i] != a[i] + b[i]) {
      if (++mismatches <= 5)
        ADD_FAILURE() << "element " << i << ": " << dst[i] << " != " << a[i] + b[i];
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

class HalfPipelineTest : public ::testing::TestWithParam<npud_test::ElementwiseOp> {};

TEST_P(HalfPipelineTest, MatchesRoundedReference) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_VECTOR);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kTotal = 8 * 2048;
  constexpr uint32_t kBlocks = 8;
  const uint32_t op = GetParam();
  std::vector<half> x(kTotal);
  std::vector<half> y(kTotal);
  std::vector<half> z(kTotal, half(-999.0f));
  Lcg rng(11 + op);
  for (uint32_t i = 0; i < kTotal; ++i) {
    x[i] = rng.Next(-100, 100);
    y[i] = rng.Next(0.5f, 60);
  }
  auto outcomes = Launch(*lib, "half_binary_pipeline", kBlocks,
                         reinterpret_cast<uint8_t*>(x.data()), reinterpret_cast<uint8_t*>(y.data()),
                         reinterpret_cast<uint8_t*>(z.data()), op, kTotal);
  ASSERT_EQ(outcomes.size(), kBlocks);
  for (const BlockOutcome& o : outcomes) EXPECT_FALSE(o.trapped) << o.trap_message;
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < kTotal; ++i) {
    const double a = static_cast<float>(x[i]);
    const double b = static_cast<float>(y[i]);
    const double exact = op == npud_test::kAdd   ? a + b
                         : op == npud_test::kSub ? a - b
                         : op == npud_test::kMul ? a * b
                                                 : a / b;
    const half expected(exact);  // one rounding of the exact result
    if (z[i].ToBits() != expected.ToBits()) {
      if (++mismatches <= 5) ADD_FAILURE() << "element " << i << ": " << static_cast<float>(z[i]);
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

std::string PipelineOpName(const ::testing::TestParamInfo<npud_test::ElementwiseOp>& info) {
  static const char* const kNames[] = {"Add", "Sub", "Mul", "Div"};
  return kNames[info.param];
}
INSTANTIATE_TEST_SUITE_P(Ops, HalfPipelineTest,
                         ::testing::Values(npud_test::kAdd, npud_test::kSub, npud_test::kMul,
                                           npud_test::kDiv),
                         PipelineOpName);

TEST(VectorAddTest, HalfKnownValues) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_VECTOR);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kTotal = 256;  // one block: 8 tiles x 2 buffers of 16 halves
  std::vector<half> x(kTotal, half(1.5f));
  std::vector<half> y(kTotal, half(2.25f));
  std::vector<half> z(kTotal);
  x[1] = 2048.0f;
  y[1] = 1.0f;  // 2049 rounds to even: 2048
  x[2] = 65504.0f;
  y[2] = 65504.0f;  // overflows to infinity
  Launch(*lib, "half_binary_pipeline", 1, reinterpret_cast<uint8_t*>(x.data()),
         reinterpret_cast<uint8_t*>(y.data()), reinterpret_cast<uint8_t*>(z.data()),
         uint32_t{npud_test::kAdd}, kTotal);
  EXPECT_EQ(static_cast<float>(z[0]), 3.75f);
  EXPECT_EQ(static_cast<float>(z[1]), 2048.0f);
  EXPECT_EQ(z[2].ToBits(), 0x7c00);
  Launch(*lib, "half_binary_pipeline", 1, reinterpret_cast<uint8_t*>(x.data()),
         reinterpret_cast<uint8_t*>(y.data()), reinterpret_cast<uint8_t*>(z.data()),
         uint32_t{npud_test::kMul}, kTotal);
  EXPECT_EQ(static_cast<float>(z[0]), 3.375f);
}

}  // namespace
}  // namespace npud::ascendc_test
