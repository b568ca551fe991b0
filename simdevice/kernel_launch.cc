#include "simdevice/kernel_launch.h"

#include <utility>

#include "simdevice/kernel_blocks.h"

namespace npud::sim {
namespace {

// The in-process launch: the blocks run on this process's AI cores.
class KernelLaunchTask final : public Task {
 public:
  KernelLaunchTask(LaunchSpec spec, AiCorePool* pool)
      : spec_(std::move(spec)), pool_(pool), run_(NewBlockRun(*spec_.module, spec_.kernel)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!started_) {
      started_ = true;
      if (spec_.args_source) {
        *status = ReadDeviceArgs(*spec_.args_source, run_->args_size, &spec_.args);
        if (!status->ok()) return Progress::kDone;
      }
      run_->block_dim = spec_.block_dim;
      run_->ub_bytes = spec_.ub_bytes;
      run_->device_id = spec_.device_id;
      run_->stream_id = spec_.stream_id;
      run_->time_blocks = spec_.observer != nullptr && spec_.observer->TimeBlocks();
      run_->args = std::move(spec_.args);
      ResolvePlaceholders(&run_->args, spec_.placeholders);
      spec_.args.clear();
      // The module stays loaded until the blocks are done: the callback
      // holds it.
      RunBlocks(run_, pool_, [answer = answer_, module = spec_.module, wake](BlockRunResult r) {
        answer->Set(std::move(r));
        wake();
      });
      return Progress::kPending;
    }
    BlockRunResult result;
    if (!answer_->Take(&result)) return Progress::kPending;
    if (spec_.observer != nullptr) {
      if (!result.output.empty()) spec_.observer->Print(spec_.stream_id, std::move(result.output));
      if (result.float_overflow) spec_.observer->FloatOverflow(spec_.device_id);
    }
    block_times_ = std::move(result.block_times);
    *status = std::move(result.status);
    return Progress::kDone;
  }

  void Cancel(const absl::Status&) override { run_->cancelled.store(true); }
  const char* name() const override { return "kernel-launch"; }
  TaskKind kind() const override { return TaskKind::kKernel; }
  std::optional<Launch> FailedLaunch() const override {
    return Launch{spec_.binary_id, static_cast<uint32_t>(spec_.kernel), run_->args};
  }
  void Spans(int64_t start_ns, int64_t end_ns, std::vector<TaskSpan>* out) const override {
    TaskSpan kernel{spec_.module->kernels()[spec_.kernel].name,
                    TaskKind::kKernel,
                    start_ns,
                    end_ns,
                    0,
                    spec_.block_dim};
    kernel.has_blocks = run_->time_blocks;
    kernel.kernel_type = spec_.module->kernels()[spec_.kernel].kernel_type;
    out->push_back(kernel);
    AppendBlockSpans(kernel, 0, block_times_, out);
  }

 private:
  LaunchSpec spec_;
  AiCorePool* const pool_;
  const std::shared_ptr<BlockRun> run_;
  const std::shared_ptr<LaunchAnswer> answer_ = std::make_shared<LaunchAnswer>();
  std::vector<BlockTime> block_times_;
  bool started_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeKernelLaunchTask(LaunchSpec spec, AiCorePool* pool) {
  return std::make_unique<KernelLaunchTask>(std::move(spec), pool);
}

}  // namespace npud::sim
