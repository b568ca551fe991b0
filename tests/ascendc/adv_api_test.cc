// The advanced APIs of issue 44 (softmax_grad.h, layer_norm_grad.h, anti_quant.h,
// dropout.h, pad.h) against their reference formulas, run through the kernels of
// kernels/adv_api_kernels.cc.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

TEST(SoftmaxGradTest, RowsAndFrontOverTheValidColumns) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> grad(64), src(64), out(64), front(32);
  for (uint32_t i = 0; i < 64; ++i) {
    grad[i] = 0.125f * static_cast<float>((i * 5) % 13) - 0.75f;
    src[i] = 0.0625f * static_cast<float>((i * 3) % 11);
  }
  const std::vector<float> original = src;
  auto outcomes =
      Launch(*lib, "softmax_grad", 1, grad.data(), src.data(), out.data(), front.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 4; ++r) {
    float dot = 0;
    for (uint32_t k = 0; k < 12; ++k) dot += grad[r * 16 + k] * original[r * 16 + k];
    for (uint32_t i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(front[r * 8 + i], dot) << r;
    for (uint32_t k = 0; k < 16; ++k) {
      EXPECT_FLOAT_EQ(out[r * 16 + k], (grad[r * 16 + k] - dot) * original[r * 16 + k])
          << r << "," << k;
    }
  }
}

TEST(LayerNormGradTest, GradientsOfXGammaAndBeta) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kRows = 4, kH = 8;
  std::vector<float> io(88, 0), out(80, 0);
  float* x = io.data();
  float* dy = io.data() + 32;
  float* mean = io.data() + 64;
  float* var = io.data() + 72;
  float* gamma = io.data() + 80;
  for (uint32_t i = 0; i < 32; ++i) {
    x[i] = 0.5f * static_cast<float>((i * 7) % 9) - 1.0f;
    dy[i] = 0.25f * static_cast<float>((i * 3) % 7) - 0.5f;
  }
  for (uint32_t k = 0; k < kH; ++k) gamma[k] = 0.5f + 0.125f * static_cast<float>(k);
  for (uint32_t r = 0; r < kRows; ++r) {
    double m = 0, v = 0;
    for (uint32_t k = 0; k < kH; ++k) m += x[r * kH + k];
    m /= kH;
    for (uint32_t k = 0; k < kH; ++k) v += (x[r * kH + k] - m) * (x[r * kH + k] - m);
    mean[r] = static_cast<float>(m);
    var[r] = static_cast<float>(v / kH);
  }
  auto outcomes = Launch(*lib, "layer_norm_grad", 1, io.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  std::vector<double> pd_gamma(kH, 0), pd_beta(kH, 0);
  for (uint32_t r = 0; r < kRows; ++r) {
    const double s = 1.0 / std::sqrt(static_cast<double>(var[r]) + 0.01f);
    double pd_var = 0, pd_mean = 0;
    for (uint32_t k = 0; k < kH; ++k) {
      const double d = x[r * kH + k] - static_cast<double>(mean[r]);
      const double pd_xl = static_cast<double>(dy[r * kH + k]) * gamma[k];
      pd_var += -0.5 * pd_xl * d * std::pow(s, 3);
      pd_mean += -pd_xl * s;
    }
    double sum_d = 0;
    for (uint32_t k = 0; k < kH; ++k) sum_d += -2.0 * (x[r * kH + k] - mean[r]);
    pd_mean += pd_var / kH * sum_d;
    for (uint32_t k = 0; k < kH; ++k) {
      const double d = x[r * kH + k] - static_cast<double>(mean[r]);
      const double pd_xl = static_cast<double>(dy[r * kH + k]) * gamma[k];
      const double want = pd_xl * s + pd_var * 2.0 / kH * d + pd_mean / kH;
      EXPECT_NEAR(out[r * kH + k], want, 1e-5 * (1 + std::fabs(want))) << r << "," << k;
      EXPECT_FLOAT_EQ(out[32 + r * kH + k], static_cast<float>(d * s)) << r << "," << k;
      pd_gamma[k] += dy[r * kH + k] * static_cast<double>(static_cast<float>(d * s));
      pd_beta[k] += dy[r * kH + k];
    }
  }
  for (uint32_t k = 0; k < kH; ++k) {
    EXPECT_NEAR(out[64 + k], pd_gamma[k], 1e-5) << k;
    EXPECT_FLOAT_EQ(out[72 + k], static_cast<float>(pd_beta[k])) << k;
  }
}

TEST(AscendAntiQuantTest, PerChannelPerTensorAndTransposed) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<int8_t> src(128);
  std::vector<half> params(192), out(384, half(0.0f));
  for (uint32_t i = 0; i < 128; ++i)
    src[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
  for (uint32_t i = 0; i < 64; ++i) {
    params[i] = half(0.3f * static_cast<float>(i % 9) - 1.1f);            // offset
    params[64 + i] = half(0.01f * static_cast<float>(i % 13) + 0.017f);   // scale
    params[128 + i] = half(-0.02f * static_cast<float>(i % 7) + 0.031f);  // transposed scale
  }
  auto outcomes = Launch(*lib, "anti_quant", 1, src.data(), params.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  // Half arithmetic, as numpy's float16 golden: (x + offset) rounded, times scale rounded.
  auto anti = [](int8_t x, half offset, half scale) {
    const half sum = half(static_cast<float>(x) + static_cast<float>(offset));
    return static_cast<float>(half(static_cast<float>(sum) * static_cast<float>(scale)));
  };
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t j = 0; j < 32; ++j) {
      const uint32_t e = i * 32 + j, p = (i / 2) * 32 + j;
      EXPECT_EQ(static_cast<float>(out[e]), anti(src[e], params[p], params[64 + p])) << e;
      EXPECT_EQ(static_cast<float>(out[128 + e]), anti(src[e], half(1.5f), half(-0.25f))) << e;
    }
  }
  // Transposed: src [32, 4], scale [32, 2], each scale covering 2 columns.
  for (uint32_t i = 0; i < 32; ++i) {
    for (uint32_t j = 0; j < 4; ++j) {
      const uint32_t e = i * 4 + j;
      EXPECT_EQ(static_cast<float>(out[256 + e]),
                anti(src[e], half(0.0f), params[128 + i * 2 + j / 2]))
          << e;
    }
  }
}

TEST(DropOutTest, BitAndByteMasksScaledByTheKeepProbability) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> src(64), out(192, -99.0f);
  std::vector<uint8_t> masks(128, 0xff);
  for (uint32_t i = 0; i < 64; ++i) src[i] = 1.5f * static_cast<float>(i) - 20.0f;
  for (uint32_t i = 0; i < 16; ++i) masks[i] = static_cast<uint8_t>(i * 29 + 3);  // 4..7 padding
  for (uint32_t i = 0; i < 64; ++i) masks[32 + i] = (i * 7) % 3 == 0 ? 1 : 0;
  for (uint32_t i = 0; i < 8; ++i) masks[96 + i] = static_cast<uint8_t>(0xa5 ^ (i * 17));
  auto outcomes = Launch(*lib, "dropout", 1, src.data(), masks.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  const float scale = 1.0f / 0.8f;
  for (uint32_t i = 0; i < 2; ++i) {
    for (uint32_t j = 0; j < 32; ++j) {
      const uint32_t e = i * 32 + j;
      const bool bit_rows = (masks[i * 8 + j / 8] >> (j % 8)) & 1;
      EXPECT_EQ(out[e], bit_rows ? src[e] * scale : 0.0f) << e;
      EXPECT_EQ(out[64 + e], masks[32 + e] != 0 ? src[e] * scale : 0.0f) << e;
      const bool bit_packed = (masks[96 + e / 8] >> (e % 8)) & 1;
      EXPECT_EQ(out[128 + e], bit_packed ? src[e] * scale : 0.0f) << e;
    }
  }
}

TEST(PadTest, PadToTheBlockFillPaddingColumnsAndUnPad) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> src(32), out(88, -5.0f);
  for (uint32_t i = 0; i < 32; ++i) src[i] = static_cast<float>(i) + 0.5f;
  auto outcomes = Launch(*lib, "pad_unpad", 1, src.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(out[i * 8], -1.0f) << i;  // leftPad 1
    for (uint32_t j = 1; j < 8; ++j) EXPECT_EQ(out[i * 8 + j], src[i * 7 + j - 1]) << i << "," << j;
    for (uint32_t j = 0; j < 8; ++j) {
      EXPECT_EQ(out[32 + i * 8 + j], j >= 5 ? 9.0f : src[i * 8 + j]) << i << "," << j;
    }
    for (uint32_t j = 0; j < 5; ++j)
      EXPECT_EQ(out[64 + i * 5 + j], src[i * 8 + j]) << i << "," << j;
  }
  for (uint32_t i = 84; i < 88; ++i) EXPECT_EQ(out[i], 0.0f) << i;  // UnPad wrote 20 only
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(SoftmaxVariantsTest, LogSoftMaxIsBaseTenAndFlashV2Updates) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(32), out(176, -1.0f);
  for (uint32_t i = 0; i < 32; ++i) x[i] = 0.37f * static_cast<float>((i * 11) % 17) - 2.5f;
  auto outcomes = Launch(*lib, "softmax_variants", 1, x.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 2; ++r) {
    double m = -INFINITY, s = 0;
    for (uint32_t k = 0; k < 16; ++k) m = std::max(m, static_cast<double>(x[r * 16 + k]));
    for (uint32_t k = 0; k < 16; ++k) s += std::exp(x[r * 16 + k] - m);
    for (uint32_t i = 0; i < 8; ++i) {
      EXPECT_NEAR(out[32 + r * 8 + i], s, 1e-5 * s) << r;
      EXPECT_EQ(out[48 + r * 8 + i], static_cast<float>(m)) << r;
    }
    for (uint32_t k = 0; k < 16; ++k) {
      const double e = std::exp(x[r * 16 + k] - m);
      EXPECT_NEAR(out[r * 16 + k], std::log10(e / s), 1e-5) << r << "," << k;
      // FlashV2 without update: e^(x - max) and the plain sum.
      EXPECT_NEAR(out[64 + r * 16 + k], e, 1e-6) << r << "," << k;
      // With update from its own max and sum: the max is unchanged, expMax is 1 and
      // the sum doubles.
      EXPECT_NEAR(out[128 + r * 16 + k], e, 1e-6) << r << "," << k;
    }
    for (uint32_t i = 0; i < 8; ++i) {
      EXPECT_NEAR(out[96 + r * 8 + i], 2 * s, 2e-5 * s) << r;
      EXPECT_EQ(out[112 + r * 8 + i], static_cast<float>(m)) << r;
      EXPECT_EQ(out[160 + r * 8 + i], 1.0f) << r;
    }
  }
}

TEST(NormVariantsTest, DeepNormAndWelford) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> io(48), out(96, -3.0f);
  for (uint32_t i = 0; i < 48; ++i) io[i] = 0.75f * static_cast<float>((i * 7) % 13) - 4.0f;
  auto outcomes = Launch(*lib, "norm_variants", 1, io.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 2; ++r) {
    double y[8], mean = 0, var = 0;
    for (uint32_t k = 0; k < 8; ++k) {
      y[k] = 0.5 * io[r * 8 + k] + io[16 + r * 8 + k];
      mean += y[k] / 8;
    }
    for (uint32_t k = 0; k < 8; ++k) var += (y[k] - mean) * (y[k] - mean) / 8;
    EXPECT_NEAR(out[16 + r], mean, 1e-6) << r;
    EXPECT_NEAR(out[24 + r], var, 1e-5) << r;
    for (uint32_t k = 0; k < 8; ++k) {
      const double want = io[32 + k] * (y[k] - mean) / std::sqrt(var + 0.25) + io[40 + k];
      EXPECT_NEAR(out[r * 8 + k], want, 1e-5 * (1 + std::fabs(want))) << r << "," << k;
    }
  }
  std::vector<float> mean(16), m2(16);
  for (uint32_t k = 0; k < 16; ++k) {
    const float x = io[k], old_mean = io[16 + k], old_m2 = io[32 + k];
    if (k >= 12) {
      mean[k] = old_mean;
      m2[k] = old_m2;
    } else {
      mean[k] = old_mean + (x - old_mean) * 0.25f;
      m2[k] = old_m2 + (x - old_mean) * (x - mean[k]);
    }
    EXPECT_FLOAT_EQ(out[32 + k], mean[k]) << k;
    EXPECT_FLOAT_EQ(out[48 + k], m2[k]) << k;
  }
  double weighted = 0, plain = 0, sum_m2 = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    weighted += (i + 1) * static_cast<double>(mean[i]) / 36;
    plain += mean[i] / 8.0;
    sum_m2 += m2[i];
  }
  double spread_w = 0, spread_p = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    spread_w += (i + 1) * (mean[i] - weighted) * (mean[i] - weighted);
    spread_p += 2 * (mean[i] - plain) * (mean[i] - plain);
  }
  EXPECT_NEAR(out[64], weighted, 1e-5);
  EXPECT_NEAR(out[72], (sum_m2 + spread_w) / 36, 1e-4);
  EXPECT_NEAR(out[80], plain, 1e-5);
  EXPECT_NEAR(out[88], (sum_m2 + spread_p) / 16, 1e-4);
}

// round-half-even(half(half(x * scale) + offset)) saturated, as the A2 computes it.
int8_t QuantRef(float x, float scale, float offset) {
  const half product = half(static_cast<float>(half(x)) * static_cast<float>(half(scale)));
  const float sum =
      static_cast<float>(half(static_cast<float>(product) + static_cast<float>(half(offset))));
  const float r = std::nearbyint(sum);
  return static_cast<int8_t>(std::max(-128.0f, std::min(127.0f, r)));
}

TEST(QuantTest, AscendQuantRoundsInHalfAndDequantScalesRows) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), params(32), deq(128, -1.0f);
  std::vector<int32_t> ints(64);
  std::vector<int8_t> q(128, 0);
  for (uint32_t i = 0; i < 64; ++i) {
    x[i] = 0.3f * static_cast<float>(i) - 9.55f;  // includes values that round at .5
    ints[i] = static_cast<int32_t>(i * 13 % 41) - 20;
  }
  x[5] = 100.0f;  // saturates
  for (uint32_t i = 0; i < 16; ++i) {
    params[i] = 0.5f + 0.25f * static_cast<float>(i % 5);
    params[16 + i] = 0.5f * static_cast<float>(i % 3);
  }
  auto outcomes =
      Launch(*lib, "quant_dequant", 1, x.data(), params.data(), ints.data(), q.data(), deq.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(q[i], QuantRef(x[i], 2.0f, 0.9f)) << i;
    EXPECT_EQ(q[64 + i], QuantRef(x[i], params[i % 16], params[16 + i % 16])) << i;
    EXPECT_EQ(deq[i], static_cast<float>(ints[i]) * params[i % 16]) << i;
    EXPECT_EQ(deq[64 + i], static_cast<float>(ints[i]) * params[i % 16]) << i;
  }
  EXPECT_EQ(q[5], 127);
}

TEST(AdvancedReduceSelectBroadcastTest, PatternsMasksAndAxes) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), out(160, -9.0f);
  std::vector<uint8_t> mask(64);
  for (uint32_t i = 0; i < 64; ++i) {
    x[i] = 0.5f * static_cast<float>((i * 29) % 23) - 5.0f;
    mask[i] = (i * 5) % 3 == 0 ? static_cast<uint8_t>(i % 7 + 1) : 0;
  }
  x[13] = 1000.0f;  // padding of row 0 of [4, 12] (columns 12..15): never reduced
  auto outcomes = Launch(*lib, "reduce_select_broadcast", 1, x.data(), mask.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 4; ++r) {
    float mx = -INFINITY, mn = INFINITY;
    for (uint32_t k = 0; k < 12; ++k) {
      mx = std::max(mx, x[r * 16 + k]);
      mn = std::min(mn, x[r * 16 + k]);
    }
    EXPECT_EQ(out[r], mx) << r;
    EXPECT_EQ(out[24 + r], mn) << r;
  }
  for (uint32_t c = 0; c < 12; ++c) {
    double s = 0;
    for (uint32_t r = 0; r < 4; ++r) s += x[r * 16 + c];
    EXPECT_FLOAT_EQ(out[8 + c], static_cast<float>(s)) << c;
  }
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t k = 0; k < 16; ++k) {
      const bool zero = mask[r * 32 + k] == 0;
      EXPECT_EQ(out[32 + r * 16 + k], zero ? x[r * 16 + k] : 7.5f) << r << "," << k;
      EXPECT_EQ(out[64 + r * 16 + k], zero ? 7.5f : x[r * 16 + k]) << r << "," << k;
    }
  }
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t k = 0; k < 8; ++k) {
      EXPECT_EQ(out[96 + r * 8 + k], x[k]) << r << "," << k;
      EXPECT_EQ(out[128 + r * 8 + k], x[r]) << r << "," << k;
    }
  }
}

TEST(SortTopKTest, SortExtractAndTopK) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), values(160, -1.0f);
  std::vector<int32_t> indices(160, -1);
  std::vector<uint8_t> finish(32, 0);
  finish[1] = 1;
  for (uint32_t i = 0; i < 64; ++i) x[i] = static_cast<float>((i * 37) % 53) - 20.0f;
  x[40] = x[3];  // a tie across the two groups of 32
  auto outcomes =
      Launch(*lib, "sort_topk", 1, x.data(), finish.data(), values.data(), indices.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  auto sorted = [&](uint32_t begin, uint32_t end, bool descending) {
    std::vector<uint32_t> order;
    for (uint32_t i = begin; i < end; ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return descending ? x[a] > x[b] : x[a] < x[b];
    });
    return order;
  };
  const std::vector<uint32_t> full = sorted(0, 64, true);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(values[i], x[full[i]]) << i;
    EXPECT_EQ(indices[i], static_cast<int32_t>(full[i])) << i;
  }
  for (uint32_t g = 0; g < 2; ++g) {
    const std::vector<uint32_t> part = sorted(g * 32, g * 32 + 32, true);
    for (uint32_t i = 0; i < 32; ++i) {
      EXPECT_EQ(values[64 + g * 32 + i], x[part[i]]) << g << "," << i;
      EXPECT_EQ(indices[64 + g * 32 + i], static_cast<int32_t>(part[i])) << g << "," << i;
    }
  }
  for (uint32_t r = 0; r < 2; ++r) {
    const std::vector<uint32_t> smallest = sorted(r * 32, r * 32 + 32, false);
    for (uint32_t i = 0; i < 3; ++i) {
      EXPECT_EQ(values[128 + r * 8 + i], x[smallest[i]]) << r << "," << i;
      EXPECT_EQ(indices[128 + r * 8 + i], r == 1 ? 32 : static_cast<int32_t>(smallest[i] - r * 32))
          << r << "," << i;
    }
  }
  const std::vector<uint32_t> largest = sorted(0, 32, true);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(values[144 + i], x[largest[i]]) << i;
    EXPECT_EQ(indices[144 + i], static_cast<int32_t>(100 + largest[i])) << i;
  }
}

TEST(ConfusionTransposeTest, NzToNdNzToNzAndMatrix) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<half> src(8192), out(3072, half(0.0f));
  for (uint32_t i = 0; i < 8192; ++i) src[i] = half(static_cast<float>(i % 2039));
  auto outcomes = Launch(*lib, "confusion_transpose", 1, src.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  auto nz = [](uint32_t outer, uint32_t rows, uint32_t cols, uint32_t r, uint32_t c) {
    return ((outer * (cols / 16) + c / 16) * (rows / 16) + r / 16) * 256 + (r % 16) * 16 + c % 16;
  };
  // src NZ [1, A1=2]: [A2=32, A3=16] matrices -> dst ND [32, 2, 16].
  for (uint32_t a1 = 0; a1 < 2; ++a1) {
    for (uint32_t a2 = 0; a2 < 32; ++a2) {
      for (uint32_t a3 = 0; a3 < 16; ++a3) {
        EXPECT_EQ(static_cast<float>(out[(a2 * 2 + a1) * 16 + a3]),
                  static_cast<float>(src[nz(a1, 32, 16, a2, a3)]))
            << a1 << "," << a2 << "," << a3;
      }
    }
  }
  // A1 = 16: dst NZ, for each a2 an [A1=16, A3=16] matrix; the first 1024 elements are
  // a2 in [0, 4).
  for (uint32_t a2 = 0; a2 < 4; ++a2) {
    for (uint32_t a1 = 0; a1 < 16; ++a1) {
      for (uint32_t a3 = 0; a3 < 16; ++a3) {
        EXPECT_EQ(static_cast<float>(out[1024 + nz(a2, 16, 16, a1, a3)]),
                  static_cast<float>(src[nz(a1, 32, 16, a2, a3)]))
            << a1 << "," << a2 << "," << a3;
      }
    }
  }
  for (uint32_t i = 0; i < 16; ++i) {
    for (uint32_t j = 0; j < 64; ++j) {
      EXPECT_EQ(static_cast<float>(out[2048 + j * 16 + i]), static_cast<float>(src[i * 64 + j]))
          << i << "," << j;
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(TransDataTest, NcdhwToFractalZ3dAndNdc1hwc0AndBack) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t n = 18, c = 20, hw = 15, k0 = 16, n1 = 2, c1 = 2;
  std::vector<half> src(n * c * 16), fractal(c1 * hw * n1 * k0 * k0, half(7.0f)), round(n * c * 16),
      packed(n * c1 * hw * k0, half(7.0f)), round2(n * c * 16);
  for (uint32_t i = 0; i < src.size(); ++i) src[i] = half(static_cast<float>(i % 1999) + 1.0f);
  auto outcomes = Launch(*lib, "trans_data", 1, src.data(), fractal.data(), round.data(),
                         packed.data(), round2.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t in = 0; in < n1 * k0; ++in) {
    for (uint32_t ic = 0; ic < c1 * k0; ++ic) {
      for (uint32_t p = 0; p < hw; ++p) {
        const float want =
            in < n && ic < c ? static_cast<float>(src[(in * c + ic) * 16 + p]) : 0.0f;
        const uint32_t f =
            (((ic / k0) * hw + p) * n1 + in / k0) * k0 * k0 + (in % k0) * k0 + ic % k0;
        EXPECT_EQ(static_cast<float>(fractal[f]), want) << in << "," << ic << "," << p;
        if (in < n) {
          const uint32_t q = ((in * c1 + ic / k0) * hw + p) * k0 + ic % k0;
          EXPECT_EQ(static_cast<float>(packed[q]), ic < c ? want : 0.0f)
              << in << "," << ic << "," << p;
        }
      }
    }
  }
  for (uint32_t row = 0; row < n * c; ++row) {
    for (uint32_t p = 0; p < 16; ++p) {
      const float want = p < hw ? static_cast<float>(src[row * 16 + p]) : -1.0f;  // padding kept
      EXPECT_EQ(static_cast<float>(round[row * 16 + p]), want) << row << "," << p;
      EXPECT_EQ(static_cast<float>(round2[row * 16 + p]), want) << row << "," << p;
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(RstdNormTest, LayerNormRstdFormAndNormalize) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  std::vector<float> io(80, 0), out(152, 0);
  for (uint32_t i = 0; i < 64; ++i) io[i] = 0.5f * static_cast<float>((i * 5) % 11) - 1.0f;
  for (uint32_t k = 0; k < 8; ++k) {
    io[64 + k] = 1.0f + 0.25f * static_cast<float>(k);
    io[72 + k] = -0.5f * static_cast<float>(k);
  }
  auto outcomes = Launch(*lib, "rstd_norms", 1, io.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t a = 0; a < 4; ++a) {
    double m = 0, v = 0;
    for (uint32_t r = 0; r < 8; ++r) m += io[a * 16 + r] / 8.0;
    for (uint32_t r = 0; r < 8; ++r) v += (io[a * 16 + r] - m) * (io[a * 16 + r] - m) / 8.0;
    const double s = 1 / std::sqrt(v + 0.5);
    EXPECT_NEAR(out[64 + a], m, 1e-6) << a;
    EXPECT_NEAR(out[72 + a], s, 1e-6) << a;
    EXPECT_NEAR(out[144 + a], 1 / std::sqrt(4.5), 1e-6) << a;
    for (uint32_t r = 0; r < 16; ++r) {
      if (r >= 8) {
        EXPECT_EQ(out[a * 16 + r], -7.0f) << a << "," << r;  // row padding untouched
        continue;
      }
      const double x = io[a * 16 + r];
      EXPECT_NEAR(out[a * 16 + r], (x - m) * s * io[64 + r] + io[72 + r], 1e-5) << a << "," << r;
      EXPECT_NEAR(out[80 + a * 16 + r], (x - 1) / std::sqrt(4.5) * io[64 + r], 1e-5)
          << a << "," << r;
    }
  }
  EXPECT_EQ(out[148], 3.0f);
  EXPECT_EQ(out[149], 1.5f);
}

TEST(SoftmaxFlashV3Test, PasaShiftAndUpdate) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_API);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kW = 1024, kBaseK = kW / 8;
  std::vector<half> src(2 * kW), dst(2 * kW);
  std::vector<float> stats(64);
  for (uint32_t i = 0; i < src.size(); ++i)
    src[i] = half(0.01f * static_cast<float>((i * 37) % 401));
  auto outcomes = Launch(*lib, "softmax_flash_v3", 1, src.data(), dst.data(), stats.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  const double scalar = 0.75 / 0.25;
  for (uint32_t r = 0; r < 2; ++r) {
    std::vector<double> x(kW);
    for (uint32_t k = 0; k < kW; ++k) x[k] = static_cast<float>(src[r * kW + k]);
    // The block sums as the vector unit groups them (see softmax_flash_v3.h).
    double group[8] = {};
    for (uint32_t k = 0; k < kW; ++k) group[k < 512 ? k / 64 : ((k - 512) % 64) / 8] += x[k];
    double global = 0;
    for (double& g : group) {
      g /= kBaseK;
      global += g / 8;
    }
    double row_max = -INFINITY;
    for (uint32_t k = 0; k < kW; ++k) {
      x[k] -= (global - group[k / kBaseK]) * scalar;
      row_max = std::max(row_max, x[k]);
    }
    const double mean = (global + 0.5 * 2) / 3;
    const double shift_curr = (global - mean) * scalar, shift_prev = (0.5 - mean) * scalar;
    const double new_max = std::max(shift_curr + row_max, shift_prev + 1.0);
    double sum = 0;
    for (uint32_t k = 0; k < kW; ++k) {
      const double e = std::exp(x[k] - (new_max - shift_curr));
      sum += e;
      EXPECT_NEAR(static_cast<float>(dst[r * kW + k]), e, 2e-3 * (1 + e)) << r << "," << k;
    }
    const double exp_max = std::exp(1.0 - new_max + shift_prev);
    EXPECT_NEAR(stats[r * 8], mean, 1e-5) << r;
    EXPECT_NEAR(stats[32 + r * 8], new_max, 1e-4) << r;
    EXPECT_NEAR(stats[16 + r * 8], exp_max * 2 + sum, 1e-4 * (exp_max * 2 + sum)) << r;
    EXPECT_NEAR(stats[48 + r * 8], exp_max, 2e-3 * (1 + exp_max)) << r;
  }
}

}  // namespace
}  // namespace npud::ascendc_test
