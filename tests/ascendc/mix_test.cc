// Mix kernels (npud_ascendc/mix_group.h): each block runs as one cube and two vector
// cores with their identities, cross-core flags order them, and a failing or
// deadlocked core fails the block instead of hanging it.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

template <class... A>
std::vector<BlockOutcome> LaunchMix(const KernelLibrary& lib, const std::string& name,
                                    uint32_t blocks, A... args) {
  const NpudKernelInfo* kernel = FindOrFail(lib, name);
  if (kernel == nullptr) return {};
  EXPECT_EQ(kernel->kernel_type, NPUD_CORE_TYPE_MIX);
  std::vector<uint8_t> packed = PackBytes(npud::kernel::ArgLayout<A...>::Size());
  npud::kernel::Pack(packed.data(), args...);
  LaunchOptions options;
  options.core_type = NPUD_CORE_TYPE_MIX;
  return RunBlocks(*kernel, blocks, packed.data(), npud::kernel::ArgLayout<A...>::Size(), options);
}

TEST(MixTest, EveryBlockIsOneCubeAndTwoVectorCores) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MIX);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kBlocks = 3;
  std::vector<int64_t> out(kBlocks * 3 * 4, -7);
  auto outcomes = LaunchMix(*lib, "mix_identity", kBlocks, out.data());
  ASSERT_EQ(outcomes.size(), kBlocks);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    ASSERT_FALSE(outcomes[b].trapped) << outcomes[b].trap_message;
    const int64_t* cube = &out[(b * 3) * 4];
    EXPECT_EQ(std::vector<int64_t>(cube, cube + 4), (std::vector<int64_t>{b, 0, 1, 1}));
    for (int64_t v = 0; v < 2; ++v) {
      const int64_t* vec = &out[(b * 3 + 1 + v) * 4];
      EXPECT_EQ(std::vector<int64_t>(vec, vec + 4), (std::vector<int64_t>{2 * b + v, v, 2, 0}))
          << "block " << b << " vector core " << v;
    }
  }
}

TEST(MixTest, FlagsOrderTheCoresBothWays) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MIX);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kBlocks = 2;
  std::vector<int32_t> data(kBlocks * 4, 0);
  auto outcomes = LaunchMix(*lib, "mix_round_trip", kBlocks, data.data());
  ASSERT_EQ(outcomes.size(), kBlocks);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    ASSERT_FALSE(outcomes[b].trapped) << outcomes[b].trap_message;
    EXPECT_EQ(data[b * 4 + 1], 11);
    EXPECT_EQ(data[b * 4 + 2], 12);
    EXPECT_EQ(data[b * 4 + 0], 23);  // read only after both vector cores raised flag 4
  }
}

TEST(MixTest, AWaitNobodyCanAnswerFailsTheBlock) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MIX);
  ASSERT_NE(lib, nullptr);
  auto outcomes = LaunchMix(*lib, "mix_deadlock", 1);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("CrossCoreWaitFlag(5) on the vector core: it would wait "
                                          "forever"),
            std::string::npos)
      << outcomes[0].trap_message;
}

TEST(MixTest, TheFailingCoreIsReportedAndTheOthersDoNotHang) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MIX);
  ASSERT_NE(lib, nullptr);
  auto outcomes = LaunchMix(*lib, "mix_vector_fails", 2);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[1].trapped);
  EXPECT_NE(outcomes[1].trap_message.find("vector core (block 3): "), std::string::npos)
      << outcomes[1].trap_message;
  EXPECT_NE(outcomes[1].trap_message.find("outside the unified buffer"), std::string::npos)
      << outcomes[1].trap_message;
}

}  // namespace
}  // namespace npud::ascendc_test
