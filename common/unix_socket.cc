#include "common/unix_socket.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace npud {
namespace {

absl::StatusOr<sockaddr_un> AddressOf(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(address.sun_path)) {
    return absl::InvalidArgumentError(absl::StrCat("unusable unix socket path '", path, "'"));
  }
  std::memcpy(address.sun_path, path.data(), path.size());
  return address;
}

}  // namespace

absl::StatusOr<UniqueFd> ConnectUnixSocket(const std::string& path, absl::Duration timeout) {
  NPUD_ASSIGN_OR_RETURN(const sockaddr_un address, AddressOf(path));
  UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return absl::InternalError(std::strerror(errno));
  // A unix connect() waits for room in the backlog; the send timeout bounds it.
  const bool bounded = timeout != absl::InfiniteDuration();
  if (bounded) {
    const timeval tv = absl::ToTimeval(timeout);
    setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  }
  if (connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    if (bounded && (errno == EAGAIN || errno == EINPROGRESS)) {
      return absl::DeadlineExceededError(absl::StrCat(
          "the server at ", path, " did not accept within ", absl::FormatDuration(timeout)));
    }
    // The file system refused this uid (the socket's mode or a directory on
    // its path): no retry changes that, unlike a server not listening yet.
    if (errno == EACCES || errno == EPERM) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot connect to ", path, ": ", std::strerror(errno)));
    }
    return absl::UnavailableError(
        absl::StrCat("cannot connect to ", path, ": ", std::strerror(errno)));
  }
  if (bounded) {
    const timeval none{0, 0};
    setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &none, sizeof(none));
  }
  return fd;
}

bool UnixSocketAnswers(const std::string& path, absl::Duration timeout) {
  return ConnectUnixSocket(path, timeout).ok();
}

absl::Status RemoveStaleUnixSocket(const std::string& path) {
  if (access(path.c_str(), F_OK) != 0) return absl::OkStatus();
  if (UnixSocketAnswers(path)) {
    return absl::AlreadyExistsError(absl::StrCat("another npud is serving ", path));
  }
  unlink(path.c_str());
  return absl::OkStatus();
}

absl::StatusOr<UniqueFd> ListenUnixSocket(const std::string& path, int backlog) {
  NPUD_ASSIGN_OR_RETURN(const sockaddr_un address, AddressOf(path));
  UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return absl::InternalError(std::strerror(errno));
  unlink(path.c_str());
  if (bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
      listen(fd.get(), backlog) != 0) {
    return absl::InternalError(absl::StrCat("cannot listen on ", path, ": ", std::strerror(errno)));
  }
  return fd;
}

}  // namespace npud
