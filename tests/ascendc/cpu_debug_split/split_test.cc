// ICPU_RUN_KF in a program whose kernel lives in a shared library (split_kernel.cc),
// both built with NPUD_ASCENDC_SHARED_STATE as tikicpulib::<soc> builds them: the
// kernel sees the block state, unified buffer and tiling key the launch set.
#include "tikicpulib.h"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

extern "C" __global__ __aicore__ void split_double(GM_ADDR x, GM_ADDR z, GM_ADDR keys);

namespace {

TEST(CpuDebugSplitTest, AKernelInASharedLibrarySeesTheLaunch) {
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_SET_TILING_KEY(5);
  auto* x = static_cast<float*>(AscendC::GmAlloc(4 * 32 * sizeof(float)));
  auto* z = static_cast<float*>(AscendC::GmAlloc(4 * 32 * sizeof(float)));
  auto* keys = static_cast<int64_t*>(AscendC::GmAlloc(4 * sizeof(int64_t)));
  for (int i = 0; i < 128; ++i) x[i] = 0.5f * static_cast<float>(i);
  testing::internal::CaptureStdout();
  ICPU_RUN_KF(split_double, 4, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(z),
              reinterpret_cast<uint8_t*>(keys));
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 0u);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(z[i], 2.0f * x[i]) << i;
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(keys[b], 5) << b;
    EXPECT_NE(printed.find("split block " + std::to_string(b) + "\n"), std::string::npos)
        << printed;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(z);
  AscendC::GmFree(keys);
}

}  // namespace
