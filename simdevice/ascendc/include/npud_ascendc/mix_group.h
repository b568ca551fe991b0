// mix_group.h: mix kernels (`__mix__(1, 2)`), whose every block is a group of one
// cube core (AIC) and two vector cores (AIV) that run at once and signal each other
// with CrossCoreSetFlag / CrossCoreWaitFlag.
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
// Flags (mode 2, between a cube core and its vector cores; flag ids 0..15): the cube
// core's CrossCoreSetFlag<2, pipe>(id) raises id once for each vector core; a vector
// core's raises it once for the cube core. CrossCoreWaitFlag(id) on a vector core
// takes one raise of id; on the cube core it takes one from each vector core. Modes
// 0 (all cores) and 1 (vector cores of a group) and flags outside mix kernels are not
// simulated and fail the block.
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
  static constexpr uint32_t kVectorCores = 2;
  static constexpr uint32_t kCores = 1 + kVectorCores;  // core 0 is the cube core
  static constexpr uint32_t kFlags = 16;
  static constexpr size_t kStackBytes = 4u << 20;

  // Runs `body` as the three cores of the block `ctx` describes; returns once all
  // have finished, then passes on their output and the first failure (through
  // ctx->print and ctx->trap).
  template <class Body>
  void Run(const NpudBlockContext* ctx, Body& body) {
    body_ = &body;
    call_body_ = [](void* b) { (*static_cast<Body*>(b))(); };
    // Unified buffers for the second vector core and the cube core (the first
    // vector core has the block's).
    const uint64_t ub_stride = (ctx->ub_size + 63) / 64 * 64;
    std::unique_ptr<uint8_t[]> extra_ub(new uint8_t[2 * ub_stride + 64]);
    const uintptr_t extra = (reinterpret_cast<uintptr_t>(extra_ub.get()) + 63) / 64 * 64;
    for (uint32_t i = 0; i < kCores; ++i) {
      Core& core = cores_[i];
      core.group = this;
      core.index = i;
      core.ctx = *ctx;
      core.ctx.host = &core;
      core.ctx.print = Print;
      core.ctx.trap = Trap;
      // Waits for other blocks would have to pass through this group's own
      // scheduler first (cross_block.h): not yet.
      core.ctx.wait = nullptr;
      if (i == 0) {
        core.ctx.core_type = NPUD_CORE_TYPE_CUBE;
        core.ctx.ub_base = reinterpret_cast<uint8_t*>(extra + ub_stride);
      } else {
        core.ctx.core_type = NPUD_CORE_TYPE_VECTOR;
        core.ctx.block_idx = ctx->block_idx * kVectorCores + (i - 1);
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
    for (uint32_t i = 0; report == kCores && i < kCores; ++i) {
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

  void Set(uint32_t core, uint16_t flag) {
    CheckFlag("CrossCoreSetFlag", flag);
    if (core == 0) {
      for (uint32_t v = 1; v < kCores; ++v) ++raised_[v][flag];
    } else {
      ++raised_[0][flag];
    }
    ++progress_;
  }

  void Wait(uint32_t core, uint16_t flag) {
    CheckFlag("CrossCoreWaitFlag", flag);
    const uint32_t need = core == 0 ? kVectorCores : 1;
    while (raised_[core][flag] < need) {
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
    while (true) {
      bool any = false, all_blocked = true;
      const uint64_t before = progress_;
      for (uint32_t i = 0; i < kCores; ++i) {
        if (cores_[i].finished) continue;
        any = true;
        current_ = i;
        swapcontext(&scheduler_, &cores_[i].fiber);
        tls_block = saved;
        block_idx = saved_idx;
        block_num = saved_num;
        if (!cores_[i].finished && !cores_[i].blocked) all_blocked = false;
        if (cores_[i].finished) all_blocked = false;
      }
      if (!any) break;
      if (all_blocked && progress_ == before) stuck_ = true;
    }
  }

  ucontext_t scheduler_{};
  Core cores_[kCores];
  uint32_t current_ = 0;
  void* body_ = nullptr;
  void (*call_body_)(void*) = nullptr;
  uint32_t raised_[kCores][kFlags] = {};
  uint64_t progress_ = 0;
  bool aborted_ = false;
  bool stuck_ = false;
  uint32_t root_ = kCores;  // the core whose failure aborted the group, if any
};

template <class Body>
void RunMixGroup(const NpudBlockContext* ctx, Body&& body) {
  MixGroup group;
  group.Run(ctx, body);
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
  return ::npud::ascendc::MixGroup::Current(&core) != nullptr && core > 0
             ? ::npud::ascendc::MixGroup::kVectorCores
             : 1;
}
inline int64_t GetTaskRation() { return GetSubBlockNum(); }
inline int64_t GetTaskRatio() { return GetSubBlockNum(); }

template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId) {
  uint32_t core = 0;
  ::npud::ascendc::MixGroup* group = ::npud::ascendc::MixGroup::Current(&core);
  if (group == nullptr || modeId != 2) {
    ::npud::ascendc::Fail(
        "CrossCoreSetFlag<%u>: only mode 2, between the cores of a mix kernel's "
        "group, is simulated",
        static_cast<unsigned>(modeId));
  }
  group->Set(core, flagId);
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId) {
  uint32_t core = 0;
  ::npud::ascendc::MixGroup* group = ::npud::ascendc::MixGroup::Current(&core);
  if (group == nullptr) {
    ::npud::ascendc::Fail(
        "CrossCoreWaitFlag(%u): flags between cores are simulated within a mix "
        "kernel's group only",
        static_cast<unsigned>(flagId));
  }
  group->Wait(core, flagId);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_MIX_GROUP_H_
