// The local transport: framed Session messages on a unix socket (no gRPC),
// with file descriptors for shared memory, and a reader thread.

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "client/transport/hello_reply.h"
#include "client/transport/transport.h"
#include "common/frame_io.h"
#include "common/status_macros.h"
#include "common/unix_socket.h"

namespace npud::client {
namespace {

class LocalTransport final : public Transport {
 public:
  explicit LocalTransport(std::string path) : path_(std::move(path)) {}
  ~LocalTransport() override {
    Shutdown();
    if (socket_ >= 0) close(socket_);
  }

  absl::StatusOr<v1::HelloReply> Connect(const v1::Hello& hello,
                                         TransportReceiver* receiver) override {
    const absl::Duration timeout = ConnectTimeout();
    const absl::Time deadline = absl::Now() + timeout;
    NPUD_ASSIGN_OR_RETURN(UniqueFd connected, ConnectUnixSocket(path_, timeout));
    socket_ = connected.release();
    // The hello and its reply within what is left of the timeout; calls
    // after it wait as long as they take.
    SetTimeouts(std::max(deadline - absl::Now(), absl::Milliseconds(1)));
    v1::ClientMessage first;
    *first.mutable_hello() = hello;
    // A daemon that refuses the connection (a limit, a uid it does not
    // admit) sends why and closes, maybe before the hello is out: the
    // refusal is read even when the write failed.
    const absl::Status sent = WriteFrame(socket_, first.SerializeAsString());
    reader_ = std::make_unique<FrameReader>(socket_);
    std::string payload;
    std::vector<int> fds;
    if (absl::Status s = reader_->Read(&payload, &fds); !s.ok()) {
      if (!sent.ok()) return sent;
      if (absl::Now() >= deadline) {
        return absl::DeadlineExceededError(absl::StrCat(
            "npud at ", path_, " did not answer the hello within ", absl::FormatDuration(timeout)));
      }
      return absl::UnavailableError(absl::StrCat("npud at ", path_, " closed the session"));
    }
    SetTimeouts(absl::ZeroDuration());
    for (int fd : fds) close(fd);
    NPUD_ASSIGN_OR_RETURN(v1::HelloReply reply, DecodeHelloReply(payload, sent));
    receiver_ = receiver;
    thread_ = std::thread([this] { ReadLoop(); });
    return reply;
  }

  // Bounds each read and write on the socket (zero: unbounded).
  void SetTimeouts(absl::Duration timeout) {
    const timeval tv = absl::ToTimeval(timeout);
    setsockopt(socket_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(socket_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  }

  absl::Status Send(v1::ClientMessage message) override {
    return SendWithFiles(std::move(message), {});
  }

  bool CanShareMemory() const override { return true; }

  absl::Status SendWithFiles(v1::ClientMessage message, absl::Span<const int> fds) override {
    message.SerializeToString(&buffer_);
    absl::Status s = WriteFrame(socket_, buffer_, fds);
    if (!s.ok()) {
      return absl::UnavailableError(absl::StrCat("lost the connection to npud at ", path_));
    }
    return s;
  }

  void Shutdown() override {
    {
      absl::MutexLock lock(&mu_);
      if (shut_down_) return;
      shut_down_ = true;
    }
    if (socket_ < 0) return;
    // The daemon sees the end of the stream and closes the session; the
    // reader then sees the end of the other direction.
    shutdown(socket_, SHUT_WR);
    if (thread_.joinable()) thread_.join();
  }

  std::string Describe() const override { return "unix://" + path_ + " (local protocol)"; }

 private:
  void ReadLoop() {
    std::string payload;
    std::vector<int> fds;
    absl::Status status;
    while (true) {
      status = reader_->Read(&payload, &fds);
      if (!status.ok()) break;
      for (int fd : fds) close(fd);
      v1::ServerMessage message;
      if (!message.ParseFromString(payload)) {
        status = absl::DataLossError("undecodable message from npud");
        break;
      }
      receiver_->OnMessage(std::move(message));
    }
    if (absl::IsOutOfRange(status)) status = absl::UnavailableError("npud ended the session");
    receiver_->OnDisconnect(status);
  }

  const std::string path_;
  int socket_ = -1;
  std::unique_ptr<FrameReader> reader_;
  // Reused by sends (which callers serialize).
  std::string buffer_;
  TransportReceiver* receiver_ = nullptr;
  std::thread thread_;
  absl::Mutex mu_;
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

std::unique_ptr<Transport> MakeLocalTransport(const std::string& path) {
  return std::make_unique<LocalTransport>(path);
}

}  // namespace npud::client
