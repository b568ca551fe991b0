// Level-0 vector instructions (npud_ascendc/repeat.h, vector_mask.h): which elements
// a mask, a repeat count, strides and counter mode select, and that the rest stay.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

constexpr uint32_t kElems = 256;
constexpr float kUntouched = -99.0f;

std::vector<float> Ramp(float start, float step) {
  std::vector<float> v(kElems);
  for (uint32_t i = 0; i < kElems; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}
std::vector<half> Halves(const std::vector<float>& v) {
  std::vector<half> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = half(v[i]);
  return h;
}

void ExpectRan(const std::vector<BlockOutcome>& outcomes) {
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
}

TEST(Level0Test, BlockAndRepeatStridesPickTheBlocks) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<half> a = Halves(Ramp(0, 1)), b = Halves(Ramp(1000, 1));
  std::vector<half> out(kElems, half(kUntouched));
  ExpectRan(Launch(*lib, "add_strided", 1, a.data(), b.data(), out.data()));
  for (uint32_t i = 0; i < 128; ++i) {
    const uint32_t block = i / 16, lane = i % 16;
    const float want = static_cast<float>(2 * block * 16 + lane) + 1000 + static_cast<float>(i);
    EXPECT_EQ(static_cast<float>(out[i]), want) << i;
  }
  for (uint32_t i = 128; i < kElems; ++i) EXPECT_EQ(static_cast<float>(out[i]), kUntouched) << i;
}

TEST(Level0Test, ABitMaskWritesOnlyItsLanes) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<half> a = Halves(Ramp(1, 1)), b(kElems, half(2.0f));
  std::vector<half> out(kElems, half(kUntouched));
  ExpectRan(Launch(*lib, "mul_bits", 1, a.data(), b.data(), out.data()));
  for (uint32_t i = 0; i < kElems; ++i) {
    const uint32_t lane = i % 128;
    const bool active = lane == 3 || lane == 65;
    EXPECT_EQ(static_cast<float>(out[i]), active ? 2.0f * static_cast<float>(a[i]) : kUntouched)
        << i;
  }
}

TEST(Level0Test, CounterModeCoversTheCountOverRepeats) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a = Ramp(0, 0.5f), b(kElems, 0), out(kElems, kUntouched);
  ExpectRan(Launch(*lib, "adds_counter", 1, a.data(), b.data(), out.data()));
  for (uint32_t i = 0; i < kElems; ++i) EXPECT_EQ(out[i], i < 130 ? a[i] + 1 : kUntouched) << i;
}

TEST(Level0Test, SetVectorMaskLengthAndDuplicate) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a = Ramp(-2, 0.01f), b(kElems, 0), out(kElems, kUntouched);
  ExpectRan(Launch(*lib, "exp_len_mask", 1, a.data(), b.data(), out.data()));
  for (uint32_t i = 0; i < kElems; ++i) {
    if (i % 64 < 10 && i < 128) {
      EXPECT_FLOAT_EQ(out[i], std::exp(a[i])) << i;
    } else if (i >= 128 && i < 160) {
      EXPECT_EQ(out[i], 7.0f) << i;
    } else {
      EXPECT_EQ(out[i], kUntouched) << i;
    }
  }
}

TEST(Level0Test, FusedMulAddReadsTheDestination) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a = Ramp(1, 0.25f), b = Ramp(-3, 1), out = Ramp(2, -0.5f);
  const std::vector<float> before = out;
  ExpectRan(Launch(*lib, "fused_mul_add", 1, a.data(), b.data(), out.data()));
  for (uint32_t i = 0; i < kElems; ++i) EXPECT_FLOAT_EQ(out[i], a[i] * before[i] + b[i]) << i;
}

TEST(Level0Test, AxpyFromHalfIntoFloat) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<half> a = Halves(Ramp(-8, 0.125f));
  std::vector<float> out = Ramp(100, 1);
  const std::vector<float> before = out;
  ExpectRan(Launch(*lib, "axpy_mixed", 1, a.data(), out.data()));
  for (uint32_t i = 0; i < kElems; ++i) {
    EXPECT_EQ(out[i], before[i] + 2.0f * static_cast<float>(a[i])) << i;
  }
}

TEST(Level0Test, ShiftsKeepTheSignAndRound) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<int16_t> a(128), left(128), right(128);
  for (uint32_t i = 0; i < 128; ++i) a[i] = static_cast<int16_t>(static_cast<int>(i) * 517 - 30000);
  a[0] = static_cast<int16_t>(0xAAAA);  // upstream's example
  a[1] = 17;
  ExpectRan(Launch(*lib, "shifts", 1, a.data(), left.data(), right.data()));
  EXPECT_EQ(static_cast<uint16_t>(left[0]), 0xD550);  // 0b1101010101010000
  EXPECT_EQ(right[1], 1);                             // 17 >> 5 = 0, plus the bit shifted out
  for (uint32_t i = 0; i < 128; ++i) {
    const uint16_t u = static_cast<uint16_t>(a[i]);
    const uint16_t want_left = static_cast<uint16_t>((u & 0x8000) | ((u << 3) & 0x7FFF));
    EXPECT_EQ(static_cast<uint16_t>(left[i]), want_left) << i;
    EXPECT_EQ(right[i], static_cast<int16_t>((a[i] >> 5) + ((a[i] >> 4) & 1))) << i;
  }
}

TEST(Level0Test, AStrideOutsideTheTensorFailsTheBlock) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a(kElems), b(kElems), out(kElems);
  auto outcomes = Launch(*lib, "add_out_of_range", 1, a.data(), b.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("Add: repeat 2, lane 0 of the first source tensor is "
                                          "element 256, beyond its 256 elements"),
            std::string::npos)
      << outcomes[0].trap_message;
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

TEST(Level0ReduceTest, BlocksRepeatsPairsAndTheRegisters) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a(kElems), out(kElems, kUntouched), sum(8, kUntouched);
  for (uint32_t i = 0; i < kElems; ++i) a[i] = static_cast<float>((i * 37) % 101) - 50.0f;
  a[200] = 500.0f;  // the largest of repeat 3, lane 8
  ExpectRan(Launch(*lib, "reductions", 1, a.data(), out.data(), sum.data()));
  float total = 0;
  for (uint32_t b = 0; b < 32; ++b) {
    float s = 0, m = a[b * 8];
    for (uint32_t i = b * 8; i < b * 8 + 8; ++i) {
      s += a[i];
      m = std::max(m, a[i]);
    }
    total += s;
    EXPECT_EQ(out[b], s) << "block " << b;  // small integers: every order is exact
    EXPECT_EQ(out[32 + b], m) << "block " << b;
  }
  for (uint32_t r = 0; r < 4; ++r) {
    uint32_t best = r * 64;
    for (uint32_t i = r * 64; i < r * 64 + 64; ++i) best = a[i] > a[best] ? i : best;
    EXPECT_EQ(out[64 + 2 * r], a[best]) << "repeat " << r;
    uint32_t index;
    std::memcpy(&index, &out[64 + 2 * r + 1], sizeof(index));
    EXPECT_EQ(index, best - r * 64) << "repeat " << r;
  }
  for (uint32_t k = 0; k < 64; ++k) EXPECT_EQ(out[128 + k], a[2 * k] + a[2 * k + 1]) << k;
  for (uint32_t i = 192; i < kElems; ++i) EXPECT_EQ(out[i], kUntouched) << i;
  EXPECT_EQ(sum[0], total);
  EXPECT_EQ(sum[4], total);
  EXPECT_EQ(sum[1], total);  // GetReduceRepeatSumSpr after the count form
  EXPECT_EQ(sum[2], 500.0f);
  uint32_t index;
  std::memcpy(&index, &sum[3], sizeof(index));
  EXPECT_EQ(index, 200u);
}

}  // namespace
}  // namespace npud::ascendc_test

namespace npud::ascendc_test {
namespace {

int8_t SaturateInt8(double v) {
  const double r = std::nearbyint(v);  // to nearest even (the default rounding mode)
  return static_cast<int8_t>(std::max(-128.0, std::min(127.0, r)));
}

TEST(CompoundCastTest, ComputeThenConvert) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_LEVEL0);
  ASSERT_NE(lib, nullptr);
  std::vector<half> a(128), b(128), deq(64);
  std::vector<int8_t> sums(128), products(128);
  std::vector<int32_t> ia(64), floors(64);
  std::vector<float> f(64);
  for (uint32_t i = 0; i < 128; ++i) {
    a[i] = half(static_cast<float>(static_cast<int>(i) - 64) * 1.25f);
    b[i] = half(static_cast<float>(i % 9) - 4.5f);
  }
  for (uint32_t i = 0; i < 64; ++i) {
    ia[i] = static_cast<int32_t>(i * 37) - 1000;
    f[i] = -8.5f + 0.27f * static_cast<float>(i);
  }
  ExpectRan(Launch(*lib, "compound_casts", 1, a.data(), b.data(), sums.data(), products.data(),
                   ia.data(), deq.data(), f.data(), floors.data()));
  for (uint32_t i = 0; i < 128; ++i) {
    const double x = static_cast<float>(a[i]), y = static_cast<float>(b[i]);
    EXPECT_EQ(sums[i], SaturateInt8(std::max(0.0, x + y))) << i;
    EXPECT_EQ(products[i], SaturateInt8(x * y)) << i;
  }
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(static_cast<float>(deq[i]),
              static_cast<float>(half(static_cast<float>(std::max(0.0, (2.0 * ia[i]) * 0.5)))))
        << i;
    EXPECT_EQ(floors[i], static_cast<int32_t>(std::floor(f[i]))) << i;
  }
}

}  // namespace
}  // namespace npud::ascendc_test
