// framed_sink.h
//
// FramedSink: a session's server messages as frames on a ByteStream — the
// local protocol's unix socket or a framed session on npud's TCP port
// (plain or TLS).
//
// A message is written at once by the thread that sends it, without
// blocking; only when the stream is full does the rest wait in `pending_`
// for the writer thread (started then), and later messages queue behind it,
// so order is kept and no scheduler worker ever blocks on a slow client.
// What the client has not taken yet is bounded (MessageSink): past the hard
// limit the connection is ended.

#ifndef NPUD_DAEMON_FRAMED_SINK_H_
#define NPUD_DAEMON_FRAMED_SINK_H_

#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "common/byte_stream.h"
#include "daemon/send_budget.h"

namespace npud::daemon {

class FramedSink final : public BudgetedSink {
 public:
  // `stream` may be read by another thread meanwhile (ByteStream allows one
  // reader and one writer).
  explicit FramedSink(std::shared_ptr<ByteStream> stream) : stream_(std::move(stream)) {}
  ~FramedSink() override { Close(); }

  void Send(v1::ServerMessage message) override;
  // Shuts the stream down: the connection's reader sees the end.
  void Disconnect() override;
  // Stops writing (the writer thread finishes the write it is in); later
  // messages are dropped and the stream is no longer touched.
  void Close();

 private:
  // Writes what the stream takes without blocking; returns the bytes taken.
  size_t WriteNow(const std::string& frame) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The client stopped reading: drop what waits and end the connection.
  void Overflow() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void WriterLoop();

  const std::shared_ptr<ByteStream> stream_;
  absl::Mutex mu_;
  // Bytes the stream did not take yet (counted in budget_ with those of the
  // batch the writer thread is sending).
  std::string pending_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool broken_ ABSL_GUARDED_BY(mu_) = false;
  std::thread writer_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_FRAMED_SINK_H_
