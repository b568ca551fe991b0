// host_memory_limit.h
//
// The default of --host_memory_limit_mib: three quarters of the memory npud
// may really use, which is the host's RAM or, when lower, the memory limit
// of the cgroup npud runs in (a container's --memory, a Kubernetes limit, a
// systemd MemoryMax). Past the cgroup's limit the kernel OOM-kills npud and
// every session with it; within the budget a client only gets 207001.

#ifndef NPUD_DAEMON_HOST_MEMORY_LIMIT_H_
#define NPUD_DAEMON_HOST_MEMORY_LIMIT_H_

#include <cstdint>
#include <optional>
#include <string>

namespace npud::daemon {

struct CgroupMemoryLimit {
  uint64_t bytes = 0;
  std::string file;  // where it was read, for the log
};

// The memory limit of the cgroup this process runs in: the lowest along its
// path up to the root of the hierarchy (cgroup v2 memory.max, v1
// memory.limit_in_bytes; both are read on hybrid layouts). nullopt without
// one: "max", a value too large to be a limit, or no readable file. `root`
// prefixes every path read (/proc/self/cgroup, /proc/self/mountinfo and
// the cgroup file systems they name): empty on a real system, a directory
// of fake files in tests.
std::optional<CgroupMemoryLimit> ReadCgroupMemoryLimit(const std::string& root = "");

struct HostMemoryDefault {
  uint64_t bytes = 0;
  std::string source;  // "this host's RAM (...)" or "the cgroup memory limit (...)"
};

// Three quarters of `ram_bytes` or of `cgroup`'s limit, whichever is lower.
HostMemoryDefault DefaultHostMemoryLimit(uint64_t ram_bytes,
                                         const std::optional<CgroupMemoryLimit>& cgroup);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_HOST_MEMORY_LIMIT_H_
