#include "client/core/host_trace.h"

#include <utility>

namespace npud::client {

int TraceThread() {
  static std::atomic<int> next{1};
  thread_local const int id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}

// Never destroyed: ACL calls may come from static destructors.
CursorLog<HostCall>& HostCallLog::Log() {
  static auto* log = new CursorLog<HostCall>();
  return *log;
}

void HostCallLog::Record(const char* name, int64_t start_ns, int64_t end_ns) noexcept {
  Log().Add(HostCall{name, TraceThread(), start_ns, end_ns});
}

CursorLog<TraceMarker>& MarkerLog::Log() {
  static auto* log = new CursorLog<TraceMarker>();
  return *log;
}

void MarkerLog::Record(TraceMarker marker) noexcept { Log().Add(std::move(marker)); }

}  // namespace npud::client
