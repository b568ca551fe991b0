// DumpAccChkPoint and PrintTimeStamp (debug_dump.h), compiled with
// ASCENDC_TIME_STAMP_ON as a kernel that prints time stamps is; the kernels run
// through ICPU_RUN_KF, whose block output goes to stdout.
#include "tikicpulib.h"

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

using namespace AscendC;

namespace {

// DumpAccChkPoint of a UB tensor of 64 floats from element 40 (12 asked, 24 left: 12
// dumped), of GM int32s from element 5 (3), and one too big to print (8000 floats).
extern "C" __global__ __aicore__ void dump_acc_chk_point(__gm__ float* x, __gm__ int32_t* g) {
  GlobalTensor<float> gx;
  gx.SetGlobalBuffer(x);
  GlobalTensor<int32_t> gg;
  gg.SetGlobalBuffer(g);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> a = ub.Alloc<float, 64>();
  LocalTensor<float> big = ub.Alloc<float, 8192>();
  DataCopy(a, gx, 64);
  DumpAccChkPoint(a, 56, 40, 12);
  DumpAccChkPoint(gg, 7, 5, 3);
  DumpAccChkPoint(big, 8, 0, 8000);
}

extern "C" __global__ __aicore__ void time_stamps(__gm__ int32_t* /*unused*/) {
  PrintTimeStamp(65577);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
  while (std::chrono::steady_clock::now() < until) {
  }
  PrintTimeStamp(65578);
}

TEST(DebugPrintTest, DumpAccChkPointDumpsFromTheOffset) {
  SetKernelMode(KernelMode::AIV_MODE);
  auto* x = static_cast<float*>(GmAlloc(64 * sizeof(float)));
  auto* g = static_cast<int32_t*>(GmAlloc(16 * sizeof(int32_t)));
  for (int i = 0; i < 64; ++i) x[i] = 0.5f * static_cast<float>(i);
  for (int i = 0; i < 16; ++i) g[i] = 100 - i;
  testing::internal::CaptureStdout();
  ICPU_RUN_KF(dump_acc_chk_point, 1, x, g);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 0u);
  // The UB tensor sits at UB offset 0, so element 40 is at 0xa0; the position is
  // DumpTensor's (the allocator's VECCALC).
  const std::string ub =
      "DumpTensor: desc=56, addr=a0, data_type=float32, position=VECCALC, dump_size=12\n"
      "[20.000000, 20.500000, 21.000000, 21.500000, 22.000000, 22.500000, 23.000000, "
      "23.500000, 24.000000, 24.500000, 25.000000, 25.500000]\n";
  EXPECT_NE(out.find(ub), std::string::npos) << out;
  char gm[160];
  std::snprintf(gm, sizeof(gm),
                "DumpTensor: desc=7, addr=%llx, data_type=int32, position=GM, dump_size=3\n"
                "[95, 94, 93]\n",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(g + 5)));
  EXPECT_NE(out.find(gm), std::string::npos) << out;
  EXPECT_EQ(out.find("desc=8,"), std::string::npos) << "over 30 KB: not printed";
  GmFree(x);
  GmFree(g);
}

TEST(DebugPrintTest, PrintTimeStampPrintsCyclesSinceTheBlockBegan) {
  SetKernelMode(KernelMode::AIV_MODE);
  auto* unused = static_cast<int32_t*>(GmAlloc(8));
  const int64_t before = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch())
                             .count() /
                         20;
  testing::internal::CaptureStdout();
  ICPU_RUN_KF(time_stamps, 1, unused);
  const std::string out = testing::internal::GetCapturedStdout();
  unsigned id1 = 0, id2 = 0, rsv1 = 9, rsv2 = 9;
  long long ts1 = 0, ts2 = 0, entry1 = 0, entry2 = 0;
  unsigned long long pc1 = 0, pc2 = 0;
  ASSERT_EQ(std::sscanf(out.c_str(),
                        "descId is %u, rsv is %u, timeStamp is %lld, pcPtr is %llu, entry is "
                        "%lld.\ndescId is %u, rsv is %u, timeStamp is %lld, pcPtr is %llu, "
                        "entry is %lld.\n",
                        &id1, &rsv1, &ts1, &pc1, &entry1, &id2, &rsv2, &ts2, &pc2, &entry2),
            10)
      << out;
  EXPECT_EQ(id1, 65577u);
  EXPECT_EQ(id2, 65578u);
  EXPECT_EQ(rsv1, 0u);
  EXPECT_EQ(entry1, entry2);
  EXPECT_GE(entry1, before);
  EXPECT_GE(ts1, entry1);
  // 2 ms between them: 100000 cycles of the 50 MHz counter.
  EXPECT_GE(ts2 - ts1, 100000);
  EXPECT_NE(pc1, 0u);
  EXPECT_NE(pc1, pc2);  // two call sites
  GmFree(unused);
}

}  // namespace
