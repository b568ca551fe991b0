// bulk_link.h
//
// BulkLink: a remote session's end of the bulk channel (common/bulk_frame.h,
// docs/design.md "Bulk channel"). The session makes one with a random key,
// which its client learns from the HelloReply; TcpServer hands over the
// connection that presents the session's id and that key.
//
// Copy tasks then move bytes between that connection and device memory
// directly, with no buffer in between: a host-to-device task asks the client
// for its bytes (kPull) when its stream reaches it and they are received
// into device memory as they arrive; a device-to-host task's bytes are sent
// from device memory. Either task parks its stream until its bytes have
// moved. npud only reads bytes it asked for, so a client cannot make it
// hold any: the memory a connection costs is its socket buffers.
//
// Threads: the connection's own (TcpServer's, in ServeReads) reads the
// client's frames; a writer thread sends pulls, cancels and device-to-host
// bytes, one frame at a time so small frames never wait behind a large
// copy. Close() (the session ends) fails every transfer still moving.
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_BULK_LINK_H_
#define NPUD_DAEMON_SESSION_BULK_LINK_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "common/bulk_frame.h"
#include "common/byte_stream.h"
#include "simdevice/device_range.h"
#include "simdevice/task.h"

namespace npud::daemon {

class BulkLink {
 public:
  BulkLink();
  ~BulkLink();
  BulkLink(const BulkLink&) = delete;
  BulkLink& operator=(const BulkLink&) = delete;

  // The secret a connection must present to become this link's.
  const std::string& key() const { return key_; }

  // Takes `stream` as the link's connection if `key` is the link's and no
  // connection came before, and welcomes the client on it.
  absl::Status Attach(absl::string_view key, std::shared_ptr<ByteStream> stream)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Reads the client's frames until the connection ends or breaks the
  // protocol; then every transfer still moving fails. Called by the
  // attaching thread after Attach.
  void ServeReads() ABSL_LOCKS_EXCLUDED(mu_);

  // Starts host-to-device transfer `transfer` into `dst`: asks the client
  // for the bytes. `wake` is called (never from inside this call) once the
  // transfer has ended; Take() then says how. An error if the transfer
  // cannot start (no channel, broken channel, id in use, 0 bytes).
  absl::Status StartReceive(uint64_t transfer, sim::DeviceRange dst, sim::Waker wake)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Starts device-to-host transfer `transfer`, sending the bytes of `src`.
  absl::Status StartSend(uint64_t transfer, sim::DeviceRange src, sim::Waker wake)
      ABSL_LOCKS_EXCLUDED(mu_);
  // The outcome of a started transfer once it has ended (and forgets it);
  // nullopt while its bytes are still moving.
  std::optional<absl::Status> Take(uint64_t transfer) ABSL_LOCKS_EXCLUDED(mu_);
  // The task of a started transfer was dropped: forget the transfer once
  // it ends.
  void Abandon(uint64_t transfer) ABSL_LOCKS_EXCLUDED(mu_);
  // Tells the client that host-to-device transfer `transfer` will never be
  // pulled (its copy was refused), so it can let go of the source.
  void Cancel(uint64_t transfer) ABSL_LOCKS_EXCLUDED(mu_);

  // Fails every transfer still moving, ends the connection and waits for
  // the writer. Later transfers fail at once.
  void Close() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Transfer {
    sim::DeviceRange range;
    bool to_device = false;
    sim::Waker wake;
    // Bytes received or sent so far.
    uint64_t moved = 0;
    bool ended = false;
    bool abandoned = false;
    absl::Status status;
  };

  // Registers a transfer and queues its first frame (a pull, or its bytes).
  absl::Status Register(uint64_t transfer, sim::DeviceRange range, bool to_device, sim::Waker wake)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Ends `transfer` with `status` and wakes its task (without mu_ held).
  void End(uint64_t transfer, const std::shared_ptr<Transfer>& t, absl::Status status)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Marks the link broken with `why` and fails every transfer.
  void Break(const absl::Status& why) ABSL_LOCKS_EXCLUDED(mu_);
  // Receives one kData frame's bytes into its transfer.
  absl::Status ReceiveData(const bulk::FrameHeader& header) ABSL_LOCKS_EXCLUDED(mu_);
  void WriteLoop() ABSL_LOCKS_EXCLUDED(mu_);

  const std::string key_;
  absl::Mutex mu_;
  std::shared_ptr<ByteStream> stream_ ABSL_GUARDED_BY(mu_);
  // Why the link can no longer move bytes (OK while it can).
  absl::Status broken_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  absl::flat_hash_map<uint64_t, std::shared_ptr<Transfer>> transfers_ ABSL_GUARDED_BY(mu_);
  // What the writer sends: control frames first, then a frame of the first
  // device-to-host transfer (which goes to the back while it has more).
  std::deque<bulk::FrameHeader> control_ ABSL_GUARDED_BY(mu_);
  std::deque<uint64_t> sends_ ABSL_GUARDED_BY(mu_);
  std::thread writer_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_BULK_LINK_H_
