// session_endpoint.h
//
// SessionEndpoint: the life of one client connection, the same for every
// transport — the hello (version and token checks, in DaemonCore), the
// session, each batch in order, the end. The gRPC and local servers feed it
// from their connection's reader thread through ServeSession(); the
// in-process transport calls it directly.
//
// Back-pressure: before each batch the endpoint waits until the client has
// read most of what it was sent (MessageSink::WaitForRoom), so a client that
// does not read its replies stops being served instead of making npud
// buffer without bound; one that stays silent for kUnreadLimit is
// disconnected.

#ifndef NPUD_DAEMON_SESSION_ENDPOINT_H_
#define NPUD_DAEMON_SESSION_ENDPOINT_H_

#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "daemon/message_sink.h"
#include "daemon/peer_credentials.h"
#include "daemon/session/session_limits.h"
#include "npud/v1/npud.pb.h"

namespace npud::daemon {

class DaemonCore;
class Session;

class SessionEndpoint {
 public:
  // How long the endpoint waits for a client to read its replies.
  static constexpr absl::Duration kUnreadLimit = absl::Seconds(60);

  // `core` must outlive the endpoint. `remote`: the client is across a
  // network (DaemonCore::OpenSession).
  SessionEndpoint(DaemonCore* core, std::shared_ptr<MessageSink> sink,
                  std::optional<PeerCredentials> credentials = std::nullopt, bool remote = false)
      : core_(core), sink_(std::move(sink)), credentials_(credentials), remote_(remote) {}
  // Close().
  ~SessionEndpoint();
  SessionEndpoint(const SessionEndpoint&) = delete;
  SessionEndpoint& operator=(const SessionEndpoint&) = delete;

  // Opens the session for `hello` and returns the reply the client gets; the
  // error says why the client is refused.
  absl::StatusOr<v1::HelloReply> Open(const v1::Hello& hello);

  // Handles one message after the hello (`fds` travel with it, local
  // protocol only; the endpoint owns them). An error means the connection
  // must end: a message that is not a batch, or a client that does not read.
  absl::Status Handle(v1::ClientMessage& message, std::vector<int> fds);

  // Ends the session: everything the client owned is released. Idempotent.
  void Close();

  // The open session's memory quota (null before Open()).
  std::shared_ptr<MemoryQuota> memory_quota() const;

 private:
  DaemonCore* const core_;
  const std::shared_ptr<MessageSink> sink_;
  const std::optional<PeerCredentials> credentials_;
  const bool remote_;
  std::shared_ptr<Session> session_;
};

// Where a connection's client messages come from.
class ClientMessageSource {
 public:
  virtual ~ClientMessageSource() = default;
  // The next message and its descriptors (the caller owns them). OutOfRange
  // at a clean end of the connection; other errors for broken ones.
  virtual absl::Status Next(v1::ClientMessage* message, std::vector<int>* fds) = 0;
  // The session is open: what its messages cost while they arrive is
  // charged to `quota` from now on (sources that buffer partial messages).
  virtual void ChargeTo(std::shared_ptr<MemoryQuota> /*quota*/) {}
};

// Serves one connection to its end: hello, batches, close. The hello reply
// goes out through `sink`; OK when a session ran until the client left (or
// the client only probed the socket), otherwise why the client was refused,
// for the transport to tell it in its own way.
absl::Status ServeSession(DaemonCore* core, ClientMessageSource& source,
                          const std::shared_ptr<MessageSink>& sink,
                          std::optional<PeerCredentials> credentials = std::nullopt,
                          bool remote = false);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_ENDPOINT_H_
