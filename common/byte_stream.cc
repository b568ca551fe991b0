#include "common/byte_stream.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace npud {
namespace {

class SocketStream final : public ByteStream {
 public:
  // `owned` closes the socket with the stream; `socket` is what it uses.
  SocketStream(UniqueFd owned, int socket) : owned_(std::move(owned)), socket_(socket) {}

  absl::Status ReadFully(void* data, size_t size) override {
    char* at = static_cast<char*>(data);
    size_t done = 0;
    while (done < size) {
      const ssize_t n = recv(socket_, at + done, size - done, MSG_WAITALL);
      if (n > 0) {
        done += static_cast<size_t>(n);
        continue;
      }
      if (n == 0) {
        return done == 0 ? absl::OutOfRangeError("end of stream")
                         : absl::DataLossError("the stream ended inside a frame");
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        return absl::DeadlineExceededError("nothing arrived within the timeout");
      }
      return absl::UnavailableError(absl::StrCat("recv: ", std::strerror(errno)));
    }
    return absl::OkStatus();
  }

  absl::Status WriteAll(absl::Span<const iovec> pieces) override {
    std::vector<iovec> left(pieces.begin(), pieces.end());
    size_t first = 0;
    while (first < left.size()) {
      msghdr message{};
      message.msg_iov = &left[first];
      message.msg_iovlen = std::min<size_t>(left.size() - first, IOV_MAX);
      const ssize_t n = sendmsg(socket_, &message, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EINTR) continue;
        return absl::UnavailableError(absl::StrCat("send: ", std::strerror(errno)));
      }
      // Skip what went out, possibly ending inside a piece.
      size_t sent = static_cast<size_t>(n);
      while (first < left.size() && sent >= left[first].iov_len) {
        sent -= left[first].iov_len;
        ++first;
      }
      if (first < left.size()) {
        left[first].iov_base = static_cast<char*>(left[first].iov_base) + sent;
        left[first].iov_len -= sent;
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<size_t> TryWrite(absl::string_view data) override {
    while (true) {
      const ssize_t n = send(socket_, data.data(), data.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      return absl::UnavailableError(absl::StrCat("send: ", std::strerror(errno)));
    }
  }

  void SetReadTimeout(absl::Duration timeout) override {
    const timeval tv = absl::ToTimeval(timeout);
    setsockopt(socket_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  }

  void Shutdown() override { shutdown(socket_, SHUT_RDWR); }

 private:
  const UniqueFd owned_;
  const int socket_;
};

absl::Status Errno(absl::string_view what) {
  return absl::UnavailableError(absl::StrCat(what, ": ", std::strerror(errno)));
}

// Addresses of host:port, for connecting (passive false) or listening.
absl::StatusOr<addrinfo*> Resolve(const std::string& host, int port, bool passive) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  const int rc =
      getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found);
  if (rc != 0) {
    return absl::UnavailableError(absl::StrCat("cannot resolve ", host, ": ", gai_strerror(rc)));
  }
  return found;
}

void SetNoDelay(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

}  // namespace

std::unique_ptr<ByteStream> MakeSocketStream(UniqueFd socket) {
  const int fd = socket.get();
  return std::make_unique<SocketStream>(std::move(socket), fd);
}

std::unique_ptr<ByteStream> MakeBorrowedSocketStream(int socket) {
  return std::make_unique<SocketStream>(UniqueFd(), socket);
}

absl::StatusOr<UniqueFd> ConnectTcp(const std::string& host, int port, absl::Duration timeout) {
  absl::StatusOr<addrinfo*> found = Resolve(host, port, /*passive=*/false);
  if (!found.ok()) return found.status();
  const absl::Time deadline = absl::Now() + timeout;
  absl::Status last = absl::UnavailableError(absl::StrCat("no address for ", host));
  for (addrinfo* ai = *found; ai != nullptr; ai = ai->ai_next) {
    UniqueFd fd(socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!fd.valid()) {
      last = Errno("socket");
      continue;
    }
    if (connect(fd.get(), ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
      last = Errno(absl::StrCat("connect to ", host, ":", port));
      continue;
    }
    pollfd p{fd.get(), POLLOUT, 0};
    const int wait_ms =
        static_cast<int>(std::max<int64_t>(0, absl::ToInt64Milliseconds(deadline - absl::Now())));
    if (poll(&p, 1, wait_ms) != 1) {
      last =
          absl::DeadlineExceededError(absl::StrCat("connect to ", host, ":", port, " timed out"));
      continue;
    }
    int error = 0;
    socklen_t length = sizeof(error);
    getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
      errno = error;
      last = Errno(absl::StrCat("connect to ", host, ":", port));
      continue;
    }
    const int flags = fcntl(fd.get(), F_GETFL);
    fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    SetNoDelay(fd.get());
    freeaddrinfo(*found);
    return fd;
  }
  freeaddrinfo(*found);
  return last;
}

absl::StatusOr<UniqueFd> ListenTcp(const std::string& host, int port, int* bound_port) {
  absl::StatusOr<addrinfo*> found = Resolve(host, port, /*passive=*/true);
  if (!found.ok()) return found.status();
  absl::Status last = absl::UnavailableError(absl::StrCat("no address for ", host));
  for (addrinfo* ai = *found; ai != nullptr; ai = ai->ai_next) {
    UniqueFd fd(socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
      last = Errno("socket");
      continue;
    }
    const int one = 1;
    setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd.get(), ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd.get(), 128) != 0) {
      last = Errno(absl::StrCat("listen on ", host, ":", port));
      continue;
    }
    sockaddr_storage bound{};
    socklen_t length = sizeof(bound);
    getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &length);
    *bound_port =
        ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                          : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    freeaddrinfo(*found);
    return fd;
  }
  freeaddrinfo(*found);
  return last;
}

}  // namespace npud
