#include "client/core/output_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "absl/strings/str_cat.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {

std::string LocalTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof(text), "%Y%m%d%H%M%S", &local);
  return text;
}

absl::Status MakeDirectories(const std::string& path) {
  std::string at;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!at.empty() && mkdir(at.c_str(), 0700) != 0 && errno != EEXIST) {
        return AclError(kAclFailure,
                        absl::StrCat("cannot create ", at, ": ", std::strerror(errno)));
      }
    }
    if (i < path.size()) at += path[i];
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) {
    return AclError(kAclFailure, absl::StrCat("cannot resolve ", path, ": ", std::strerror(errno)));
  }
  return std::string(resolved);
}

absl::Status WriteFile(const std::string& path, const std::string& bytes, mode_t mode) {
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos) NPUD_RETURN_IF_ERROR(MakeDirectories(path.substr(0, slash)));
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) {
    return AclError(kAclFailure, absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  }
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      close(fd);
      unlink(path.c_str());
      return AclError(kAclFailure, absl::StrCat("cannot write ", path, ": ", std::strerror(error)));
    }
    done += static_cast<size_t>(n);
  }
  if (mode != 0600) fchmod(fd, mode);
  close(fd);
  return absl::OkStatus();
}

}  // namespace npud::client
