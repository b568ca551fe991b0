#include "daemon/helper_process.h"

#include <string.h>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/subprocess.h"

namespace npud::daemon {

absl::StatusOr<int> RunHelper(const HelperRun& run) {
  SpawnOptions spawn;
  spawn.argv = run.argv;
  spawn.cwd = run.cwd;
  spawn.stdout_path = run.log_path;
  spawn.detach = SpawnOptions::Detach::kProcessGroup;
  NPUD_ASSIGN_OR_RETURN(const pid_t pid, Spawn(spawn));
  NPUD_ASSIGN_OR_RETURN(const ExitStatus exit, WaitUntil(pid, run.deadline));
  switch (exit.kind) {
    case ExitStatus::Kind::kExited:
      return exit.value;
    case ExitStatus::Kind::kSignaled:
      return absl::AbortedError(
          absl::StrCat("killed by signal ", exit.value, " (", strsignal(exit.value), ")"));
    case ExitStatus::Kind::kTimedOut:
      return absl::DeadlineExceededError("killed at the deadline");
  }
  return absl::InternalError("unknown exit status");
}

}  // namespace npud::daemon
