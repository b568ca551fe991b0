// The element-wise advanced APIs (npud_ascendc/adv_math.h) against their formulas.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"
#include "tiling/vector_tmp_size.h"

namespace npud::ascendc_test {
namespace {

TEST(AdvancedMathTest, ActivationsAndMathFunctions) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), out(384, -7.0f);
  for (uint32_t i = 0; i < 64; ++i) x[i] = -4.0f + 0.13f * static_cast<float>(i);
  auto outcomes = Launch(*lib, "adv_math", 1, x.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 64; ++i) {
    const double v = x[i];
    const double sigmoid = 1 / (1 + std::exp(-v));
    EXPECT_FLOAT_EQ(out[i], static_cast<float>(sigmoid)) << i;
    EXPECT_FLOAT_EQ(
        out[64 + i],
        static_cast<float>(v / (1 + std::exp(-1.5957691216057308 * (v + 0.044715 * v * v * v)))))
        << i;
    EXPECT_FLOAT_EQ(out[128 + i], static_cast<float>(v / (1 + std::exp(-1.5 * v)))) << i;
    EXPECT_FLOAT_EQ(out[192 + i], static_cast<float>(v - std::trunc(v))) << i;
    if (i < 40) {
      EXPECT_FLOAT_EQ(out[256 + i], static_cast<float>(std::erf(v))) << i;
    } else {
      EXPECT_EQ(out[256 + i], -7.0f) << i;  // beyond calCount
    }
    EXPECT_FLOAT_EQ(out[320 + i], static_cast<float>(std::tanh(v))) << i;
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(AdvancedMathTest, ExpClampFmodPower) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), b(64), out(320, 0);
  for (uint32_t i = 0; i < 64; ++i) {
    x[i] = -3.0f + 0.1f * static_cast<float>(i);
    b[i] = 0.5f + 0.05f * static_cast<float>(i % 17);
  }
  auto outcomes = Launch(*lib, "adv_binary", 1, x.data(), b.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 64; ++i) {
    const double v = x[i], w = b[i];
    EXPECT_FLOAT_EQ(out[i], static_cast<float>(std::exp(v))) << i;
    EXPECT_EQ(out[64 + i], std::max(x[i], -1.0f)) << i;
    EXPECT_FLOAT_EQ(out[128 + i], static_cast<float>(std::fmod(v, w))) << i;
    EXPECT_FLOAT_EQ(out[192 + i], static_cast<float>(std::pow(std::fabs(v), w))) << i;
    EXPECT_FLOAT_EQ(out[256 + i], static_cast<float>(std::pow(2.0, v))) << i;
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(SoftMaxTest, RowsSumsMaximaAndAdjust) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(128), out(128), out2(128), sum(32), max(32);
  for (uint32_t i = 0; i < 128; ++i) x[i] = 0.25f * static_cast<float>((i * 7) % 19) - 2;
  x[2 * 32 + 5] = 1000.0f;  // row 2's max
  auto outcomes =
      Launch(*lib, "softmax_rows", 1, x.data(), out.data(), out2.data(), sum.data(), max.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 4; ++r) {
    float m = -INFINITY;
    for (uint32_t k = 0; k < 24; ++k) m = std::max(m, x[r * 32 + k]);
    float s = 0;
    for (uint32_t k = 0; k < 24; ++k) s += std::exp(x[r * 32 + k] - m);
    for (uint32_t i = 0; i < 8; ++i) {
      EXPECT_EQ(max[r * 8 + i], m) << r;
      EXPECT_FLOAT_EQ(sum[r * 8 + i], s) << r;
    }
    for (uint32_t k = 0; k < 32; ++k) {
      const float want = std::exp(x[r * 32 + k] - m) / s;
      EXPECT_FLOAT_EQ(out2[r * 32 + k], want) << r << "," << k;
      EXPECT_FLOAT_EQ(out[r * 32 + k], r == 2 ? -1.0f : want) << r << "," << k;
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(RmsNormTest, RowsScaledByTheirRootMeanSquare) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(96), gamma(16), out(96);
  std::vector<uint32_t> stack(8, 0);
  for (uint32_t i = 0; i < 96; ++i) x[i] = 0.1f * static_cast<float>((i * 13) % 23) - 1;
  for (uint32_t k = 0; k < 16; ++k) gamma[k] = 0.5f + 0.1f * static_cast<float>(k);
  auto outcomes = Launch(*lib, "rms_norm", 1, x.data(), gamma.data(), out.data(), stack.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(stack[0], 196608u - (96 + 16 + 96) * 4);  // the UB the three buffers left
  for (uint32_t r = 0; r < 6; ++r) {
    float squares = 0;
    for (uint32_t k = 0; k < 12; ++k) squares += x[r * 16 + k] * x[r * 16 + k];
    const float scale = 1.0f / std::sqrt(squares / 12 + 1e-5f);
    for (uint32_t k = 0; k < 16; ++k) {
      EXPECT_FLOAT_EQ(out[r * 16 + k], x[r * 16 + k] * scale * gamma[k]) << r << "," << k;
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(LayerNormTest, RowsNormalizedWithTheirMeanAndVariance) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(256), gamma(32), beta(32), out(256), stats(16);
  for (uint32_t i = 0; i < 256; ++i) x[i] = 0.05f * static_cast<float>((i * 29) % 41) - 1;
  for (uint32_t k = 0; k < 32; ++k) {
    gamma[k] = 1.0f + 0.02f * static_cast<float>(k);
    beta[k] = 0.1f * static_cast<float>(k % 5);
  }
  auto outcomes =
      Launch(*lib, "layer_norm", 1, x.data(), gamma.data(), beta.data(), out.data(), stats.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 8; ++r) {
    double mean = 0, variance = 0;
    for (uint32_t k = 0; k < 32; ++k) mean += x[r * 32 + k];
    mean /= 32;
    for (uint32_t k = 0; k < 32; ++k) variance += (x[r * 32 + k] - mean) * (x[r * 32 + k] - mean);
    variance /= 32;
    EXPECT_NEAR(stats[r], mean, 1e-6) << r;
    EXPECT_NEAR(stats[8 + r], variance, 1e-6) << r;
    for (uint32_t k = 0; k < 32; ++k) {
      const double want = (x[r * 32 + k] - mean) / std::sqrt(variance + 1e-5) * gamma[k] + beta[k];
      EXPECT_NEAR(out[r * 32 + k], want, 1e-5) << r << "," << k;
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(AdvancedReduceFillTest, SumArangeFill) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<half> x(48), out(48);
  std::vector<float> fill(48, -1.0f);
  for (uint32_t i = 0; i < 48; ++i) x[i] = half(static_cast<float>(i % 7) * 0.5f);
  auto outcomes = Launch(*lib, "sum_arange_fill", 1, x.data(), out.data(), fill.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 3; ++r) {
    float sum = 0;
    for (uint32_t k = 0; k < 11; ++k) sum += static_cast<float>(x[r * 16 + k]);
    EXPECT_EQ(static_cast<float>(out[r]), sum) << r;
  }
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(static_cast<float>(out[16 + i]), 2.0f + 0.5f * static_cast<float>(i)) << i;
  }
  for (uint32_t i = 0; i < 48; ++i) EXPECT_EQ(fill[i], i < 40 ? 7.0f : -1.0f) << i;
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(AdvancedMathTest, RoundTakesHalvesToEven) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), out(64);
  for (uint32_t i = 0; i < 64; ++i) x[i] = 0.5f * static_cast<float>(static_cast<int>(i) - 32);
  auto outcomes = Launch(*lib, "round_floats", 1, x.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 64; ++i) {
    const float f = std::floor(x[i]), diff = x[i] - f;
    const float want = diff < 0.5f   ? f
                       : diff > 0.5f ? f + 1
                                     : (std::fmod(f, 2.0f) == 0 ? f : f + 1);
    EXPECT_EQ(out[i], want) << x[i];
  }
  EXPECT_EQ(out[32 + 5], 2.0f);  // 2.5
  EXPECT_EQ(out[32 + 7], 4.0f);  // 3.5
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(AdvancedMathTest, GatedLinearUnits) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a(64), b(64), out(192);
  for (uint32_t i = 0; i < 64; ++i) {
    a[i] = 0.5f + 0.03f * static_cast<float>(i);
    b[i] = -3.0f + 0.1f * static_cast<float>(i);
  }
  auto outcomes = Launch(*lib, "glus", 1, a.data(), b.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 64; ++i) {
    const double x0 = a[i], x1 = b[i];
    EXPECT_FLOAT_EQ(
        out[i], static_cast<float>(
                    x0 * x1 / (1 + std::exp(-0.0713548162726 * (x1 * x1 + 22.363860002236) * x1))))
        << i;
    EXPECT_FLOAT_EQ(out[64 + i], static_cast<float>(x0 * std::max(0.0, x1))) << i;
    EXPECT_FLOAT_EQ(out[128 + i], static_cast<float>(x0 * x1 / (1 + std::exp(-1.25 * x1)))) << i;
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

// Running sums of a rows x cols matrix in float, in the order the hardware adds:
// along each row (along_rows) or down each column.
std::vector<float> RunningSums(const std::vector<float>& x, uint32_t rows, uint32_t cols,
                               bool along_rows) {
  std::vector<float> sums(rows * cols);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      float sum = 0;
      if (along_rows) {
        for (uint32_t k = 0; k <= c; ++k) sum += x[r * cols + k];
      } else {
        for (uint32_t k = 0; k <= r; ++k) sum += x[k * cols + c];
      }
      sums[r * cols + c] = sum;
    }
  }
  return sums;
}

TEST(AdvancedMathTest, CumSumFloatAlongRowsAndDownColumns) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), out(192, -7.0f), last(48, -9.0f);
  for (uint32_t i = 0; i < 64; ++i) x[i] = 0.37f * static_cast<float>((i * 11) % 13) - 2.1f;
  auto outcomes = Launch(*lib, "cumsum_float", 1, x.data(), out.data(), last.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  const std::vector<float> along = RunningSums(x, 4, 16, true);
  const std::vector<float> down = RunningSums(x, 4, 16, false);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(out[i], along[i]) << i;
    EXPECT_EQ(out[64 + i], down[i]) << i;
    EXPECT_EQ(out[128 + i], i < 32 ? along[i] : -7.0f) << i;  // 2 rows only
  }
  for (uint32_t c = 0; c < 16; ++c) {
    EXPECT_EQ(last[c], along[48 + c]) << c;
    EXPECT_EQ(last[16 + c], down[48 + c]) << c;
    EXPECT_EQ(last[32 + c], -9.0f) << c;  // outputLastRow false
  }
}

TEST(AdvancedMathTest, CumSumHalfAddsInFloatAndRoundsOnce) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<half> x(96), out(192), last(64);
  std::vector<float> wide(96);
  for (uint32_t i = 0; i < 96; ++i) {
    x[i] = half(0.3f * static_cast<float>((i * 7) % 11) + 0.013f * static_cast<float>(i));
    wide[i] = static_cast<float>(x[i]);
  }
  auto outcomes = Launch(*lib, "cumsum_half", 1, x.data(), out.data(), last.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  const std::vector<float> along = RunningSums(wide, 3, 32, true);
  const std::vector<float> down = RunningSums(wide, 3, 32, false);
  uint32_t rounded_differently = 0;  // elements a half-by-half sum would get wrong
  for (uint32_t i = 0; i < 96; ++i) {
    EXPECT_EQ(out[i].ToBits(), half(along[i]).ToBits()) << i;
    EXPECT_EQ(out[96 + i].ToBits(), half(down[i]).ToBits()) << i;
    half stepwise = half(0.0f);
    for (uint32_t k = i / 32 * 32; k <= i; ++k) stepwise += wide[k];
    if (stepwise.ToBits() != half(along[i]).ToBits()) ++rounded_differently;
  }
  EXPECT_GT(rounded_differently, 0u);
  for (uint32_t c = 0; c < 32; ++c) {
    EXPECT_EQ(last[c].ToBits(), half(along[64 + c]).ToBits()) << c;
    EXPECT_EQ(last[32 + c].ToBits(), half(down[64 + c]).ToBits()) << c;
  }
}

TEST(AdvancedMathTest, CumSumRefusesBadShapes) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MATH);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64, 1.0f);
  struct Case {
    uint32_t outter, inner;
    const char* message;
  };
  const Case cases[] = {
      {0, 16, "CumSum: outter 0 and inner 16 must both be positive"},
      {4, 12, "CumSum: a row of inner 12 elements is 48 bytes, not a multiple of 32"},
      {5, 16, "CumSum: 5 x 16 elements do not fit the source (64 elements)"},
      {2, 32, "CumSum: the last row of 32 elements does not fit lastRowTensor (16)"},
  };
  for (const Case& c : cases) {
    auto outcomes = Launch(*lib, "cumsum_shape", 1, x.data(), c.outter, c.inner);
    ASSERT_EQ(outcomes.size(), 1u);
    EXPECT_TRUE(outcomes[0].trapped) << c.message;
    EXPECT_EQ(outcomes[0].trap_kind, NPUD_TRAP_KIND_CHECK) << c.message;
    EXPECT_NE(outcomes[0].trap_message.find(c.message), std::string::npos)
        << outcomes[0].trap_message;
  }
  auto fits = Launch(*lib, "cumsum_shape", 1, x.data(), uint32_t{4}, uint32_t{16});
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_FALSE(fits[0].trapped) << fits[0].trap_message;
}

TEST(AdvancedMathTest, CumSumTmpSizeCoversTheShape) {
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetCumSumMaxMinTmpSize(AscendC::TensorShape({32, 32}), sizeof(float), true, false,
                                  max_value, min_value);
  EXPECT_EQ(max_value, 2u * 32 * 32 * sizeof(float));
  EXPECT_GT(min_value, 0u);
  EXPECT_LE(min_value, max_value);
}

}  // namespace
}  // namespace npud::ascendc_test
