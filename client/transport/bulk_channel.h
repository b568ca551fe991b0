// bulk_channel.h
//
// BulkChannel: the client's end of a remote session's bulk channel
// (common/bulk_frame.h, docs/design.md "Bulk channel"). Large copies move
// their bytes here, straight between the caller's host memory and the
// socket; the session stream carries only the calls and their outcomes.
//
//  * Host-to-device: the caller offers its buffer under a transfer id and
//    sends the copy call; npud pulls the bytes when the copy runs, and the
//    sender thread writes them from the buffer.
//  * Device-to-host: the caller expects a transfer into its buffer; the
//    reader thread receives its bytes there. The DataChunk that ends the
//    transfer on the session stream makes the caller Collect() them.
//
// If the connection breaks, transfers waiting on it fail and the channel
// stays broken (copies fall back to the session stream). Thread-safe.

#ifndef NPUD_CLIENT_TRANSPORT_BULK_CHANNEL_H_
#define NPUD_CLIENT_TRANSPORT_BULK_CHANNEL_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "common/bulk_frame.h"
#include "common/byte_stream.h"

namespace npud::client {

class BulkChannel {
 public:
  // Connects to host:port (over TLS when NPUD_TLS_CA asks for it, checked
  // like the session stream: common/tls_stream.h) and presents the
  // session's id and key; fails if npud does not welcome the channel
  // within `timeout`.
  static absl::StatusOr<std::unique_ptr<BulkChannel>> Connect(const std::string& host, int port,
                                                              uint64_t session_id,
                                                              const std::string& key,
                                                              absl::Duration timeout);
  ~BulkChannel();  // Shutdown()
  BulkChannel(const BulkChannel&) = delete;
  BulkChannel& operator=(const BulkChannel&) = delete;

  // False once the connection has broken.
  bool usable() const ABSL_LOCKS_EXCLUDED(mu_);

  // Host-to-device: `src` holds transfer `transfer`'s bytes, sent when npud
  // pulls them. `src` must stay valid until Withdraw(transfer) returns or,
  // with `forget_when_sent`, until all of it was sent (or npud cancelled
  // the transfer, or the channel broke).
  void Offer(uint64_t transfer, absl::Span<const uint8_t> src, bool forget_when_sent)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Forgets an offer; waits while its bytes are being written.
  void Withdraw(uint64_t transfer) ABSL_LOCKS_EXCLUDED(mu_);
  // Waits while bytes of [data, data + size) are being written: npud may
  // have all of them, and answered the copy, before the write returns, so
  // memory the application frees must wait for it (aclrtFreeHost).
  void AwaitWritesFrom(const void* data, size_t size) ABSL_LOCKS_EXCLUDED(mu_);

  // Device-to-host: the bytes of `transfer` land in `dst` as they arrive.
  void Expect(uint64_t transfer, absl::Span<uint8_t> dst) ABSL_LOCKS_EXCLUDED(mu_);
  // Waits until all of the transfer's bytes have arrived, then forgets it;
  // Unavailable if the channel broke first.
  absl::Status Collect(uint64_t transfer) ABSL_LOCKS_EXCLUDED(mu_);
  // Forgets an expected transfer whose bytes will not come (its read
  // failed before it ran).
  void Forget(uint64_t transfer) ABSL_LOCKS_EXCLUDED(mu_);

  // Ends the connection and joins the threads.
  void Shutdown() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Offered {
    absl::Span<const uint8_t> src;
    bool forget_when_sent;
    uint64_t sent = 0;
    bool writing = false;
  };
  struct Expected {
    absl::Span<uint8_t> dst;
    uint64_t received = 0;
  };

  explicit BulkChannel(std::shared_ptr<ByteStream> stream);
  void ReadLoop() ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status ReceiveData(const bulk::FrameHeader& header) ABSL_LOCKS_EXCLUDED(mu_);
  void SendLoop() ABSL_LOCKS_EXCLUDED(mu_);
  // Writes [offset, offset+length) of an offer, if it is still offered.
  absl::Status SendPulled(const bulk::FrameHeader& pull) ABSL_LOCKS_EXCLUDED(mu_);
  void Break(const absl::Status& why) ABSL_LOCKS_EXCLUDED(mu_);

  const std::shared_ptr<ByteStream> stream_;
  mutable absl::Mutex mu_;
  absl::Status broken_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Offered> offered_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Expected> expected_ ABSL_GUARDED_BY(mu_);
  std::deque<bulk::FrameHeader> pulls_ ABSL_GUARDED_BY(mu_);
  std::thread reader_;
  std::thread sender_;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_TRANSPORT_BULK_CHANNEL_H_
