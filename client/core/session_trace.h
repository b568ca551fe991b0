// session_trace.h
//
// DaemonTrace: npud records the session's timeline (every task of its
// streams, on npud's clock) for one of this client's tracers, until End()
// hands the spans back.
//
// SessionTrace: NPUD_TRACE=file.json. From the session's start a
// DaemonTrace runs and this process records its ACL calls and markers
// (host_trace.h); at aclFinalize, or at exit for programs that never call
// it, all are merged into one Chrome trace (common/chrome_trace.h) written
// to the file. "%p" in the name becomes the pid, for programs that start
// others.
//
// npud and a client on the same machine read the same CLOCK_MONOTONIC; for
// a remote daemon the offset between the clocks is estimated from the
// round trip that starts the trace (good to half that round trip).

#ifndef NPUD_CLIENT_CORE_SESSION_TRACE_H_
#define NPUD_CLIENT_CORE_SESSION_TRACE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/core/call_pipeline.h"

namespace npud::client {

class DaemonTrace {
 public:
  // The client's tracers, each with at most one trace of the session.
  enum Tracer : uint32_t { kNpudTrace = 0, kProfiling = 1 };

  // Starts the trace. `same_clock`: npud runs on this machine. `blocks`:
  // with a span per kernel block. Fails (ACL_ERROR_RT_FEATURE_NOT_SUPPORT
  // from an npud without traces) without side effects.
  static absl::StatusOr<DaemonTrace> Begin(CallPipeline& session, Tracer tracer, bool same_clock,
                                           bool blocks);
  // Ends it: the spans, on npud's clock. What the streams have not run yet
  // is not in it.
  absl::StatusOr<v1::TraceResult> End(CallPipeline& session);

  // npud's clock minus ours.
  int64_t offset_ns() const { return offset_ns_; }

 private:
  DaemonTrace(Tracer tracer, int64_t offset_ns) : tracer_(tracer), offset_ns_(offset_ns) {}

  Tracer tracer_;
  int64_t offset_ns_;
};

class SessionTrace {
 public:
  // Starts tracing `session` into `path`.
  static absl::StatusOr<std::unique_ptr<SessionTrace>> Begin(CallPipeline& session,
                                                             const std::string& path,
                                                             bool same_clock, bool blocks);

  // Stops the recordings and writes the file.
  absl::Status Finish(CallPipeline& session);

  const std::string& path() const { return path_; }

 private:
  SessionTrace(std::string path, DaemonTrace daemon, uint64_t calls, uint64_t markers)
      : path_(std::move(path)), daemon_(daemon), calls_(calls), markers_(markers) {}

  const std::string path_;
  DaemonTrace daemon_;
  // The host logs' cursors.
  const uint64_t calls_;
  const uint64_t markers_;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_SESSION_TRACE_H_
