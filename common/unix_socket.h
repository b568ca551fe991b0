// unix_socket.h
//
// Unix stream sockets by path, as npud and its clients use them: connect,
// listen (replacing a stale socket file), and "does a server answer here".

#ifndef NPUD_COMMON_UNIX_SOCKET_H_
#define NPUD_COMMON_UNIX_SOCKET_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/unique_fd.h"

namespace npud {

// A connected socket; Unavailable if nothing listens at `path`,
// PermissionDenied if this process may not connect to it (EACCES/EPERM: the
// socket's mode or a directory on the way), InvalidArgument if the path is
// too long for a socket address,
// DeadlineExceeded if the server's backlog stays full for `timeout`.
absl::StatusOr<UniqueFd> ConnectUnixSocket(const std::string& path,
                                           absl::Duration timeout = absl::InfiniteDuration());

// True if a server accepts connections at `path` within `timeout`.
bool UnixSocketAnswers(const std::string& path, absl::Duration timeout = absl::Seconds(2));

// Removes the socket file at `path` unless a live server answers there
// (AlreadyExists). A missing file is fine.
absl::Status RemoveStaleUnixSocket(const std::string& path);

// A listening socket at `path`; whatever file was there is replaced (callers
// check for a live owner first with RemoveStaleUnixSocket).
absl::StatusOr<UniqueFd> ListenUnixSocket(const std::string& path, int backlog);

}  // namespace npud

#endif  // NPUD_COMMON_UNIX_SOCKET_H_
