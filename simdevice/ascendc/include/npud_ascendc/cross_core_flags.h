// cross_core_flags.h: CrossCoreSetFlag / CrossCoreWaitFlag, the A2 modes.
//
// Every core has a counter per flag id (0..15); CrossCoreSetFlag raises the counters
// of the cores its mode names, CrossCoreWaitFlag waits until its own counter is not
// zero and lowers it by one.
//
//  * Mode 0, every cube core or every vector core of the launch: once all of them
//    (of the caller's kind) have set the flag, it is raised once for each. Counted in
//    the launch's scratch memory: per kind and flag, how many sets there were; a core
//    has a raise for every full round of sets it has not taken yet.
//  * Mode 1, the two vector cores of a mix kernel's group, and mode 2, a cube core and
//    its vector cores: within the group (mix_group.h).
//
// Mode 4 (one vector core and the cube core) is Ascend 950's, not A2's: it fails the
// block, as modes 1 and 2 do outside a mix kernel.
#ifndef NPUD_ASCENDC_CROSS_CORE_FLAGS_H_
#define NPUD_ASCENDC_CROSS_CORE_FLAGS_H_

#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/cross_block.h"
#include "npud_ascendc/mix_group.h"
#include "npud_ascendc/sync.h"
#include "npud_kernel_abi.h"

namespace npud::ascendc {

constexpr uint16_t kCoreFlags = 16;
// Where mode 0 counts in the launch scratch (uint32 words): past ScratchBarrier's.
constexpr uint32_t kLaunchFlagWords = 64;

inline bool OnCubeCore() { return CoreType() == NPUD_CORE_TYPE_CUBE; }

// How many cores of the caller's kind the launch has.
inline uint32_t CoresOfMyKind() {
  uint32_t core = 0;
  const MixGroup* group = MixGroup::Current(&core);
  const auto blocks = static_cast<uint32_t>(block_num);
  return group != nullptr && !OnCubeCore() ? blocks * group->VectorCores() : blocks;
}

inline uint32_t* LaunchFlagCount(uint16_t flag) {
  const NpudBlockContext* ctx = Context();
  if (ctx == nullptr || ctx->launch_scratch == nullptr) {
    Fail("CrossCoreSetFlag<0>: flags between blocks are not simulated here (no launch scratch)");
  }
  auto* words = static_cast<uint32_t*>(ctx->launch_scratch);
  return &words[kLaunchFlagWords + (OnCubeCore() ? 0 : kCoreFlags) + flag];
}

// Takes one launch-wide raise of `flag` if there is one.
inline bool TakeLaunchWideFlag(uint16_t flag) {
  if (tls_block.flags_taken == nullptr) return false;  // never set one
  const uint32_t rounds =
      __atomic_load_n(LaunchFlagCount(flag), __ATOMIC_ACQUIRE) / CoresOfMyKind();
  if (rounds <= tls_block.flags_taken[flag]) return false;
  ++tls_block.flags_taken[flag];
  return true;
}

inline void CheckCoreFlag(const char* op, uint16_t flag) {
  if (flag >= kCoreFlags) Fail("%s(%u): flag ids are 0..%u", op, flag, kCoreFlags - 1);
}

}  // namespace npud::ascendc

namespace AscendC {

// The flags' register base (aclrtGetHardwareSyncAddr's address, which A2 kernels set
// before their first flag). npud's flags need none, so any address is taken.
inline void SetSyncBaseAddr(uint64_t config) { (void)config; }

template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId) {
  using ::npud::ascendc::MixGroup;
  ::npud::ascendc::CheckCoreFlag("CrossCoreSetFlag", flagId);
  uint32_t core = 0;
  MixGroup* group = MixGroup::Current(&core);
  if (modeId == 0) {
    uint32_t*& taken = ::npud::ascendc::tls_block.flags_taken;
    if (taken == nullptr) taken = new uint32_t[::npud::ascendc::kCoreFlags]();
    __atomic_add_fetch(::npud::ascendc::LaunchFlagCount(flagId), 1, __ATOMIC_ACQ_REL);
    if (group != nullptr) group->NoteLaunchWideFlag(core);
    return;
  }
  if (group == nullptr || (modeId != 1 && modeId != 2)) {
    ::npud::ascendc::Fail(
        "CrossCoreSetFlag<%u>: modes 1 and 2 work between the cores of a mix kernel's group, "
        "mode 0 between all cores of a kind; other modes are not A2's",
        static_cast<unsigned>(modeId));
  }
  if (modeId == 1) {
    group->SetBetweenVectorCores(core, flagId);
  } else {
    group->Set(core, flagId);
  }
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId) {
  ::npud::ascendc::CheckCoreFlag("CrossCoreWaitFlag", flagId);
  uint32_t core = 0;
  ::npud::ascendc::MixGroup* group = ::npud::ascendc::MixGroup::Current(&core);
  if (group != nullptr) {
    group->Wait(core, flagId, [flagId] { return ::npud::ascendc::TakeLaunchWideFlag(flagId); });
    return;
  }
  if (::npud::ascendc::tls_block.flags_taken == nullptr) {
    ::npud::ascendc::Fail(
        "CrossCoreWaitFlag(%u): no flag can be raised for this core: outside a mix kernel only "
        "mode 0 flags exist, and this core set none",
        static_cast<unsigned>(flagId));
  }
  ::npud::ascendc::WaitUntil("CrossCoreWaitFlag",
                             [flagId] { return ::npud::ascendc::TakeLaunchWideFlag(flagId); });
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CROSS_CORE_FLAGS_H_
