// Kernels whose blocks wait for each other (cross_block.h), for
// kernel_launch_test's CrossBlockTest: each result is wrong, or the launch
// never ends, unless every block of the launch is alive at once and the
// primitives order them.

#include "kernel_operator.h"

namespace {

AscendC::LocalTensor<int32_t> UbWorkspace(AscendC::TPipe& pipe,
                                          AscendC::TBuf<AscendC::TPosition::VECCALC>& buf) {
  pipe.InitBuffer(buf, static_cast<uint32_t>(32 * AscendC::GetBlockNum() + 32));
  return buf.Get<int32_t>();
}

}  // namespace

// Three rounds: every block writes its value of the round, meets the others
// at `barrier`, then sums all values of the round into its own output slot.
template <class Barrier>
__aicore__ void SumRounds(GM_ADDR values, GM_ADDR sums, Barrier barrier) {
  auto* v = reinterpret_cast<__gm__ int32_t*>(values);
  auto* s = reinterpret_cast<__gm__ int32_t*>(sums);
  const int64_t n = AscendC::GetBlockNum();
  const int64_t b = AscendC::GetBlockIdx();
  for (int64_t round = 0; round < 3; ++round) {
    v[round * n + b] = static_cast<int32_t>((b + 1) * (round + 1));
    barrier();
    int32_t sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += v[round * n + i];
    s[round * n + b] = sum;
  }
}

// The hardware SyncAll.
extern "C" __global__ __aicore__ void sync_all_sum(GM_ADDR values, GM_ADDR sums) {
  SumRounds(values, sums, [] { AscendC::SyncAll(); });
}

// The software SyncAll over a zeroed workspace in GM.
extern "C" __global__ __aicore__ void sync_all_soft(GM_ADDR values, GM_ADDR sums,
                                                    GM_ADDR workspace) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::LocalTensor<int32_t> ub = UbWorkspace(pipe, buf);
  AscendC::GlobalTensor<int32_t> ws;
  ws.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(workspace), 8 * AscendC::GetBlockNum());
  SumRounds(values, sums, [&] { AscendC::SyncAll(ws, ub); });
}

// A chain against the order blocks start in: block b waits for block b + 1
// (IBWait), takes its value plus one, and lets block b - 1 go (IBSet).
extern "C" __global__ __aicore__ void ib_chain(GM_ADDR values, GM_ADDR workspace) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::LocalTensor<int32_t> ub = UbWorkspace(pipe, buf);
  AscendC::GlobalTensor<int32_t> ws;
  ws.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(workspace), 8 * AscendC::GetBlockNum());
  auto* v = reinterpret_cast<__gm__ int32_t*>(values);
  const int32_t n = static_cast<int32_t>(AscendC::GetBlockNum());
  const int32_t b = static_cast<int32_t>(AscendC::GetBlockIdx());
  if (b == n - 1) {
    v[b] = 1;
  } else {
    AscendC::IBWait(ws, ub, b + 1, 0);
    v[b] = v[b + 1] + 1;
  }
  AscendC::IBSet(ws, ub, b, 0);
}

// Blocks append their index to a log in block order (WaitPreBlock /
// NotifyNextBlock), although later blocks reach the log first.
extern "C" __global__ __aicore__ void ordered_log(GM_ADDR log, GM_ADDR workspace) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::LocalTensor<int32_t> ub = UbWorkspace(pipe, buf);
  AscendC::GlobalTensor<int32_t> ws;
  ws.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(workspace), 8 * AscendC::GetBlockNum());
  AscendC::InitDetermineComputeWorkspace(ws, ub);
  auto* entries = reinterpret_cast<__gm__ int32_t*>(log);
  const int64_t b = AscendC::GetBlockIdx();
  // Earlier blocks take longer to get here.
  volatile uint32_t x = 1;
  for (int64_t i = 0; i < (AscendC::GetBlockNum() - b) * 20000; ++i) x = x * 1664525u + 1u;
  AscendC::WaitPreBlock(ws, ub);
  entries[1 + entries[0]++] = static_cast<int32_t>(b);
  AscendC::NotifyNextBlock(ws, ub);
}

// Block 0 skips the barrier the others wait at: a deadlock.
extern "C" __global__ __aicore__ void sync_all_deadlock() {
  if (AscendC::GetBlockIdx() != 0) AscendC::SyncAll();
}

NPUD_KERNEL_REGISTER(sync_all_sum);
NPUD_KERNEL_REGISTER(sync_all_soft);
NPUD_KERNEL_REGISTER(ib_chain);
NPUD_KERNEL_REGISTER(ordered_log);
NPUD_KERNEL_REGISTER(sync_all_deadlock);
