// A kernel in its own shared library, as CANN's CPU-debug projects build them
// (cpu_lib.cmake: add_library(... SHARED kernels), linked to tikicpulib::<soc>); the
// program that runs it (split_test.cc) calls ICPU_RUN_KF.
#include "kernel_operator.h"

using namespace AscendC;

// z = x * 2 over 32 floats a block, the block's key in keys[block], and a print.
extern "C" __global__ __aicore__ void split_double(GM_ADDR x, GM_ADDR z, GM_ADDR keys) {
  GlobalTensor<float> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + GetBlockIdx() * 32);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + GetBlockIdx() * 32);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32 * sizeof(float));
  LocalTensor<float> a = buf.Get<float>();
  DataCopy(a, gx, 32);
  Muls(a, a, 2.0f, 32);
  DataCopy(gz, a, 32);
  reinterpret_cast<__gm__ int64_t*>(keys)[GetBlockIdx()] = TILING_KEY_IS(5) ? 5 : -1;
  AscendC::printf("split block %ld\n", GetBlockIdx());
}
