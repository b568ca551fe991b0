// CANN's CPU-debug launch (tikicpulib.h: GmAlloc, GmFree, SetKernelMode,
// ICPU_SET_TILING_KEY, ICPU_RUN_KF) and the Kernel-Tiling macros
// (kernel_tiling_macros.h), in a host program compiled together with its kernels as
// CANN's CPU-debug programs are.
#include "tikicpulib.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/tiling_key_expression.h"

using namespace AscendC;

namespace {

// z = x + y, 64 floats a block, and a line printed per block.
extern "C" __global__ __aicore__ void cpu_debug_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  GlobalTensor<float> gx, gy, gz;
  const int64_t offset = GetBlockIdx() * 64;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> a = ub.Alloc<float, 64>();
  LocalTensor<float> b = ub.Alloc<float, 64>();
  DataCopy(a, gx, 64);
  DataCopy(b, gy, 64);
  Add(a, a, b, 64);
  DataCopy(gz, a, 64);
  AscendC::printf("block %ld of %ld\n", GetBlockIdx(), GetBlockNum());
}

// Every block writes its number, waits for all (SyncAll), then reads its neighbour's.
extern "C" __global__ __aicore__ void cpu_debug_sync(__gm__ int32_t* slots, __gm__ int32_t* seen) {
  const int64_t i = GetBlockIdx(), n = GetBlockNum();
  slots[i * 8] = static_cast<int32_t>(100 + i);
  SyncAll();
  seen[i] = slots[((i + 1) % n) * 8];
}

// Counts the cube and the vector cores that ran: counts[0] cube, counts[1] vector.
extern "C" __global__ __aicore__ void cpu_debug_cores(__gm__ int32_t* counts) {
  __atomic_fetch_add(&counts[ASCEND_IS_AIC ? 0 : 1], 1, __ATOMIC_RELAXED);
}

extern "C" __global__ __aicore__ void cpu_debug_trap(__gm__ int32_t* out) {
  if (GetBlockIdx() == 1) trap();
  out[GetBlockIdx()] = 1;
}

struct CommonTiling {
  uint32_t total;
  uint32_t tiles;
  uint64_t pair[2];
  struct {
    int32_t a;
    int32_t b;
  } inner;
};
struct KeyedTiling {
  uint32_t special;
  uint32_t unused;
};

// What the kernel read, per branch, in out[0..8): the branch (1: key 1, 2: keys 2/3
// by TILING_KEY_LIST, 9: others), then values read through each macro.
extern "C" __global__ __aicore__ void cpu_debug_tiling(__gm__ int64_t* out, GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(CommonTiling);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", KeyedTiling);
  REGISTER_TILING_FOR_TILINGKEY("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)", KeyedTiling);
  if (TILING_KEY_IS(1)) {
    GET_TILING_DATA_WITH_STRUCT(KeyedTiling, t, tiling);
    out[0] = 1;
    out[1] = t.special;
  } else if (TILING_KEY_LIST(2, 3)) {
    GET_TILING_DATA(t, tiling);
    GET_TILING_DATA_MEMBER(CommonTiling, inner, in, tiling);
    out[0] = 2;
    out[1] = t.total;
    out[2] = t.tiles;
    out[3] = in.a * 1000 + in.b;
  } else {
    GET_TILING_DATA_PTR_WITH_STRUCT(CommonTiling, p, tiling);
    COPY_TILING_WITH_STRUCT(CommonTiling, p, copy);
    COPY_TILING_WITH_ARRAY(uint64_t, 2, p->pair, pair);
    out[0] = 9;
    out[1] = static_cast<int64_t>(TILING_KEY_VAR);
    out[2] = p->total;
    out[3] = copy->inner.b;
    out[4] = static_cast<int64_t>((*pair)[0]);
    out[5] = static_cast<int64_t>((*pair)[1]);
    out[6] = copy != p ? 1 : 0;  // a copy, not the GM struct
  }
}

// Two structs registered for overlapping keys: key 255 matches both.
extern "C" __global__ __aicore__ void cpu_debug_tiling_conflict(__gm__ int64_t* out,
                                                                GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(CommonTiling);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR & 0xFF", KeyedTiling);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR > 200", CommonTiling);
  GET_TILING_DATA(t, tiling);
  out[0] = t.total;
}

// No registered struct: the struct is named where it is read.
extern "C" __global__ __aicore__ void cpu_debug_none_tiling(__gm__ int64_t* out, GM_ADDR tiling) {
  REGISTER_NONE_TILING;
  GET_TILING_DATA_WITH_STRUCT(KeyedTiling, t, tiling);
  GET_TILING_DATA_MEMBER(CommonTiling, tiles, tiles, tiling);
  out[0] = t.special;
  out[1] = tiles;
}

// Without ASCENDC_TIME_STAMP_ON (this program's build) PrintTimeStamp prints nothing.
extern "C" __global__ __aicore__ void cpu_debug_no_time_stamp(__gm__ int32_t* out) {
  PrintTimeStamp(70000);
  out[0] = 1;
}

// Written for a launch with a key; ICPU_RUN_KF without one fails it.
extern "C" __global__ __aicore__ void cpu_debug_needs_key(__gm__ int64_t* out) {
  if (TILING_KEY_IS(4)) out[0] = 4;
}

bool MapsMention(const std::string& what) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find(what) != std::string::npos) return true;
  }
  return false;
}

void Reset() {
  SetKernelMode(KernelMode::MIX_MODE);
  npud::ascendc::cpu_debug::GetSettings().key_set = false;
}

TEST(CpuDebugTest, GmAllocMapsASharedTmpFileAndGmFreeUnmapsIt) {
  auto* p = static_cast<uint8_t*>(GmAlloc(10000));
  ASSERT_NE(p, nullptr);
  char name[64];
  std::snprintf(name, sizeof(name), "%lx-", reinterpret_cast<unsigned long>(p));
  std::ifstream maps("/proc/self/maps");
  std::string line, mapping;
  while (std::getline(maps, line)) {
    if (line.rfind(name, 0) == 0) mapping = line;
  }
  EXPECT_NE(mapping.find("/tmp/npud_gm_"), std::string::npos) << mapping;
  EXPECT_NE(mapping.find("rw-s"), std::string::npos) << mapping;  // shared
  p[0] = 1;
  p[9999] = 2;
  GmFree(p);
  EXPECT_FALSE(MapsMention(name));
}

TEST(CpuDebugTest, RunKfRunsEveryBlockWithItsSliceAndPrints) {
  Reset();
  constexpr uint32_t kBlocks = 8;
  auto* x = static_cast<float*>(GmAlloc(kBlocks * 64 * sizeof(float)));
  auto* y = static_cast<float*>(GmAlloc(kBlocks * 64 * sizeof(float)));
  auto* z = static_cast<float*>(GmAlloc(kBlocks * 64 * sizeof(float)));
  for (uint32_t i = 0; i < kBlocks * 64; ++i) {
    x[i] = 0.5f * static_cast<float>(i);
    y[i] = 3.0f - static_cast<float>(i % 7);
  }
  SetKernelMode(KernelMode::AIV_MODE);
  testing::internal::CaptureStdout();
  ICPU_RUN_KF(cpu_debug_add, kBlocks, x, y, z);
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 0u);
  for (uint32_t i = 0; i < kBlocks * 64; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
  for (uint32_t b = 0; b < kBlocks; ++b) {
    EXPECT_NE(printed.find("block " + std::to_string(b) + " of 8\n"), std::string::npos) << printed;
  }
  GmFree(x);
  GmFree(y);
  GmFree(z);
}

TEST(CpuDebugTest, BlocksRunTogetherSoSyncAllWorks) {
  Reset();
  SetKernelMode(KernelMode::AIV_MODE);
  constexpr uint32_t kBlocks = 6;
  auto* slots = static_cast<int32_t*>(GmAlloc(kBlocks * 8 * sizeof(int32_t)));
  auto* seen = static_cast<int32_t*>(GmAlloc(kBlocks * sizeof(int32_t)));
  ICPU_RUN_KF(cpu_debug_sync, kBlocks, slots, seen);
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 0u);
  for (uint32_t i = 0; i < kBlocks; ++i)
    EXPECT_EQ(seen[i], static_cast<int32_t>(100 + (i + 1) % kBlocks));
  GmFree(slots);
  GmFree(seen);
}

TEST(CpuDebugTest, KernelModeChoosesTheCores) {
  Reset();
  auto* counts = static_cast<int32_t*>(GmAlloc(2 * sizeof(int32_t)));
  const struct {
    KernelMode mode;
    int32_t cube, vector;
  } cases[] = {
      {KernelMode::AIV_MODE, 0, 4}, {KernelMode::AIC_MODE, 4, 0}, {KernelMode::MIX_MODE, 4, 8}};
  for (const auto& c : cases) {
    counts[0] = counts[1] = 0;
    SetKernelMode(c.mode);
    ICPU_RUN_KF(cpu_debug_cores, 4, counts);
    EXPECT_EQ(counts[0], c.cube) << static_cast<int>(c.mode);
    EXPECT_EQ(counts[1], c.vector) << static_cast<int>(c.mode);
  }
  Reset();  // MIX_MODE is the default
  counts[0] = counts[1] = 0;
  ICPU_RUN_KF(cpu_debug_cores, 2, counts);
  EXPECT_EQ(counts[0], 2);
  EXPECT_EQ(counts[1], 4);
  GmFree(counts);
}

TEST(CpuDebugTest, AFailingBlockIsReportedAndTheOthersFinish) {
  Reset();
  SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<int32_t*>(GmAlloc(4 * sizeof(int32_t)));
  testing::internal::CaptureStderr();
  ICPU_RUN_KF(cpu_debug_trap, 4, out);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 1u);
  EXPECT_NE(err.find("[ERROR] ICPU_RUN_KF(cpu_debug_trap) block 1: trap"), std::string::npos)
      << err;
  EXPECT_EQ(out[0] + out[2] + out[3], 3);
  EXPECT_EQ(out[1], 0);
  GmFree(out);
}

TEST(CpuDebugTest, TimeStampsAreOffByDefault) {
  Reset();
  SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<int32_t*>(GmAlloc(sizeof(int32_t)));
  testing::internal::CaptureStdout();
  ICPU_RUN_KF(cpu_debug_no_time_stamp, 1, out);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(out[0], 1);
  GmFree(out);
}

TEST(KernelTilingTest, TilingKeySelectsTheBranchAndTheMacrosReadTheStructs) {
  Reset();
  SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<int64_t*>(GmAlloc(8 * sizeof(int64_t)));
  auto* tiling = static_cast<uint8_t*>(GmAlloc(sizeof(CommonTiling)));
  const CommonTiling common{4096, 8, {77, 88}, {5, 6}};
  std::memcpy(tiling, &common, sizeof(common));
  auto run = [&](uint64_t key) {
    for (int i = 0; i < 8; ++i) out[i] = -1;
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(cpu_debug_tiling, 1, out, tiling);
    EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 0u) << key;
  };
  run(3);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], 4096);
  EXPECT_EQ(out[2], 8);
  EXPECT_EQ(out[3], 5006);
  run(2);
  EXPECT_EQ(out[0], 2);
  run(12);
  EXPECT_EQ(out[0], 9);
  EXPECT_EQ(out[1], 12);
  EXPECT_EQ(out[2], 4096);
  EXPECT_EQ(out[3], 6);
  EXPECT_EQ(out[4], 77);
  EXPECT_EQ(out[5], 88);
  EXPECT_EQ(out[6], 1);
  const KeyedTiling keyed{31337, 0};
  std::memcpy(tiling, &keyed, sizeof(keyed));
  run(1);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 31337);
  GmFree(out);
  GmFree(tiling);
}

TEST(KernelTilingTest, TwoStructsForOneKeyFailTheBlock) {
  Reset();
  SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<int64_t*>(GmAlloc(sizeof(int64_t)));
  auto* tiling = static_cast<uint8_t*>(GmAlloc(sizeof(CommonTiling)));
  const CommonTiling common{42, 1, {0, 0}, {0, 0}};
  std::memcpy(tiling, &common, sizeof(common));
  ICPU_SET_TILING_KEY(100);  // only the first expression holds
  ICPU_RUN_KF(cpu_debug_tiling_conflict, 1, out, tiling);
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 0u);
  EXPECT_EQ(out[0], 42);
  ICPU_SET_TILING_KEY(255);  // both do
  testing::internal::CaptureStderr();
  ICPU_RUN_KF(cpu_debug_tiling_conflict, 1, out, tiling);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 1u);
  EXPECT_NE(err.find("tiling key 255 is registered to both KeyedTiling and CommonTiling"),
            std::string::npos)
      << err;
  GmFree(out);
  GmFree(tiling);
}

TEST(KernelTilingTest, WithoutAKeyTilingKeyIsFailsTheBlock) {
  Reset();
  SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<int64_t*>(GmAlloc(sizeof(int64_t)));
  out[0] = 0;
  testing::internal::CaptureStderr();
  ICPU_RUN_KF(cpu_debug_needs_key, 1, out);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(npud::ascendc::cpu_debug::LastRunFailedBlocks(), 1u);
  EXPECT_NE(err.find("TILING_KEY_IS: this launch has no tiling key"), std::string::npos) << err;
  ICPU_SET_TILING_KEY(4);
  ICPU_RUN_KF(cpu_debug_needs_key, 1, out);
  EXPECT_EQ(out[0], 4);
  GmFree(out);
}

TEST(KernelTilingTest, NoneTilingReadsTheStructsNamed) {
  Reset();
  SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<int64_t*>(GmAlloc(2 * sizeof(int64_t)));
  auto* tiling = static_cast<uint8_t*>(GmAlloc(sizeof(CommonTiling)));
  const CommonTiling common{9, 23, {0, 0}, {0, 0}};
  std::memcpy(tiling, &common, sizeof(common));
  ICPU_RUN_KF(cpu_debug_none_tiling, 1, out, tiling);
  EXPECT_EQ(out[0], 9);
  EXPECT_EQ(out[1], 23);
  GmFree(out);
  GmFree(tiling);
}

uint64_t Eval(const char* text, uint64_t key, bool* ok = nullptr) {
  uint64_t value = 0;
  const char* error = nullptr;
  const bool good = npud::ascendc::TilingKeyExpression(text, key).Evaluate(&value, &error);
  if (ok != nullptr) *ok = good;
  return value;
}

TEST(KernelTilingTest, KeyExpressionsFollowCppPrecedence) {
  EXPECT_EQ(Eval("TILING_KEY_VAR == 1", 1), 1u);
  EXPECT_EQ(Eval("TILING_KEY_VAR == 1", 2), 0u);
  EXPECT_EQ(Eval("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)", 15), 1u);
  EXPECT_EQ(Eval("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)", 16), 0u);
  EXPECT_EQ(Eval("TILING_KEY_VAR & 0xFF", 0x100), 0u);
  EXPECT_EQ(Eval("TILING_KEY_VAR & 0xFF", 0x1A1), 0xA1u);
  EXPECT_EQ(Eval("1 + 2 * 3", 0), 7u);
  EXPECT_EQ(Eval("1 << 2 + 1", 0), 8u);  // + binds tighter than <<
  EXPECT_EQ(Eval("1 & 3 == 3", 0), 1u);  // == binds tighter than &
  EXPECT_EQ(Eval("1 | 2 ^ 3", 0), 1u);   // ^ tighter than |
  EXPECT_EQ(Eval("~TILING_KEY_VAR & 7", 5), 2u);
  EXPECT_EQ(Eval("TILING_KEY_VAR % 4 != 0 || TILING_KEY_VAR > 100", 8), 0u);
  EXPECT_EQ(Eval("TILING_KEY_VAR >> 4 < 2", 31), 1u);
  EXPECT_EQ(Eval("!(TILING_KEY_VAR - 3)", 3), 1u);
  bool ok = true;
  Eval("TILING_KEY_VAR == ", 1, &ok);
  EXPECT_FALSE(ok);
  Eval("(TILING_KEY_VAR", 1, &ok);
  EXPECT_FALSE(ok);
  Eval("10 / (TILING_KEY_VAR - 1)", 1, &ok);
  EXPECT_FALSE(ok);
}

}  // namespace
