// unique_fd.h
//
// UniqueFd: sole ownership of a file descriptor, closed when the owner goes
// away. Movable, not copyable; -1 means "none".

#ifndef NPUD_COMMON_UNIQUE_FD_H_
#define NPUD_COMMON_UNIQUE_FD_H_

#include <unistd.h>

#include <utility>

namespace npud {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  // Gives up ownership without closing.
  int release() { return std::exchange(fd_, -1); }
  // Closes the current descriptor (if any) and owns `fd` instead.
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace npud

#endif  // NPUD_COMMON_UNIQUE_FD_H_
