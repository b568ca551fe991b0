#include "daemon/framed_sink.h"

#include <utility>

#include "common/frame_io.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {

void FramedSink::Send(v1::ServerMessage message) {
  // Serialized straight behind the header: bulk data is copied once.
  std::string frame(kFrameHeaderBytes, '\0');
  message.AppendToString(&frame);
  SealFrame(&frame);
  {
    absl::MutexLock lock(&mu_);
    if (closed_ || broken_) return;
    const size_t sent = writing_ || !pending_.empty() ? 0 : WriteNow(frame);
    if (broken_) {
      // Fall through to End(): parked producers must not wait for a stream
      // that is gone.
    } else if (sent == frame.size()) {
      return;
    } else if (budget_.Add(frame.size() - sent)) {
      pending_.append(frame, sent);  // the writer thread sends it
      if (!writer_.joinable()) writer_ = std::thread([this] { WriterLoop(); });
      return;
    } else {
      Overflow();
    }
  }
  budget_.End();
}

void FramedSink::Disconnect() {
  // Under mu_: once Close() has run, a borrowed socket may be closed and its
  // number another's.
  absl::MutexLock lock(&mu_);
  if (!closed_) stream_->Shutdown();
}

void FramedSink::Close() {
  std::thread writer;
  {
    absl::MutexLock lock(&mu_);
    if (closed_) return;
    closed_ = true;
    writer.swap(writer_);
  }
  budget_.End();
  if (writer.joinable()) writer.join();
}

size_t FramedSink::WriteNow(const std::string& frame) {
  size_t sent = 0;
  while (sent < frame.size()) {
    absl::StatusOr<size_t> n = stream_->TryWrite(absl::string_view(frame).substr(sent));
    if (!n.ok()) {
      broken_ = true;
      break;
    }
    if (*n == 0) break;  // full: the writer thread goes on from here
    sent += *n;
  }
  return sent;
}

void FramedSink::Overflow() {
  spdlog::error("client does not read its replies ({} MiB unread); disconnecting",
                budget_.unread() >> 20);
  broken_ = true;
  pending_.clear();
  pending_.shrink_to_fit();
  stream_->Shutdown();
}

void FramedSink::WriterLoop() {
  absl::MutexLock lock(&mu_);
  while (true) {
    auto ready = [this]()
                     ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return closed_ || !pending_.empty(); };
    mu_.Await(absl::Condition(&ready));
    if (closed_) return;
    std::string batch;
    batch.swap(pending_);
    writing_ = true;
    mu_.Unlock();
    // Blocking write: the stream is full, nothing better to do.
    const iovec piece = Piece(batch.data(), batch.size());
    const bool ok = stream_->WriteAll(absl::MakeConstSpan(&piece, 1)).ok();
    // Wakes parked reads; never under our lock.
    if (ok) {
      budget_.Remove(batch.size());
    } else {
      budget_.End();
    }
    mu_.Lock();
    writing_ = false;
    if (!ok) broken_ = true;
  }
}

}  // namespace npud::daemon
