// host_trace.h
//
// The host side of a timeline (NPUD_TRACE): every exported ACL function
// opens a HostCallSpan (tools/gen_abi.py puts one in each entry point),
// which records the call's name, thread and time while a trace runs and
// costs one relaxed atomic load when none does.

#ifndef NPUD_CLIENT_CORE_HOST_TRACE_H_
#define NPUD_CLIENT_CORE_HOST_TRACE_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "common/chrome_trace.h"
#include "common/monotonic_clock.h"

namespace npud::client {

// The calls of the process while recording; at most kMaxCalls are kept.
class HostCallLog {
 public:
  static constexpr size_t kMaxCalls = 1'000'000;

  static bool recording() { return recording_.load(std::memory_order_relaxed); }
  static void Start();
  // Stops recording; the calls since Start() and how many were not kept.
  static std::vector<HostCall> Stop(uint64_t* dropped);
  static void Record(const char* name, int64_t start_ns, int64_t end_ns) noexcept;

 private:
  static std::atomic<bool> recording_;
};

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
