#include "common/cgroup_paths.h"

#include <fstream>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace npud {
namespace {

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

OwnCgroup Locate(bool v2, const std::string& path, const CgroupMount& mount) {
  // The group's place below the mount; a path outside the mount's root
  // (another namespace's view) leaves the mount's top, the group itself.
  std::string relative;
  if (mount.root == "/") {
    relative = path;
  } else if (path == mount.root || absl::StartsWith(path, mount.root + "/")) {
    relative = path.substr(mount.root.size());
  }
  std::string top = mount.mount_point;
  if (absl::EndsWith(top, "/")) top.pop_back();
  return OwnCgroup{v2, path, top, top + std::string(absl::StripSuffix(relative, "/"))};
}

}  // namespace

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<OwnCgroup> FindOwnCgroups(const std::string& controller, const std::string& root) {
  const std::vector<std::string> mountinfo = ReadLines(root + "/proc/self/mountinfo");
  std::vector<OwnCgroup> groups;
  // hierarchy-id:controllers:path; "0::path" is cgroup v2.
  for (const std::string& line : ReadLines(root + "/proc/self/cgroup")) {
    const std::vector<std::string> fields = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (fields.size() != 3) continue;
    if (fields[0] == "0" && fields[1].empty()) {
      if (std::optional<CgroupMount> mount = FindCgroupMount(mountinfo, "")) {
        groups.push_back(Locate(true, fields[2], *mount));
      }
    } else if (absl::c_linear_search(absl::StrSplit(fields[1], ','), controller)) {
      if (std::optional<CgroupMount> mount = FindCgroupMount(mountinfo, controller)) {
        groups.push_back(Locate(false, fields[2], *mount));
      }
    }
  }
  return groups;
}

bool V2HasController(const std::string& directory, const std::string& controller) {
  for (const std::string& line : ReadLines(directory + "/cgroup.controllers")) {
    if (absl::c_linear_search(absl::StrSplit(line, ' ', absl::SkipEmpty()), controller)) {
      return true;
    }
  }
  return false;
}

}  // namespace npud
