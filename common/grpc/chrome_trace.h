// chrome_trace.h
//
// Writes a timeline in the Chrome trace event format (JSON), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open: the client's ACL calls, one
// track per host thread, the markers the program set (mstx, msproftx) on a
// marker track per host thread, and npud's spans, one process per device
// and one track per stream (synchronous copies, which run outside streams,
// on a process of their own), and the blocks of kernels where the trace
// asked for them, one process per device with one track per AI core.
// Events are complete ("X") events, marks instants ("i"). Events of a call,
// stream or core track never overlap except by nesting, since a stream runs
// one task at a time, a core one block at a time, and a thread is in one
// ACL call at a time (or in calls nested inside it); marker ranges are the
// program's and may overlap as it set them.

#ifndef NPUD_COMMON_GRPC_CHROME_TRACE_H_
#define NPUD_COMMON_GRPC_CHROME_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace npud {

namespace v1 {
class TraceResult;
}  // namespace v1

struct HostCall {
  const char* name;  // a string literal of the entry point
  int thread;        // 1, 2, ... in the order threads first called
  int64_t start_ns;
  int64_t end_ns;
};

// A marker the program set (mstx, msproftx): an instant or a range on its
// thread's marker track.
struct TraceMarker {
  std::string message;
  std::string domain;  // "" for none
  int thread;          // as HostCall::thread
  int64_t start_ns;
  int64_t end_ns;  // == start_ns for an instant
  bool instant;
  uint64_t id;  // a range's id, 0 for none
};

struct ChromeTraceInput {
  // The client process; 0 when there are no host calls (npuctl trace).
  int64_t pid = 0;
  std::string program;
  std::vector<HostCall> host_calls;  // on the client's clock
  uint64_t dropped_host_calls = 0;
  std::vector<TraceMarker> markers;         // on the client's clock
  const v1::TraceResult* device = nullptr;  // on npud's clock; may be null
  // npud's clock minus the client's.
  int64_t device_clock_offset_ns = 0;
};

std::string RenderChromeTrace(const ChromeTraceInput& input);

}  // namespace npud

#endif  // NPUD_COMMON_GRPC_CHROME_TRACE_H_
