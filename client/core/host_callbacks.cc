#include "client/core/host_callbacks.h"

#include <pthread.h>

#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "client/core/daemon_calls.h"
#include "client/core/model_ops.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

const char* Family(HostCallbacks::Kind kind) {
  return kind == HostCallbacks::Kind::kReport ? "report" : "host function";
}

uint64_t ThisThreadId() { return static_cast<uint64_t>(pthread_self()); }

// Tells npud that callback `id` has run. Sent at once: a blocking
// callback's stream waits for it.
void Answer(uint64_t id) {
  v1::Call call;
  call.mutable_host_callback_done()->set_callback_id(id);
  // To the daemon whose stream launched it.
  auto target = Runtime::Get().Route(call);
  if (!target.ok()) return;
  target->session->Flush(&call);
}

}  // namespace

HostCallbacks& HostCallbacks::Get() {
  static auto* callbacks = new HostCallbacks();
  return *callbacks;
}

absl::Status HostCallbacks::Subscribe(Kind kind, uint64_t thread_id, uint64_t stream_id,
                                      int32_t device) {
  absl::MutexLock lock(&mu_);
  for (const auto& [id, other] : streams_) {
    const std::optional<uint64_t>& thread =
        kind == Kind::kReport ? other.report_thread : other.host_func_thread;
    if (thread == thread_id && other.device != device) {
      return AclError(kRtThreadSubscribe,
                      absl::StrFormat("thread %d already serves streams of device %d", thread_id,
                                      other.device));
    }
  }
  Subscription& sub = streams_[stream_id];
  if (!sub.report_thread && !sub.host_func_thread && !sub.runtime_thread) sub.device = device;
  std::optional<uint64_t>& slot = kind == Kind::kReport ? sub.report_thread : sub.host_func_thread;
  if (slot.has_value()) {
    return AclError(kRtStreamSubscribe, absl::StrFormat("stream %d already has a %s thread (%d)",
                                                        stream_id, Family(kind), *slot));
  }
  if (kind == Kind::kReport && sub.runtime_thread) {
    return AclError(kRtStreamSubscribe,
                    absl::StrFormat("stream %d runs host functions in the runtime's thread "
                                    "(aclrtLaunchHostFunc) and cannot take a report thread",
                                    stream_id));
  }
  slot = thread_id;
  return absl::OkStatus();
}

absl::Status HostCallbacks::Unsubscribe(Kind kind, uint64_t thread_id, uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  auto it = streams_.find(stream_id);
  std::optional<uint64_t>* slot = nullptr;
  if (it != streams_.end()) {
    slot = kind == Kind::kReport ? &it->second.report_thread : &it->second.host_func_thread;
  }
  if (slot == nullptr || !slot->has_value()) {
    return AclError(kRtStreamSubscribe,
                    absl::StrFormat("stream %d has no %s thread", stream_id, Family(kind)));
  }
  if (**slot != thread_id) {
    return AclError(kRtThreadSubscribe, absl::StrFormat("stream %d is served by thread %d, not %d",
                                                        stream_id, **slot, thread_id));
  }
  slot->reset();
  return absl::OkStatus();
}

absl::Status HostCallbacks::Launch(Kind kind, uint64_t stream_id, std::function<void()> fn,
                                   bool blocking) {
  if (StreamCaptures(stream_id)) {
    return AclError(kRtFeatureNotSupport, "host callbacks cannot be captured into a model");
  }
  uint64_t id = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = streams_.find(stream_id);
    std::pair<Kind, uint64_t> runner{kind, kRuntimeThread};
    if (kind == Kind::kReport) {
      if (it == streams_.end() || !it->second.report_thread) {
        if (it != streams_.end() && it->second.runtime_thread) {
          return AclError(kRtStreamSubscribe,
                          absl::StrFormat("stream %d runs host functions (aclrtLaunchHostFunc); "
                                          "aclrtLaunchCallback cannot be mixed with them",
                                          stream_id));
        }
        return AclError(kRtStreamNoCbReg, absl::StrFormat("stream %d has no callback thread; call "
                                                          "aclrtSubscribeReport first",
                                                          stream_id));
      }
      runner.second = *it->second.report_thread;
    } else if (it != streams_.end() && it->second.host_func_thread) {
      runner.second = *it->second.host_func_thread;
    } else if (it != streams_.end() && it->second.report_thread) {
      return AclError(kRtStreamSubscribe,
                      absl::StrFormat("stream %d has a report thread (aclrtSubscribeReport); "
                                      "aclrtLaunchHostFunc cannot be mixed with it",
                                      stream_id));
    } else {
      streams_[stream_id].runtime_thread = true;
      if (!runtime_thread_) runtime_thread_.emplace([this] { RuntimeThreadLoop(); });
    }
    id = next_id_++;
    pending_[id] = Pending{std::move(fn), runner};
  }
  v1::Call call;
  v1::LaunchHostCallback* launch = call.mutable_launch_host_callback();
  launch->set_stream_id(stream_id);
  launch->set_callback_id(id);
  launch->set_blocking(blocking);
  absl::Status posted = PostToDaemon(std::move(call));
  if (!posted.ok()) {
    absl::MutexLock lock(&mu_);
    pending_.erase(id);
  }
  return posted;
}

bool HostCallbacks::ServesStreamLocked(std::pair<Kind, uint64_t> runner, uint64_t stream_id) const {
  if (runner.second == kRuntimeThread) return true;
  auto it = streams_.find(stream_id);
  if (it == streams_.end()) return false;
  return (runner.first == Kind::kReport ? it->second.report_thread : it->second.host_func_thread) ==
         runner.second;
}

bool HostCallbacks::ServesLocked(Kind kind, uint64_t thread_id) const {
  for (const auto& [id, sub] : streams_) {
    if ((kind == Kind::kReport ? sub.report_thread : sub.host_func_thread) == thread_id) {
      return true;
    }
  }
  return false;
}

std::deque<uint64_t> HostCallbacks::TakeDueLocked(std::pair<Kind, uint64_t> runner,
                                                  absl::Time deadline) {
  auto ready = [this, runner]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = due_.find(runner);
    return it != due_.end() && !it->second.empty();
  };
  mu_.AwaitWithDeadline(absl::Condition(&ready), deadline);
  std::deque<uint64_t> ids;
  if (auto it = due_.find(runner); it != due_.end()) ids.swap(it->second);
  return ids;
}

absl::Status HostCallbacks::Process(Kind kind, int32_t timeout_ms) {
  const uint64_t self = ThisThreadId();
  const absl::Time deadline =
      timeout_ms < 0 ? absl::InfiniteFuture() : absl::Now() + absl::Milliseconds(timeout_ms);
  std::deque<uint64_t> ids;
  {
    absl::MutexLock lock(&mu_);
    // A thread whose streams have gone still runs what was due for them.
    auto queued = due_.find({kind, self});
    if (!ServesLocked(kind, self) && (queued == due_.end() || queued->second.empty())) {
      return AclError(
          kRtThreadSubscribe,
          absl::StrFormat("this thread (%d) serves no stream's %s callbacks", self, Family(kind)));
    }
    ids = TakeDueLocked({kind, self}, deadline);
  }
  if (ids.empty()) {
    return AclError(kRtReportTimeout,
                    absl::StrFormat("no %s callback came within %d ms", Family(kind), timeout_ms));
  }
  RunAndAnswer(ids);
  return absl::OkStatus();
}

void HostCallbacks::RunAndAnswer(const std::deque<uint64_t>& ids) {
  for (uint64_t id : ids) {
    std::function<void()> fn;
    {
      absl::MutexLock lock(&mu_);
      auto it = pending_.find(id);
      if (it == pending_.end()) continue;
      fn = std::move(it->second.fn);
      pending_.erase(it);
    }
    fn();
    Answer(id);
  }
}

void HostCallbacks::RuntimeThreadLoop() {
  for (;;) {
    std::deque<uint64_t> ids;
    {
      absl::MutexLock lock(&mu_);
      ids = TakeDueLocked({Kind::kHostFunc, kRuntimeThread}, absl::InfiniteFuture());
    }
    RunAndAnswer(ids);
  }
}

void HostCallbacks::OnDue(const v1::HostCallbackDue& due) {
  absl::MutexLock lock(&mu_);
  auto it = pending_.find(due.callback_id());
  if (it == pending_.end() || it->second.due) {
    spdlog::warn("npud announced unknown host callback {}", due.callback_id());
    return;
  }
  if (due.dropped()) {
    SPDLOG_DEBUG("host callback {} of stream {} dropped", due.callback_id(), due.stream_id());
    pending_.erase(it);
    return;
  }
  it->second.due = true;
  std::pair<Kind, uint64_t>& runner = it->second.runner;
  if (!ServesStreamLocked(runner, due.stream_id())) {
    // Its thread unsubscribed after the launch: the stream's thread now
    // runs it, or, with none, it is dropped. Its answer must still reach
    // npud, or a blocking callback would hold the stream for ever, so the
    // runtime's thread answers for it (this thread never sends).
    auto sub = streams_.find(due.stream_id());
    const std::optional<uint64_t> now =
        sub == streams_.end() ? std::nullopt
                              : (runner.first == Kind::kReport ? sub->second.report_thread
                                                               : sub->second.host_func_thread);
    if (now.has_value()) {
      runner.second = *now;
    } else {
      spdlog::warn("{} callback {} of stream {} dropped: thread {} unsubscribed before it was due",
                   Family(runner.first), due.callback_id(), due.stream_id(), runner.second);
      it->second.fn = [] {};
      runner = {Kind::kHostFunc, kRuntimeThread};
      if (!runtime_thread_) runtime_thread_.emplace([this] { RuntimeThreadLoop(); });
    }
  }
  due_[runner].push_back(due.callback_id());
}

void HostCallbacks::ForgetStream(uint64_t stream_id) {
  absl::MutexLock lock(&mu_);
  streams_.erase(stream_id);
}

}  // namespace npud::client
