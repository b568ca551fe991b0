// The CTRL register (ctrl_register.h): SetSaturationFlag / GetSaturationFlag and
// SetCtrlSpr / GetCtrlSpr, and what the saturation modes do to vector instructions and
// conversions, through kernels/ctrl_register_kernels.cc.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

TEST(CtrlRegisterTest, FloatSaturationOfHalfResultsAndConversions) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CTRL_REGISTER);
  ASSERT_NE(lib, nullptr);
  std::vector<half> h(32, half(1.0f)), out(64);
  h[0] = half(60000.0f);
  h[16] = half(60000.0f);
  h[1] = half(-60000.0f);
  h[17] = half(-60000.0f);
  h[2] = half(NAN);
  h[18] = half(1.0f);
  h[3] = half(1.5f);
  h[19] = half(2.0f);
  std::vector<float> f(16, 0.25f);
  f[0] = 1e6f;
  f[1] = -1e6f;
  f[2] = NAN;
  std::vector<int32_t> flags(6, -1);
  auto outcomes = Launch(*lib, "float_saturation", 1, h.data(), f.data(), out.data(), flags.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  // Default: INF/NAN mode.
  EXPECT_EQ(static_cast<float>(out[0]), INFINITY);
  EXPECT_EQ(static_cast<float>(out[1]), -INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(out[2])));
  EXPECT_EQ(static_cast<float>(out[3]), 3.5f);
  // Saturation: inf to +-65504, NaN to 0, the rest unchanged.
  EXPECT_EQ(static_cast<float>(out[16]), 65504.0f);
  EXPECT_EQ(static_cast<float>(out[17]), -65504.0f);
  EXPECT_EQ(static_cast<float>(out[18]), 0.0f);
  EXPECT_EQ(static_cast<float>(out[19]), 3.5f);
  EXPECT_EQ(static_cast<float>(out[48]), 65504.0f);
  EXPECT_EQ(static_cast<float>(out[49]), -65504.0f);
  EXPECT_EQ(static_cast<float>(out[50]), 0.0f);
  EXPECT_EQ(static_cast<float>(out[51]), 0.25f);
  // SetCtrlSpr<48, 48>(1): back to INF/NAN.
  EXPECT_EQ(static_cast<float>(out[32]), INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(out[34])));
  EXPECT_EQ(flags, (std::vector<int32_t>{0, 1, 1, 0, 0, 1}));
}

TEST(CtrlRegisterTest, IntegerArithmeticSaturatesAndConversionsTruncate) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CTRL_REGISTER);
  ASSERT_NE(lib, nullptr);
  std::vector<int16_t> ab(32, 3);
  ab[0] = 30000;
  ab[16] = 30000;
  ab[1] = -30000;
  ab[17] = 30000;
  ab[2] = 300;
  ab[18] = -300;
  std::vector<float> f(16, 5.0f);
  f[0] = 300.0f;
  f[1] = -300.0f;
  f[2] = 127.0f;
  std::vector<int16_t> out(64);
  std::vector<int8_t> bytes(64);
  std::vector<int32_t> flags(4, -1);
  auto outcomes = Launch(*lib, "int_saturation", 1, ab.data(), f.data(), out.data(), bytes.data(),
                         flags.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(out[0], static_cast<int16_t>(60000 - 65536));  // wraps by default
  EXPECT_EQ(out[16], 32767);                               // saturates
  EXPECT_EQ(out[17], 0);
  EXPECT_EQ(out[18], 0);
  EXPECT_EQ(out[33], -32768);  // -30000 - 30000
  EXPECT_EQ(out[50], -32768);  // 300 * -300
  EXPECT_EQ(out[48], 32767);   // 30000 * 30000
  EXPECT_EQ(out[35], 0);       // 3 - 3
  EXPECT_EQ(bytes[0], 127);    // saturating conversion (the default)
  EXPECT_EQ(bytes[1], -128);
  EXPECT_EQ(bytes[2], 127);
  EXPECT_EQ(bytes[32], 44);  // 300 = 0x12C: the low byte
  EXPECT_EQ(bytes[33], -44);
  EXPECT_EQ(bytes[34], 127);
  EXPECT_EQ(bytes[35], 5);
  EXPECT_EQ(flags, (std::vector<int32_t>{0, 1, 1, 0}));
}

}  // namespace
}  // namespace npud::ascendc_test
