// Compare, Compares and Select (npud_ascendc/compare_select.h): bit masks of
// comparisons, selections by them, whole 256-byte blocks only, and the int32 rule;
// Gather and Transpose (npud_ascendc/gather_transpose.h).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

constexpr uint32_t kCount = 128;

TEST(CompareSelectTest, MasksSelectAndScalarForms) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COMPARE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a(kCount), b(kCount), out(kCount), scalar_out(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    a[i] = static_cast<float>(static_cast<int>(i % 11) - 5);
    b[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  }
  std::vector<uint8_t> mask(kCount / 8, 0xAA);
  auto outcomes = Launch(*lib, "compare_select", 1, a.data(), b.data(), mask.data(), out.data(),
                         scalar_out.data(), kCount);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < kCount; ++i) {
    const bool less = a[i] < b[i];
    EXPECT_EQ((mask[i / 8] >> (i % 8)) & 1, less ? 1 : 0) << "bit " << i;
    EXPECT_EQ(out[i], less ? a[i] : b[i]) << i;
    EXPECT_EQ(scalar_out[i], a[i] >= 0 ? a[i] : -1.0f) << i;
  }
}

TEST(CompareSelectTest, OnlyWholeBlocksAreCompared) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COMPARE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> a(kCount, 0.0f), b(kCount, 1.0f), out(kCount), scalar_out(kCount);
  std::vector<uint8_t> mask(kCount / 8, 0);
  // 100 floats: one whole block of 64; the other 36 stay as they were (cleared).
  auto outcomes = Launch(*lib, "compare_select", 1, a.data(), b.data(), mask.data(), out.data(),
                         scalar_out.data(), uint32_t{100});
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 64 / 8; ++i) EXPECT_EQ(mask[i], 0xFF) << i;
  for (uint32_t i = 64 / 8; i < kCount / 8; ++i) EXPECT_EQ(mask[i], 0x00) << i;
}

TEST(CompareSelectTest, Int32ComparesWithEqOnly) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COMPARE);
  ASSERT_NE(lib, nullptr);
  auto outcomes = Launch(*lib, "compare_int_lt", 1);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("int32_t sources compare with CMPMODE::EQ only"),
            std::string::npos)
      << outcomes[0].trap_message;
}

TEST(GatherTransposeTest, GatherTakesElementsByByteOffset) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COMPARE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> src(64), out(64, -1.0f);
  std::vector<uint32_t> offsets(64, 0);
  for (uint32_t i = 0; i < 64; ++i) {
    src[i] = 100.0f + static_cast<float>(i);
    offsets[i] = ((i * 7) % 64) * 4;
  }
  auto ok = Launch(*lib, "gather_floats", 1, src.data(), offsets.data(), out.data(), uint32_t{40});
  ASSERT_EQ(ok.size(), 1u);
  ASSERT_FALSE(ok[0].trapped) << ok[0].trap_message;
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(out[i], src[(i * 7) % 64]) << i;
  offsets[3] = 64 * 4;  // one past the source
  auto bad = Launch(*lib, "gather_floats", 1, src.data(), offsets.data(), out.data(), uint32_t{40});
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_TRUE(bad[0].trapped);
  EXPECT_NE(bad[0].trap_message.find("Gather: element 3's offset 256 bytes"), std::string::npos)
      << bad[0].trap_message;
}

TEST(GatherTransposeTest, TransposesA16x16HalfMatrix) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COMPARE);
  ASSERT_NE(lib, nullptr);
  std::vector<half> src(256), out(256);
  for (uint32_t i = 0; i < 256; ++i) src[i] = half(static_cast<int>(i) - 100);
  auto outcomes = Launch(*lib, "transpose_16x16", 1, src.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 16; ++c) {
      EXPECT_EQ(static_cast<float>(out[c * 16 + r]), static_cast<float>(src[r * 16 + c]));
    }
  }
}

}  // namespace
}  // namespace npud::ascendc_test
