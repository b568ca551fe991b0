// Trace calls: a client with NPUD_TRACE, or profiling, records its
// session's timeline.

#include <utility>

#include "common/monotonic_clock.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"

namespace npud::daemon {

Outcome StartTrace(SessionState& s, const v1::StartTrace& op) {
  NPUD_RETURN_IF_ERROR(s.timeline->StartClientTrace(op.tracer(), op.blocks()));
  v1::Reply reply;
  reply.mutable_trace_start()->set_daemon_clock_ns(MonotonicNanos());
  return reply;
}

Outcome StopTrace(SessionState& s, const v1::StopTrace& op) {
  NPUD_ASSIGN_OR_RETURN(v1::TraceResult trace, s.timeline->StopClientTrace(op.tracer()));
  v1::Reply reply;
  *reply.mutable_trace() = std::move(trace);
  return reply;
}

}  // namespace npud::daemon
