#include "client/core/exception_callbacks.h"

#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

struct ExceptionCallbackRegistry {
  absl::Mutex mu;
  absl::flat_hash_map<uint64_t, ExceptionFn> fns ABSL_GUARDED_BY(mu);
};

// Never destroyed: failures may arrive while static destructors run.
ExceptionCallbackRegistry& ExceptionCallbacks() {
  static auto* registry = new ExceptionCallbackRegistry();
  return *registry;
}

}  // namespace

void SetExceptionCallback(uint64_t key, ExceptionFn fn) {
  ExceptionCallbackRegistry& registry = ExceptionCallbacks();
  absl::MutexLock lock(&registry.mu);
  if (fn) {
    registry.fns[key] = std::move(fn);
  } else {
    registry.fns.erase(key);
  }
}

void ReportTaskFailure(const v1::TaskFailed& failed) {
  SPDLOG_DEBUG("task {} ({}) of stream {} on device {} failed: {} ({})", failed.task_id(),
               failed.task(), failed.stream_id(), failed.device_id(), failed.message(),
               failed.acl_error());
  TaskFailure failure;
  failure.task_id = failed.task_id();
  failure.stream_id = static_cast<uint32_t>(failed.stream_id());
  failure.device_id = static_cast<uint32_t>(failed.device_id());
  failure.error_code = static_cast<uint32_t>(failed.acl_error());
  failure.binary_id = failed.binary_id();
  failure.kernel_index = failed.kernel_index();
  failure.args_address = failed.args_address();
  failure.args_size = failed.args_size();
  // Copied, so that a callback may register or unregister.
  std::vector<ExceptionFn> fns;
  {
    ExceptionCallbackRegistry& registry = ExceptionCallbacks();
    absl::MutexLock lock(&registry.mu);
    for (const auto& [key, fn] : registry.fns) fns.push_back(fn);
  }
  for (const ExceptionFn& fn : fns) fn(failure);
}

}  // namespace npud::client
