// byte_stream.h
//
// ByteStream: a connected, blocking, two-way stream of bytes — what the bulk
// channel and framed sessions run over: a socket, or TLS on a TCP socket
// (common/tls_stream.h).
//
// One thread may read while another writes; reads are never concurrent
// with reads, nor writes with writes. Shutdown() may be called from any
// thread at any time: blocked and later reads and writes then fail.

#ifndef NPUD_COMMON_BYTE_STREAM_H_
#define NPUD_COMMON_BYTE_STREAM_H_

#include <sys/uio.h>

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "common/unique_fd.h"

namespace npud {

class ByteStream {
 public:
  virtual ~ByteStream() = default;
  // Reads exactly `size` bytes into `data`. OutOfRange when the stream ends
  // cleanly before the first byte, DataLoss when it ends after some,
  // DeadlineExceeded past a receive timeout, Unavailable on other errors.
  virtual absl::Status ReadFully(void* data, size_t size) = 0;
  // Writes all of `pieces`, in order (short writes and EINTR are retried).
  virtual absl::Status WriteAll(absl::Span<const iovec> pieces) = 0;
  // Writes as much of `data` as the stream takes without waiting and
  // returns how much that was (0 when it is full). A write the stream could
  // only start must be continued with the same bytes: the next TryWrite or
  // WriteAll begins at the first byte not reported as taken. Not
  // concurrent with other writes.
  virtual absl::StatusOr<size_t> TryWrite(absl::string_view data) = 0;
  // Bounds each later read (zero: unbounded).
  virtual void SetReadTimeout(absl::Duration timeout) = 0;
  virtual void Shutdown() = 0;
};

std::unique_ptr<ByteStream> MakeSocketStream(UniqueFd socket);
// A stream on a socket its caller owns: it must stay open as long as the
// stream is used (not merely alive).
std::unique_ptr<ByteStream> MakeBorrowedSocketStream(int socket);

// A piece for WriteAll.
inline iovec Piece(const void* data, size_t size) { return iovec{const_cast<void*>(data), size}; }

// A TCP connection to host:port ("localhost", "10.0.0.7", "::1"), within
// `timeout`, with TCP_NODELAY set.
absl::StatusOr<UniqueFd> ConnectTcp(const std::string& host, int port, absl::Duration timeout);

// A listening TCP socket on host:port (port 0: any free one); *bound_port
// gets the port.
absl::StatusOr<UniqueFd> ListenTcp(const std::string& host, int port, int* bound_port);

}  // namespace npud

#endif  // NPUD_COMMON_BYTE_STREAM_H_
