// cgroup_paths.h
//
// Where this process's control groups are on disk, for npud's reads of its
// cgroup memory limit (daemon/host_memory_limit.h) and for the CPU groups
// of kernel hosts (simdevice/executor/host_cpu_groups.h). Both cgroup
// versions and the hybrid layout (v1 controllers beside an empty v2
// hierarchy) are understood, as are containers, whose mounts show their own
// group as the top of the hierarchy.

#ifndef NPUD_COMMON_CGROUP_PATHS_H_
#define NPUD_COMMON_CGROUP_PATHS_H_

#include <optional>
#include <string>
#include <vector>

namespace npud {

// One group of this process, in one hierarchy.
struct OwnCgroup {
  bool v2 = false;
  // The group's path as /proc/self/cgroup names it ("/" for the root).
  std::string path;
  // The mount point of the hierarchy's top this process can see, and the
  // group's directory (the top itself when the group lies outside the
  // mount's view, as another namespace's group would).
  std::string top;
  std::string directory;
};

// This process's groups that may hold `controller` (e.g. "memory", "cpu"):
// its cgroup v2 group when a cgroup2 file system is mounted (whether v2
// really has the controller is for the caller to check: see
// V2HasController), and its group in the v1 hierarchy that holds the
// controller. `root` prefixes the paths read (/proc/self/cgroup and
// /proc/self/mountinfo) but not the returned ones: empty on a real system,
// a directory of fake files in tests.
std::vector<OwnCgroup> FindOwnCgroups(const std::string& controller, const std::string& root = "");

// Whether `controller` is enabled for the children of the v2 group at
// `directory`'s parent, i.e. listed in `directory`/cgroup.controllers.
bool V2HasController(const std::string& directory, const std::string& controller);

// The lines of a (small) file; none when it cannot be read.
std::vector<std::string> ReadLines(const std::string& path);

}  // namespace npud

#endif  // NPUD_COMMON_CGROUP_PATHS_H_
