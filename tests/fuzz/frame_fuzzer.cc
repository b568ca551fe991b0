// libFuzzer target: the local protocol's frame reader (common/frame_io) on
// arbitrary bytes from a peer. Every input must end in a frame or a clean
// error — no crash, no hang, no leak, no allocation sized by a header alone.
//
// The bytes arrive through a real socket pair, written by a second thread,
// so partial reads happen as they do in npud.

#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "common/frame_io.h"
#include "google/protobuf/stubs/logging.h"
#include "npud/v1/npud.pb.h"

// Protobuf logs every string field with bad UTF-8; the inputs are meant to
// have them.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return 0;
  std::thread writer([&] {
    size_t sent = 0;
    while (sent < size) {
      const ssize_t n = send(pair[1], data + sent, size - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += n;
    }
    shutdown(pair[1], SHUT_WR);
  });
  {
    npud::FrameReader reader(pair[0]);
    std::string payload;
    std::vector<int> fds;
    npud::v1::ClientMessage message;
    while (reader.Read(&payload, &fds).ok()) {
      for (int fd : fds) close(fd);
      message.ParseFromString(payload);
    }
  }
  // The reader stopped early on a bad frame: unblock the writer.
  shutdown(pair[0], SHUT_RDWR);
  writer.join();
  close(pair[0]);
  close(pair[1]);
  return 0;
}
