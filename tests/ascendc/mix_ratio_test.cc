// Mix kernels of one cube and one vector core per block (KERNEL_TYPE_MIX_AIC_1_1):
// the group has two cores with the identities the reference gives them, and mode 2
// flags count the one vector core (mix_ratio_kernels.cc).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

TEST(MixRatioTest, OneToOneGroupsAreACubeAndAVectorCore) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MIX_RATIO);
  ASSERT_NE(lib, nullptr);
  const NpudKernelInfo* kernel = FindOrFail(*lib, "mix_one_to_one");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->kernel_type, NPUD_CORE_TYPE_MIX);
  constexpr uint32_t kBlocks = 3;
  std::vector<int64_t> out(kBlocks * 3 * 4, -7);
  std::vector<int32_t> data(kBlocks, 0);
  std::vector<uint8_t> packed = PackBytes(npud::kernel::ArgLayout<int64_t*, int32_t*>::Size());
  npud::kernel::Pack(packed.data(), out.data(), data.data());
  LaunchOptions options;
  options.core_type = NPUD_CORE_TYPE_MIX;
  auto outcomes = RunBlocks(*kernel, kBlocks, packed.data(), packed.size(), options);
  ASSERT_EQ(outcomes.size(), kBlocks);
  for (int64_t b = 0; b < kBlocks; ++b) {
    ASSERT_FALSE(outcomes[b].trapped) << outcomes[b].trap_message;
    const int64_t* cube = &out[(b * 3) * 4];
    EXPECT_EQ(std::vector<int64_t>(cube, cube + 4), (std::vector<int64_t>{b, 0, 1, 1}));
    const int64_t* vec = &out[(b * 3 + 1) * 4];
    EXPECT_EQ(std::vector<int64_t>(vec, vec + 4), (std::vector<int64_t>{b, 0, 1, 0}));
    const int64_t* none = &out[(b * 3 + 2) * 4];
    EXPECT_EQ(std::vector<int64_t>(none, none + 4), (std::vector<int64_t>(4, -7)))
        << "a second vector core ran in block " << b;
    EXPECT_EQ(data[b], 22) << "block " << b;
  }
}

}  // namespace
}  // namespace npud::ascendc_test
