// sync_waiter.h
//
// SyncWaiter: one synchronize (of a stream, an event or a whole device, or
// the wait of a stream destroy) that answers its call exactly once, with
// whichever comes first: completion, or the timeout the call gave.

#ifndef NPUD_DAEMON_SESSION_SYNC_WAITER_H_
#define NPUD_DAEMON_SESSION_SYNC_WAITER_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "common/acl_status.h"
#include "daemon/delayed_executor.h"
#include "daemon/message_sink.h"

namespace npud::daemon {

class SyncWaiter : public std::enable_shared_from_this<SyncWaiter> {
 public:
  // `timeout_code` answers a call that timed out. call_id 0: nobody waits
  // for an answer (it is only counted as given).
  SyncWaiter(std::shared_ptr<MessageSink> sink, uint64_t call_id, AclCode timeout_code)
      : sink_(std::move(sink)), call_id_(call_id), timeout_code_(timeout_code) {}

  // Answers with `status` unless the waiter already answered. Returns false
  // if the answer came too late (the caller then keeps `status` for later).
  bool Complete(const absl::Status& status);

  // Answers with the timeout code after `timeout_ms` (nothing if <= 0).
  void ArmTimeout(DelayedExecutor* timers, int32_t timeout_ms);

 private:
  const std::shared_ptr<MessageSink> sink_;
  const uint64_t call_id_;
  const AclCode timeout_code_;
  std::atomic<bool> answered_{false};
};

// Answers synchronous call `call_id` with just `status`.
void SendStatusReply(MessageSink& sink, uint64_t call_id, const absl::Status& status);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SYNC_WAITER_H_
