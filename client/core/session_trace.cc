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
#include "common/chrome_trace.h"
#include "common/monotonic_clock.h"
#include "common/status_macros.h"

namespace npud::client {

absl::StatusOr<std::unique_ptr<SessionTrace>> SessionTrace::Begin(CallPipeline& session,
                                                                  const std::string& path,
                                                                  bool same_clock, bool blocks) {
  v1::Call call;
  call.mutable_start_trace()->set_blocks(blocks);
  const int64_t sent_ns = MonotonicNanos();
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, session.Call(std::move(call)));
  const int64_t answered_ns = MonotonicNanos();
  const int64_t offset_ns =
      same_clock ? 0
                 : reply.trace_start().daemon_clock_ns() - sent_ns - (answered_ns - sent_ns) / 2;
  HostCallLog::Start();
  const std::string file = absl::StrReplaceAll(path, {{"%p", absl::StrCat(getpid())}});
  return std::unique_ptr<SessionTrace>(new SessionTrace(file, offset_ns));
}

absl::Status SessionTrace::Finish(CallPipeline& session) {
  ChromeTraceInput input;
  input.pid = getpid();
  input.program = program_invocation_short_name;
  input.host_calls = HostCallLog::Stop(&input.dropped_host_calls);
  input.device_clock_offset_ns = offset_ns_;
  v1::Call call;
  call.mutable_stop_trace();
  // Everything queued before (asynchronous launches and copies) reaches
  // npud first; what its streams have not run yet is not in the trace.
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, session.Call(std::move(call)));
  input.device = &reply.trace();
  std::ofstream out(path_, std::ios::trunc);
  out << RenderChromeTrace(input);
  out.close();
  if (!out) return AclError(kAclWriteFile, absl::StrCat("cannot write the trace to ", path_));
  ClientLog().info("trace written to {}: {} ACL calls, {} device spans", path_,
                   input.host_calls.size(), reply.trace().spans_size());
  return absl::OkStatus();
}

}  // namespace npud::client
