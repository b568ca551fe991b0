#include "simdevice/kernel_blocks.h"

#include <signal.h>

#include <algorithm>
#include <cfenv>
#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "common/monotonic_clock.h"
#include "spdlog/spdlog.h"

namespace npud::sim {
namespace {

// Thrown by the trap callback; caught around the kernel entry (see the
// unwinding contract in npud_kernel_abi.h).
struct KernelTrap {
  uint32_t kind;
  std::string message;
};

// What the blocks of one launch share while they run.
struct RunState {
  std::shared_ptr<BlockRun> run;
  std::function<void(BlockRunResult)> done;
  std::atomic<uint32_t> remaining{0};
  // A block raised a floating-point overflow, invalid operation or division
  // by zero (the AI core's overflow status).
  std::atomic<bool> float_overflow{false};
  absl::Mutex mu;
  absl::Status error ABSL_GUARDED_BY(mu);
  std::vector<std::string> output ABSL_GUARDED_BY(mu);
  // With run->time_blocks, one per block; end_ns 0 for a block that did
  // not run.
  std::vector<BlockTime> times ABSL_GUARDED_BY(mu);

  void Fail(uint32_t block, const std::string& what) ABSL_LOCKS_EXCLUDED(mu) {
    const std::string message =
        absl::StrFormat("kernel '%s' (%s) block %d on device %d stream %d: %s", run->kernel_name,
                        run->label, block, run->device_id, run->stream_id, what);
    if (run->log_failures) spdlog::error("device exception: {}", message);
    absl::MutexLock lock(&mu);
    if (error.ok()) error = AclError(ExceptionCodeFor(run->kernel_type), message);
  }
};

// One block's view of the launch, reached through NpudBlockContext::host.
struct BlockHost {
  std::string output;
};

void PrintCallback(void* host, const char* text, size_t length) {
  static_cast<BlockHost*>(host)->output.append(text, length);
}

void TrapCallback(void* /*host*/, uint32_t kind, const char* message) {
  throw KernelTrap{kind, message != nullptr ? message : ""};
}

// Calls the entry for one block; returns what went wrong, or "".
std::string CallEntry(const BlockRun& run, uint32_t block, const CoreSlot& core, BlockHost* host) {
  NpudBlockContext context{};
  context.abi_version = NPUD_KERNEL_ABI_VERSION;
  context.block_idx = block;
  context.block_num = run.block_dim;
  context.core_type = run.kernel_type;
  context.ub_base = core.ub;
  context.ub_size = std::min(core.ub_size, run.ub_bytes);
  context.host = host;
  context.print = PrintCallback;
  context.trap = TrapCallback;
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
    failure = absl::StrFormat("%s at address %#x",
                              fault.signal == SIGBUS ? "bus error" : "memory fault", fault.address);
  }
  return failure;
}

void RunBlock(const std::shared_ptr<RunState>& state, uint32_t block, const CoreSlot& core) {
  BlockHost host;
  BlockTime time{0, block, static_cast<uint32_t>(core.core_id), 0, 0};
  if (!state->run->cancelled.load()) {
    // The CPU's sticky exception flags stand in for the core's overflow
    // status: cleared before the block, read after it on the same thread.
    constexpr int kOverflowFlags = FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO;
    std::feclearexcept(kOverflowFlags);
    time.start_ns = MonotonicNanos();
    const std::string failure = CallEntry(*state->run, block, core, &host);
    time.end_ns = MonotonicNanos();
    if (std::fetestexcept(kOverflowFlags) != 0) state->float_overflow.store(true);
    if (!failure.empty()) state->Fail(block, failure);
  }
  {
    absl::MutexLock lock(&state->mu);
    state->output[block] = std::move(host.output);
    if (state->run->time_blocks) state->times[block] = time;
  }
  if (state->remaining.fetch_sub(1) != 1) return;
  BlockRunResult result;
  {
    absl::MutexLock lock(&state->mu);
    for (const std::string& text : state->output) result.output += text;
    result.status = state->error;
    result.float_overflow = state->float_overflow.load();
    for (const BlockTime& time : state->times) {
      if (time.end_ns != 0) result.block_times.push_back(time);
    }
  }
  state->done(std::move(result));
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

void RunBlocks(std::shared_ptr<BlockRun> run, AiCorePool* pool,
               std::function<void(BlockRunResult)> done) {
  auto state = std::make_shared<RunState>();
  const uint32_t blocks = run->block_dim;
  state->run = std::move(run);
  state->done = std::move(done);
  state->remaining.store(blocks);
  {
    absl::MutexLock lock(&state->mu);
    state->output.resize(blocks);
    if (state->run->time_blocks) state->times.resize(blocks);
  }
  for (uint32_t block = 0; block < blocks; ++block) {
    pool->Submit([state, block](const CoreSlot& core) { RunBlock(state, block, core); });
  }
}

}  // namespace npud::sim
