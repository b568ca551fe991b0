// daemon_calls.h
//
// The two ways an operation reaches the daemon that serves it: a
// synchronous call that waits for its reply, or an asynchronous one that is
// only queued. With several daemons the call is routed (Runtime::Route), or
// sent to each when every daemon must see it (CallRouter::IsBroadcast).

#ifndef NPUD_CLIENT_CORE_DAEMON_CALLS_H_
#define NPUD_CLIENT_CORE_DAEMON_CALLS_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

class CallPipeline;

// The reply comes in the program's device numbering. A broadcast call
// returns the first daemon's reply once all have answered, or the first error.
absl::StatusOr<v1::Reply> CallDaemon(v1::Call call);

// Asynchronous: queued, or checked at once in strict mode (see
// CallPipeline::Submit).
absl::Status PostToDaemon(v1::Call call);

// Sends `call` to each of `sessions` at once, then waits for every reply;
// returns the first session's reply, or the first error.
absl::StatusOr<v1::Reply> CallEach(const std::vector<CallPipeline*>& sessions,
                                   const v1::Call& call);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DAEMON_CALLS_H_
