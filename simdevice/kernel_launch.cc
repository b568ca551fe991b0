#include "simdevice/kernel_launch.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "simdevice/kernel_blocks.h"

namespace npud::sim {
namespace {

// Launches one task sends to the cores at most (the hosted batches' bound),
// and the block times it keeps (a kernel host's bound).
constexpr size_t kMaxBatchLaunches = 1024;
constexpr size_t kMaxBlockTimes = 1 << 16;

// The in-process launch: the blocks run on this process's AI cores.
// Launches queued back to back on a stream join the first one's batch
// (Absorb) and run one after the other without a round through the
// stream's worker in between, as a kernel host runs its batches.
class KernelLaunchTask final : public Task {
 public:
  KernelLaunchTask(LaunchSpec spec, bool stop_on_failure, AiCorePool* pool)
      : stop_on_failure_(stop_on_failure), pool_(pool) {
    Add(std::move(spec));
  }

  bool Absorb(std::unique_ptr<Task>& next) override {
    auto* other = dynamic_cast<KernelLaunchTask*>(next.get());
    if (other == nullptr || started_ || other->pool_ != pool_ ||
        other->stop_on_failure_ != stop_on_failure_ || other->launches_.size() != 1 ||
        launches_.size() >= kMaxBatchLaunches || launches_.front().spec.args_source ||
        other->launches_.front().spec.args_source ||
        other->launches_.front().spec.observer != launches_.front().spec.observer) {
      return false;
    }
    launches_.push_back(std::move(other->launches_.front()));
    next.reset();
    return true;
  }

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!started_) {
      started_ = true;
      const LaunchSpec& first = launches_.front().spec;
      const bool time_blocks = first.observer != nullptr && first.observer->TimeBlocks();
      std::vector<std::shared_ptr<BlockRun>> runs;
      std::vector<std::shared_ptr<const KernelModule>> modules;
      for (Item& launch : launches_) {
        LaunchSpec& spec = launch.spec;
        if (spec.args_source) {  // only ever a batch of one
          *status = ReadDeviceArgs(*spec.args_source, launch.run->args_size, &spec.args);
          if (!status->ok()) return Progress::kDone;
        }
        BlockRun& run = *launch.run;
        run.block_dim = spec.block_dim;
        run.ub_bytes = spec.ub_bytes;
        run.device_id = spec.device_id;
        run.stream_id = spec.stream_id;
        run.time_blocks = time_blocks;
        run.args = std::move(spec.args);
        ResolvePlaceholders(&run.args, spec.placeholders);
        spec.args.clear();
        runs.push_back(launch.run);
        modules.push_back(spec.module);
      }
      // The modules stay loaded until the blocks are done (the task may be
      // dropped before): the callback holds them.
      RunLaunches(std::move(runs), stop_on_failure_, pool_, kMaxBlockTimes,
                  [answer = answer_, modules = std::move(modules), wake](BlockRunResult r) {
                    answer->Set(std::move(r));
                    wake();
                  });
      return Progress::kPending;
    }
    BlockRunResult result;
    if (!answer_->Take(&result)) return Progress::kPending;
    const LaunchSpec& first = launches_.front().spec;
    if (first.observer != nullptr) {
      if (!result.output.empty()) first.observer->Print(first.stream_id, std::move(result.output));
      if (result.float_overflow) first.observer->FloatOverflow(first.device_id);
    }
    times_ = std::move(result.launch_times);
    block_times_ = std::move(result.block_times);
    failed_launch_ = result.failed_launch;
    *status = std::move(result.status);
    return Progress::kDone;
  }

  void Cancel(const absl::Status&) override {
    for (Item& launch : launches_) launch.run->cancelled.store(true);
  }
  const char* name() const override { return "kernel-launch"; }
  TaskKind kind() const override { return TaskKind::kKernel; }
  std::optional<Launch> FailedLaunch() const override {
    const size_t index = times_.empty() ? 0 : failed_launch_;
    if (index >= launches_.size()) return std::nullopt;
    const Item& launch = launches_[index];
    return Launch{launch.spec.binary_id, static_cast<uint32_t>(launch.spec.kernel),
                  launch.run->args};
  }
  // One span per launch that ran (each followed by its blocks' spans where
  // it timed them), or one for the first if none reported.
  void Spans(int64_t start_ns, int64_t end_ns, std::vector<TaskSpan>* out) const override {
    if (times_.empty()) {
      out->push_back(SpanOf(launches_.front(), start_ns, end_ns));
      return;
    }
    for (size_t i = 0; i < times_.size() && i < launches_.size(); ++i) {
      const int64_t start = std::clamp(times_[i].first, start_ns, end_ns);
      const TaskSpan span =
          SpanOf(launches_[i], start, std::clamp(times_[i].second, start, end_ns));
      out->push_back(span);
      AppendBlockSpans(span, static_cast<uint32_t>(i), block_times_, out);
    }
  }

 private:
  struct Item {
    LaunchSpec spec;
    std::shared_ptr<BlockRun> run;
  };

  void Add(LaunchSpec spec) {
    std::shared_ptr<BlockRun> run = NewBlockRun(*spec.module, spec.kernel);
    launches_.push_back(Item{std::move(spec), std::move(run)});
  }

  static TaskSpan SpanOf(const Item& launch, int64_t start_ns, int64_t end_ns) {
    const KernelInfo& kernel = launch.spec.module->kernels()[launch.spec.kernel];
    TaskSpan span{kernel.name, TaskKind::kKernel, start_ns, end_ns, 0, launch.spec.block_dim};
    span.has_blocks = launch.run->time_blocks;
    span.kernel_type = kernel.kernel_type;
    return span;
  }

  const bool stop_on_failure_;
  AiCorePool* const pool_;
  std::vector<Item> launches_;
  const std::shared_ptr<LaunchAnswer> answer_ = std::make_shared<LaunchAnswer>();
  std::vector<std::pair<int64_t, int64_t>> times_;
  std::vector<BlockTime> block_times_;
  uint32_t failed_launch_ = 0;
  bool started_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeKernelLaunchTask(LaunchSpec spec, bool stop_on_failure,
                                           AiCorePool* pool) {
  return std::make_unique<KernelLaunchTask>(std::move(spec), stop_on_failure, pool);
}

}  // namespace npud::sim
