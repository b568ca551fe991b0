#include "simdevice/executor/hosted_launch.h"

#include <utility>

#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"

namespace npud::sim {
namespace {

// Where the host's answer waits for the stream to come back to the task.
// Shared with the done callback, which may outlive a force-dropped task.
class Answer {
 public:
  void Set(absl::Status status, std::string output) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    status_ = std::move(status);
    output_ = std::move(output);
    done_ = true;
  }
  bool Take(absl::Status* status, std::string* output) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    if (!done_) return false;
    *status = std::move(status_);
    *output = std::move(output_);
    return true;
  }

 private:
  absl::Mutex mu_;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
  std::string output_ ABSL_GUARDED_BY(mu_);
};

class HostedLaunchTask final : public Task {
 public:
  explicit HostedLaunchTask(HostedLaunchSpec spec) : spec_(std::move(spec)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!sent_) {
      sent_ = true;
      if (spec_.args_source) {
        spec_.launch.args.assign(reinterpret_cast<const char*>(spec_.args_source->data()),
                                 spec_.args_source->size);
        spec_.args_source.reset();
        if (spec_.launch.args.size() < spec_.min_args_size) {
          *status = AclError(kRtParamInvalid, "device arguments shorter than the kernel's");
          return Progress::kDone;
        }
      }
      spec_.host->Launch(std::move(spec_.launch),
                         [answer = answer_, wake](absl::Status s, std::string output) {
                           answer->Set(std::move(s), std::move(output));
                           wake();
                         });
      return Progress::kPending;
    }
    std::string output;
    if (!answer_->Take(status, &output)) return Progress::kPending;
    if (!output.empty() && spec_.print) spec_.print(std::move(output));
    return Progress::kDone;
  }

  // A launch already sent runs to its end (as on the device); one not yet
  // sent never is.
  void Cancel(const absl::Status&) override {}
  const char* name() const override { return "kernel-launch"; }

 private:
  HostedLaunchSpec spec_;
  const std::shared_ptr<Answer> answer_ = std::make_shared<Answer>();
  bool sent_ = false;
};

}  // namespace

std::unique_ptr<Task> MakeHostedLaunchTask(HostedLaunchSpec spec) {
  return std::make_unique<HostedLaunchTask>(std::move(spec));
}

}  // namespace npud::sim
