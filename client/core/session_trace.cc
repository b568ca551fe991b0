#include "client/core/session_trace.h"

#include <errno.h>
#include <unistd.h>

#include <fstream>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "client/core/client_log.h"
#include "client/core/host_trace.h"
#include "common/acl_status.h"
#include "common/grpc/chrome_trace.h"
#include "common/monotonic_clock.h"
#include "common/status_macros.h"

namespace npud::client {

absl::StatusOr<DaemonTrace> DaemonTrace::Begin(CallPipeline& session, Tracer tracer,
                                               bool same_clock, bool blocks) {
  v1::Call call;
  call.mutable_start_trace()->set_blocks(blocks);
  call.mutable_start_trace()->set_tracer(tracer);
  const int64_t sent_ns = MonotonicNanos();
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, session.Call(std::move(call)));
  const int64_t answered_ns = MonotonicNanos();
  const int64_t offset_ns =
      same_clock ? 0
                 : reply.trace_start().daemon_clock_ns() - sent_ns - (answered_ns - sent_ns) / 2;
  return DaemonTrace(tracer, offset_ns);
}

absl::StatusOr<v1::TraceResult> DaemonTrace::End(CallPipeline& session) {
  v1::Call call;
  call.mutable_stop_trace()->set_tracer(tracer_);
  // Everything queued before (asynchronous launches and copies) reaches
  // npud first.
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, session.Call(std::move(call)));
  return std::move(*reply.mutable_trace());
}

absl::StatusOr<std::unique_ptr<SessionTrace>> SessionTrace::Begin(CallPipeline& session,
                                                                  const std::string& path,
                                                                  bool same_clock, bool blocks) {
  NPUD_ASSIGN_OR_RETURN(DaemonTrace daemon,
                        DaemonTrace::Begin(session, DaemonTrace::kNpudTrace, same_clock, blocks));
  const std::string file = absl::StrReplaceAll(path, {{"%p", absl::StrCat(getpid())}});
  return std::unique_ptr<SessionTrace>(
      new SessionTrace(file, daemon, HostCallLog::Start(), MarkerLog::Start()));
}

absl::Status SessionTrace::Finish(CallPipeline& session) {
  ChromeTraceInput input;
  input.pid = getpid();
  input.program = program_invocation_short_name;
  input.host_calls = HostCallLog::Stop(calls_, &input.dropped_host_calls);
  uint64_t dropped_markers = 0;
  input.markers = MarkerLog::Stop(markers_, &dropped_markers);
  input.device_clock_offset_ns = daemon_.offset_ns();
  NPUD_ASSIGN_OR_RETURN(const v1::TraceResult device, daemon_.End(session));
  input.device = &device;
  std::ofstream out(path_, std::ios::trunc);
  out << RenderChromeTrace(input);
  out.close();
  if (!out) return AclError(kAclWriteFile, absl::StrCat("cannot write the trace to ", path_));
  ClientLog().info("trace written to {}: {} ACL calls, {} markers, {} device spans", path_,
                   input.host_calls.size(), input.markers.size(), device.spans_size());
  return absl::OkStatus();
}

}  // namespace npud::client
