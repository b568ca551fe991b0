#include "client/core/host_trace.h"

#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {
namespace {

struct Log {
  absl::Mutex mu;
  std::vector<HostCall> calls ABSL_GUARDED_BY(mu);
  uint64_t dropped ABSL_GUARDED_BY(mu) = 0;
};

// Never destroyed: ACL calls may come from static destructors.
Log& TheLog() {
  static Log* log = new Log();
  return *log;
}

int ThisThread() {
  static std::atomic<int> next{1};
  thread_local const int id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}

}  // namespace

std::atomic<bool> HostCallLog::recording_{false};

void HostCallLog::Start() {
  Log& log = TheLog();
  absl::MutexLock lock(&log.mu);
  log.calls.clear();
  log.dropped = 0;
  recording_.store(true, std::memory_order_relaxed);
}

std::vector<HostCall> HostCallLog::Stop(uint64_t* dropped) {
  Log& log = TheLog();
  absl::MutexLock lock(&log.mu);
  recording_.store(false, std::memory_order_relaxed);
  *dropped = std::exchange(log.dropped, 0);
  return std::exchange(log.calls, {});
}

void HostCallLog::Record(const char* name, int64_t start_ns, int64_t end_ns) noexcept {
  const int thread = ThisThread();
  Log& log = TheLog();
  absl::MutexLock lock(&log.mu);
  if (!recording_.load(std::memory_order_relaxed)) return;  // stopped meanwhile
  if (log.calls.size() >= kMaxCalls) {
    ++log.dropped;
    return;
  }
  try {
    log.calls.push_back(HostCall{name, thread, start_ns, end_ns});
  } catch (...) {  // out of memory: an ACL call must not fail for its trace
    ++log.dropped;
  }
}

}  // namespace npud::client
