#include "daemon/host_window.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"

namespace npud::daemon {

absl::StatusOr<std::shared_ptr<HostWindow>> HostWindow::Map(int fd, uint64_t size) {
  // A file the client could still shrink would turn npud's next copy from
  // it into SIGBUS, and end every session: it must be sealed against that.
  const int seals = fcntl(fd, F_GET_SEALS);
  if (seals < 0 || ((seals & F_SEAL_SHRINK) == 0 && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) != 0)) {
    close(fd);
    return AclError(kRtParamInvalid,
                    "shared host memory must be a memory file that can be sealed against "
                    "shrinking (memfd_create with MFD_ALLOW_SEALING)");
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < size || size == 0) {
    close(fd);
    return AclError(kRtParamInvalid,
                    absl::StrFormat("shared host memory of %u bytes does not fit its file", size));
  }
  void* data = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    const int err = errno;
    close(fd);
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot map shared host memory: %s", std::strerror(err)));
  }
  return std::shared_ptr<HostWindow>(new HostWindow(fd, static_cast<uint8_t*>(data), size));
}

HostWindow::~HostWindow() {
  munmap(data_, size_);
  close(fd_);
}

}  // namespace npud::daemon
