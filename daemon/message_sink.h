// message_sink.h
//
// MessageSink: where a session's server-to-client messages go (a gRPC
// stream's writer, a local-protocol socket, or the in-process transport).
//
// Implementations are thread-safe: replies come from the session thread,
// from scheduler workers (synchronize markers, device-to-host data) and from
// timers. Send() never blocks for long and accepts messages after the
// client has gone (and drops them).
//
// Memory is bounded: a sink holds at most kHardLimitBytes of messages the
// client has not read; beyond that the client is taken as broken, what is
// queued is dropped and the connection is ended. The session's reader waits
// in WaitForRoom() before each batch, so a slow reader is throttled long
// before that.

#ifndef NPUD_DAEMON_MESSAGE_SINK_H_
#define NPUD_DAEMON_MESSAGE_SINK_H_

#include <cstddef>
#include <functional>

#include "absl/time/time.h"
#include "npud/v1/npud.pb.h"

namespace npud::daemon {

class MessageSink {
 public:
  // Unread bytes above which the session stops taking new calls.
  static constexpr size_t kSoftLimitBytes = size_t{64} << 20;
  // Unread bytes at which the connection is ended.
  static constexpr size_t kHardLimitBytes = size_t{256} << 20;

  virtual ~MessageSink() = default;
  virtual void Send(v1::ServerMessage message) = 0;
  // Waits until fewer than kSoftLimitBytes are unread (true), the
  // connection ended (true: the reader finds out itself), or `timeout`
  // passed (false).
  virtual bool WaitForRoom(absl::Duration timeout) {
    (void)timeout;
    return true;
  }
  // For producers that must not wait (a read on a scheduler worker): true
  // if fewer than kSoftLimitBytes are unread; otherwise `wake` is called
  // once they are (or the connection ended) — never from inside this call —
  // and false is returned.
  virtual bool ReadyOrWake(std::function<void()> wake) {
    (void)wake;
    return true;
  }
  // Ends the connection from npud's side (npuctl kill): its reader then
  // sees the end and the session closes like any other. A no-op where
  // there is no connection (in process) or it has ended.
  virtual void Disconnect() {}
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_MESSAGE_SINK_H_
