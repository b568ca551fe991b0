// sandbox.h
//
// Locking a kernel host down: no new privileges, a seccomp-bpf allow-list
// of system calls, resource limits. Two stages, because kernel binaries are
// loaded (dlopen from /proc/self/fd/N) after the process is already
// filtered:
//
//   kLoading  what running kernels may do, plus read-only opens and stat,
//             so the loader can open the binaries npud passed; module
//             constructors run here: they cannot write, create or remove
//             files, execute programs, open sockets, fork or signal other
//             processes, but can read files the daemon's user can read.
//   kRunning  the allow-list alone (stacked on the first filter: filters
//             only ever narrow).
//
// Everything outside the list fails with EPERM (the kernel sees an error,
// the process goes on); a non-native system call ABI kills the process.
// The list is AllowedSystemCalls() (the issue notes quote it).

#ifndef NPUD_SIMDEVICE_EXECUTOR_SANDBOX_H_
#define NPUD_SIMDEVICE_EXECUTOR_SANDBOX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace npud::sim::host {

enum class SandboxStage { kLoading, kRunning };

// Installs the filter of `stage`; kLoading (first) also sets
// PR_SET_NO_NEW_PRIVS.
absl::Status EnterSandbox(SandboxStage stage);

// RLIMIT_CORE 0, RLIMIT_NOFILE `max_fds`, RLIMIT_DATA `data_bytes` (heap
// and private writable mappings; the shared device mappings do not count).
absl::Status ApplyResourceLimits(uint64_t data_bytes, uint64_t max_fds);

// The names of the system calls a running kernel host may make, for docs
// and logs.
std::vector<std::string> AllowedSystemCalls();

}  // namespace npud::sim::host

#endif  // NPUD_SIMDEVICE_EXECUTOR_SANDBOX_H_
