// session_trace.h
//
// SessionTrace: NPUD_TRACE=file.json. From the session's start npud records
// its timeline (every task of the session's streams, on npud's clock) and
// this process records its ACL calls (host_trace.h); at aclFinalize, or at
// exit for programs that never call it, both are merged into one Chrome
// trace (common/chrome_trace.h) written to the file. "%p" in the name
// becomes the pid, for programs that start others.
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

class SessionTrace {
 public:
  // Starts tracing `session` into `path`. `same_clock`: npud runs on this
  // machine. `blocks`: with a span per kernel block. Fails (ACL_ERROR_RT_FEATURE_NOT_SUPPORT from
  // an npud without traces) without side effects.
  static absl::StatusOr<std::unique_ptr<SessionTrace>> Begin(CallPipeline& session,
                                                             const std::string& path,
                                                             bool same_clock, bool blocks);

  // Stops both recordings and writes the file.
  absl::Status Finish(CallPipeline& session);

  const std::string& path() const { return path_; }

 private:
  SessionTrace(std::string path, int64_t offset_ns)
      : path_(std::move(path)), offset_ns_(offset_ns) {}

  const std::string path_;
  // npud's clock minus ours.
  const int64_t offset_ns_;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_SESSION_TRACE_H_
