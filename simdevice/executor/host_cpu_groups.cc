#include "simdevice/executor/host_cpu_groups.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/cgroup_paths.h"

namespace npud::sim {
namespace {

// Writes `value` to an existing cgroup file (or, in tests, a plain one).
absl::Status WriteCgroupFile(const std::string& path, const std::string& value) {
  std::ofstream out(path);
  out << value << std::flush;
  if (!out) return absl::PermissionDeniedError(absl::StrCat(path, ": ", std::strerror(errno)));
  return absl::OkStatus();
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

absl::StatusOr<std::unique_ptr<HostCpuGroups>> HostCpuGroups::ForThisProcess(
    pid_t self, const std::string& root) {
  const std::vector<OwnCgroup> found = FindOwnCgroups("cpu", root);
  // A v1 hierarchy with the cpu controller takes it from v2 (hybrid layouts).
  auto v1 = std::find_if(found.begin(), found.end(), [](const OwnCgroup& g) { return !g.v2; });
  const OwnCgroup* group = v1 != found.end() ? &*v1 : (found.empty() ? nullptr : &found.front());
  if (group == nullptr) return nullptr;  // no CPU controller: nothing weighs anything
  std::unique_ptr<HostCpuGroups> groups;
  if (!group->v2) {
    if (group->path == "/") return nullptr;
    groups = std::make_unique<HostCpuGroups>(root + group->directory, false);
  } else {
    // The root group has no cpu.weight of its own; a container's view of
    // its own group as "/" has one.
    const std::string directory = root + group->directory;
    if (group->path == "/" && !Exists(directory + "/cpu.weight")) return nullptr;
    if (!V2HasController(directory, "cpu")) {
      return absl::FailedPreconditionError(
          absl::StrCat("npud's cgroup v2 group ", group->directory, " has no cpu controller"));
    }
    groups = std::make_unique<HostCpuGroups>(directory, true);
  }
  if (absl::Status prepared = groups->Prepare(self); !prepared.ok()) return prepared;
  return groups;
}

uint64_t HostCpuGroups::SharesFor(double weight, bool v2) {
  if (!(weight > 0)) weight = 1;
  const double base = v2 ? 100 : 1024;
  const double low = v2 ? 1 : 2;
  const double high = v2 ? 10000 : 262144;
  return static_cast<uint64_t>(std::clamp(std::round(base * weight), low, high));
}

std::string HostCpuGroups::HostDirectory(pid_t pid) const {
  return absl::StrCat(directory_, "/npud-kernel-host-", pid);
}

absl::Status HostCpuGroups::Prepare(pid_t self) {
  if (access(directory_.c_str(), W_OK) != 0) {
    return absl::PermissionDeniedError(
        absl::StrCat(directory_, " is not delegated to npud (not writable)"));
  }
  if (!v2_) return absl::OkStatus();
  const std::string leaf = directory_ + "/npud";
  if (mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) {
    return absl::PermissionDeniedError(absl::StrCat(leaf, ": ", std::strerror(errno)));
  }
  if (absl::Status moved = WriteCgroupFile(leaf + "/cgroup.procs", absl::StrCat(self));
      !moved.ok()) {
    return moved;
  }
  return WriteCgroupFile(directory_ + "/cgroup.subtree_control", "+cpu");
}

absl::Status HostCpuGroups::Place(pid_t pid, double weight) {
  const std::string dir = HostDirectory(pid);
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return absl::PermissionDeniedError(absl::StrCat(dir, ": ", std::strerror(errno)));
  }
  absl::Status set = WriteCgroupFile(dir + (v2_ ? "/cpu.weight" : "/cpu.shares"),
                                     absl::StrCat(SharesFor(weight, v2_)));
  if (set.ok()) set = WriteCgroupFile(dir + "/cgroup.procs", absl::StrCat(pid));
  if (!set.ok()) rmdir(dir.c_str());
  return set;
}

void HostCpuGroups::Remove(pid_t pid) {
  // Only empty groups go; a failure leaves an empty directory behind.
  rmdir(HostDirectory(pid).c_str());
}

}  // namespace npud::sim
