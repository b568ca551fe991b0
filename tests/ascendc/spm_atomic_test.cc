// TPipe's SPM buffer (spm_buffer.h) and SetStoreAtomicConfig / GetStoreAtomicConfig
// (store_atomic_config.h), run through the kernels of kernels/spm_atomic_kernels.cc.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

TEST(SpmBufferTest, SpillsAndReadsBackContiguouslyAndInBursts) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_SPM_ATOMIC);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(64), ws(160, -1.0f), out(64, -2.0f);
  for (uint32_t i = 0; i < 64; ++i) x[i] = 1.5f + static_cast<float>(i);
  auto outcomes = Launch(*lib, "spm_round_trip", 1, x.data(), ws.data(), out.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  // The SPM: x[0..32) at element 8; bursts x[0..16) at 64 and x[24..40) at 88 (a gap
  // of one 8-float block on each side).
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(ws[i], -1.0f) << i;
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(ws[8 + i], x[i]) << i;
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(ws[64 + i], x[i]) << i;
    EXPECT_EQ(ws[88 + i], x[24 + i]) << i;
  }
  for (uint32_t i = 80; i < 88; ++i) EXPECT_EQ(ws[i], -1.0f) << i;
  for (uint32_t i = 104; i < 160; ++i) EXPECT_EQ(ws[i], -1.0f) << i;
  // Read back: out[0..32) = x[0..32); the bursts back to back, out[32..48) = x[0..16)
  // and out[48..64) = x[24..40).
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], x[i]) << i;
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(out[32 + i], x[i]) << i;
    EXPECT_EQ(out[48 + i], x[24 + i]) << i;
  }
}

TEST(SpmBufferTest, ACopyPastTheBufferFailsTheBlock) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_SPM_ATOMIC);
  ASSERT_NE(lib, nullptr);
  std::vector<float> ws(64, 0.0f);
  auto outcomes = Launch(*lib, "spm_overflow", 1, ws.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("WriteSpmBuffer: 64 bytes at element 8 exceed the "
                                          "SPM buffer of 64 bytes"),
            std::string::npos)
      << outcomes[0].trap_message;
}

TEST(StoreAtomicConfigTest, SetsTheAtomicStoreAndReadsTheRegisterBack) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_SPM_ATOMIC);
  ASSERT_NE(lib, nullptr);
  std::vector<half> x(32), out(32);
  for (uint32_t i = 0; i < 32; ++i) {
    x[i] = half(0.5f * static_cast<float>(i));
    out[i] = half(100.0f);
  }
  std::vector<uint16_t> regs(12, 77);
  auto outcomes = Launch(*lib, "store_atomic_config", 1, x.data(), out.data(), regs.data());
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(static_cast<float>(out[i]), 100.0f + 0.5f * static_cast<float>(i)) << i;
  }
  for (uint32_t i = 16; i < 32; ++i) {
    EXPECT_EQ(static_cast<float>(out[i]), 0.5f * static_cast<float>(i)) << i;
  }
  const std::vector<uint16_t> expected = {0, 0, 2, 0, 0, 0, 1, 1, 4, 2, 0, 0};
  EXPECT_EQ(regs, expected);
}

}  // namespace
}  // namespace npud::ascendc_test
