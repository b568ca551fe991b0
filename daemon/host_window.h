// host_window.h
//
// HostWindow: a client's host memory mapped into npud (a memfd the client
// sent over the local protocol), so copies between it and device memory are
// one memcpy in the daemon. Shared by the session that registered it and by
// the copies in flight; unmapped when the last of them lets go. The file is
// sealed against shrinking before npud maps it (a file that cannot be is
// refused): the client keeps its descriptor, and a file cut short under
// npud's mapping would make npud's next access to it a SIGBUS.

#ifndef NPUD_DAEMON_HOST_WINDOW_H_
#define NPUD_DAEMON_HOST_WINDOW_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"

namespace npud::daemon {

class HostWindow {
 public:
  // Maps `size` bytes of `fd` (shared) and keeps `fd` (closed with the
  // window, or at once on failure).
  static absl::StatusOr<std::shared_ptr<HostWindow>> Map(int fd, uint64_t size);
  ~HostWindow();
  HostWindow(const HostWindow&) = delete;
  HostWindow& operator=(const HostWindow&) = delete;

  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  // The shared memory file, for mapping it elsewhere too.
  int fd() const { return fd_; }

 private:
  HostWindow(int fd, uint8_t* data, uint64_t size) : fd_(fd), data_(data), size_(size) {}
  const int fd_;
  uint8_t* const data_;
  const uint64_t size_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_HOST_WINDOW_H_
