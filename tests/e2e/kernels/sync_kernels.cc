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

// A mix kernel's SyncAll<false>: every core of every group (cube core slot
// 3b, vector cores 3b + 1 + sub) writes its value of the round, all meet, and
// each sums the round. The groups wait for each other as blocks.
extern "C" __global__ __mix__(1, 2) void mix_sync_all_sum(GM_ADDR values, GM_ADDR sums) {
  auto* v = reinterpret_cast<__gm__ int32_t*>(values);
  auto* s = reinterpret_cast<__gm__ int32_t*>(sums);
  const int64_t n = 3 * AscendC::GetBlockNum();
  const int64_t me = ASCEND_IS_AIC ? 3 * AscendC::GetBlockIdx()
                                   : 3 * (AscendC::GetBlockIdx() / 2) + 1 + AscendC::GetSubBlockIdx();
  for (int64_t round = 0; round < 3; ++round) {
    v[round * n + me] = static_cast<int32_t>((me + 1) * (round + 1));
    AscendC::SyncAll<false>();
    int32_t sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += v[round * n + i];
    s[round * n + me] = sum;
    AscendC::SyncAll<false>();  // nobody writes the next round before all have summed
  }
}

// Mode 0 flags as a barrier between all vector blocks: the same rounds.
extern "C" __global__ __aicore__ void flag_mode0_sum(GM_ADDR values, GM_ADDR sums) {
  SumRounds(values, sums, [] {
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(7);
    AscendC::CrossCoreWaitFlag(7);
  });
}

// Mode 1 between the vector cores of each group: each writes its value, both
// meet, each stores the pair's sum; then the cube core (mode 2) adds both.
extern "C" __global__ __mix__(1, 2) void flag_mode1_pairs(GM_ADDR out) {
  auto* o = reinterpret_cast<__gm__ int32_t*>(out);
  if ASCEND_IS_AIV {
    const int64_t b = AscendC::GetBlockIdx() / 2;
    const int64_t sub = AscendC::GetSubBlockIdx();
    o[b * 4 + sub] = static_cast<int32_t>(10 * (b + 1) + sub);
    AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(2);
    AscendC::CrossCoreWaitFlag(2);
    o[b * 4 + 2 + sub] = o[b * 4] + o[b * 4 + 1];
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(3);
  }
  if ASCEND_IS_AIC {
    AscendC::CrossCoreWaitFlag(3);
    const int64_t b = AscendC::GetBlockIdx();
    o[b * 4 + 0] = o[b * 4 + 2] + o[b * 4 + 3];
  }
}

// What A2 mix kernels do first: take the flags' base from the host
// (aclrtGetHardwareSyncAddr), then flags as usual: the cube core waits for
// both vector cores, which write their sub-block index + 1.
extern "C" __global__ __mix__(1, 2) void flags_after_sync_base(GM_ADDR ffts, GM_ADDR out) {
  AscendC::SetSyncBaseAddr(reinterpret_cast<uint64_t>(ffts));
  auto* o = reinterpret_cast<__gm__ int32_t*>(out);
  if ASCEND_IS_AIV {
    o[AscendC::GetBlockIdx()] = static_cast<int32_t>(AscendC::GetSubBlockIdx() + 1);
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
  }
  if ASCEND_IS_AIC {
    AscendC::CrossCoreWaitFlag(1);
    const int64_t b = AscendC::GetBlockIdx();
    o[2 * AscendC::GetBlockNum() + b] = o[2 * b] + o[2 * b + 1];
  }
}

// The vector cores of every group but the last wait at a SyncAll the last
// group's never reach: a deadlock across groups.
extern "C" __global__ __mix__(1, 2) void mix_sync_all_deadlock() {
  if ASCEND_IS_AIV {
    if (AscendC::GetBlockIdx() / 2 != AscendC::GetBlockNum() - 1) AscendC::SyncAll();
  }
}

// GroupBarrier: blocks 0..3 arrive (after a slow start), blocks 4.. wait; each
// waiter copies the arrivers' values it then sees, two rounds.
extern "C" __global__ __aicore__ void group_barrier_rounds(GM_ADDR values, GM_ADDR seen,
                                                           GM_ADDR workspace) {
  constexpr uint32_t kArrivers = 4;
  const auto waiters = static_cast<uint32_t>(AscendC::GetBlockNum()) - kArrivers;
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> barrier(workspace, kArrivers, waiters);
  auto* v = reinterpret_cast<__gm__ int32_t*>(values);
  auto* s = reinterpret_cast<__gm__ int32_t*>(seen);
  const auto b = static_cast<uint32_t>(AscendC::GetBlockIdx());
  for (int32_t round = 1; round <= 2; ++round) {
    if (b < kArrivers) {
      volatile uint32_t x = 1;
      for (int i = 0; i < 200000; ++i) x = x * 1664525u + 1u;
      v[b] = round * 100 + static_cast<int32_t>(b);
      barrier.Arrive(b);
    } else {
      barrier.Wait(b - kArrivers);
      for (uint32_t a = 0; a < kArrivers; ++a) {
        s[((round - 1) * waiters + (b - kArrivers)) * kArrivers + a] = v[a];
      }
    }
    AscendC::SyncAll();  // the next round's values only after every waiter looked
  }
}

// Every block adds 1 to the same 8 counters 500 times (SetAtomicAdd), then
// offers its index to the same 8 maxima (SetAtomicMax): blocks run at once, so
// only atomic combining leaves blocks * 500 and blocks - 1.
extern "C" __global__ __aicore__ void atomic_contention(GM_ADDR sums, GM_ADDR maxima) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  AscendC::LocalTensor<int32_t> local = buf.Get<int32_t>();
  AscendC::GlobalTensor<int32_t> sum, max;
  sum.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sums), 8);
  max.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(maxima), 8);
  AscendC::Duplicate(local, 1, 8);
  AscendC::SetAtomicAdd<int32_t>();
  for (int i = 0; i < 500; ++i) AscendC::DataCopy(sum, local, 8);
  AscendC::Duplicate(local, static_cast<int32_t>(AscendC::GetBlockIdx()), 8);
  AscendC::SetAtomicMax<int32_t>();
  AscendC::DataCopy(max, local, 8);
  AscendC::SetAtomicNone();
}

NPUD_KERNEL_REGISTER(atomic_contention);
NPUD_KERNEL_REGISTER(group_barrier_rounds);
NPUD_KERNEL_REGISTER_AS(mix_sync_all_sum, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER(flag_mode0_sum);
NPUD_KERNEL_REGISTER_AS(flag_mode1_pairs, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(mix_sync_all_deadlock, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(flags_after_sync_base, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER(sync_all_sum);
NPUD_KERNEL_REGISTER(sync_all_soft);
NPUD_KERNEL_REGISTER(ib_chain);
NPUD_KERNEL_REGISTER(ordered_log);
NPUD_KERNEL_REGISTER(sync_all_deadlock);
