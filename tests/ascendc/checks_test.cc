// Failures: trap instructions (kind 0) and failed checks (kind 1) end the block through
// ctx->trap(), which unwinds it; output printed before the failure is kept.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/ascendc/kernel_harness.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

namespace npud::ascendc_test {
namespace {

// gtest assertion: `text` contains `part`.
::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

TEST(TrapTest, AsmTrapRaisesKindZeroInEveryBlock) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_FAULT);
  ASSERT_NE(lib, nullptr);
  auto outcomes = Launch(*lib, "asm_trap", 4);
  ASSERT_EQ(outcomes.size(), 4u);
  for (const BlockOutcome& o : outcomes) {
    EXPECT_TRUE(o.trapped);
    EXPECT_EQ(o.trap_kind, NPUD_TRAP_KIND_TRAP);
    EXPECT_EQ(o.trap_message, "trap");
  }
}

TEST(TrapTest, TrapFunctionStopsTheBlockAfterItsOutput) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_FAULT);
  ASSERT_NE(lib, nullptr);
  int32_t reached = 0;
  auto outcomes = Launch(*lib, "trap_call", 2, &reached);
  ASSERT_EQ(outcomes.size(), 2u);
  for (uint32_t b = 0; b < 2; ++b) {
    EXPECT_TRUE(outcomes[b].trapped);
    EXPECT_EQ(outcomes[b].trap_kind, NPUD_TRAP_KIND_TRAP);
    EXPECT_EQ(Printed(outcomes[b]), "before trap " + std::to_string(b) + "\n");
  }
  EXPECT_EQ(reached, 0);
}

TEST(TrapTest, AsmBarrierIsNotATrap) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_FAULT);
  ASSERT_NE(lib, nullptr);
  int32_t reached = 0;
  auto outcomes = Launch(*lib, "asm_barrier", 1, &reached);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(reached, 1);
}

TEST(TrapTest, UnifiedBufferOverflowFailsInitBuffer) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_FAULT);
  ASSERT_NE(lib, nullptr);
  int32_t reached = 0;
  // 2 x 128 KiB in a 192 KiB unified buffer.
  auto outcomes = Launch(*lib, "ub_claim", 1, uint32_t{131072}, &reached);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_EQ(outcomes[0].trap_kind, NPUD_TRAP_KIND_CHECK);
  EXPECT_TRUE(Contains(outcomes[0].trap_message, "TPipe::InitBuffer: "));
  EXPECT_TRUE(
      Contains(outcomes[0].trap_message, "exceeds the unified buffer size of 196608 bytes"));
  EXPECT_EQ(reached, 0);
}

TEST(TrapTest, UnifiedBufferExactFitAndLargerBuffer) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_FAULT);
  ASSERT_NE(lib, nullptr);
  int32_t reached = 0;
  auto outcomes = Launch(*lib, "ub_claim", 1, uint32_t{98304}, &reached);  // exactly 192 KiB
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(reached, 1);

  // The limit is the executor's ub_size: 256 KiB (Ascend310P) holds 2 x 128 KiB.
  reached = 0;
  uint8_t args[16] = {};
  const uint32_t bytes = 131072;
  int32_t* ptr = &reached;
  npud::kernel::Pack(args, bytes, ptr);
  LaunchOptions options;
  options.ub_size = 262144;
  outcomes = RunBlocks(*lib->Find("ub_claim"), 1, args, sizeof(args), options);
  EXPECT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(reached, 1);
}

TEST(TrapTest, DataCopyOfUnalignedLengthFails) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_FAULT);
  ASSERT_NE(lib, nullptr);
  std::vector<uint16_t> x(512, 0);
  auto outcomes = Launch(*lib, "copy_count", 1, reinterpret_cast<uint8_t*>(x.data()), uint32_t{7});
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_EQ(outcomes[0].trap_kind, NPUD_TRAP_KIND_CHECK);
  EXPECT_EQ(
      outcomes[0].trap_message,
      "DataCopy GM->local: count 7 x 2-byte elements = 14 bytes is not a multiple of 32 bytes");
  outcomes = Launch(*lib, "copy_count", 1, reinterpret_cast<uint8_t*>(x.data()), uint32_t{16});
  EXPECT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
}

struct FaultCase {
  const char* name;
  npud_test::FaultMode mode;
  const char* message_part;
};
void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.name; }

class FaultTest : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultTest, FailsTheBlockWithAClearMessage) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_FAULT);
  ASSERT_NE(lib, nullptr);
  std::vector<float> x(128, 1.0f);
  auto outcomes = Launch(*lib, "fault", 1, static_cast<uint32_t>(GetParam().mode),
                         reinterpret_cast<uint8_t*>(x.data()));
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_EQ(outcomes[0].trap_kind, NPUD_TRAP_KIND_CHECK);
  EXPECT_TRUE(Contains(outcomes[0].trap_message, GetParam().message_part));
}

INSTANTIATE_TEST_SUITE_P(
    Misuses, FaultTest,
    ::testing::Values(
        FaultCase{"DeQueEmpty", npud_test::kDeQueEmpty, "TQue::DeQue: the queue is empty"},
        FaultCase{"EnQueBeyondDepth", npud_test::kEnQueBeyondDepth,
                  "TQue::EnQue: the queue already holds 1 tensors, its depth"},
        FaultCase{"FreeTwice", npud_test::kFreeTwice, "TQue::FreeTensor: buffer 0 is already free"},
        FaultCase{"AllocExhausted", npud_test::kAllocExhausted,
                  "TQue::AllocTensor: all 2 buffers of the queue are in use"},
        FaultCase{"FreeWhileQueued", npud_test::kFreeWhileQueued,
                  "TQue::FreeTensor: buffer 0 is still in the queue"},
        FaultCase{"EnQueForeignTensor", npud_test::kEnQueForeignTensor,
                  "TQue::EnQue: the tensor does not start at a buffer of this queue"},
        FaultCase{"QueueWithoutInit", npud_test::kQueueWithoutInit,
                  "TQue::AllocTensor: the queue has no buffers"},
        FaultCase{"InitZeroLength", npud_test::kInitZeroLength,
                  "TPipe::InitBuffer: the buffer length must be greater than 0"},
        FaultCase{"TooManyBuffers", npud_test::kTooManyBuffers, "a TPipe manages at most 64"},
        FaultCase{"VectorCountTooLarge", npud_test::kVectorCountTooLarge,
                  "Add: count 65 exceeds the 64 elements of the destination tensor"},
        FaultCase{"LocalIndexOutOfRange", npud_test::kLocalIndexOutOfRange,
                  "LocalTensor::SetValue(64): index is beyond the tensor's 64"},
        FaultCase{"UnsupportedAsm", npud_test::kUnsupportedAsm, "unsupported inline asm \"nop\""},
        FaultCase{"CopyBeyondTensor", npud_test::kCopyBeyondTensor,
                  "the copy needs 288 bytes of the destination local tensor"},
        FaultCase{"MisalignedLocal", npud_test::kMisalignedLocal,
                  "does not start at a 32-byte aligned address"},
        FaultCase{"TBufTooSmall", npud_test::kTBufTooSmall,
                  "TBuf::Get: 17 elements at byte offset 0 need 68 bytes"},
        FaultCase{"WaitFlagWithoutSetFlag", npud_test::kWaitFlagWithoutSet,
                  "WaitFlag<MTE2_V>(0) with no SetFlag of that event before it: on the NPU the V "
                  "pipe would wait forever"},
        FaultCase{"WaitFlagTakesEachSetOnce", npud_test::kSecondWaitFlag,
                  "WaitFlag<V_MTE3>(2) with no SetFlag"}),
    [](const ::testing::TestParamInfo<FaultCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace npud::ascendc_test
