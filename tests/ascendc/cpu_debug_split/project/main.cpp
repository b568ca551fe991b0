// The host side of the CPU-debug project: GmAlloc, SetKernelMode, ICPU_SET_TILING_KEY,
// ICPU_RUN_KF; exits 0 when the kernel library computed what it should.
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void split_double(GM_ADDR x, GM_ADDR z, GM_ADDR keys);
#endif

#include <cstdint>
#include <cstdio>

int main() {
#ifndef ASCENDC_CPU_DEBUG
  std::printf("ASCENDC_CPU_DEBUG is not defined by tikicpulib\n");
  return 1;
#else
  auto* x = static_cast<float*>(AscendC::GmAlloc(2 * 32 * sizeof(float)));
  auto* z = static_cast<float*>(AscendC::GmAlloc(2 * 32 * sizeof(float)));
  auto* keys = static_cast<int64_t*>(AscendC::GmAlloc(2 * sizeof(int64_t)));
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_SET_TILING_KEY(5);
  ICPU_RUN_KF(split_double, 2, (uint8_t*)x, (uint8_t*)z, (uint8_t*)keys);
  int bad = npud::ascendc::cpu_debug::LastRunFailedBlocks() != 0 ? 1 : 0;
  for (int i = 0; i < 64; ++i) bad += z[i] != 2.0f * x[i] ? 1 : 0;
  bad += keys[0] != 5 || keys[1] != 5 ? 1 : 0;
  AscendC::GmFree(x);
  AscendC::GmFree(z);
  AscendC::GmFree(keys);
  std::printf("cpu debug project: %s\n", bad == 0 ? "ok" : "wrong results");
  return bad == 0 ? 0 : 1;
#endif
}
