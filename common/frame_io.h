// frame_io.h
//
// The framing of the local protocol: npud's Session messages over a unix
// stream socket without gRPC, for clients on the daemon's host. Each frame is
// an 8-byte header — payload length (u32, little endian), number of file
// descriptors that travel with it (u16), zero (u16) — then the serialized
// message. Descriptors (shared memory, see RegisterHostMemory) ride as
// SCM_RIGHTS on the header's bytes.
//
// Descriptors may only arrive with the first bytes of a frame's header, and
// no more than the header announces: anything else is a malformed frame, and
// the stray descriptors are closed at once.
//
// Blocking I/O on one socket; a FrameReader is used by one thread, writes are
// serialized by the caller.

#ifndef NPUD_COMMON_FRAME_IO_H_
#define NPUD_COMMON_FRAME_IO_H_

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace npud {

// Frames larger than this are refused (a garbage length, not a message).
constexpr uint32_t kMaxFrameBytes = 256u << 20;
constexpr int kMaxFrameFds = 16;

// Writes one frame; `fds` are duplicated into the receiver. Retries short
// writes and EINTR. Fails with Unavailable when the peer has gone.
absl::Status WriteFrame(int socket, absl::string_view payload, absl::Span<const int> fds = {});

constexpr size_t kFrameHeaderBytes = 8;

// A frame's payload is read into a buffer that grows as its bytes arrive:
// the first kFrameFirstStep at once, then doubling. Growth past that first
// step is asked of a FrameAllowance, the party that pays for the memory and
// decides how long a frame may take (npud: the session).
constexpr size_t kFrameFirstStep = 64 << 10;

class FrameAllowance {
 public:
  virtual ~FrameAllowance() = default;
  // The frame being read, `length` bytes announced, is about to hold
  // `bytes` in all (more than kFrameFirstStep and than at the last call of
  // this frame). An error ends the read with it.
  virtual absl::Status Grow(size_t bytes, uint32_t length) = 0;
};

// For frames without descriptors built in place: `*frame` holds
// kFrameHeaderBytes of room, then the payload; this fills in the header.
void SealFrame(std::string* frame);

// One recvmsg() of at most `size` bytes into `data`, with `flags`; the
// descriptors that came with them are appended to *fds (the caller owns
// them), and *truncated says whether the kernel dropped some that did not
// fit (more than kMaxFrameFds). Returns what recvmsg() returns.
ssize_t ReceiveWithDescriptors(int socket, char* data, size_t size, int flags,
                               std::vector<int>* fds, bool* truncated);

class FrameReader {
 public:
  explicit FrameReader(int socket) : socket_(socket) {}
  // Growth of later frames is asked of `allowance` (not owned; null: none).
  void set_allowance(FrameAllowance* allowance) { allowance_ = allowance; }
  ~FrameReader();
  FrameReader(const FrameReader&) = delete;
  FrameReader& operator=(const FrameReader&) = delete;

  // Reads the next frame into *payload and its descriptors into *fds (the
  // caller owns them). OutOfRange at a clean end of stream; DataLoss for a
  // malformed frame; Unavailable for socket errors.
  absl::Status Read(std::string* payload, std::vector<int>* fds);

 private:
  // Reads exactly `size` bytes. Descriptors are accepted only while nothing
  // of the frame has been read yet (`at_frame_start`), at most kMaxFrameFds.
  absl::Status ReadFully(char* data, size_t size, bool at_frame_start);
  // Reads a payload of `length` bytes into *payload, growing it as bytes
  // arrive: a header alone never makes the reader allocate its length.
  absl::Status ReadPayload(std::string* payload, uint32_t length);
  void CloseReceived();

  const int socket_;
  FrameAllowance* allowance_ = nullptr;
  // Descriptors received but not yet handed out with their frame.
  std::deque<int> fds_;
};

}  // namespace npud

#endif  // NPUD_COMMON_FRAME_IO_H_
