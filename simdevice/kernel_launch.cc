#include "simdevice/kernel_launch.h"

#include <optional>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"
#include "simdevice/kernel_blocks.h"

namespace npud::sim {
namespace {

// The in-process launch: the blocks run on this process's AI cores.
class KernelLaunchTask final : public Task {
 public:
  KernelLaunchTask(LaunchSpec spec, AiCorePool* pool)
      : spec_(std::move(spec)), pool_(pool), run_(std::make_shared<BlockRun>()) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!started_) {
      started_ = true;
      const KernelInfo& kernel = spec_.module->kernels()[spec_.kernel];
      if (spec_.args_source) {
        spec_.args.assign(reinterpret_cast<const char*>(spec_.args_source->data()),
                          spec_.args_source->size);
        if (spec_.args.size() < kernel.args_size) {
          *status = AclError(kRtParamInvalid, "device arguments shorter than the kernel's");
          return Progress::kDone;
        }
      }
      run_->entry = kernel.entry;
      run_->kernel_name = kernel.name;
      run_->label = spec_.module->label();
      run_->kernel_type = kernel.kernel_type;
      run_->args_size = kernel.args_size;
      run_->block_dim = spec_.block_dim;
      run_->ub_bytes = spec_.ub_bytes;
      run_->device_id = spec_.device_id;
      run_->stream_id = spec_.stream_id;
      run_->args = std::move(spec_.args);
      ResolvePlaceholders(&run_->args, spec_.placeholders);
      // The module stays loaded until the blocks are done: the callback
      // holds it.
      RunBlocks(run_, pool_, [slot = result_, module = spec_.module, wake](BlockRunResult r) {
        slot->Set(std::move(r));
        wake();
      });
      return Progress::kPending;
    }
    std::optional<BlockRunResult> result = result_->Take();
    if (!result) return Progress::kPending;
    if (!result->output.empty() && spec_.print) spec_.print(std::move(result->output));
    *status = std::move(result->status);
    return Progress::kDone;
  }

  void Cancel(const absl::Status&) override { run_->cancelled.store(true); }
  const char* name() const override { return "kernel-launch"; }

 private:
  // Where the last block leaves the outcome; shared with the blocks, so a
  // task dropped by force-destroy cannot pull it from under them.
  class ResultSlot {
   public:
    void Set(BlockRunResult result) ABSL_LOCKS_EXCLUDED(mu_) {
      absl::MutexLock lock(&mu_);
      result_ = std::move(result);
    }
    std::optional<BlockRunResult> Take() ABSL_LOCKS_EXCLUDED(mu_) {
      absl::MutexLock lock(&mu_);
      return std::exchange(result_, std::nullopt);
    }

   private:
    absl::Mutex mu_;
    std::optional<BlockRunResult> result_ ABSL_GUARDED_BY(mu_);
  };

  LaunchSpec spec_;
  AiCorePool* const pool_;
  const std::shared_ptr<BlockRun> run_;
  const std::shared_ptr<ResultSlot> result_ = std::make_shared<ResultSlot>();
  bool started_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeKernelLaunchTask(LaunchSpec spec, AiCorePool* pool) {
  return std::make_unique<KernelLaunchTask>(std::move(spec), pool);
}

}  // namespace npud::sim
