#include "simdevice/executor/hosted_launch.h"

#include <utility>

#include "simdevice/kernel_blocks.h"

namespace npud::sim {
namespace {

class HostedLaunchTask final : public Task {
 public:
  explicit HostedLaunchTask(HostedLaunchSpec spec) : spec_(std::move(spec)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!sent_) {
      sent_ = true;
      if (spec_.args_source) {
        *status = ReadDeviceArgs(*spec_.args_source, spec_.min_args_size, &spec_.launch.args);
        spec_.args_source.reset();
        if (!status->ok()) return Progress::kDone;
      }
      spec_.host->Launch(std::move(spec_.launch), [answer = answer_, wake](BlockRunResult r) {
        answer->Set(std::move(r));
        wake();
      });
      return Progress::kPending;
    }
    BlockRunResult result;
    if (!answer_->Take(&result)) return Progress::kPending;
    if (!result.output.empty() && spec_.print) spec_.print(std::move(result.output));
    *status = std::move(result.status);
    return Progress::kDone;
  }

  // A launch already sent runs to its end (as on the device); one not yet
  // sent never is.
  void Cancel(const absl::Status&) override {}
  const char* name() const override { return "kernel-launch"; }

 private:
  HostedLaunchSpec spec_;
  const std::shared_ptr<LaunchAnswer> answer_ = std::make_shared<LaunchAnswer>();
  bool sent_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeHostedLaunchTask(HostedLaunchSpec spec) {
  return std::make_unique<HostedLaunchTask>(std::move(spec));
}

}  // namespace npud::sim
