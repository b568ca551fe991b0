#include "daemon/host_memory_limit.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/cgroup_paths.h"

namespace npud::daemon {
namespace {

// Limits at or above this are "no limit" written as a number (cgroup v1
// shows an unlimited group as 0x7FFFFFFFFFFFF000).
constexpr uint64_t kCgroupNoLimit = uint64_t{1} << 60;

std::optional<uint64_t> ReadCgroupLimitFile(const std::string& path) {
  const std::vector<std::string> lines = ReadLines(path);
  uint64_t bytes = 0;
  if (lines.empty() || !absl::SimpleAtoi(absl::StripAsciiWhitespace(lines[0]), &bytes) ||
      bytes >= kCgroupNoLimit) {
    return std::nullopt;  // "max", missing or unreadable
  }
  return bytes;
}

// The lowest `file` limit from `group` up to the top of its hierarchy
// (ancestors' limits bind their descendants).
std::optional<CgroupMemoryLimit> LowestLimitAlongPath(const std::string& root,
                                                      const OwnCgroup& group,
                                                      const std::string& file) {
  std::string dir = group.directory;
  std::optional<CgroupMemoryLimit> lowest;
  while (true) {
    const std::string path = dir + "/" + file;
    if (std::optional<uint64_t> bytes = ReadCgroupLimitFile(root + path);
        bytes && (!lowest || *bytes < lowest->bytes)) {
      lowest = CgroupMemoryLimit{*bytes, path};
    }
    if (dir.size() <= group.top.size()) break;
    dir = dir.substr(0, dir.rfind('/'));
  }
  return lowest;
}

}  // namespace

std::optional<CgroupMemoryLimit> ReadCgroupMemoryLimit(const std::string& root) {
  std::optional<CgroupMemoryLimit> lowest;
  // On a hybrid layout the memory controller sits in v1 and v2 has no
  // memory.max: both are read.
  for (const OwnCgroup& group : FindOwnCgroups("memory", root)) {
    std::optional<CgroupMemoryLimit> limit =
        LowestLimitAlongPath(root, group, group.v2 ? "memory.max" : "memory.limit_in_bytes");
    if (limit && (!lowest || limit->bytes < lowest->bytes)) lowest = limit;
  }
  return lowest;
}

HostMemoryDefault DefaultHostMemoryLimit(uint64_t ram_bytes,
                                         const std::optional<CgroupMemoryLimit>& cgroup) {
  if (cgroup && cgroup->bytes < ram_bytes) {
    return {cgroup->bytes / 4 * 3, absl::StrCat("the cgroup memory limit (", cgroup->bytes >> 20,
                                                " MiB, ", cgroup->file, ")")};
  }
  return {ram_bytes / 4 * 3, absl::StrCat("this host's RAM (", ram_bytes >> 20, " MiB)")};
}

AdvertisedDeviceMemory BoundDeviceMemory(uint64_t requested_bytes, uint64_t host_limit_bytes,
                                         const std::string& host_limit_source,
                                         const std::optional<CgroupMemoryLimit>& cgroup) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  if (!cgroup) return {requested_bytes, ""};
  uint64_t bound = host_limit_bytes;
  std::string why = absl::StrCat("the host memory limit (", host_limit_bytes >> 20, " MiB, ",
                                 host_limit_source, ")");
  if (cgroup->bytes < bound) {
    bound = cgroup->bytes;
    why = absl::StrCat("npud's cgroup memory limit (", cgroup->bytes >> 20, " MiB, ", cgroup->file,
                       ")");
  }
  bound = std::max(bound / kMiB * kMiB, kMiB);
  if (requested_bytes <= bound) return {requested_bytes, ""};
  return {bound, why};
}

}  // namespace npud::daemon
