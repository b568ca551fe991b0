// host_trace.h
//
// The host side of a timeline (NPUD_TRACE, profiling): every exported ACL
// function opens a HostCallSpan (tools/gen_abi.py puts one in each entry
// point), which records the call's name, thread and time while a trace
// runs and costs one relaxed atomic load when none does; MarkerLog keeps
// the markers the program sets (mstx, msproftx). Both serve several
// readers at once (see cursor_log.h).

#ifndef NPUD_CLIENT_CORE_HOST_TRACE_H_
#define NPUD_CLIENT_CORE_HOST_TRACE_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "client/core/cursor_log.h"
#include "common/grpc/chrome_trace.h"
#include "common/monotonic_clock.h"

namespace npud::client {

// The calls of the process while recording.
class HostCallLog {
 public:
  static bool recording() { return Log().recording(); }
  // A reader begins; its cursor goes to Stop().
  static uint64_t Start() { return Log().Start(); }
  // The calls since the reader's Start() and how many were not kept.
  static std::vector<HostCall> Stop(uint64_t cursor, uint64_t* dropped) {
    return Log().Stop(cursor, dropped);
  }
  static void Record(const char* name, int64_t start_ns, int64_t end_ns) noexcept;

 private:
  static CursorLog<HostCall>& Log();
};

// The markers the program sets while recording.
class MarkerLog {
 public:
  static bool recording() { return Log().recording(); }
  static uint64_t Start() { return Log().Start(); }
  static std::vector<TraceMarker> Stop(uint64_t cursor, uint64_t* dropped) {
    return Log().Stop(cursor, dropped);
  }
  static void Record(TraceMarker marker) noexcept;

 private:
  static CursorLog<TraceMarker>& Log();
};

// This thread's number in traces: 1, 2, ... in the order threads first
// called.
int TraceThread();

class HostCallSpan {
 public:
  explicit HostCallSpan(const char* name)
      : name_(HostCallLog::recording() ? name : nullptr), start_ns_(name_ ? MonotonicNanos() : 0) {}
  ~HostCallSpan() {
    if (name_ != nullptr) HostCallLog::Record(name_, start_ns_, MonotonicNanos());
  }
  HostCallSpan(const HostCallSpan&) = delete;
  HostCallSpan& operator=(const HostCallSpan&) = delete;

 private:
  const char* const name_;
  const int64_t start_ns_;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_HOST_TRACE_H_
