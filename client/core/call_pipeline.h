// call_pipeline.h
//
// CallPipeline: turns ACL calls into batches on the session and matches the
// daemon's answers to their callers.
//
// Asynchronous calls (Post) are only queued; the queue is sent when a
// synchronous call needs it, when it grows past kFlushBytes, or at the latest
// kFlushDelay after the first queued call, so async work never waits for a
// round trip yet never sits in the queue for long. Synchronous calls (Call)
// are sent together with everything queued before them and wait for their
// reply. Device-to-host bytes come back as DataChunks of a transfer and are
// written straight into the caller's buffer.
//
// Thread-safe. After the daemon goes away every waiting and later call fails
// with ACL_ERROR_RT_SOCKET_CLOSE.

#ifndef NPUD_CLIENT_CORE_CALL_PIPELINE_H_
#define NPUD_CLIENT_CORE_CALL_PIPELINE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "client/transport/bulk_channel.h"
#include "client/transport/transport.h"
#include "npud/v1/calls.pb.h"
#include "npud/v1/npud.pb.h"

namespace npud::client {

class CallPipeline final : public TransportReceiver {
 public:
  static constexpr size_t kFlushBytes = 4 << 20;
  static constexpr absl::Duration kFlushDelay = absl::Microseconds(200);

  explicit CallPipeline(std::unique_ptr<Transport> transport);
  ~CallPipeline() override;
  CallPipeline(const CallPipeline&) = delete;
  CallPipeline& operator=(const CallPipeline&) = delete;

  absl::StatusOr<v1::HelloReply> Start(const v1::Hello& hello);
  // Sends what is queued and ends the session.
  void Stop();

  // Queues an asynchronous call (its call_id is ignored).
  void Post(v1::Call call) ABSL_LOCKS_EXCLUDED(batch_mu_);
  // How ACL calls send asynchronous work: Post(), or in strict mode
  // (NPUD_STRICT=1, for debugging) a synchronous call, so an invalid
  // argument is reported by the ACL call that passed it instead of by the
  // next synchronize. Work the device does later still reports there.
  absl::Status Submit(v1::Call call) ABSL_LOCKS_EXCLUDED(batch_mu_);
  bool strict() const { return strict_; }
  // Post() with a file that travels with the call's batch (a memfd for
  // RegisterHostMemory). The pipeline owns `fd` and closes it once sent.
  // Only when CanShareMemory().
  void PostWithFile(v1::Call call, int fd) ABSL_LOCKS_EXCLUDED(send_mu_, batch_mu_);
  bool CanShareMemory() const { return transport_->CanShareMemory(); }

  // A synchronous call in flight: Begin() sends it (with everything queued)
  // and returns at once; Await() waits for its reply. For pipelining several
  // calls from one thread.
  struct Pending {
    absl::Notification done;
    v1::Reply reply;
  };
  std::shared_ptr<Pending> Begin(v1::Call call) ABSL_LOCKS_EXCLUDED(batch_mu_, send_mu_);
  // A reply carrying an ACL error becomes that error.
  absl::StatusOr<v1::Reply> Await(Pending& pending);

  // Sends `call` after everything queued and waits for its reply. A reply
  // carrying an ACL error becomes that error.
  absl::StatusOr<v1::Reply> Call(v1::Call call) ABSL_LOCKS_EXCLUDED(batch_mu_);

  // Sends all `calls` in order without waiting in between, then waits for
  // every reply; returns the first error. For large copies split in chunks.
  absl::Status CallAll(std::vector<v1::Call> calls) ABSL_LOCKS_EXCLUDED(batch_mu_);

  // A transfer receives the DataChunks of a ReadDevice into [dst, dst+size).
  // The buffer must stay valid until the transfer ends. A transfer of a
  // synchronous read is ended by WaitTransfer(); one of an asynchronous read
  // (`awaited` false) forgets itself when its last chunk has arrived, which
  // is before the reply of the next synchronize of its stream.
  // With `bulk`, the bytes come over the bulk channel.
  uint64_t BeginTransfer(void* dst, size_t size, bool awaited, bool bulk = false)
      ABSL_LOCKS_EXCLUDED(transfers_mu_);
  // A fresh id for a host-to-device bulk transfer.
  uint64_t NewTransferId() { return next_transfer_id_++; }
  // The session's bulk channel, or null (none offered, or it broke).
  BulkChannel* bulk() const { return bulk_ != nullptr && bulk_->usable() ? bulk_.get() : nullptr; }
  // Waits for the end of an awaited transfer and returns its error, if any.
  absl::Status WaitTransfer(uint64_t transfer_id) ABSL_LOCKS_EXCLUDED(transfers_mu_);
  // Forgets an awaited transfer whose read failed (no data will come);
  // returns `why`.
  absl::Status AbandonTransfer(uint64_t transfer_id, absl::Status why)
      ABSL_LOCKS_EXCLUDED(transfers_mu_);

  // Sends what is queued now, followed by `*last` if given (moved from).
  void Flush(v1::Call* last = nullptr) ABSL_LOCKS_EXCLUDED(batch_mu_, send_mu_);

  // TransportReceiver.
  void OnMessage(v1::ServerMessage message) override;
  void OnDisconnect(const absl::Status& why) override;

  std::string Describe() const { return transport_->Describe(); }
  // The program's id of this daemon's device 0 (nonzero when several
  // daemons serve the program): device ids in notifications are shifted by it.
  void set_first_device(int32_t device) { first_device_.store(device); }

 private:
  using Waiter = Pending;
  struct Transfer {
    uint8_t* dst;
    size_t size;
    bool awaited;
    bool bulk;
    bool ended = false;
    int32_t acl_error = 0;
  };

  // Gives `*call` a fresh id and registers its waiter (already failed if
  // the daemon is gone).
  std::shared_ptr<Waiter> AddWaiter(v1::Call* call) ABSL_LOCKS_EXCLUDED(waiters_mu_);
  // Queues `call`, registering a waiter when it wants a reply.
  std::shared_ptr<Waiter> Enqueue(v1::Call call, bool want_reply)
      ABSL_LOCKS_EXCLUDED(batch_mu_, waiters_mu_);
  void FlushLoop() ABSL_LOCKS_EXCLUDED(batch_mu_);
  void HandleData(const v1::DataChunk& chunk) ABSL_LOCKS_EXCLUDED(transfers_mu_);
  void HandleNotification(const v1::Notification& notification);

  const std::unique_ptr<Transport> transport_;
  // Set by Start() when npud offers a channel and it connects.
  std::unique_ptr<BulkChannel> bulk_;
  const bool strict_;
  std::atomic<int32_t> first_device_{0};
  std::atomic<uint64_t> next_call_id_{1};
  std::atomic<uint64_t> next_transfer_id_{1};

  // Held while taking a batch and sending it: keeps batches in order.
  absl::Mutex send_mu_ ABSL_ACQUIRED_BEFORE(batch_mu_);

  absl::Mutex batch_mu_;
  v1::ClientMessage pending_ ABSL_GUARDED_BY(batch_mu_);
  // Files of pending_'s RegisterHostMemory calls, in order.
  std::vector<int> pending_fds_ ABSL_GUARDED_BY(batch_mu_);
  size_t pending_bytes_ ABSL_GUARDED_BY(batch_mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(batch_mu_) = false;

  absl::Mutex waiters_mu_;
  absl::flat_hash_map<uint64_t, std::shared_ptr<Waiter>> waiters_ ABSL_GUARDED_BY(waiters_mu_);
  // Set once the daemon is gone.
  absl::Status broken_ ABSL_GUARDED_BY(waiters_mu_);

  absl::Mutex transfers_mu_;
  absl::flat_hash_map<uint64_t, Transfer> transfers_ ABSL_GUARDED_BY(transfers_mu_);

  std::thread flusher_;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_CALL_PIPELINE_H_
