// session.h
//
// Session: one client process in npud. It owns what the client owns
// (SessionState) and routes each call of the client's batches to its
// handler (calls.h), in the order the client sent them.
//
// A session names streams and events by the ids the client minted and
// device memory by address, and only lets the client touch objects it owns
// or imported. Destroying the session (client exit, crash or network loss)
// drops every pending task of its streams and frees its memory; nothing of
// other sessions changes.
//
// Threading: Process() is called by one thread at a time (the connection's
// reader), in order. Replies may be sent from other threads (MessageSink).
// Status() may be called from any thread.

#ifndef NPUD_DAEMON_SESSION_SESSION_H_
#define NPUD_DAEMON_SESSION_SESSION_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "daemon/message_sink.h"
#include "daemon/session/session_state.h"
#include "npud/v1/calls.pb.h"
#include "npud/v1/npud.pb.h"

namespace npud::daemon {

class Session {
 public:
  Session(uint64_t id, PeerInfo peer, SessionServices services, std::shared_ptr<MessageSink> sink,
          std::shared_ptr<BulkLink> bulk = nullptr)
      : state_(id, std::move(peer), std::move(services), std::move(sink), std::move(bulk)) {}
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  uint64_t id() const { return state_.id; }
  const std::shared_ptr<BulkLink>& bulk() const { return state_.bulk; }
  const std::shared_ptr<SessionTimeline>& timeline() const { return state_.timeline; }
  const PeerInfo& peer() const { return state_.peer; }

  // Runs the calls of one batch in order; bulk bytes may be moved out of
  // `*batch`. `fds` (local protocol only) are the shared memory files of the
  // batch's RegisterHostMemory calls, in order; the session owns them.
  void Process(v1::CallBatch* batch, std::vector<int> fds = {});

  // For the admin service.
  v1::SessionStatus Status() const { return state_.Status(); }
  // Ends the session's connection (MessageSink::Disconnect).
  void Disconnect() const { state_.sink()->Disconnect(); }

 private:
  // `fd` is the file of a RegisterHostMemory call (-1 if none came).
  void Dispatch(v1::Call& call, int fd);
  // aclmdlRIExecuteAsync: dispatches the model's calls on the stream.
  absl::Status ExecuteModel(const v1::ModelExecute& op);
  // Models run by models, bounded: a model may run one captured after it,
  // which may run it. Calls are dispatched on one thread only.
  static constexpr int kMaxModelNesting = 8;
  int model_depth_ = 0;

  SessionState state_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SESSION_H_
