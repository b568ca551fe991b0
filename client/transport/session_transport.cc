#include "client/transport/session_transport.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"

namespace npud::client {

absl::StatusOr<v1::HelloReply> SessionTransport::Connect(const v1::Hello& hello,
                                                         TransportReceiver* receiver) {
  const absl::Duration timeout = ConnectTimeout();
  const absl::Time deadline = absl::Now() + timeout;
  NPUD_RETURN_IF_ERROR(Open(timeout));
  {
    absl::MutexLock lock(&mu_);
    opened_ = true;
  }
  v1::ClientMessage first;
  *first.mutable_hello() = hello;
  const absl::Status sent = WriteFirst(first);
  v1::ServerMessage reply;
  if (absl::Status read = Read(&reply, deadline); !read.ok()) {
    if (!sent.ok()) return sent;
    if (absl::IsDeadlineExceeded(read) || absl::Now() >= deadline) {
      return absl::DeadlineExceededError(absl::StrCat(
          "npud at ", name_, " did not answer the hello within ", absl::FormatDuration(timeout)));
    }
    return HelloFailed(read);
  }
  if (reply.has_refused()) {
    return absl::Status(static_cast<absl::StatusCode>(reply.refused().code()),
                        reply.refused().message());
  }
  if (!sent.ok()) return sent;
  if (!reply.has_hello()) return absl::InternalError("npud did not answer the hello with a hello");
  HelloAnswered();
  receiver_ = receiver;
  reader_ = std::thread([this] { ReadLoop(); });
  return std::move(*reply.mutable_hello());
}

absl::Status SessionTransport::HelloFailed(const absl::Status& read) const {
  (void)read;
  return absl::UnavailableError(absl::StrCat("npud at ", name_, " closed the session"));
}

void SessionTransport::Shutdown() {
  {
    absl::MutexLock lock(&mu_);
    if (shut_down_) return;
    shut_down_ = true;
    if (!opened_) return;
  }
  EndWriting();
  if (reader_.joinable()) reader_.join();
}

void SessionTransport::ReadLoop() {
  v1::ServerMessage message;
  absl::Status status;
  while ((status = Read(&message, absl::InfiniteFuture())).ok()) {
    receiver_->OnMessage(std::move(message));
    message.Clear();
  }
  if (absl::IsOutOfRange(status)) status = absl::UnavailableError("npud ended the session");
  receiver_->OnDisconnect(status);
}

}  // namespace npud::client
