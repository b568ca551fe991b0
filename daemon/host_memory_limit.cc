#include "daemon/host_memory_limit.h"

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace npud::daemon {
namespace {

// Limits at or above this are "no limit" written as a number (cgroup v1
// shows an unlimited group as 0x7FFFFFFFFFFFF000).
constexpr uint64_t kCgroupNoLimit = uint64_t{1} << 60;

std::vector<std::string> CgroupFileLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::optional<uint64_t> ReadCgroupLimitFile(const std::string& path) {
  const std::vector<std::string> lines = CgroupFileLines(path);
  uint64_t bytes = 0;
  if (lines.empty() || !absl::SimpleAtoi(absl::StripAsciiWhitespace(lines[0]), &bytes) ||
      bytes >= kCgroupNoLimit) {
    return std::nullopt;  // "max", missing or unreadable
  }
  return bytes;
}

// A cgroup file system as /proc/self/mountinfo lists it: the cgroup path
// mounted (`root`, "/" unless the mount is a container's view of its own
// group) and where.
struct CgroupMount {
  std::string root;
  std::string mount_point;
};

// The first mount of a cgroup2 file system (`v1_controller` empty) or of a
// v1 hierarchy holding that controller.
std::optional<CgroupMount> FindCgroupMount(const std::vector<std::string>& mountinfo,
                                           const std::string& v1_controller) {
  for (const std::string& line : mountinfo) {
    // id parent major:minor root mount-point options [optional...] - type source super-options
    const std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
    size_t dash = 0;
    while (dash < fields.size() && fields[dash] != "-") ++dash;
    if (dash < 5 || dash + 3 > fields.size()) continue;
    const std::string& type = fields[dash + 1];
    const bool wanted =
        v1_controller.empty()
            ? type == "cgroup2"
            : type == "cgroup" &&
                  absl::c_linear_search(absl::StrSplit(fields[dash + 3], ','), v1_controller);
    if (wanted) return CgroupMount{fields[3], fields[4]};
  }
  return std::nullopt;
}

// The lowest `file` limit from the group at `cgroup_path` up to the top of
// `mount` (ancestors' limits bind their descendants).
std::optional<CgroupMemoryLimit> LowestLimitAlongPath(const std::string& root,
                                                      const CgroupMount& mount,
                                                      const std::string& cgroup_path,
                                                      const std::string& file) {
  // The group's place below the mount; a path outside the mount's root
  // (another namespace's view) leaves the mount's top, the group itself.
  std::string relative;
  if (mount.root == "/") {
    relative = cgroup_path;
  } else if (cgroup_path == mount.root || absl::StartsWith(cgroup_path, mount.root + "/")) {
    relative = cgroup_path.substr(mount.root.size());
  }
  std::string top = mount.mount_point;
  if (absl::EndsWith(top, "/")) top.pop_back();
  std::string dir = top + std::string(absl::StripSuffix(relative, "/"));
  std::optional<CgroupMemoryLimit> lowest;
  while (true) {
    const std::string path = dir + "/" + file;
    if (std::optional<uint64_t> bytes = ReadCgroupLimitFile(root + path);
        bytes && (!lowest || *bytes < lowest->bytes)) {
      lowest = CgroupMemoryLimit{*bytes, path};
    }
    if (dir.size() <= top.size()) break;
    dir = dir.substr(0, dir.rfind('/'));
  }
  return lowest;
}

}  // namespace

std::optional<CgroupMemoryLimit> ReadCgroupMemoryLimit(const std::string& root) {
  const std::vector<std::string> mountinfo = CgroupFileLines(root + "/proc/self/mountinfo");
  std::optional<CgroupMemoryLimit> lowest;
  auto consider = [&](const std::optional<CgroupMemoryLimit>& limit) {
    if (limit && (!lowest || limit->bytes < lowest->bytes)) lowest = limit;
  };
  // hierarchy-id:controllers:path; "0::path" is cgroup v2. On a hybrid
  // layout the memory controller sits in v1 and v2 has no memory.max.
  for (const std::string& line : CgroupFileLines(root + "/proc/self/cgroup")) {
    const std::vector<std::string> fields = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (fields.size() != 3) continue;
    if (fields[0] == "0" && fields[1].empty()) {
      if (std::optional<CgroupMount> mount = FindCgroupMount(mountinfo, "")) {
        consider(LowestLimitAlongPath(root, *mount, fields[2], "memory.max"));
      }
    } else if (absl::c_linear_search(absl::StrSplit(fields[1], ','), "memory")) {
      if (std::optional<CgroupMount> mount = FindCgroupMount(mountinfo, "memory")) {
        consider(LowestLimitAlongPath(root, *mount, fields[2], "memory.limit_in_bytes"));
      }
    }
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
