// subprocess.h
//
// Starting helper processes (the kernel compiler, an autostarted npud, test
// daemons) with posix_spawn, the same way everywhere: stdin from /dev/null,
// output into a file, no descriptors of ours leaking into the child, signal
// dispositions and mask reset to the defaults.

#ifndef NPUD_COMMON_SUBPROCESS_H_
#define NPUD_COMMON_SUBPROCESS_H_

#include <sys/types.h>

#include <atomic>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace npud {

struct SpawnOptions {
  // argv[0] is looked up in PATH unless it contains a '/'.
  std::vector<std::string> argv;
  // "NAME=value" entries added to this process's environment.
  std::vector<std::string> extra_env;
  // Where stdout goes (empty: /dev/null); truncated unless `append_output`.
  std::string stdout_path;
  // Where stderr goes; empty: the same file as stdout.
  std::string stderr_path;
  // Leave stderr as it is in this process (stderr_path is then ignored).
  bool keep_stderr = false;
  // Both stdout and stderr go to this descriptor (the paths above and
  // keep_stderr are then ignored); -1: as they say.
  int output_fd = -1;
  // false: the child's environment is extra_env alone, nothing of ours.
  bool inherit_environment = true;
  // Descriptors the child gets as 3, 4, ... (in this order); no other
  // descriptor of ours reaches it.
  std::vector<int> pass_fds;
  bool append_output = false;
  // Working directory of the child; empty: ours.
  std::string cwd;
  enum class Detach {
    kNone,          // our process group
    kProcessGroup,  // a group of its own, so KillGroup() reaches its children
    kSession,       // a session of its own: outlives our terminal
  };
  Detach detach = Detach::kNone;
};

// NotFound when argv[0] does not exist, InvalidArgument for an empty argv,
// Internal for other failures.
absl::StatusOr<pid_t> Spawn(const SpawnOptions& options);

// How a child ended.
struct ExitStatus {
  enum class Kind { kExited, kSignaled, kTimedOut, kCancelled } kind = Kind::kExited;
  // The exit code (kExited) or signal number (kSignaled).
  int value = 0;
};

// Waits for `pid` until `deadline`; past it the child and its process group
// (when it has one, see Detach::kProcessGroup) are killed and reaped.
// Internal if the child cannot be waited for (reaped elsewhere).
// With `cancelled`, the same happens as soon as it turns true (kCancelled).
absl::StatusOr<ExitStatus> WaitUntil(pid_t pid, absl::Time deadline,
                                     const std::atomic<bool>* cancelled = nullptr);

}  // namespace npud

#endif  // NPUD_COMMON_SUBPROCESS_H_
