#include "daemon/helper_process.h"

#include <string.h>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/subprocess.h"

namespace npud::daemon {

absl::StatusOr<int> RunHelper(const HelperRun& run) {
  SpawnOptions spawn;
  if (!run.sandbox.empty()) {
    spawn.argv = {run.sandbox, "--writable=" + run.writable,
                  absl::StrCat("--cpu_seconds=", run.cpu_seconds), "--"};
  }
  spawn.argv.insert(spawn.argv.end(), run.argv.begin(), run.argv.end());
  spawn.cwd = run.cwd;
  spawn.stdout_path = run.log_path;
  spawn.detach = SpawnOptions::Detach::kProcessGroup;
  NPUD_ASSIGN_OR_RETURN(const pid_t pid, Spawn(spawn));
  NPUD_ASSIGN_OR_RETURN(const ExitStatus exit, WaitUntil(pid, run.deadline, run.cancelled));
  switch (exit.kind) {
    case ExitStatus::Kind::kExited:
      // The sandbox's way of saying the program is not there.
      if (!run.sandbox.empty() && exit.value == 127) {
        return absl::NotFoundError(absl::StrCat(run.argv[0], " cannot be run"));
      }
      return exit.value;
    case ExitStatus::Kind::kSignaled:
      return absl::AbortedError(
          absl::StrCat("killed by signal ", exit.value, " (", strsignal(exit.value), ")"));
    case ExitStatus::Kind::kTimedOut:
      return absl::DeadlineExceededError("killed at the deadline");
    case ExitStatus::Kind::kCancelled:
      return absl::CancelledError("killed: the session that asked for it ended");
  }
  return absl::InternalError("unknown exit status");
}

}  // namespace npud::daemon
