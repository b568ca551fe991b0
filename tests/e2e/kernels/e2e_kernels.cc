// Kernels the end-to-end kernel tests launch through the ACL API against a
// real npud. Built into one kernel object (e2e_kernels.so) the tests load
// with aclrtBinaryLoadFromFile.

#include <chrono>
#include <cstdint>

#include "kernel_operator.h"

// z[i] = x[i] + y[i] for this block's share of n floats.
extern "C" __global__ __aicore__ void add_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  const uint32_t per_block = (n + block_num - 1) / block_num;
  const uint32_t begin = per_block * block_idx;
  const uint32_t end = begin + per_block < n ? begin + per_block : n;
  auto* a = reinterpret_cast<__gm__ float*>(x);
  auto* b = reinterpret_cast<__gm__ float*>(y);
  auto* c = reinterpret_cast<__gm__ float*>(z);
  for (uint32_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
}

// The same, with n read from a placeholder: tiling points at {n}.
extern "C" __global__ __aicore__ void add_tiled(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  add_float(x, y, z, *reinterpret_cast<__gm__ uint32_t*>(tiling));
}

extern "C" __global__ __aicore__ void hello() {
  AscendC::printf("Hello from block %d of %d\n", static_cast<int>(AscendC::GetBlockIdx()),
                  static_cast<int>(AscendC::GetBlockNum()));
}

extern "C" __global__ __aicore__ void trapping() {
  if (block_idx == 1) asm("trap");
}

// Writes one float `offset` floats past `p`.
extern "C" __global__ __aicore__ void poke(GM_ADDR p, uint64_t offset) {
  reinterpret_cast<__gm__ float*>(p)[offset] = 1.0f;
}

// Spins for `ms` milliseconds, then sets *flag = 1.
extern "C" __global__ __aicore__ void spin(GM_ADDR flag, uint32_t ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
  }
  *reinterpret_cast<__gm__ int32_t*>(flag) = 1;
}

// A fixed amount of CPU work (`kilo_rounds` thousand rounds of a hash),
// however long it takes to get it: what a share of the CPUs is measured by.
extern "C" __global__ __aicore__ void burn(GM_ADDR flag, uint32_t kilo_rounds) {
  uint32_t x = AscendC::GetBlockIdx() + 1;
  for (uint64_t i = 0; i < uint64_t{kilo_rounds} * 1000; ++i) x = x * 1664525u + 1013904223u;
  *reinterpret_cast<__gm__ uint32_t*>(flag) = x;
}

// Counts launches in order: *counter goes up by one if it equals `expect`,
// and jumps far away (and stays wrong) otherwise.
extern "C" __global__ __aicore__ void count_up(GM_ADDR counter, uint32_t expect) {
  auto* value = reinterpret_cast<__gm__ uint32_t*>(counter);
  *value = *value == expect ? expect + 1 : 1u << 30;
}

// out[i] = half(x[i]) for n floats: values past 65504 overflow to infinity.
extern "C" __global__ __aicore__ void to_half(GM_ADDR x, GM_ADDR out, uint32_t n) {
  auto* in = reinterpret_cast<__gm__ float*>(x);
  auto* halves = reinterpret_cast<__gm__ half*>(out);
  for (uint32_t i = 0; i < n; ++i) halves[i] = half(in[i]);
}

// Asks for more unified buffer than a core has.
extern "C" __global__ __aicore__ void ub_hog() {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
  pipe.InitBuffer(queue, 2, 512 * 1024);
}

NPUD_KERNEL_REGISTER(add_float);
NPUD_KERNEL_REGISTER(add_tiled);
NPUD_KERNEL_REGISTER(hello);
NPUD_KERNEL_REGISTER(trapping);
NPUD_KERNEL_REGISTER(poke);
NPUD_KERNEL_REGISTER(spin);
NPUD_KERNEL_REGISTER(burn);
NPUD_KERNEL_REGISTER(count_up);
NPUD_KERNEL_REGISTER(ub_hog);
NPUD_KERNEL_REGISTER(to_half);
