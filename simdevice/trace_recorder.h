// trace_recorder.h
//
// TraceRecorder: the spans of one session's tasks while someone traces it
// (a client with NPUD_TRACE, `npuctl trace`). Tracers may overlap: each
// Start() returns a cursor and its Stop() returns the spans recorded since;
// the spans are dropped once the last tracer has stopped. Bounded: past
// kMaxSpans further spans are only counted.
//
// Thread-safe; active() is one atomic load, so an untraced session pays
// nothing else.

#ifndef NPUD_SIMDEVICE_TRACE_RECORDER_H_
#define NPUD_SIMDEVICE_TRACE_RECORDER_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/task.h"

namespace npud::sim {

// A span and where it ran.
struct TracedSpan {
  int device_id = 0;
  uint64_t stream_id = 0;
  TaskSpan span;
};

class TraceRecorder {
 public:
  // About 16 MB of reply for the tracer that takes them all.
  static constexpr size_t kMaxSpans = 200'000;

  bool active() const { return tracers_.load(std::memory_order_relaxed) > 0; }

  // Begins a trace; the cursor goes to Stop().
  uint64_t Start() ABSL_LOCKS_EXCLUDED(mu_);

  struct Result {
    std::vector<TracedSpan> spans;
    // Spans of the trace's time that were not kept (past kMaxSpans).
    uint64_t dropped = 0;
  };
  // Ends the trace begun at `cursor`.
  Result Stop(uint64_t cursor) ABSL_LOCKS_EXCLUDED(mu_);

  // Records spans (a no-op unless active()).
  void Add(int device_id, uint64_t stream_id, std::vector<TaskSpan> spans) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  std::atomic<int> tracers_{0};
  absl::Mutex mu_;
  // Every span gets the next number; spans_ holds [first_, first_ +
  // spans_.size()), and those numbered after it up to next_ were dropped.
  std::deque<TracedSpan> spans_ ABSL_GUARDED_BY(mu_);
  uint64_t first_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t next_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_TRACE_RECORDER_H_
