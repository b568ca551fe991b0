// message_sink.h
//
// MessageSink: where a session's server-to-client messages go (a gRPC
// stream's writer, or the in-process transport).
//
// Implementations are thread-safe: replies come from the session thread,
// from scheduler workers (synchronize markers, device-to-host data) and from
// timers. Send() must not block for long and must accept messages after the
// client has gone (and drop them).

#ifndef NPUD_DAEMON_MESSAGE_SINK_H_
#define NPUD_DAEMON_MESSAGE_SINK_H_

#include "npud/v1/npud.pb.h"

namespace npud::daemon {

class MessageSink {
 public:
  virtual ~MessageSink() = default;
  virtual void Send(v1::ServerMessage message) = 0;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_MESSAGE_SINK_H_
