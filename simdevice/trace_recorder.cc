#include "simdevice/trace_recorder.h"

#include <algorithm>
#include <utility>

namespace npud::sim {

uint64_t TraceRecorder::Start() {
  absl::MutexLock lock(&mu_);
  tracers_.fetch_add(1, std::memory_order_relaxed);
  return next_;
}

TraceRecorder::Result TraceRecorder::Stop(uint64_t cursor) {
  absl::MutexLock lock(&mu_);
  Result result;
  if (!active()) return result;  // not started
  const uint64_t kept_end = first_ + spans_.size();
  const uint64_t from = std::clamp(cursor, first_, kept_end);
  result.spans.assign(spans_.begin() + static_cast<ptrdiff_t>(from - first_), spans_.end());
  result.dropped = next_ - std::max(cursor, kept_end);
  if (tracers_.fetch_sub(1, std::memory_order_relaxed) == 1) {
    spans_.clear();
    first_ = next_;
  }
  return result;
}

void TraceRecorder::Add(int device_id, uint64_t stream_id, std::vector<TaskSpan> spans) {
  if (!active()) return;
  absl::MutexLock lock(&mu_);
  if (!active()) return;  // the last tracer stopped meanwhile
  for (TaskSpan& span : spans) {
    ++next_;
    // Once full, nothing more is kept until every tracer has stopped (a
    // span kept after a dropped one would leave a gap nobody sees).
    if (first_ + spans_.size() + 1 == next_ && spans_.size() < kMaxSpans) {
      spans_.push_back(TracedSpan{device_id, stream_id, std::move(span)});
    }
  }
}

}  // namespace npud::sim
