// daemon_calls.h
//
// The two ways an operation reaches the daemon: a synchronous call that
// waits for its reply, or an asynchronous one that is only queued. Both fail
// with ACL_ERROR_UNINITIALIZE before aclInit.

#ifndef NPUD_CLIENT_CORE_DAEMON_CALLS_H_
#define NPUD_CLIENT_CORE_DAEMON_CALLS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/core/runtime.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

inline absl::StatusOr<v1::Reply> CallDaemon(v1::Call call) {
  auto session = Runtime::Get().Session();
  if (!session.ok()) return session.status();
  return (*session)->Call(std::move(call));
}

// Asynchronous: queued, or checked at once in strict mode (see
// CallPipeline::Submit).
inline absl::Status PostToDaemon(v1::Call call) {
  auto session = Runtime::Get().Session();
  if (!session.ok()) return session.status();
  return (*session)->Submit(std::move(call));
}

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DAEMON_CALLS_H_
