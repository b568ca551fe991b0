#include "simdevice/kernel_blocks.h"

#include <signal.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <cfenv>
#include <cstring>
#include <deque>
#include <thread>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "common/monotonic_clock.h"
#include "simdevice/block_fiber.h"
#include "spdlog/spdlog.h"

namespace npud::sim {
namespace {

// Thrown by the trap callback; caught around the kernel entry (see the
// unwinding contract in npud_kernel_abi.h).
struct KernelTrap {
  uint32_t kind;
  std::string message;
};

// Bytes of NpudBlockContext::launch_scratch.
constexpr uint64_t kLaunchScratchBytes = 4096;

// Blocks of one launch that may wait at once: each holds a stack and a unified
// buffer. On the NPU a launch that synchronises its blocks may not have more
// of them than there are cores; past this, a launch fails as a deadlock.
constexpr uint32_t kMaxLiveBlocks = 1024;

// A block's wait was resumed this many times in a row without anything
// happening: give the CPU to the blocks that compute.
constexpr uint32_t kSpinsBeforeYield = 16;

struct RunState;

// One block while it runs (see RunBlocks): its fiber and what it produced.
struct LiveBlock {
  RunState* state = nullptr;
  uint32_t block = 0;
  std::unique_ptr<BlockFiber> fiber;
  // Set by the block itself (on its fiber), read by its worker once the fiber
  // has finished.
  std::string output;
  std::string failure;
  BlockTime time;
  bool overflow = false;
  // The wait it is in (set before it suspends): its NpudBlockContext::wait
  // spins.
  uint32_t spins = 0;
  // The launch's progress epoch when it was last resumed, and the one in
  // which it was last counted as having looked in vain (RunState::checked).
  uint64_t resumed_in = 0;
  uint64_t counted_in = ~uint64_t{0};
};

// What the blocks of one launch share while they run.
struct RunState {
  std::shared_ptr<BlockRun> run;
  AiCorePool* pool = nullptr;
  std::function<void(BlockRunResult)> done;
  std::atomic<uint32_t> remaining{0};
  // A block raised a floating-point overflow, invalid operation or division
  // by zero (the AI core's overflow status).
  std::atomic<bool> float_overflow{false};
  // NpudBlockContext::launch_scratch, zeroed.
  std::unique_ptr<uint64_t[]> scratch{new uint64_t[kLaunchScratchBytes / 8]()};
  absl::Mutex mu;
  absl::Status error ABSL_GUARDED_BY(mu);
  std::vector<std::string> output ABSL_GUARDED_BY(mu);
  // With run->time_blocks, one per block; end_ns 0 for a block that did
  // not run.
  std::vector<BlockTime> times ABSL_GUARDED_BY(mu);

  // The workers' schedule (Work).
  uint32_t next_block ABSL_GUARDED_BY(mu) = 0;
  uint32_t live ABSL_GUARDED_BY(mu) = 0;       // started, not finished
  uint32_t computing ABSL_GUARDED_BY(mu) = 0;  // live and not set aside
  // Progress: a block started, ended, or entered a new wait (having computed
  // since its last one). `checked`: live blocks that were resumed after the
  // last progress and found their condition still false.
  uint64_t epoch ABSL_GUARDED_BY(mu) = 0;
  uint32_t checked ABSL_GUARDED_BY(mu) = 0;
  // Every live block waits and none can move: waits fail from now on.
  bool deadlocked ABSL_GUARDED_BY(mu) = false;

  void Progress() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    ++epoch;
    checked = 0;
  }

  void Fail(uint32_t block, const std::string& what) ABSL_LOCKS_EXCLUDED(mu) {
    const std::string message =
        absl::StrFormat("kernel '%s' (%s) block %d on device %d stream %d: %s", run->kernel_name,
                        run->label, block, run->device_id, run->stream_id, what);
    if (run->log_failures) spdlog::error("device exception: {}", message);
    absl::MutexLock lock(&mu);
    if (error.ok()) error = AclError(ExceptionCodeFor(run->kernel_type), message);
  }
};

void PrintCallback(void* host, const char* text, size_t length) {
  static_cast<LiveBlock*>(host)->output.append(text, length);
}

void TrapCallback(void* /*host*/, uint32_t kind, const char* message) {
  throw KernelTrap{kind, message != nullptr ? message : ""};
}

// NpudBlockContext::wait: sets the block aside (its worker parks it, see
// Work) until a worker resumes it to look at its condition again.
int WaitCallback(void* host, const char* /*what*/, uint32_t spins) {
  auto* block = static_cast<LiveBlock*>(host);
  RunState& state = *block->state;
  if (state.run->cancelled.load()) return 1;
  {
    absl::MutexLock lock(&state.mu);
    if (state.deadlocked) return 1;
  }
  block->spins = spins;
  void* guard = TakeBlockGuard();
  block->fiber->Suspend();
  PutBlockGuard(guard);
  absl::MutexLock lock(&state.mu);
  return state.deadlocked || state.run->cancelled.load() ? 1 : 0;
}

// Calls the entry for one block on its fiber; returns what went wrong, or "".
std::string CallEntry(const RunState& state, LiveBlock* block) {
  const BlockRun& run = *state.run;
  NpudBlockContext context{};
  context.abi_version = NPUD_KERNEL_ABI_VERSION;
  context.block_idx = block->block;
  context.block_num = run.block_dim;
  context.core_type = run.kernel_type;
  context.ub_base = block->fiber->ub();
  context.ub_size = std::min(block->fiber->ub_bytes(), run.ub_bytes);
  context.host = block;
  context.print = PrintCallback;
  context.trap = TrapCallback;
  context.wait = WaitCallback;
  context.launch_scratch = state.scratch.get();
  context.launch_scratch_size = kLaunchScratchBytes;
  std::string failure;
  KernelFault fault;
  const bool returned = RunGuardedBlock(
      [&] {
        try {
          const int rc = run.entry(&context, run.args.data(), run.args_size);
          if (rc != NPUD_KERNEL_ENTRY_OK)
            failure = absl::StrFormat("kernel entry refused (%d)", rc);
        } catch (const KernelTrap& trap) {
          failure = trap.kind == NPUD_TRAP_KIND_TRAP ? "trap instruction"
                                                     : "failed check: " + trap.message;
        } catch (const std::exception& e) {
          failure = std::string("exception: ") + e.what();
        } catch (...) {
          failure = "unknown exception";
        }
      },
      &fault);
  if (!returned) {
    block->fiber->ForgetFramesBelow(__builtin_frame_address(0));
    failure = absl::StrFormat("%s at address %#x",
                              fault.signal == SIGBUS ? "bus error" : "memory fault", fault.address);
  }
  return failure;
}

constexpr int kOverflowFlags = FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO;

// feclearexcept(kOverflowFlags), without the x87 environment's store and
// reload that glibc's takes: that was a tenth of an empty block's cost.
void ClearOverflowFlags() {
#if defined(__x86_64__)
  static_assert(FE_OVERFLOW == _MM_EXCEPT_OVERFLOW && FE_INVALID == _MM_EXCEPT_INVALID &&
                FE_DIVBYZERO == _MM_EXCEPT_DIV_ZERO);
  _mm_setcsr(_mm_getcsr() & ~static_cast<unsigned>(kOverflowFlags));
  asm volatile("fnclex");
#else
  std::feclearexcept(kOverflowFlags);
#endif
}

// A block's whole life on its fiber.
void RunBlockOnFiber(RunState* state, LiveBlock* block) {
  // The CPU's sticky exception flags stand in for the core's overflow
  // status: cleared before the block, read after it. (A block that waited
  // may end on another thread; flags of blocks of the same launch mix there,
  // which the launch-wide status does not mind.)
  ClearOverflowFlags();
  const bool timed = state->run->time_blocks;
  if (timed) block->time.start_ns = MonotonicNanos();
  block->failure = CallEntry(*state, block);
  if (timed) block->time.end_ns = MonotonicNanos();
  block->overflow = std::fetestexcept(kOverflowFlags) != 0;
}

// A block has ended (or never ran): its output and time go to the launch,
// and the last one reports.
void Finish(const std::shared_ptr<RunState>& state, uint32_t block, std::string output,
            const BlockTime& time) {
  {
    absl::MutexLock lock(&state->mu);
    state->output[block] = std::move(output);
    if (state->run->time_blocks) state->times[block] = time;
  }
  if (state->remaining.fetch_sub(1) != 1) return;
  BlockRunResult result;
  {
    absl::MutexLock lock(&state->mu);
    for (const std::string& text : state->output) result.output += text;
    result.status = state->error;
    result.float_overflow = state->float_overflow.load();
    for (const BlockTime& t : state->times) {
      if (t.end_ns != 0) result.block_times.push_back(t);
    }
  }
  state->done(std::move(result));
}

// A block has ended, or could not start: its failure and overflow go to the
// launch, its fiber back to the pool, and it leaves the schedule.
void Retire(const std::shared_ptr<RunState>& state, LiveBlock* block) {
  if (block->overflow) state->float_overflow.store(true);
  if (!block->failure.empty()) state->Fail(block->block, block->failure);
  if (block->fiber != nullptr) state->pool->ReturnFiber(std::move(block->fiber));
  const uint32_t index = block->block;
  std::string output = std::move(block->output);
  const BlockTime time = block->time;
  {
    absl::MutexLock lock(&state->mu);
    --state->live;
    --state->computing;
    state->Progress();
  }
  delete block;
  Finish(state, index, std::move(output), time);
}

// One of a launch's workers on a core: starts blocks while there are any,
// then resumes the ones it set aside in waits, until it has none left. Every
// block is alive at once (up to kMaxLiveBlocks), so a block can wait for any
// other, as on the NPU; a block that never waits costs two fiber switches.
//
// A block set aside is resumed by the worker (thread) that set it aside:
// compilers keep the address of a thread-local variable across a call (the
// kernel library's block state, our fault guard), so a block must not wake
// up on another thread.
//
// A deadlock: no block computes, none can start, and every live one has
// looked at its condition in vain since anything last happened.
void Work(const std::shared_ptr<RunState>& state, const CoreSlot& core) {
  const uint32_t blocks = state->run->block_dim;
  std::deque<LiveBlock*> mine;  // set aside by this worker, oldest first
  while (true) {
    LiveBlock* block = nullptr;
    bool start = false;
    {
      absl::MutexLock lock(&state->mu);
      if (state->next_block < blocks && state->live < kMaxLiveBlocks) {
        block = new LiveBlock;
        block->state = state.get();
        block->block = state->next_block++;
        ++state->live;
        ++state->computing;
        state->Progress();
        start = true;
      } else if (!mine.empty()) {
        block = mine.front();
        mine.pop_front();
        ++state->computing;
      } else {
        return;  // the rest is running elsewhere
      }
      block->resumed_in = state->epoch;
    }
    if (start) {
      block->time = BlockTime{0, block->block, static_cast<uint32_t>(core.core_id), 0, 0};
      absl::StatusOr<std::unique_ptr<BlockFiber>> fiber =
          state->run->cancelled.load()
              ? absl::StatusOr<std::unique_ptr<BlockFiber>>(absl::CancelledError("cancelled"))
              : state->pool->TakeFiber();
      if (!fiber.ok()) {
        if (!absl::IsCancelled(fiber.status()))
          block->failure = std::string(fiber.status().message());
        Retire(state, block);
        continue;
      }
      block->fiber = *std::move(fiber);
      RunState* raw = state.get();
      block->fiber->Start([raw, block] { RunBlockOnFiber(raw, block); });
    }
    const bool finished = block->fiber->Resume();
    // Whatever guard the block left on this thread is its own, not ours.
    TakeBlockGuard();
    if (finished) {
      Retire(state, block);
      continue;
    }
    // It waits: set it aside.
    bool yield = false;
    {
      absl::MutexLock lock(&state->mu);
      --state->computing;
      if (block->spins == 0) {
        state->Progress();
      } else if (block->resumed_in == state->epoch && block->counted_in != state->epoch) {
        block->counted_in = state->epoch;
        ++state->checked;
      }
      const bool can_start = state->next_block < blocks && state->live < kMaxLiveBlocks;
      if (state->computing == 0 && !can_start && state->checked == state->live) {
        state->deadlocked = true;
      }
      yield = block->spins >= kSpinsBeforeYield && state->computing > 0;
    }
    mine.push_back(block);
    if (yield) std::this_thread::yield();
  }
}

}  // namespace

std::shared_ptr<BlockRun> NewBlockRun(const KernelModule& module, int kernel) {
  const KernelInfo& info = module.kernels()[kernel];
  auto run = std::make_shared<BlockRun>();
  run->entry = info.entry;
  run->kernel_name = info.name;
  run->label = module.label();
  run->kernel_type = info.kernel_type;
  run->args_size = info.args_size;
  return run;
}

absl::Status ReadDeviceArgs(const DeviceRange& source, uint32_t min_size, std::string* args) {
  args->assign(reinterpret_cast<const char*>(source.data()), source.size);
  if (args->size() < min_size) {
    return AclError(kRtParamInvalid, "device arguments shorter than the kernel's");
  }
  return absl::OkStatus();
}

void AppendBlockSpans(const TaskSpan& kernel, uint32_t launch, const std::vector<BlockTime>& times,
                      std::vector<TaskSpan>* out) {
  for (const BlockTime& time : times) {
    if (time.launch != launch || time.block >= kernel.block_dim) continue;
    TaskSpan span = kernel;
    span.kind = TaskKind::kBlock;
    span.start_ns = std::clamp(time.start_ns, kernel.start_ns, kernel.end_ns);
    span.end_ns = std::clamp(time.end_ns, span.start_ns, kernel.end_ns);
    span.block = time.block;
    span.core = time.core;
    out->push_back(std::move(span));
  }
}

AclCode ExceptionCodeFor(uint32_t kernel_type) {
  return kernel_type == NPUD_CORE_TYPE_VECTOR ? kRtVectorCoreException : kRtAicoreException;
}

void ResolvePlaceholders(std::string* args,
                         const std::vector<std::pair<uint32_t, uint32_t>>& placeholders) {
  for (const auto& [slot, data] : placeholders) {
    const uint64_t address = reinterpret_cast<uint64_t>(args->data() + data);
    std::memcpy(args->data() + slot, &address, sizeof(address));
  }
}

namespace {

// What RunLaunches carries from one launch to the next.
struct LaunchChain {
  std::vector<std::shared_ptr<BlockRun>> runs;
  bool stop_on_failure = false;
  AiCorePool* pool = nullptr;
  size_t max_block_times = 0;
  std::function<void(BlockRunResult)> done;
  size_t next = 0;
  BlockRunResult result;
};

// Runs the chain's next launch, or reports once none is left to run. Called
// again from the last block of each launch.
void RunNextLaunch(std::shared_ptr<LaunchChain> chain) {
  const bool stopped = chain->stop_on_failure && !chain->result.status.ok();
  if (chain->next == chain->runs.size() || stopped) {
    // Taken out of the chain: what `done` captures goes when this call ends.
    std::function<void(BlockRunResult)> done = std::move(chain->done);
    done(std::move(chain->result));
    return;
  }
  const uint32_t launch = static_cast<uint32_t>(chain->next);
  std::shared_ptr<BlockRun> run = std::move(chain->runs[chain->next++]);
  const int64_t start = MonotonicNanos();
  AiCorePool* pool = chain->pool;
  RunBlocks(std::move(run), pool, [chain = std::move(chain), start, launch](BlockRunResult r) {
    BlockRunResult& all = chain->result;
    if (all.status.ok() && !r.status.ok()) {
      all.status = std::move(r.status);
      all.failed_launch = launch;
    }
    all.float_overflow |= r.float_overflow;
    all.output += r.output;
    for (BlockTime& time : r.block_times) {
      if (all.block_times.size() == chain->max_block_times) break;
      time.launch = launch;
      all.block_times.push_back(time);
    }
    all.launch_times.emplace_back(start, MonotonicNanos());
    RunNextLaunch(chain);
  });
}

}  // namespace

void RunLaunches(std::vector<std::shared_ptr<BlockRun>> runs, bool stop_on_failure,
                 AiCorePool* pool, size_t max_block_times,
                 std::function<void(BlockRunResult)> done) {
  auto chain = std::make_shared<LaunchChain>();
  chain->runs = std::move(runs);
  chain->stop_on_failure = stop_on_failure;
  chain->pool = pool;
  chain->max_block_times = max_block_times;
  chain->done = std::move(done);
  RunNextLaunch(std::move(chain));
}

void RunBlocks(std::shared_ptr<BlockRun> run, AiCorePool* pool,
               std::function<void(BlockRunResult)> done) {
  auto state = std::make_shared<RunState>();
  const uint32_t blocks = run->block_dim;
  state->run = std::move(run);
  state->pool = pool;
  state->done = std::move(done);
  state->remaining.store(blocks);
  {
    absl::MutexLock lock(&state->mu);
    state->output.resize(blocks);
    if (state->run->time_blocks) state->times.resize(blocks);
  }
  const uint32_t workers = std::min<uint32_t>(blocks, static_cast<uint32_t>(pool->cores()));
  for (uint32_t i = 0; i < workers; ++i) {
    pool->Submit([state](const CoreSlot& core) { Work(state, core); });
  }
}

}  // namespace npud::sim
