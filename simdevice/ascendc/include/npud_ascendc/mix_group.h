// mix_group.h: mix kernels (`__mix__(1, 2)`), whose every block is a group of one
// cube core (AIC) and two vector cores (AIV) that run at once and signal each other
// with CrossCoreSetFlag / CrossCoreWaitFlag. A kernel of type KERNEL_TYPE_MIX_AIC_1_1
// (or `__mix__(1, 1)`) has groups of one cube and one vector core: its registration
// says so (NPUD_KERNEL_MIX_VECTORS, npud_kernel_register.h), and everything below
// that counts vector cores counts its one (GetBlockIdx() of the vector core i,
// GetSubBlockNum() 1, mode 2 flags between the two cores).
//
// The executor calls a mix kernel's entry once per block, like any kernel, with
// NpudBlockContext::core_type NPUD_CORE_TYPE_MIX. The entry (npud_kernel_register.h)
// then runs the group itself, all three cores through the kernel's body, each with a
// context of its core type, as fibers (ucontext) on the calling thread: kernels may
// not start threads in npud's sandbox. A core runs until it finishes or waits for a
// flag not yet raised; then the next one runs. The cores of a group therefore never
// run at the same instant, which flags make invisible to a correct kernel.
//
// The cube core of block i has GetBlockIdx() i, the vector cores 2i and 2i + 1
// (GetSubBlockIdx() 0 and 1, GetTaskRation() 2); GetBlockNum() is the launch's block
// count for all. The first vector core uses the block's unified buffer, the second
// and the cube core ones of their own (the NPU's cube core has no UB, but kernels
// that set up vector queues on every core of the group must still run). What the three print is
// passed on in core order once the group ends. A core that fails fails the block (with its core
// named); a core waiting for a flag that can no longer come (the others failed,
// finished or wait too) fails instead of hanging. Which core of which group a
// thread runs is found through its context, whose print callback and host are the
// group's: the thread-local block state stays as small as it was, which keeps
// kernel objects within the static TLS that LeakSanitizer can scan.
//
// Waits for other blocks (SyncAll, IBWait, ..., cross_block.h) pass through the group:
// a core that waits for another block yields to the group's scheduler, and once every
// core of the group waits (for a flag or another block) and no flag moved, the whole
// group waits as its block (NpudBlockContext::wait of the executor), keeping the
// thread's state and buffers of all three cores (saved_block.h).
//
// Flags (cross_core_flags.h; flag ids 0..15) count per core. Mode 2, between a cube
// core and its vector cores: the cube core's CrossCoreSetFlag<2, pipe>(id) raises id
// once for each vector core; a vector core's raises it once for the cube core. Mode 1,
// between the vector cores of a group: once both have set id, it is raised once for
// each. Mode 0 (every cube core, or every vector core, of the launch) counts in the
// launch's scratch memory; a core that used it waits for its flags as for other blocks.
// CrossCoreWaitFlag(id) takes one raise of id (on the cube core in mode 2, one from
// each vector core).
#ifndef NPUD_ASCENDC_MIX_GROUP_H_
#define NPUD_ASCENDC_MIX_GROUP_H_

#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/saved_block.h"
#include "npud_ascendc/sync.h"
#include "npud_kernel_abi.h"

namespace npud::ascendc {

struct MixTrapSignal {
  uint32_t kind;
  std::string message;
};

// The cores of one block of a mix kernel and their scheduler. Confined to the thread
// that runs the block.
class MixGroup {
 public:
  static constexpr uint32_t kVectorCores = 2;           // at most, and by default
  static constexpr uint32_t kCores = 1 + kVectorCores;  // core 0 is the cube core
  static constexpr uint32_t kFlags = 16;
  static constexpr size_t kStackBytes = 4u << 20;

  // Runs `body` as the three cores of the block `ctx` describes; returns once all
  // have finished, then passes on their output and the first failure (through
  // ctx->print and ctx->trap).
  template <class Body>
  void Run(const NpudBlockContext* ctx, Body& body, uint32_t vector_cores = kVectorCores) {
    vectors_ = vector_cores == 1 ? 1 : kVectorCores;
    outer_ = ctx;
    body_ = &body;
    call_body_ = [](void* b) { (*static_cast<Body*>(b))(); };
    // Unified buffers for the second vector core and the cube core (the first
    // vector core has the block's).
    const uint64_t ub_stride = (ctx->ub_size + 63) / 64 * 64;
    std::unique_ptr<uint8_t[]> extra_ub(new uint8_t[2 * ub_stride + 64]);
    const uintptr_t extra = (reinterpret_cast<uintptr_t>(extra_ub.get()) + 63) / 64 * 64;
    for (uint32_t i = 0; i < Cores(); ++i) {
      Core& core = cores_[i];
      core.group = this;
      core.index = i;
      core.ctx = *ctx;
      core.ctx.host = &core;
      core.ctx.print = Print;
      core.ctx.trap = Trap;
      core.ctx.wait = ctx->wait != nullptr ? &WaitCallback : nullptr;
      if (i == 0) {
        core.ctx.core_type = NPUD_CORE_TYPE_CUBE;
        core.ctx.ub_base = reinterpret_cast<uint8_t*>(extra + ub_stride);
      } else {
        core.ctx.core_type = NPUD_CORE_TYPE_VECTOR;
        core.ctx.block_idx = ctx->block_idx * vectors_ + (i - 1);
        if (i == 2) core.ctx.ub_base = reinterpret_cast<uint8_t*>(extra);
      }
      core.stack.reset(new uint8_t[kStackBytes]);
      getcontext(&core.fiber);
      core.fiber.uc_stack.ss_sp = core.stack.get();
      core.fiber.uc_stack.ss_size = kStackBytes;
      core.fiber.uc_link = &scheduler_;
      makecontext(&core.fiber, reinterpret_cast<void (*)()>(&Entry), 2,
                  static_cast<int>(reinterpret_cast<uintptr_t>(this) >> 32),
                  static_cast<int>(reinterpret_cast<uintptr_t>(this) & 0xffffffffu));
    }
    Schedule();
    for (const Core& core : cores_) {
      if (!core.output.empty()) ctx->print(ctx->host, core.output.data(), core.output.size());
    }
    // The failure that started it, else (a deadlock) the first core's.
    uint32_t report = root_;
    for (uint32_t i = 0; report == kCores && i < Cores(); ++i) {
      if (cores_[i].failed) report = i;
    }
    if (report < kCores) {
      const Core& core = cores_[report];
      // (snprintf, not std::to_string: its digit table would be an exported unique
      // symbol of every kernel object.)
      char message[640];
      std::snprintf(message, sizeof(message), "%s core (block %u): %s", CoreName(report),
                    core.ctx.block_idx, core.message.c_str());
      ctx->trap(ctx->host, core.trap_kind, message);
      std::abort();  // trap() does not return (npud_kernel_abi.h)
    }
  }

  // Mode 2: the cube core raises `flag` for each vector core, a vector core
  // for the cube core.
  void Set(uint32_t core, uint16_t flag) {
    CheckFlag("CrossCoreSetFlag", flag);
    if (core == 0) {
      for (uint32_t v = 1; v < Cores(); ++v) ++raised_[v][flag];
    } else {
      ++raised_[0][flag];
    }
    ++progress_;
  }

  // Mode 1: once both vector cores have set `flag`, it is raised for each.
  void SetBetweenVectorCores(uint32_t core, uint16_t flag) {
    CheckFlag("CrossCoreSetFlag", flag);
    if (core == 0)
      Fail("CrossCoreSetFlag<1>(%u) on the cube core: mode 1 is for vector cores", flag);
    if (++pair_set_[flag] % vectors_ == 0) {
      for (uint32_t v = 1; v < Cores(); ++v) ++raised_[v][flag];
    }
    ++progress_;
  }

  // Mode 0 counts outside the group (cross_core_flags.h); from now on the core
  // waits for its flags as for other blocks.
  void NoteLaunchWideFlag(uint32_t core) {
    cores_[core].launch_wide_flags = true;
    ++progress_;
  }

  // Takes one raise of `flag` for `core`: from the group, or else through
  // `take_launch_wide()` (mode 0), waiting until there is one.
  template <class TakeLaunchWide>
  void Wait(uint32_t core, uint16_t flag, TakeLaunchWide take_launch_wide) {
    CheckFlag("CrossCoreWaitFlag", flag);
    const uint32_t need = core == 0 ? vectors_ : 1;
    for (uint32_t spins = 0; raised_[core][flag] < need; ++spins) {
      if (take_launch_wide()) return;
      if (cores_[core].launch_wide_flags && outer_->wait != nullptr) {
        if (WaitForOtherBlocks(core, "CrossCoreWaitFlag", spins) != 0) {
          Fail("CrossCoreWaitFlag(%u) on the %s core waits for cores that can never come", flag,
               CoreName(core));
        }
        continue;
      }
      if (stuck_) {
        Fail(
            "CrossCoreWaitFlag(%u) on the %s core: it would wait forever: every other core of "
            "the group has finished or waits too",
            flag, CoreName(core));
      }
      if (aborted_) {
        Fail("CrossCoreWaitFlag(%u) on the %s core: another core of the group failed", flag,
             CoreName(core));
      }
      cores_[core].blocked = true;
      Yield(core);
      cores_[core].blocked = false;
    }
    raised_[core][flag] -= need;
  }

  static const char* CoreName(uint32_t core) { return core == 0 ? "cube" : "vector"; }

  // Vector cores per group: 2, or 1 for KERNEL_TYPE_MIX_AIC_1_1 kernels.
  uint32_t VectorCores() const { return vectors_; }
  uint32_t Cores() const { return 1 + vectors_; }

  // The group and core (0 = cube) the calling thread runs, if it runs one.
  static MixGroup* Current(uint32_t* core) {
    const NpudBlockContext* ctx = Context();
    if (ctx == nullptr || ctx->print != &Print) return nullptr;
    const Core* running = static_cast<const Core*>(ctx->host);
    *core = running->index;
    return running->group;
  }

 private:
  struct Core {
    MixGroup* group = nullptr;
    uint32_t index = 0;
    // Set while it waits for other blocks (WaitForOtherBlocks): what for, and
    // how often it has looked in vain.
    const char* waits_for = nullptr;
    uint32_t wait_spins = 0;
    bool launch_wide_flags = false;  // it set a mode 0 flag
    NpudBlockContext ctx{};
    ucontext_t fiber{};
    std::unique_ptr<uint8_t[]> stack;
    bool finished = false;
    bool blocked = false;
    // The thread's block state while the core is switched out.
    BlockState state;
    int64_t idx = 0;
    int64_t num = 0;
    std::string output;
    bool failed = false;
    uint32_t trap_kind = 0;
    std::string message;
  };

  static void Print(void* host, const char* text, size_t len) {
    static_cast<Core*>(host)->output.append(text, len);
  }

  [[noreturn]] static void Trap(void* /*host*/, uint32_t kind, const char* message) {
    throw MixTrapSignal{kind, message != nullptr ? message : ""};
  }

  // NpudBlockContext::wait of the group's cores.
  static int WaitCallback(void* host, const char* what, uint32_t spins) {
    auto* core = static_cast<Core*>(host);
    return core->group->WaitForOtherBlocks(core->index, what, spins);
  }

  // Hands the group back to its scheduler until it has waited as a block
  // (Schedule); nonzero when the wait can never end (or the group failed).
  int WaitForOtherBlocks(uint32_t i, const char* what, uint32_t spins) {
    if (outside_failed_ || aborted_) return 1;
    Core& core = cores_[i];
    core.waits_for = what;
    core.wait_spins = spins;
    Yield(i);
    core.waits_for = nullptr;
    return outside_failed_ || aborted_ ? 1 : 0;
  }

  // The whole group waits as its block, keeping what any of its cores holds of
  // the thread.
  int WaitAsBlock(const char* what, uint32_t spins) {
    const BlockState outer = tls_block;
    for (const Core& core : cores_) tls_block.pools_used |= core.state.pools_used;
    SavedBlock saved;
    const int rc = outer_->wait(outer_->host, what, spins);
    saved.Restore();
    tls_block = outer;
    return rc;
  }

  static void CheckFlag(const char* op, uint16_t flag) {
    if (flag >= kFlags) Fail("%s(%u): flag ids are 0..%u", op, flag, kFlags - 1);
  }

  static void Entry(int high, int low) {
    auto* group = reinterpret_cast<MixGroup*>(
        (static_cast<uintptr_t>(static_cast<uint32_t>(high)) << 32) | static_cast<uint32_t>(low));
    group->RunCore(group->current_);
  }

  void RunCore(uint32_t i) {
    Core& core = cores_[i];
    try {
      const BlockScope scope(&core.ctx);
      call_body_(body_);
    } catch (const MixTrapSignal& trap) {
      if (!aborted_) root_ = i;
      core.failed = true;
      core.trap_kind = trap.kind;
      core.message = trap.message;
      aborted_ = true;
    } catch (...) {
      if (!aborted_) root_ = i;
      core.failed = true;
      core.trap_kind = NPUD_TRAP_KIND_CHECK;
      core.message = "an exception left the kernel";
      aborted_ = true;
    }
    core.finished = true;
    ++progress_;
  }  // returns to scheduler_ (uc_link)

  // Switches from core i back to the scheduler, keeping the core's block state.
  void Yield(uint32_t i) {
    Core& core = cores_[i];
    core.state = tls_block;
    core.idx = block_idx;
    core.num = block_num;
    swapcontext(&core.fiber, &scheduler_);
    tls_block = core.state;
    block_idx = core.idx;
    block_num = core.num;
  }

  // Resumes the unfinished cores in turn until all have finished; a round in which
  // every unfinished core stayed blocked and nothing was raised is a deadlock.
  void Schedule() {
    const BlockState saved = tls_block;
    const int64_t saved_idx = block_idx, saved_num = block_num;
    // Whether a core computed since the group last waited as a block, and how
    // often it has waited in vain since (the executor's deadlock rule).
    bool computed = true;
    uint32_t spins = 0;
    while (true) {
      bool any = false, all_wait = true;
      const char* outside = nullptr;
      const uint64_t before = progress_;
      for (uint32_t i = 0; i < Cores(); ++i) {
        Core& core = cores_[i];
        if (core.finished) continue;
        any = true;
        current_ = i;
        swapcontext(&scheduler_, &core.fiber);
        tls_block = saved;
        block_idx = saved_idx;
        block_num = saved_num;
        if (core.finished) {
          all_wait = false;
        } else if (core.waits_for != nullptr) {
          outside = core.waits_for;
          if (core.wait_spins == 0) computed = true;
        } else if (!core.blocked) {
          all_wait = false;
        }
      }
      if (!any) break;
      if (progress_ != before) computed = true;
      if (!all_wait || progress_ != before) continue;
      if (outside == nullptr) {
        stuck_ = true;  // every core waits for a flag of the group
        continue;
      }
      spins = computed ? 0 : spins + 1;
      computed = false;
      if (WaitAsBlock(outside, spins) != 0) outside_failed_ = true;
    }
  }

  ucontext_t scheduler_{};
  const NpudBlockContext* outer_ = nullptr;  // the block's own context
  Core cores_[kCores];
  uint32_t current_ = 0;
  void* body_ = nullptr;
  void (*call_body_)(void*) = nullptr;
  uint32_t raised_[kCores][kFlags] = {};
  uint32_t pair_set_[kFlags] = {};  // mode 1 sets, by both vector cores
  bool outside_failed_ = false;     // the block's wait can never end
  uint64_t progress_ = 0;
  bool aborted_ = false;
  bool stuck_ = false;
  uint32_t root_ = kCores;  // the core whose failure aborted the group, if any
  uint32_t vectors_ = kVectorCores;
};

template <class Body>
void RunMixGroup(const NpudBlockContext* ctx, Body&& body,
                 uint32_t vector_cores = MixGroup::kVectorCores) {
  MixGroup group;
  group.Run(ctx, body, vector_cores);
}

}  // namespace npud::ascendc

namespace AscendC {

// A vector or cube kernel's block is one core; a mix kernel's block is its group.
inline int64_t GetSubBlockIdx() {
  uint32_t core = 0;
  return ::npud::ascendc::MixGroup::Current(&core) != nullptr && core > 0 ? core - 1 : 0;
}
inline int64_t GetSubBlockNum() {
  uint32_t core = 0;
  const ::npud::ascendc::MixGroup* group = ::npud::ascendc::MixGroup::Current(&core);
  return group != nullptr && core > 0 ? group->VectorCores() : 1;
}
inline int64_t GetTaskRation() { return GetSubBlockNum(); }
inline int64_t GetTaskRatio() { return GetSubBlockNum(); }

}  // namespace AscendC

#endif  // NPUD_ASCENDC_MIX_GROUP_H_
