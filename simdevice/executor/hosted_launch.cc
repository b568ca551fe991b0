#include "simdevice/executor/hosted_launch.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "simdevice/kernel_blocks.h"

namespace npud::sim {
namespace {

// Argument bytes one batch takes at most.
constexpr size_t kMaxBatchArgBytes = 1 << 20;

class HostedLaunchTask final : public Task {
 public:
  explicit HostedLaunchTask(HostedLaunchSpec spec)
      : spec_(std::move(spec)),
        stream_id_(spec_.launch.stream_id),
        device_id_(spec_.launch.device_id),
        arg_bytes_(spec_.launch.args.size()) {}

  bool Absorb(std::unique_ptr<Task>& next) override {
    auto* other = dynamic_cast<HostedLaunchTask*>(next.get());
    if (other == nullptr || sent_ || other->spec_.host != spec_.host || spec_.args_source ||
        other->spec_.args_source || other->spec_.stop_on_failure != spec_.stop_on_failure ||
        other->spec_.observer != spec_.observer || 1 + batch_.size() >= host::kMaxBatchLaunches ||
        arg_bytes_ + other->spec_.launch.args.size() > kMaxBatchArgBytes) {
      return false;
    }
    arg_bytes_ += other->spec_.launch.args.size();
    batch_.push_back(std::move(other->spec_.launch));
    if (other->spec_.keep_alive != spec_.keep_alive) {
      kept_.push_back(std::move(other->spec_.keep_alive));
    }
    next.reset();
    return true;
  }

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!sent_) {
      sent_ = true;
      if (spec_.args_source) {
        *status = ReadDeviceArgs(*spec_.args_source, spec_.min_args_size, &spec_.launch.args);
        spec_.args_source.reset();
        if (!status->ok()) return Progress::kDone;
      }
      batch_.insert(batch_.begin(), std::move(spec_.launch));
      const bool time_blocks = spec_.observer != nullptr && spec_.observer->TimeBlocks();
      for (HostedLaunch& launch : batch_) launch.time_blocks = time_blocks;
      spec_.host->Launch(batch_, spec_.stop_on_failure, [answer = answer_, wake](BlockRunResult r) {
        answer->Set(std::move(r));
        wake();
      });
      return Progress::kPending;
    }
    BlockRunResult result;
    if (!answer_->Take(&result)) return Progress::kPending;
    if (spec_.observer != nullptr) {
      if (!result.output.empty()) spec_.observer->Print(stream_id_, std::move(result.output));
      if (result.float_overflow) spec_.observer->FloatOverflow(device_id_);
    }
    times_ = std::move(result.launch_times);
    block_times_ = std::move(result.block_times);
    failed_launch_ = result.failed_launch;
    *status = std::move(result.status);
    return Progress::kDone;
  }

  // Sending is one write to the host; reading arguments from device memory
  // first is left to a worker.
  bool StartsQuickly() const override { return !sent_ && !spec_.args_source; }

  // A launch already sent runs to its end (as on the device); one not yet
  // sent never is.
  void Cancel(const absl::Status&) override {}
  const char* name() const override { return "kernel-launch"; }
  TaskKind kind() const override { return TaskKind::kKernel; }
  // The host says which launch of the batch failed; one that died or timed
  // out says nothing, and the first launch not known to have finished is
  // taken.
  std::optional<Launch> FailedLaunch() const override {
    const size_t index = times_.empty() ? 0 : failed_launch_;
    if (!sent_ || index >= batch_.size()) return std::nullopt;
    const HostedLaunch& launch = batch_[index];
    return Launch{launch.binary_id, launch.kernel, launch.args};
  }

  // One span per launch that ran, at the times the host reports, kept
  // inside the task's own time: a host runs client code and may lie. Each
  // is followed by its blocks' spans where the launch asked for them.
  void Spans(int64_t start_ns, int64_t end_ns, std::vector<TaskSpan>* out) const override {
    if (!sent_ || batch_.empty()) return;
    if (times_.empty()) {  // the host died or timed out under it
      out->push_back(SpanOf(batch_.front(), start_ns, end_ns));
      return;
    }
    int64_t at = start_ns;
    for (size_t i = 0; i < times_.size() && i < batch_.size(); ++i) {
      const int64_t start = std::clamp(times_[i].first, at, end_ns);
      TaskSpan span = SpanOf(batch_[i], start, std::clamp(times_[i].second, start, end_ns));
      at = span.end_ns;
      out->push_back(span);
      AppendBlockSpans(span, static_cast<uint32_t>(i), block_times_, out);
    }
  }

 private:
  static TaskSpan SpanOf(const HostedLaunch& launch, int64_t start_ns, int64_t end_ns) {
    TaskSpan span{launch.kernel_name, TaskKind::kKernel, start_ns, end_ns, 0, launch.block_dim};
    span.has_blocks = launch.time_blocks;
    span.kernel_type = launch.kernel_type;
    return span;
  }

  HostedLaunchSpec spec_;
  const uint64_t stream_id_;
  const int device_id_;
  // Before sending: the launches absorbed after spec_.launch. From sending
  // on: every launch sent, in order (for reports).
  std::vector<HostedLaunch> batch_;
  // What the absorbed launches keep alive (where it differs from
  // spec_.keep_alive).
  std::vector<std::shared_ptr<const void>> kept_;
  size_t arg_bytes_ = 0;
  // The times the launches ran, as the host reports them.
  std::vector<std::pair<int64_t, int64_t>> times_;
  std::vector<BlockTime> block_times_;
  uint32_t failed_launch_ = 0;
  const std::shared_ptr<LaunchAnswer> answer_ = std::make_shared<LaunchAnswer>();
  bool sent_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeHostedLaunchTask(HostedLaunchSpec spec) {
  return std::make_unique<HostedLaunchTask>(std::move(spec));
}

}  // namespace npud::sim
