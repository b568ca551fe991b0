// session_transport.h
//
// SessionTransport: the life every remote transport's session shares,
// written once. Connect() opens the connection, writes the hello and waits
// for its reply within the connect timeout — a refusal counts even when the
// hello could not be written, since npud may say why and close before it is
// out — then starts a reader thread that hands each server message to the
// receiver until the session ends. Shutdown() ends the sending direction
// once (npud then closes the session) and waits for that reader.
//
// A transport supplies only what differs: how it opens its connection,
// writes the first message, reads one message and ends its writing.
// Subclasses call Shutdown() first in their destructors: the reader uses
// their members.

#ifndef NPUD_CLIENT_TRANSPORT_SESSION_TRANSPORT_H_
#define NPUD_CLIENT_TRANSPORT_SESSION_TRANSPORT_H_

#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "client/transport/transport.h"
#include "npud/v1/npud.pb.h"

namespace npud::client {

class SessionTransport : public Transport {
 public:
  absl::StatusOr<v1::HelloReply> Connect(const v1::Hello& hello, TransportReceiver* receiver) final;
  void Shutdown() final ABSL_LOCKS_EXCLUDED(mu_);

 protected:
  // `name` names the daemon in messages ("npud at <name> ...").
  explicit SessionTransport(std::string name) : name_(std::move(name)) {}

  // Connects within `timeout`; its errors are Connect()'s.
  virtual absl::Status Open(absl::Duration timeout) = 0;
  // Writes the session's first message (the hello).
  virtual absl::Status WriteFirst(const v1::ClientMessage& first) = 0;
  // Reads the next message. OutOfRange at the end of the session; a finite
  // `deadline` (the hello's reply) bounds the wait.
  virtual absl::Status Read(v1::ServerMessage* message, absl::Time deadline) = 0;
  // Called once the hello is answered: later reads and writes take as long
  // as they take.
  virtual void HelloAnswered() {}
  // Ends this side's writing, so that npud closes the session and the
  // reader sees the end.
  virtual void EndWriting() = 0;
  // What Connect() returns when reading the hello's reply failed other
  // than by its deadline (`read`: how). By default npud "closed the
  // session"; a transport may say more, or pass on a reason it was given.
  virtual absl::Status HelloFailed(const absl::Status& read) const;

  const std::string& name() const { return name_; }

 private:
  void ReadLoop();

  const std::string name_;
  TransportReceiver* receiver_ = nullptr;
  std::thread reader_;
  absl::Mutex mu_;
  bool opened_ ABSL_GUARDED_BY(mu_) = false;
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_TRANSPORT_SESSION_TRANSPORT_H_
