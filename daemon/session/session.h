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
// reader), in order. Model runs dispatch their calls from the scheduler's
// threads; the run gate's lock keeps all dispatching one at a time.
// Replies may be sent from other threads (MessageSink). Status() may be
// called from any thread.

#ifndef NPUD_DAEMON_SESSION_SESSION_H_
#define NPUD_DAEMON_SESSION_SESSION_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "daemon/message_sink.h"
#include "daemon/session/model_run.h"
#include "daemon/session/session_state.h"
#include "npud/v1/calls.pb.h"
#include "npud/v1/npud.pb.h"

namespace npud::daemon {

class Session final : private ModelRun::Host {
 public:
  Session(uint64_t id, PeerInfo peer, SessionServices services, std::shared_ptr<MessageSink> sink,
          std::shared_ptr<BulkLink> bulk = nullptr);
  // Model runs still going stop dispatching.
  ~Session() override;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  uint64_t id() const { return state_.id; }
  const std::shared_ptr<BulkLink>& bulk() const { return state_.bulk; }
  const std::shared_ptr<SessionTimeline>& timeline() const { return state_.timeline; }
  const PeerInfo& peer() const { return state_.peer; }
  // What the session's memory is counted against.
  const std::shared_ptr<MemoryQuota>& memory_quota() const { return state_.memory.quota(); }

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
  void Dispatch(v1::Call& call, int fd) ABSL_EXCLUSIVE_LOCKS_REQUIRED(gate_->mu);

  // ModelRun::Host.
  SessionState& state() override { return state_; }
  void DispatchRecorded(v1::Call& call, int depth) override
      ABSL_NO_THREAD_SAFETY_ANALYSIS;  // the run holds gate_->mu

  // aclmdlRIExecuteAsync: queues a run of the model on the stream.
  absl::Status ExecuteModel(const v1::ModelExecute& op) ABSL_EXCLUSIVE_LOCKS_REQUIRED(gate_->mu);
  absl::Status AbortModel(uint64_t model_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(gate_->mu);
  // aclmdlRICaptureTaskUpdateEnd: the update, queued on its stream.
  absl::Status EndTaskUpdate(const v1::TaskUpdateEnd& op);
  // Drops the lane streams of finished runs from the session's table.
  void ReapRuns() ABSL_EXCLUSIVE_LOCKS_REQUIRED(gate_->mu);

  // Models run by models, bounded: a model may run one captured after it,
  // which may run it.
  static constexpr int kMaxModelNesting = 8;

  SessionState state_;
  const std::shared_ptr<ModelRun::Gate> gate_ = std::make_shared<ModelRun::Gate>();
  // The nesting of the run whose call is being dispatched (0: the
  // client's own call).
  int run_depth_ ABSL_GUARDED_BY(gate_->mu) = 0;
  std::vector<std::shared_ptr<ModelRun>> runs_ ABSL_GUARDED_BY(gate_->mu);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SESSION_H_
