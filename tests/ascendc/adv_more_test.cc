// The advanced ReduceMean/Any/All/Prod (adv_reduce_pattern_ops.h), Mean and
// ReduceXorSum (adv_mean_xor_sum.h) against host references, run through the kernels
// of kernels/adv_more_kernels.cc.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"
#include "tiling/tiling_api.h"

namespace npud::ascendc_test {
namespace {

TEST(AdvReducePatternTest, MeanAndProdAlongRowsAndColumns) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), out(64, -7.0f);
  for (uint32_t i = 0; i < 64; ++i) x[i] = 0.7f + 0.0137f * static_cast<float>((i * 131) % 97);
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t k = 12; k < 16; ++k) x[r * 16 + k] = 1000.0f;  // padding: never read
  }
  auto outcomes = Launch(*lib, "reduce_mean_prod", 1, x.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  bool reciprocal_differs = false;
  for (uint32_t r = 0; r < 4; ++r) {
    double sum = 0;
    float prod = 1.0f;
    for (uint32_t k = 0; k < 12; ++k) {
      sum += x[r * 16 + k];
      prod = k == 0 ? x[r * 16] : prod * x[r * 16 + k];
    }
    const float mean = static_cast<float>(sum) * (1.0f / 12.0f);
    reciprocal_differs |= mean != static_cast<float>(sum) / 12.0f;
    EXPECT_EQ(out[r], mean) << r;
    EXPECT_EQ(out[4 + r], prod) << r;
  }
  for (uint32_t c = 0; c < 12; ++c) {
    double sum = 0;
    float prod = 1.0f;
    for (uint32_t r = 0; r < 4; ++r) {
      sum += x[r * 16 + c];
      prod = r == 0 ? x[c] : prod * x[r * 16 + c];
    }
    EXPECT_EQ(out[8 + c], static_cast<float>(sum) * 0.25f) << c;
    EXPECT_EQ(out[24 + c], prod) << c;
  }
  // The reference multiplies by 1/12; the data is chosen so that this shows.
  EXPECT_TRUE(reciprocal_differs);
  for (uint32_t i = 36; i < 64; ++i) EXPECT_EQ(out[i], -7.0f) << i;
}

TEST(AdvReducePatternTest, AnyAndAllOfBytesAndFloats) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  std::vector<uint8_t> m(192, 1), out(128, 9);
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t k = 0; k < 40; ++k) m[r * 64 + k] = ((r * 40 + k) * 5 % 7) < 3 ? 1 : 0;
  }
  for (uint32_t k = 0; k < 40; ++k) m[k] = 0;       // row 0: none
  for (uint32_t k = 0; k < 40; ++k) m[64 + k] = 1;  // row 1: all
  auto outcomes = Launch(*lib, "reduce_any_all", 1, m.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 3; ++r) {
    uint8_t any = 0, all = 1;
    for (uint32_t k = 0; k < 40; ++k) {
      any |= m[r * 64 + k];
      all &= m[r * 64 + k];
    }
    EXPECT_EQ(out[r], any) << r;
    EXPECT_EQ(out[8 + r], all) << r;
  }
  for (uint32_t c = 0; c < 40; ++c) {
    uint8_t any = 0, all = 1;
    for (uint32_t r = 0; r < 3; ++r) {
      any |= m[r * 64 + c];
      all &= m[r * 64 + c];
    }
    EXPECT_EQ(out[16 + c], any) << c;
    EXPECT_EQ(out[64 + c], all) << c;
  }
  EXPECT_EQ(out[3], 9);
  EXPECT_EQ(out[104], 9);

  std::vector<float> f = {0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}, fout(8, 5.0f);
  outcomes = Launch(*lib, "reduce_any_all_float", 1, f.data(), fout.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(fout[0], 1.0f);
  EXPECT_EQ(fout[1], 1.0f);
  EXPECT_EQ(fout[2], 0.0f);
  EXPECT_EQ(fout[3], 1.0f);
  EXPECT_EQ(fout[4], 5.0f);
}

TEST(AdvMeanTest, RowMeansInHalfAndFloatAccumulation) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  std::vector<half> x(48), out(32, half(-3.0f));
  for (uint32_t i = 0; i < 48; ++i) x[i] = half(0.37f * static_cast<float>((i * 5) % 11) + 0.11f);
  for (uint32_t r = 0; r < 3; ++r) x[r * 16 + 13] = half(500.0f);  // padding
  std::vector<float> fx(16), fout(8, -3.0f);
  for (uint32_t i = 0; i < 16; ++i) fx[i] = 0.5f + 0.0137f * static_cast<float>(i % 97);
  fx[5] = fx[13] = 1000.0f;  // padding
  auto outcomes = Launch(*lib, "mean_rows", 1, x.data(), out.data(), fx.data(), fout.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  const float r13 = 1.0f / 13.0f;
  for (uint32_t r = 0; r < 3; ++r) {
    float sum = 0;
    for (uint32_t k = 0; k < 13; ++k) sum += static_cast<float>(x[r * 16 + k]);
    EXPECT_EQ(static_cast<float>(out[r]), static_cast<float>(half(half(sum) * half(r13)))) << r;
    EXPECT_EQ(static_cast<float>(out[16 + r]), static_cast<float>(half(sum * r13))) << r;
  }
  EXPECT_EQ(static_cast<float>(out[3]), -3.0f);
  for (uint32_t r = 0; r < 2; ++r) {
    float sum = 0;
    for (uint32_t k = 0; k < 5; ++k) sum += fx[r * 8 + k];
    EXPECT_EQ(fout[r], sum * 0.2f) << r;
  }
  EXPECT_EQ(fout[2], -3.0f);
}

TEST(AdvReduceXorSumTest, SumsXorsAndSaturates) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  std::vector<int16_t> a(256), b(256), out(16, 77);
  for (uint32_t i = 0; i < 256; ++i) {
    a[i] = static_cast<int16_t>((i * 37) % 101 - 50);
    b[i] = static_cast<int16_t>((i * 11) % 23);
  }
  auto outcomes = Launch(*lib, "reduce_xor_sum", 1, a.data(), b.data(), out.data(), 200u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  int32_t sum = 0;
  for (uint32_t i = 0; i < 200; ++i) sum += static_cast<int16_t>(a[i] ^ b[i]);
  EXPECT_EQ(out[0], sum);
  EXPECT_EQ(out[1], 77);
  // Large xors: the sum leaves int16 and saturates.
  for (uint32_t i = 0; i < 256; ++i) {
    a[i] = 0x3000;
    b[i] = 0x0F00;
  }
  outcomes = Launch(*lib, "reduce_xor_sum", 1, a.data(), b.data(), out.data(), 256u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(out[0], 32767);
  for (uint32_t i = 0; i < 256; ++i) a[i] = static_cast<int16_t>(0x8000);
  outcomes = Launch(*lib, "reduce_xor_sum", 1, a.data(), b.data(), out.data(), 256u);
  EXPECT_EQ(out[0], -32768);
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

constexpr double kEulerGamma = 0.57721566490153286061;
constexpr double kLn2 = 0.69314718055994530942;
constexpr double kPi = 3.14159265358979323846;

// psi at n (integer >= 1) and n + 1/2 (n >= 0) from their closed forms; below 0 by
// reflection from those.
double DigammaReference(double x) {
  if (x < 0) return DigammaReference(1 - x) - kPi / std::tan(kPi * x);
  double r = std::floor(x);
  if (x == r) {
    double s = -kEulerGamma;
    for (int k = 1; k < static_cast<int>(x); ++k) s += 1.0 / k;
    return s;
  }
  double s = -kEulerGamma - 2 * kLn2;
  for (int k = 1; k <= static_cast<int>(r); ++k) s += 2.0 / (2 * k - 1);
  return s;
}

// ln|Γ| at n (>= 1) and n + 1/2 (n >= 0): ln((n-1)!) and ln((2n)! sqrt(π) / (4^n n!)),
// below 0 by Γ(x) Γ(1 - x) = π / sin(πx).
double LgammaReference(double x) {
  if (x < 0) return std::log(kPi / std::fabs(std::sin(kPi * x))) - LgammaReference(1 - x);
  double r = std::floor(x);
  double v = 0;
  if (x == r) {
    for (int k = 2; k < static_cast<int>(x); ++k) v += std::log(k);
    return v;
  }
  v = 0.5 * std::log(kPi);
  for (int k = 1; k <= static_cast<int>(r); ++k) v += std::log((2.0 * k - 1) / 2);
  return v;
}

double FasterGeluV2Reference(double x) {
  const double a = std::min(std::fabs(0.7071 * x), 1.769) - 1.769;
  const double sign = x + 1e-12 > 0 ? 1.0 : -1.0;
  return x * (sign * (-0.1444 * a * a + 0.5) + 0.5);
}

TEST(AdvGammaGeluV2Test, DigammaLgammaAndFasterGeluV2) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(32), out(96, 0);
  // Integers 1..8, halves 0.5..7.5, negative halves -0.5..-7.5, then 0, -3 (poles),
  // and values for FasterGeluV2's clip: +-3, +-0.25.
  for (int i = 0; i < 8; ++i) {
    x[i] = static_cast<float>(i + 1);
    x[8 + i] = static_cast<float>(i) + 0.5f;
    x[16 + i] = -static_cast<float>(i) - 0.5f;
  }
  const float rest[8] = {0.0f, -3.0f, 3.0f, -3.0f, 0.25f, -0.25f, 12.5f, 20.0f};
  for (int i = 0; i < 8; ++i) x[24 + i] = rest[i];
  std::vector<half> hx(16), hout(16);
  for (int i = 0; i < 16; ++i) hx[i] = half(x[i]);
  auto outcomes = Launch(*lib, "gamma_gelu_v2", 1, x.data(), out.data(), hx.data(), hout.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (int i = 0; i < 32; ++i) {
    const double v = x[i];
    if (i == 24) {
      EXPECT_EQ(out[i], -INFINITY);  // psi(0)
      EXPECT_EQ(out[32 + i], INFINITY);
    } else if (i == 25 || i == 27) {
      EXPECT_TRUE(std::isnan(out[i])) << out[i];  // psi(-3)
      EXPECT_EQ(out[32 + i], INFINITY);
    } else if (i == 28 || i == 29) {
      // +-0.25: no closed form here; the reflection pairs them, psi(1 - x) - psi(x) =
      // π cot(πx), and ln|Γ| of both by the same identity.
    } else if (i < 30) {
      const float digamma = static_cast<float>(DigammaReference(v));
      const float lgamma = static_cast<float>(LgammaReference(v));
      EXPECT_NEAR(out[i], digamma, 2e-7 * std::max(1.0f, std::fabs(digamma))) << v;
      EXPECT_NEAR(out[32 + i], lgamma, 2e-7 * std::max(1.0f, std::fabs(lgamma))) << v;
    } else {
      // Large arguments: psi(x) ~ ln x - 1/(2x), ln Γ by Stirling.
      EXPECT_NEAR(out[i], std::log(v) - 0.5 / v - 1 / (12 * v * v), 1e-5) << v;
      EXPECT_NEAR(out[32 + i], std::lgamma(v), 1e-5 * std::lgamma(v)) << v;
    }
    EXPECT_EQ(out[64 + i], static_cast<float>(FasterGeluV2Reference(v))) << v;
  }
  // x = 0.25 and -0.25 (entries 28, 29): psi(0.25) - psi(-0.25) = psi(0.25) -
  // (psi(1.25) - π / tan(-π/4)) = -1/0.25 - π, and Γ(0.25) Γ(0.75) = π sqrt 2 with
  // Γ(-0.25) = Γ(0.75) / -0.25.
  EXPECT_NEAR(out[28] - out[29], -4.0 - kPi, 1e-5);
  EXPECT_NEAR(out[32 + 28] + (out[32 + 29] + std::log(0.25)), std::log(kPi * std::sqrt(2.0)), 1e-5);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(static_cast<float>(hout[i]),
              static_cast<float>(half(static_cast<float>(DigammaReference(x[i])))))
        << x[i];
  }
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(AdvMrgSortTest, MergesFourQueuesAndReportsWhatItTook) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  // Queue q holds scores 100 - q - 4k (k < 8), except queue 3, whose scores are all
  // below the others' (it runs out last), and equal scores across queues 0 and 1 at
  // k = 2 to check the order of ties. Index = 100 q + k.
  std::vector<float> pairs(64);
  struct Pair {
    float score;
    uint32_t index;
  };
  std::vector<Pair> all;
  for (uint32_t q = 0; q < 4; ++q) {
    for (uint32_t k = 0; k < 8; ++k) {
      float score = q == 3 ? -10.0f - static_cast<float>(k)
                           : 100.0f - static_cast<float>(q) - 4.0f * static_cast<float>(k);
      if (q == 1 && k == 2) score = 100.0f - 8.0f;  // ties queue 0's third
      const uint32_t index = 100 * q + k;
      pairs[q * 16 + 2 * k] = score;
      std::memcpy(&pairs[q * 16 + 2 * k + 1], &index, 4);
      all.push_back({score, index});
    }
  }
  std::vector<float> out(128);
  std::vector<uint32_t> counts(8, 0);
  auto outcomes = Launch(*lib, "adv_mrg_sort", 1, pairs.data(), out.data(), counts.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  // Stable by queue: std::stable_sort over the queues in order.
  std::stable_sort(all.begin(), all.end(),
                   [](const Pair& a, const Pair& b) { return a.score > b.score; });
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t index = 0;
    std::memcpy(&index, &out[2 * i + 1], 4);
    EXPECT_EQ(out[2 * i], all[i].score) << i;
    EXPECT_EQ(index, all[i].index) << i;
  }
  EXPECT_EQ(counts[0], 8u);
  EXPECT_EQ(counts[3], 8u);
  // Suspension: queue 0 runs out first (its last score, 72, beats queue 1's 71 and
  // queue 2's 70); by then queues 1 and 2 gave the pairs above 72, queue 3 none.
  uint32_t taken[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < 32 && taken[0] < 8; ++i) ++taken[all[i].index / 100];
  const uint32_t merged = taken[0] + taken[1] + taken[2] + taken[3];
  for (uint32_t q = 0; q < 4; ++q) EXPECT_EQ(counts[4 + q], taken[q]) << q;
  EXPECT_EQ(taken[3], 0u);
  for (uint32_t i = 0; i < merged; ++i) EXPECT_EQ(out[64 + 2 * i], all[i].score) << i;
  EXPECT_EQ(out[64 + 2 * merged], -1.0f);
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(AdvBatchNormTest, NormalisesOverTheBatchWithPerBatchScale) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> io(64, 0), out(80, -5.0f);
  for (uint32_t i = 0; i < 48; ++i) io[i] = 0.37f * static_cast<float>((i * 7) % 13) - 1.1f;
  for (uint32_t b = 0; b < 3; ++b) {
    io[48 + b] = 0.5f + 0.25f * static_cast<float>(b);  // gamm
    io[56 + b] = -0.125f * static_cast<float>(b);       // beta
  }
  AscendC::tiling::BatchNormTiling tiling;
  ASSERT_TRUE(AscendC::GetBatchNormNDTilingInfo(AscendC::TensorShape({3, 2, 8}),
                                                AscendC::TensorShape({3, 2, 8}), 1024,
                                                sizeof(float), false, tiling));
  auto outcomes =
      Launch(*lib, "batch_norm", 1, io.data(), out.data(), reinterpret_cast<uint8_t*>(&tiling));
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t j = 0; j < 16; ++j) {
    double mean = 0, var = 0;
    for (uint32_t b = 0; b < 3; ++b) mean += io[b * 16 + j];
    mean /= 3;
    for (uint32_t b = 0; b < 3; ++b) var += (io[b * 16 + j] - mean) * (io[b * 16 + j] - mean);
    var /= 3;
    EXPECT_NEAR(out[48 + j], mean, 1e-6) << j;
    EXPECT_NEAR(out[64 + j], var, 1e-6) << j;
    for (uint32_t b = 0; b < 3; ++b) {
      const double want =
          io[56 + b] + io[48 + b] * (io[b * 16 + j] - mean) / std::sqrt(var + 0.001);
      EXPECT_NEAR(out[b * 16 + j], want, 2e-6) << b << "," << j;
    }
  }
}

TEST(AdvGroupNormTest, NormalisesEachGroupOfChannels) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kN = 2, kC = 4, kHw = 6, kPitch = 16, kG = 2;
  std::vector<half> io(160, half(0.0f)), out(160, half(-9.0f));
  for (uint32_t n = 0; n < kN; ++n) {
    for (uint32_t c = 0; c < kC; ++c) {
      for (uint32_t k = 0; k < kPitch; ++k) {
        const uint32_t i = (n * kC + c) * kPitch + k;
        io[i] = k < kHw ? half(0.25f * static_cast<float>((i * 5) % 11) - 1.0f) : half(100.0f);
      }
    }
  }
  for (uint32_t c = 0; c < kC; ++c) {
    io[128 + c] = half(1.0f + 0.5f * static_cast<float>(c));
    io[144 + c] = half(0.25f * static_cast<float>(c));
  }
  AscendC::tiling::GroupNormTiling tiling;
  AscendC::GetGroupNormNDTilingInfo(AscendC::TensorShape({2, 4, 2, 3}), 4096, sizeof(half), false,
                                    kG, tiling);
  ASSERT_EQ(tiling.hwAlignSize, kPitch);
  auto outcomes =
      Launch(*lib, "group_norm", 1, io.data(), out.data(), reinterpret_cast<uint8_t*>(&tiling));
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t n = 0; n < kN; ++n) {
    for (uint32_t g = 0; g < kG; ++g) {
      double mean = 0, var = 0;
      for (uint32_t c = g * 2; c < g * 2 + 2; ++c) {
        for (uint32_t k = 0; k < kHw; ++k)
          mean += static_cast<float>(io[(n * kC + c) * kPitch + k]);
      }
      mean /= 12;
      for (uint32_t c = g * 2; c < g * 2 + 2; ++c) {
        for (uint32_t k = 0; k < kHw; ++k) {
          const double d = static_cast<float>(io[(n * kC + c) * kPitch + k]) - mean;
          var += d * d;
        }
      }
      var /= 12;
      EXPECT_NEAR(static_cast<float>(out[128 + n * kG + g]), mean, 1e-3) << n << "," << g;
      EXPECT_NEAR(static_cast<float>(out[144 + n * kG + g]), var, 1e-3) << n << "," << g;
      for (uint32_t c = g * 2; c < g * 2 + 2; ++c) {
        for (uint32_t k = 0; k < kPitch; ++k) {
          const uint32_t i = (n * kC + c) * kPitch + k;
          if (k >= kHw) {
            EXPECT_EQ(static_cast<float>(out[i]), -9.0f) << i;  // padding untouched
            continue;
          }
          const double want = (static_cast<float>(io[i]) - mean) / std::sqrt(var + 0.01) *
                                  static_cast<float>(io[128 + c]) +
                              static_cast<float>(io[144 + c]);
          EXPECT_NEAR(static_cast<float>(out[i]), want, 4e-3 * std::max(1.0, std::fabs(want))) << i;
        }
      }
    }
  }
}

TEST(AdvBatchGroupNormTilingTest, TilingsCarryTheShapes) {
  AscendC::tiling::BatchNormTiling bn;
  EXPECT_TRUE(AscendC::GetBatchNormNDTilingInfo(AscendC::TensorShape({16, 16, 16}),
                                                AscendC::TensorShape({15, 16, 16}), 4096,
                                                sizeof(uint16_t), false, bn));
  EXPECT_EQ(bn.originalBLength, 15u);
  EXPECT_EQ(bn.meanVarSize, 256u);
  EXPECT_FLOAT_EQ(bn.firstDimValueBack, 1.0f / 15);
  uint32_t max_value = 0, min_value = 0;
  EXPECT_TRUE(AscendC::GetBatchNormMaxMinTmpSize(AscendC::TensorShape({16, 16, 16}),
                                                 AscendC::TensorShape({15, 16, 16}),
                                                 sizeof(uint16_t), false, max_value, min_value));
  EXPECT_GE(max_value, min_value);
  EXPECT_GT(min_value, 0u);
  // S * H of 3 halves is not 32-byte aligned.
  EXPECT_FALSE(AscendC::GetBatchNormMaxMinTmpSize(AscendC::TensorShape({4, 1, 3}),
                                                  AscendC::TensorShape({4, 1, 3}), sizeof(uint16_t),
                                                  false, max_value, min_value));
  AscendC::tiling::GroupNormTiling gn;
  AscendC::GetGroupNormNDTilingInfo(AscendC::TensorShape({2, 6, 5, 5}), 4096, sizeof(float), false,
                                    3, gn);
  EXPECT_EQ(gn.n, 2u);
  EXPECT_EQ(gn.c, 6u);
  EXPECT_EQ(gn.hw, 25u);
  EXPECT_EQ(gn.g, 3u);
  EXPECT_EQ(gn.d, 2u);
  EXPECT_EQ(gn.hwAlignSize, 32u);
  EXPECT_EQ(gn.meanVarSize, 6u);
  EXPECT_FLOAT_EQ(gn.factor, 1.0f / 50);
  AscendC::GetGroupNormMaxMinTmpSize(AscendC::TensorShape({2, 6, 5, 5}), sizeof(float), false, 3,
                                     max_value, min_value);
  EXPECT_GE(max_value, min_value);
  EXPECT_GT(min_value, 0u);
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(AdvSoftmaxFlashTest, UpdatesAcrossChunksAsTheReferenceFormula) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_ADV_MORE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(128), out(224, -3.0f);
  for (uint32_t i = 0; i < 128; ++i) x[i] = 0.3f * static_cast<float>((i * 7) % 17) - 2.0f;
  x[64 + 16 + 3] = 6.0f;  // row 1's second chunk raises its max
  AscendC::tiling::SoftMaxTiling tiling;
  AscendC::SoftMaxFlashTilingFunc(AscendC::TensorShape({4, 16}), sizeof(float), 4096, tiling, true);
  EXPECT_GE(AscendC::GetSoftMaxFlashMaxTmpSize(AscendC::TensorShape({4, 16}), 4, true, false),
            AscendC::GetSoftMaxFlashMinTmpSize(AscendC::TensorShape({4, 16}), 4, true, false));
  auto outcomes =
      Launch(*lib, "softmax_flash", 1, x.data(), out.data(), reinterpret_cast<uint8_t*>(&tiling));
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 4; ++r) {
    // The reference's softmax_flash in double: first call, then the update.
    double max1 = -INFINITY, sum1 = 0;
    for (uint32_t k = 0; k < 16; ++k) max1 = std::max(max1, double{x[r * 16 + k]});
    for (uint32_t k = 0; k < 16; ++k) sum1 += std::exp(x[r * 16 + k] - max1);
    for (uint32_t k = 0; k < 16; ++k) {
      EXPECT_NEAR(out[r * 16 + k], std::exp(x[r * 16 + k] - max1) / sum1, 1e-6) << r << "," << k;
    }
    double max2 = max1, sum2 = 0;
    for (uint32_t k = 0; k < 16; ++k) max2 = std::max(max2, double{x[64 + r * 16 + k]});
    for (uint32_t k = 0; k < 16; ++k) sum2 += std::exp(x[64 + r * 16 + k] - max2);
    const double exp_max = std::exp(max1 - max2);
    sum2 = exp_max * sum1 + sum2;
    for (uint32_t k = 0; k < 16; ++k) {
      EXPECT_NEAR(out[64 + r * 16 + k], std::exp(x[64 + r * 16 + k] - max2) / sum2, 1e-6)
          << r << "," << k;
    }
    for (uint32_t i = 0; i < 8; ++i) {
      EXPECT_NEAR(out[128 + r * 8 + i], sum2, 1e-5 * sum2) << r;
      EXPECT_EQ(out[160 + r * 8 + i], static_cast<float>(max2)) << r;
      EXPECT_NEAR(out[192 + r * 8 + i], exp_max * sum1 / sum2, 1e-6) << r;
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test
