// Kernel-Tiling macros in a build for one tiling key (-DTILING_KEY_VAR=7, as CANN
// compiles each key of an operator): TILING_KEY_IS and REGISTER_TILING_FOR_TILINGKEY
// use that key, with no ICPU_SET_TILING_KEY.
#include "tikicpulib.h"

#include <cstdint>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

using namespace AscendC;

namespace {

struct TilingA {
  uint32_t a;
};
struct TilingB {
  uint32_t b;
};

extern "C" __global__ __aicore__ void key_build(__gm__ int64_t* out, GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(TilingA);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR > 5", TilingB);
  if (TILING_KEY_IS(7)) {
    GET_TILING_DATA_WITH_STRUCT(TilingB, t, tiling);
    out[0] = t.b;
  } else if (TILING_KEY_LIST(1, 2)) {
    out[0] = -1;
  }
  out[1] = TILING_KEY_LIST(3, 7) ? 1 : 0;
  out[2] = static_cast<int64_t>(TILING_KEY_VAR);
}

// Key 7 satisfies both expressions with different structs.
extern "C" __global__ __aicore__ void key_build_conflict(__gm__ int64_t* out) {
  REGISTER_TILING_DEFAULT(TilingA);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 7", TilingB);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR & 1", TilingA);
  out[0] = 1;
}

TEST(TilingKeyBuildTest, TheBuildsKeySelectsWithoutIcpuSetTilingKey) {
  SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<int64_t*>(GmAlloc(3 * sizeof(int64_t)));
  auto* tiling = static_cast<uint8_t*>(GmAlloc(sizeof(TilingB)));
  const TilingB b{4242};
  std::memcpy(tiling, &b, sizeof(b));
  ICPU_RUN_KF(key_build, 1, out, tiling);
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 0u);
  EXPECT_EQ(out[0], 4242);
  EXPECT_EQ(out[1], 1);
  EXPECT_EQ(out[2], 7);
  testing::internal::CaptureStderr();
  ICPU_RUN_KF(key_build_conflict, 1, out);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 1u);
  EXPECT_NE(err.find("tiling key 7 is registered to both TilingB and TilingA"), std::string::npos)
      << err;
  GmFree(out);
  GmFree(tiling);
}

}  // namespace
