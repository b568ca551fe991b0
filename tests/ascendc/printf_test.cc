// Device printf: one print() call per printf, text exactly as C printf formats it, kept
// per block; DumpTensor.
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return buf;
}

TEST(PrintfTest, EightBlocksEachPrintTheirOwnLine) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_PRINT);
  ASSERT_NE(lib, nullptr);
  auto outcomes = Launch(*lib, "hello_blocks", 8);
  ASSERT_EQ(outcomes.size(), 8u);
  for (uint32_t b = 0; b < 8; ++b) {
    ASSERT_EQ(outcomes[b].prints.size(), 1u);
    EXPECT_EQ(outcomes[b].prints[0], "Hello from block " + std::to_string(b) + " of 8\n");
  }
}

TEST(PrintfTest, ValueFromGlobalMemory) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_PRINT);
  ASSERT_NE(lib, nullptr);
  std::vector<int> slots = {123, -45};
  auto outcomes = Launch(*lib, "print_slot", 2, slots.data());
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(Printed(outcomes[0]), "Destination data: 123\n");
  EXPECT_EQ(Printed(outcomes[1]), "Destination data: -45\n");
}

TEST(PrintfTest, FormatsExactlyAsCPrintf) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_PRINT);
  ASSERT_NE(lib, nullptr);
  uint8_t marker = 0;
  const half h(0.333f);
  auto outcomes = Launch(*lib, "print_formats", 1, h, 2.5f, &marker);
  ASSERT_EQ(outcomes.size(), 1u);
  const std::vector<std::string> want = {
      "plain text, no arguments\n",
      Format("%d %i %u %x %lld %llu %c|%5.2f|%-4d|%s\n", -7, 8, 9u, 255u, -1234567890123LL,
             18446744073709551615ULL, 'q', 3.14159f, 42, "block"),
      Format("half %f float %F ptr %p\n", static_cast<double>(static_cast<float>(h)), 2.5,
             static_cast<void*>(&marker)),
      "no newline",
  };
  EXPECT_EQ(outcomes[0].prints, want);
}

TEST(PrintfTest, OutputLongerThanTheStackBuffer) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_PRINT);
  ASSERT_NE(lib, nullptr);
  auto outcomes = Launch(*lib, "print_long", 1, uint32_t{1500});
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_EQ(outcomes[0].prints.size(), 1u);
  std::string text;
  for (uint32_t i = 0; i < 1500; ++i) text += static_cast<char>('a' + i % 26);
  EXPECT_EQ(outcomes[0].prints[0], "[" + text + "]\n");
}

TEST(PrintfTest, DumpTensorOfLocalHalves) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_PRINT);
  ASSERT_NE(lib, nullptr);
  std::vector<half> x(16);
  for (int i = 0; i < 16; ++i) x[i] = 0.5f * static_cast<float>(i);
  auto outcomes = Launch(*lib, "dump_local", 1, reinterpret_cast<uint8_t*>(x.data()));
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(Printed(outcomes[0]),
            "DumpTensor: desc=5, addr=0, data_type=float16, position=VECIN, dump_size=4\n"
            "[0.000000, 0.500000, 1.000000, 1.500000]\n");
}

}  // namespace
}  // namespace npud::ascendc_test
