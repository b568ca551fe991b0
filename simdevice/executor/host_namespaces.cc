#include "simdevice/executor/host_namespaces.h"

#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace npud::sim::host {
namespace {

absl::Status SystemError(absl::string_view what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

absl::Status WriteFile(const char* path, const std::string& text) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return SystemError(absl::StrCat("open ", path));
  const bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int err = errno;
  close(fd);
  errno = err;
  return ok ? absl::OkStatus() : SystemError(absl::StrCat("write ", path));
}

// Copies the whole of memory file `from` into a new file `path`.
absl::Status CopyInto(int from, const std::string& path) {
  const int to = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0555);
  if (to < 0) return SystemError(absl::StrCat("create ", path));
  char buffer[1 << 16];
  off_t offset = 0;
  absl::Status status;
  while (true) {
    const ssize_t n = pread(from, buffer, sizeof(buffer), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = SystemError("read kernel binary");
      break;
    }
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = write(to, buffer + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        status = SystemError(absl::StrCat("write ", path));
        break;
      }
      done += w;
    }
    if (!status.ok()) break;
    offset += n;
  }
  close(to);
  return status;
}

}  // namespace

absl::Status EnterNamespaces(uid_t uid, gid_t gid) {
  if (geteuid() == 0 && uid != 0) {
    if (setgroups(0, nullptr) != 0) return SystemError("setgroups");
    if (setresgid(gid, gid, gid) != 0) return SystemError("setresgid");
    if (setresuid(uid, uid, uid) != 0) return SystemError("setresuid");
    // Changing credentials made the process undumpable and its /proc
    // entries root's; the id maps below are written through them.
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) return SystemError("PR_SET_DUMPABLE");
  }
  const uid_t outer_uid = geteuid();
  const gid_t outer_gid = getegid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS) != 0) {
    return SystemError("unshare (user, mount, network, IPC and UTS namespaces)");
  }
  if (absl::Status s = WriteFile("/proc/self/setgroups", "deny"); !s.ok()) return s;
  if (absl::Status s = WriteFile("/proc/self/uid_map", absl::StrCat("0 ", outer_uid, " 1"));
      !s.ok()) {
    return s;
  }
  return WriteFile("/proc/self/gid_map", absl::StrCat("0 ", outer_gid, " 1"));
}

absl::StatusOr<std::vector<std::string>> EnterEmptyRoot(absl::Span<const int> binaries) {
  uint64_t bytes = 1 << 20;
  for (int fd : binaries) {
    struct stat info;
    if (fstat(fd, &info) != 0) return SystemError("fstat kernel binary");
    bytes += (static_cast<uint64_t>(info.st_size) + 4095) / 4096 * 4096;
  }
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    return SystemError("making mounts private");
  }
  // The new root is mounted over some directory that exists everywhere;
  // nothing of what lies beneath stays reachable.
  const std::string options =
      absl::StrCat("size=", bytes, ",nr_inodes=", binaries.size() + 16, ",mode=0755");
  const char* at = nullptr;
  for (const char* candidate : {"/tmp", "/mnt", "/run", "/var/tmp", "/dev", "/proc"}) {
    if (mount("npud-kernel-host", candidate, "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0) {
      at = candidate;
      break;
    }
  }
  if (at == nullptr) return SystemError("mount tmpfs");
  const std::string root = at;
  if (mkdir((root + "/k").c_str(), 0755) != 0) return SystemError("mkdir /k");
  std::vector<std::string> paths;
  for (size_t i = 0; i < binaries.size(); ++i) {
    const std::string path = absl::StrCat("/k/", i, ".so");
    if (absl::Status s = CopyInto(binaries[i], root + path); !s.ok()) return s;
    paths.push_back(path);
  }
  if (mkdir((root + "/.old").c_str(), 0700) != 0) return SystemError("mkdir /.old");
  if (chdir(root.c_str()) != 0) return SystemError("chdir new root");
  if (syscall(SYS_pivot_root, ".", ".old") != 0) return SystemError("pivot_root");
  if (umount2("/.old", MNT_DETACH) != 0) return SystemError("detaching the old root");
  if (rmdir("/.old") != 0) return SystemError("rmdir /.old");
  if (chdir("/") != 0) return SystemError("chdir /");
  if (mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
            nullptr) != 0) {
    return SystemError("making the root read-only");
  }
  return paths;
}

}  // namespace npud::sim::host
