#include "client/core/task_abort.h"

#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/client_log.h"
#include "client/core/daemon_calls.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// aclrtDeviceTaskAbortStage values.
constexpr int kPre = 0;
constexpr int kPost = 1;

struct Callbacks {
  absl::Mutex mu;
  // By name: called in name order.
  absl::btree_map<std::string, TaskAbortCallback> by_name ABSL_GUARDED_BY(mu);
};

// Never destroyed: callbacks may be removed in static destructors.
Callbacks& Registered() {
  static auto* callbacks = new Callbacks();
  return *callbacks;
}

void RunCallbacks(int32_t device, int stage, uint32_t timeout_ms) {
  std::vector<std::pair<std::string, TaskAbortCallback>> callbacks;
  {
    Callbacks& registered = Registered();
    absl::MutexLock lock(&registered.mu);
    callbacks.assign(registered.by_name.begin(), registered.by_name.end());
  }
  for (const auto& [name, fn] : callbacks) {
    if (const int32_t result = fn(device, stage, timeout_ms); result != 0) {
      ClientLog().warn("device task abort callback '{}' returned {}", name, result);
    }
  }
}

}  // namespace

absl::Status AbortStream(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  call.mutable_abort_stream()->set_stream_id(target.id);
  return CallDaemon(std::move(call)).status();
}

absl::Status AbortDeviceTasks(int32_t device, uint32_t timeout_ms) {
  RunCallbacks(device, kPre, timeout_ms);
  v1::Call call;
  call.mutable_abort_device()->set_device_id(device);
  call.mutable_abort_device()->set_timeout_ms(timeout_ms);
  absl::Status aborted = CallDaemon(std::move(call)).status();
  RunCallbacks(device, kPost, timeout_ms);
  return aborted;
}

absl::Status SetTaskAbortCallback(const std::string& name, TaskAbortCallback fn) {
  if (name.empty()) return AclError(kAclInvalidParam, "the callback needs a name");
  Callbacks& registered = Registered();
  absl::MutexLock lock(&registered.mu);
  if (fn == nullptr) {
    registered.by_name.erase(name);
    return absl::OkStatus();
  }
  if (!registered.by_name.try_emplace(name, std::move(fn)).second) {
    return AclError(
        kAclInvalidParam,
        absl::StrFormat("a device task abort callback '%s' is registered already", name));
  }
  return absl::OkStatus();
}

}  // namespace npud::client
