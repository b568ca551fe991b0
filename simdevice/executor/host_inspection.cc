#include "simdevice/executor/host_inspection.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace npud::sim {
namespace {

absl::Status Errno(absl::string_view what) {
  return absl::UnavailableError(absl::StrCat(what, ": ", std::strerror(errno)));
}

absl::StatusOr<std::string> ReadAll(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Errno(absl::StrCat("open ", path));
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const absl::Status status = Errno(absl::StrCat("read ", path));
      close(fd);
      return status;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return text;
}

bool Contains(const std::vector<FileIdentity>& files, const FileIdentity& file) {
  return std::find(files.begin(), files.end(), file) != files.end();
}

}  // namespace

absl::StatusOr<FileIdentity> FileIdentity::Of(int fd) {
  struct stat info;
  if (fstat(fd, &info) != 0) return Errno("fstat");
  return FileIdentity{static_cast<uint64_t>(info.st_dev), static_cast<uint64_t>(info.st_ino)};
}

absl::StatusOr<std::vector<MappedRange>> MappingsOf(pid_t pid,
                                                    const std::vector<FileIdentity>& files) {
  absl::StatusOr<std::string> maps = ReadAll(absl::StrCat("/proc/", pid, "/maps"));
  if (!maps.ok()) return maps.status();
  std::vector<MappedRange> found;
  // start-end perms offset major:minor inode [path]
  for (absl::string_view line : absl::StrSplit(*maps, '\n', absl::SkipEmpty())) {
    uint64_t start = 0, end = 0, offset = 0, inode = 0;
    unsigned major_number = 0, minor_number = 0;
    char perms[8];
    const std::string text(line.substr(0, 128));
    if (std::sscanf(text.c_str(), "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64, &start,
                    &end, perms, &offset, &major_number, &minor_number, &inode) != 7 ||
        inode == 0) {
      continue;
    }
    const FileIdentity file{static_cast<uint64_t>(makedev(major_number, minor_number)), inode};
    if (Contains(files, file)) found.push_back({start, end, file});
  }
  return found;
}

absl::StatusOr<bool> HoldsAnyOf(pid_t pid, const std::vector<FileIdentity>& files) {
  const std::string path = absl::StrCat("/proc/", pid, "/fd");
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) return Errno(absl::StrCat("opendir ", path));
  bool holds = false;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    struct stat info;
    // Follows the descriptor's link to the file itself.
    if (fstatat(dirfd(dir), entry->d_name, &info, 0) != 0) continue;
    if (Contains(files, FileIdentity{static_cast<uint64_t>(info.st_dev),
                                     static_cast<uint64_t>(info.st_ino)})) {
      holds = true;
      break;
    }
  }
  closedir(dir);
  return holds;
}

absl::StatusOr<uint64_t> PrivateResidentBytes(pid_t pid) {
  absl::StatusOr<std::string> status = ReadAll(absl::StrCat("/proc/", pid, "/status"));
  if (!status.ok()) return status.status();
  for (absl::string_view line : absl::StrSplit(*status, '\n')) {
    if (!absl::ConsumePrefix(&line, "RssAnon:")) continue;
    line = absl::StripAsciiWhitespace(line);
    absl::ConsumeSuffix(&line, " kB");
    uint64_t kib = 0;
    if (absl::SimpleAtoi(line, &kib)) return kib << 10;
  }
  return absl::UnavailableError(absl::StrCat("no RssAnon in /proc/", pid, "/status"));
}

}  // namespace npud::sim
