// host_memory_limit.h
//
// The default of --host_memory_limit_mib: three quarters of the memory npud
// may really use, which is the host's RAM or, when lower, the memory limit
// of the cgroup npud runs in (a container's --memory, a Kubernetes limit, a
// systemd MemoryMax). Past the cgroup's limit the kernel OOM-kills npud and
// every session with it; within the budget a client only gets 207001.
// Under such a limit the device memory each device advertises is bounded
// too, so that programs sizing their work by aclrtGetMemInfo see what npud
// can hold.

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

struct AdvertisedDeviceMemory {
  uint64_t bytes = 0;  // per device
  std::string reason;  // why it is below the request, for the log; empty when it is not
};

// The device memory (HBM) each device advertises for `requested_bytes`
// (--memory_gib). Without a cgroup memory limit, the request as it is
// (reserved lazily, it may exceed the host's RAM). Under one, at most the
// host memory limit (`host_limit_bytes`, which bounds the memory of all
// devices together; `host_limit_source` says where it came from) or the
// cgroup's limit, whichever is lower, rounded down to a MiB: a device
// advertising 64 GiB in a 16 GiB container would invite programs to size
// their work for memory npud can never give them.
AdvertisedDeviceMemory BoundDeviceMemory(uint64_t requested_bytes, uint64_t host_limit_bytes,
                                         const std::string& host_limit_source,
                                         const std::optional<CgroupMemoryLimit>& cgroup);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_HOST_MEMORY_LIMIT_H_
