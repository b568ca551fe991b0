// cross_block.h: synchronisation between the blocks of one launch — SyncAll (the
// hardware form and the software one over a workspace in global memory), IBSet /
// IBWait, and InitDetermineComputeWorkspace / NotifyNextBlock / WaitPreBlock.
//
// On the NPU every block of a launch that synchronises is resident on a core at once
// and spins on global memory. Here every block of a launch is alive at once too, each
// on a fiber of its own (npud's executor, NpudBlockContext::wait): a block whose
// condition does not hold yet hands its core to the other blocks and looks again when
// it is resumed. The flags live where the NPU keeps them — in the kernel's workspace
// in global memory, written 1 per 32-byte slot — or, for the hardware SyncAll, in the
// launch's scratch memory. A wait that can never end (every live block waits and
// none can move) fails the block, naming the primitive, instead of hanging.
//
// What a waiting block keeps across the wait: its thread-local block state and, if it
// used them, the running thread's L1/L0/bias buffers of static tensor programming
// (LocalMemAllocator), which another block may use meanwhile (saved_block.h). In mix
// kernels a core's wait passes through its group's scheduler, which waits as the
// block once every core of the group waits (mix_group.h).
#ifndef NPUD_ASCENDC_CROSS_BLOCK_H_
#define NPUD_ASCENDC_CROSS_BLOCK_H_

#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/mix_group.h"
#include "npud_ascendc/saved_block.h"
#include "npud_ascendc/sync.h"
#include "npud_ascendc/tensor.h"
#include "npud_kernel_abi.h"

namespace npud::ascendc {

// Returns once `ready()` holds, letting the other blocks of the launch run meanwhile;
// fails the block, naming `what`, if it never can.
template <class Ready>
void WaitUntil(const char* what, Ready ready) {
  if (ready()) return;
  const NpudBlockContext* ctx = Context();
  if (ctx == nullptr || ctx->wait == nullptr) {
    Fail("%s: synchronisation between blocks is not simulated here (%s)", what,
         ctx == nullptr ? "outside a kernel" : "in a mix kernel, or an executor without waits");
  }
  for (uint32_t spins = 0;; ++spins) {
    SavedBlock saved;
    const int rc = ctx->wait(ctx->host, what, spins);
    saved.Restore();
    if (rc != 0) {
      Fail(
          "%s waits for blocks that can never come: every live block of the launch waits "
          "(a deadlock), or the launch ended",
          what);
    }
    if (ready()) return;
  }
}

inline int32_t LoadFlag(const int32_t* flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }
inline void StoreFlag(int32_t* flag, int32_t value) {
  __atomic_store_n(flag, value, __ATOMIC_RELEASE);
}

// The hardware SyncAll's barrier, in the launch's scratch memory: a count of
// arrivals and a generation that the last arrival advances. `parties` blocks take
// part; it must not change between rounds.
inline void ScratchBarrier(const char* what, uint32_t parties) {
  const NpudBlockContext* ctx = Context();
  if (ctx == nullptr || ctx->launch_scratch == nullptr) {
    Fail("%s: synchronisation between blocks is not simulated here (no launch scratch)", what);
  }
  auto* words = static_cast<uint32_t*>(ctx->launch_scratch);
  uint32_t* arrived = &words[0];
  uint32_t* generation = &words[16];  // its own cache line
  const uint32_t mine = __atomic_load_n(generation, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(arrived, 1, __ATOMIC_ACQ_REL) == parties) {
    __atomic_store_n(arrived, 0, __ATOMIC_RELAXED);
    __atomic_store_n(generation, mine + 1, __ATOMIC_RELEASE);
    return;
  }
  WaitUntil(what, [&] { return __atomic_load_n(generation, __ATOMIC_ACQUIRE) != mine; });
}

// Slots of the workspaces are 32 bytes (8 int32), one per block, as on the NPU.
constexpr uint32_t kSlotInts = 8;

}  // namespace npud::ascendc

namespace AscendC {

// SyncAllConfig: which pipes trigger and wait; pipes are ordered on a block's core
// here already (sync.h), so only the barrier matters.
struct SyncAllConfig {
  pipe_t triggerPipe;
  pipe_t waitPipe;
};
constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};

// Every block of the launch arrives before any goes on. In a mix kernel: every
// vector core (isAIVOnly), or every core of every group.
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
inline void SyncAll() {
  (void)config;
  using ::npud::ascendc::MixGroup;
  uint32_t core = 0;
  auto parties = static_cast<uint32_t>(GetBlockNum());
  if (const MixGroup* group = MixGroup::Current(&core); group != nullptr) {
    if (isAIVOnly && core == 0) {
      ::npud::ascendc::Fail(
          "SyncAll<true> on the cube core of a mix kernel: only the vector cores take part "
          "(SyncAll<false> synchronises every core)");
    }
    parties *= isAIVOnly ? group->VectorCores() : group->Cores();
  }
  ::npud::ascendc::ScratchBarrier("SyncAll", parties);
}

// The software form: each block raises its slot of `gmWorkspace` (zeroed before the
// first round; at least GetBlockNum() * 32 bytes) to its round number, then waits
// until the first `usedCores` blocks (0: all) have reached that round.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace,
                    const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0) {
  (void)ubWorkspace;
  using ::npud::ascendc::kSlotInts;
  const int64_t blocks = GetBlockNum();
  const int64_t parties = usedCores > 0 ? usedCores : blocks;
  if (parties > blocks) {
    ::npud::ascendc::Fail("SyncAll: usedCores %d is more than the launch's %lld blocks", usedCores,
                          static_cast<long long>(blocks));
  }
  int32_t* slots = gmWorkspace.GetPhyAddr();
  int32_t* mine = slots + GetBlockIdx() * kSlotInts;
  const int32_t round = ::npud::ascendc::LoadFlag(mine) + 1;
  ::npud::ascendc::StoreFlag(mine, round);
  ::npud::ascendc::WaitUntil("SyncAll", [&] {
    for (int64_t b = 0; b < parties; ++b) {
      if (::npud::ascendc::LoadFlag(slots + b * kSlotInts) < round) return false;
    }
    return true;
  });
}

// IBSet / IBWait: the flag of (blockIdx, eventID) in `gmWorkspace` (zeroed;
// blocks * 32 * (eventID_max + 1) + ... bytes). IBSet raises it; IBWait waits for it
// and lowers it again, so the pair can be used once more.
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                  int32_t blockIdx, int32_t eventID) {
  (void)ubWorkspace;
  using ::npud::ascendc::kSlotInts;
  int32_t* flag = gmWorkspace.GetPhyAddr() + (GetBlockNum() * eventID + blockIdx) * kSlotInts;
  ::npud::ascendc::StoreFlag(flag, 1);
}

template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace,
                   const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx, int32_t eventID) {
  (void)ubWorkspace;
  using ::npud::ascendc::kSlotInts;
  int32_t* flag = gmWorkspace.GetPhyAddr() + (GetBlockNum() * eventID + blockIdx) * kSlotInts;
  ::npud::ascendc::WaitUntil("IBWait", [&] { return ::npud::ascendc::LoadFlag(flag) == 1; });
  ::npud::ascendc::StoreFlag(flag, 0);
}

// Blocks in order of their index (deterministic computation): WaitPreBlock returns
// once the blocks before this one have called NotifyNextBlock as often as this one
// has passed WaitPreBlock; InitDetermineComputeWorkspace zeroes the block's slot.
// The workspace holds one slot per block (GetBlockNum() * 32 bytes).
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace,
                                          LocalTensor<int32_t>& ubWorkspace) {
  (void)ubWorkspace;
  ::npud::ascendc::StoreFlag(gmWorkspace.GetPhyAddr() + GetBlockIdx() * ::npud::ascendc::kSlotInts,
                             0);
}

inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  (void)ubWorkspace;
  using ::npud::ascendc::kSlotInts;
  const int64_t idx = GetBlockIdx();
  int32_t* slots = gmWorkspace.GetPhyAddr();
  // This block's own count of notifications so far is the round it is in.
  const int32_t round = ::npud::ascendc::LoadFlag(slots + idx * kSlotInts);
  if (idx == 0) return;
  ::npud::ascendc::WaitUntil("WaitPreBlock", [&] {
    return ::npud::ascendc::LoadFlag(slots + (idx - 1) * kSlotInts) > round;
  });
}

inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  (void)ubWorkspace;
  int32_t* mine = gmWorkspace.GetPhyAddr() + GetBlockIdx() * ::npud::ascendc::kSlotInts;
  ::npud::ascendc::StoreFlag(mine, ::npud::ascendc::LoadFlag(mine) + 1);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CROSS_BLOCK_H_
