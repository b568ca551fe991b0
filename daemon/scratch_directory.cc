#include "daemon/scratch_directory.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"

namespace npud::daemon {
namespace {

namespace fs = std::filesystem;

absl::Status ErrnoError(int err) { return absl::InternalError(std::strerror(err)); }

}  // namespace

absl::StatusOr<std::unique_ptr<ScratchDirectory>> ScratchDirectory::Create(
    const std::string& parent) {
  std::string pattern = absl::StrCat(parent.empty() ? "/tmp" : parent, "/npud-rtc-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(
        absl::StrCat("cannot create a directory in ", parent, ": ", std::strerror(errno)));
  }
  return std::unique_ptr<ScratchDirectory>(new ScratchDirectory(std::move(pattern)));
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ScratchDirectory::PathOf(absl::string_view relative) const {
  return absl::StrCat(path_, "/", relative);
}

absl::Status ScratchDirectory::WriteNewFile(absl::string_view relative, absl::string_view content) {
  const fs::path path = PathOf(relative);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return absl::InternalError(ec.message());
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return ErrnoError(errno);
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      close(fd);
      return ErrnoError(err);
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) return ErrnoError(errno);
  return absl::OkStatus();
}

absl::Status ScratchDirectory::ReplaceFile(absl::string_view relative, absl::string_view content) {
  std::error_code ec;
  fs::remove(PathOf(relative), ec);
  return WriteNewFile(relative, content);
}

absl::StatusOr<std::string> ScratchDirectory::ReadFile(absl::string_view relative) const {
  const int fd = open(PathOf(relative).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno);
  std::string content;
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      close(fd);
      return ErrnoError(err);
    }
    if (n == 0) break;
    content.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return content;
}

}  // namespace npud::daemon
