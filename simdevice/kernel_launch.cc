#include "simdevice/kernel_launch.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"
#include "spdlog/spdlog.h"

namespace npud::sim {
namespace {

// Thrown by the trap callback; caught around the kernel entry (see the
// unwinding contract in npud_kernel_abi.h).
struct KernelTrap {
  uint32_t kind;
  std::string message;
};

// What the blocks of one launch share. Held by the task and by every queued
// block, so a task dropped by force-destroy cannot pull it from under them.
struct LaunchState {
  LaunchSpec spec;
  std::atomic<uint32_t> remaining{0};
  // Set once the stream has been told to wait (first Run()).
  Waker wake;
  absl::Mutex mu;
  absl::Status error ABSL_GUARDED_BY(mu);
  std::vector<std::string> output ABSL_GUARDED_BY(mu);
  std::atomic<bool> cancelled{false};

  const KernelInfo& kernel() const { return spec.module->kernels()[spec.kernel]; }

  AclCode ExceptionCode() const {
    return kernel().kernel_type == NPUD_CORE_TYPE_VECTOR ? kRtVectorCoreException
                                                         : kRtAicoreException;
  }

  void Fail(uint32_t block, const std::string& what) ABSL_LOCKS_EXCLUDED(mu) {
    const std::string message =
        absl::StrFormat("kernel '%s' (%s) block %d on device %d stream %d: %s", kernel().name,
                        spec.module->label(), block, spec.device_id, spec.stream_id, what);
    spdlog::error("device exception: {}", message);
    absl::MutexLock lock(&mu);
    if (error.ok()) error = AclError(ExceptionCode(), message);
  }
};

// One block's view of the launch, reached through NpudBlockContext::host.
struct BlockHost {
  LaunchState* launch;
  uint32_t block;
  std::string output;
};

void PrintCallback(void* host, const char* text, size_t length) {
  static_cast<BlockHost*>(host)->output.append(text, length);
}

void TrapCallback(void* /*host*/, uint32_t kind, const char* message) {
  throw KernelTrap{kind, message != nullptr ? message : ""};
}

void RunBlock(const std::shared_ptr<LaunchState>& launch, uint32_t block, const CoreSlot& core) {
  BlockHost host{launch.get(), block, {}};
  if (!launch->cancelled.load()) {
    const KernelInfo& kernel = launch->kernel();
    NpudBlockContext context{};
    context.abi_version = NPUD_KERNEL_ABI_VERSION;
    context.block_idx = block;
    context.block_num = launch->spec.block_dim;
    context.core_type = kernel.kernel_type;
    context.ub_base = core.ub;
    context.ub_size = std::min(core.ub_size, launch->spec.ub_bytes);
    context.host = &host;
    context.print = PrintCallback;
    context.trap = TrapCallback;
    std::string failure;
    KernelFault fault;
    const bool returned = RunGuardedBlock(
        [&] {
          try {
            const int rc = kernel.entry(&context, launch->spec.args.data(), kernel.args_size);
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
      failure =
          absl::StrFormat("%s at address %#x",
                          fault.signal == SIGBUS ? "bus error" : "memory fault", fault.address);
    }
    if (!failure.empty()) launch->Fail(block, failure);
  }
  {
    absl::MutexLock lock(&launch->mu);
    launch->output[block] = std::move(host.output);
  }
  if (launch->remaining.fetch_sub(1) == 1) launch->wake();
}

class KernelLaunchTask final : public Task {
 public:
  KernelLaunchTask(LaunchSpec spec, AiCorePool* pool)
      : state_(std::make_shared<LaunchState>()), pool_(pool) {
    state_->spec = std::move(spec);
    // The arguments stay where they are now until the launch is gone.
    std::string& args = state_->spec.args;
    for (const auto& [slot, data] : state_->spec.placeholders) {
      const uint64_t address = reinterpret_cast<uint64_t>(args.data() + data);
      std::memcpy(args.data() + slot, &address, sizeof(address));
    }
    absl::MutexLock lock(&state_->mu);
    state_->output.resize(state_->spec.block_dim);
  }

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!started_) {
      started_ = true;
      if (const auto& source = state_->spec.args_source) {
        state_->spec.args.assign(reinterpret_cast<const char*>(source->data()), source->size);
        if (state_->spec.args.size() < state_->kernel().args_size) {
          *status = AclError(kRtParamInvalid, "device arguments shorter than the kernel's");
          return Progress::kDone;
        }
      }
      state_->wake = wake;
      state_->remaining.store(state_->spec.block_dim);
      for (uint32_t block = 0; block < state_->spec.block_dim; ++block) {
        std::shared_ptr<LaunchState> state = state_;
        pool_->Submit([state, block](const CoreSlot& core) { RunBlock(state, block, core); });
      }
      return Progress::kPending;
    }
    if (state_->remaining.load() != 0) return Progress::kPending;
    std::string text;
    {
      absl::MutexLock lock(&state_->mu);
      for (const std::string& block_output : state_->output) text += block_output;
      *status = state_->error;
    }
    if (!text.empty() && state_->spec.print) state_->spec.print(std::move(text));
    return Progress::kDone;
  }

  void Cancel(const absl::Status&) override { state_->cancelled.store(true); }
  const char* name() const override { return "kernel-launch"; }

 private:
  const std::shared_ptr<LaunchState> state_;
  AiCorePool* const pool_;
  bool started_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeKernelLaunchTask(LaunchSpec spec, AiCorePool* pool) {
  return std::make_unique<KernelLaunchTask>(std::move(spec), pool);
}

}  // namespace npud::sim
