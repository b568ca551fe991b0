// The local transport: framed Session messages on a unix socket (no gRPC),
// with file descriptors for shared memory.

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "client/transport/session_transport.h"
#include "common/frame_io.h"
#include "common/status_macros.h"
#include "common/unix_socket.h"

namespace npud::client {
namespace {

class LocalTransport final : public SessionTransport {
 public:
  explicit LocalTransport(std::string path) : SessionTransport(path), path_(std::move(path)) {}
  ~LocalTransport() override {
    Shutdown();
    if (socket_ >= 0) close(socket_);
  }

  absl::Status Send(v1::ClientMessage message) override {
    return SendWithFiles(std::move(message), {});
  }

  bool CanShareMemory() const override { return true; }

  absl::Status SendWithFiles(v1::ClientMessage message, absl::Span<const int> fds) override {
    message.SerializeToString(&buffer_);
    if (!WriteFrame(socket_, buffer_, fds).ok()) {
      return absl::UnavailableError(absl::StrCat("lost the connection to npud at ", path_));
    }
    return absl::OkStatus();
  }

  std::string Describe() const override { return "unix://" + path_ + " (local protocol)"; }

 private:
  absl::Status Open(absl::Duration timeout) override {
    const absl::Time deadline = absl::Now() + timeout;
    NPUD_ASSIGN_OR_RETURN(UniqueFd connected, ConnectUnixSocket(path_, timeout));
    socket_ = connected.release();
    // The hello and its reply within what is left of the timeout.
    SetTimeouts(std::max(deadline - absl::Now(), absl::Milliseconds(1)));
    reader_ = std::make_unique<FrameReader>(socket_);
    return absl::OkStatus();
  }

  absl::Status WriteFirst(const v1::ClientMessage& first) override {
    return WriteFrame(socket_, first.SerializeAsString());
  }

  absl::Status Read(v1::ServerMessage* message, absl::Time /*deadline: the socket's*/) override {
    std::vector<int> fds;
    NPUD_RETURN_IF_ERROR(reader_->Read(&payload_, &fds));
    for (int fd : fds) close(fd);
    if (!message->ParseFromString(payload_)) {
      return absl::DataLossError("undecodable message from npud");
    }
    return absl::OkStatus();
  }

  void HelloAnswered() override { SetTimeouts(absl::ZeroDuration()); }

  // npud sees the end of the stream and closes the session; the reader
  // then sees the end of the other direction.
  void EndWriting() override { shutdown(socket_, SHUT_WR); }

  // Bounds each read and write on the socket (zero: unbounded).
  void SetTimeouts(absl::Duration timeout) {
    const timeval tv = absl::ToTimeval(timeout);
    setsockopt(socket_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(socket_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  }

  const std::string path_;
  int socket_ = -1;
  std::unique_ptr<FrameReader> reader_;
  // Reused by sends (which callers serialize) and by the reader.
  std::string buffer_;
  std::string payload_;
};

}  // namespace

std::unique_ptr<Transport> MakeLocalTransport(const std::string& path) {
  return std::make_unique<LocalTransport>(path);
}

}  // namespace npud::client
