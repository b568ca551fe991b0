// Host callbacks (aclrtLaunchCallback, aclrtLaunchHostFunc): the stream
// tells the client when it reaches one and, for a blocking one, waits for
// the client's HostCallbackDone. Pending gates live in the session's
// table until the client answers or the stream drops the callback, so a
// client can only open its own.

#include <memory>
#include <utility>

#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "simdevice/host_callback_task.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {

Outcome LaunchHostCallback(SessionState& s, const v1::LaunchHostCallback& op) {
  std::shared_ptr<sim::HostCallbackGate> gate;
  if (op.blocking()) {
    gate = std::make_shared<sim::HostCallbackGate>();
    NPUD_RETURN_IF_ERROR(s.host_callbacks->Add(op.callback_id(), gate));
  }
  auto announce = [sink = s.sink(), gates = std::weak_ptr(s.host_callbacks),
                   callback_id = op.callback_id(), stream_id = op.stream_id()](bool dropped) {
    // Nobody will answer for a dropped callback.
    if (auto table = gates.lock(); dropped && table != nullptr) (void)table->Take(callback_id);
    v1::ServerMessage message;
    v1::HostCallbackDue* due = message.mutable_notification()->mutable_host_callback();
    due->set_callback_id(callback_id);
    due->set_stream_id(stream_id);
    due->set_dropped(dropped);
    sink->Send(std::move(message));
  };
  absl::Status submitted =
      s.Submit(op.stream_id(), sim::MakeHostCallbackTask(std::move(announce), gate));
  if (!submitted.ok() && gate != nullptr) (void)s.host_callbacks->Take(op.callback_id());
  return Done(submitted);
}

Outcome HostCallbackDone(SessionState& s, const v1::HostCallbackDone& op) {
  absl::StatusOr<std::shared_ptr<sim::HostCallbackGate>> gate =
      s.host_callbacks->Take(op.callback_id());
  // Non-blocking callbacks have no gate; the client answers those too.
  if (gate.ok()) (*gate)->Open();
  return v1::Reply();
}

}  // namespace npud::daemon
