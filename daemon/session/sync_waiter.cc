#include "daemon/session/sync_waiter.h"

#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "npud/v1/npud.pb.h"

namespace npud::daemon {

void SendStatusReply(MessageSink& sink, uint64_t call_id, const absl::Status& status) {
  v1::ServerMessage message;
  v1::Reply* reply = message.mutable_reply();
  reply->set_call_id(call_id);
  reply->set_acl_error(ToAclCode(status));
  reply->set_error_message(std::string(status.message()));
  sink.Send(std::move(message));
}

bool SyncWaiter::Complete(const absl::Status& status) {
  if (answered_.exchange(true)) return false;
  if (call_id_ != 0) SendStatusReply(*sink_, call_id_, status);
  return true;
}

void SyncWaiter::ArmTimeout(DelayedExecutor* timers, int32_t timeout_ms) {
  if (timeout_ms <= 0) return;
  std::weak_ptr<SyncWaiter> weak = weak_from_this();
  timers->RunAfter(absl::Milliseconds(timeout_ms), [weak, timeout_ms] {
    if (auto self = weak.lock()) {
      self->Complete(
          AclError(self->timeout_code_, absl::StrFormat("not complete after %d ms", timeout_ms)));
    }
  });
}

}  // namespace npud::daemon
