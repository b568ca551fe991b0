// raw_session.h
//
// RawSession: a session on npud's local protocol (<socket>.local) spoken by
// hand, frame by frame, as a hostile client would, without the client
// library: the hello, then one call at a time with an optional descriptor
// riding along. The same frames make a framed session on npud's TCP port
// once the connection has sent its session header (common/bulk_frame.h).

#ifndef NPUD_TESTS_E2E_RAW_SESSION_H_
#define NPUD_TESTS_E2E_RAW_SESSION_H_

#include <cstdint>
#include <string>

#include "common/frame_io.h"
#include "npud/v1/npud.pb.h"

namespace npud::testing {

class RawSession {
 public:
  // Says hello with `auth_token` on the connected socket `fd` (owned).
  RawSession(int fd, const std::string& auth_token);
  ~RawSession();
  RawSession(const RawSession&) = delete;
  RawSession& operator=(const RawSession&) = delete;

  // True if the daemon answered the hello.
  bool ok() const { return ok_; }
  // The socket, for attacks below the level of calls.
  int fd() const { return fd_; }

  // Sends `call` (with `file` riding along) and returns its reply (empty
  // once the connection is gone).
  npud::v1::Reply Call(npud::v1::Call call, int file = -1);

 private:
  const int fd_;
  npud::FrameReader reader_;
  bool ok_ = false;
  uint64_t next_id_ = 0;
};

}  // namespace npud::testing

#endif  // NPUD_TESTS_E2E_RAW_SESSION_H_
