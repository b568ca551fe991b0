// host_cpu_groups.h
//
// HostCpuGroups: kernel hosts' CPU weights where autogroups do not reach.
// CFS weighs autogroups only in the root CPU cgroup (host_cpu_share.h).
// npud under a systemd unit with its own cpu controller, in a container or
// in a Kubernetes pod runs in another group, where every thread weighs the
// same: a host with 48 busy core threads would take 48 times the CPU of a
// host with one, whatever the sessions' weights. There npud gives each host
// a child group of its own group, weighted as its session (cgroup v1
// cpu.shares, v2 cpu.weight). That needs npud's group delegated to it:
// writable by npud (systemd's Delegate=yes, a container with a writable
// cgroup mount, root outside any container).
//
// On cgroup v2 a group with children may hold no processes, so npud first
// moves itself into a leaf `npud` below its group, then enables the cpu
// controller for its group's children; hosts are siblings of that leaf.
// On v1, npud's own threads stay in its group beside the hosts' groups,
// each thread weighing as much as a host of weight 1.
//
// Thread-safe (each call works on files of its own pid).

#ifndef NPUD_SIMDEVICE_EXECUTOR_HOST_CPU_GROUPS_H_
#define NPUD_SIMDEVICE_EXECUTOR_HOST_CPU_GROUPS_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::sim {

class HostCpuGroups {
 public:
  // For this process (whose pid is `self`), prepared: nullptr when it runs
  // in the root CPU group, where autogroups weigh the hosts. An error, saying
  // why, when its group cannot be given children (not delegated to npud,
  // or cgroup v2 without the cpu controller); hosts then share the CPUs
  // thread by thread. `root` prefixes every path (/proc and the cgroup file
  // systems): empty on a real system, a directory of fake files in tests.
  static absl::StatusOr<std::unique_ptr<HostCpuGroups>> ForThisProcess(
      pid_t self, const std::string& root = "");

  // The groups below `directory`, a cgroup v2 group or a group of the v1
  // hierarchy with the cpu controller. Tests pass directories of their own.
  HostCpuGroups(std::string directory, bool v2) : directory_(std::move(directory)), v2_(v2) {}

  // Makes `directory` ready for host groups; on v2 it moves the process
  // `self` into the leaf first (see above).
  absl::Status Prepare(pid_t self);
  // Moves the process `pid` (all its threads) into a group of its own,
  // weighted `weight` times the default.
  absl::Status Place(pid_t pid, double weight);
  // Removes the group of `pid`, a process that has been reaped.
  void Remove(pid_t pid);

  const std::string& directory() const { return directory_; }

  // The cgroup file value for `weight`: v1 cpu.shares (1024 is the
  // default, 2..262144) or v2 cpu.weight (100, 1..10000).
  static uint64_t SharesFor(double weight, bool v2);

 private:
  std::string HostDirectory(pid_t pid) const;

  const std::string directory_;
  const bool v2_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EXECUTOR_HOST_CPU_GROUPS_H_
