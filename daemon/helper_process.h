// helper_process.h
//
// RunHelper: runs one of the programs a run-time compilation needs (the C++
// compiler, the kernel scanner) to its end or to a deadline. No shell is involved;
// stdin is /dev/null and stdout and stderr go into one log file; the program runs
// in a process group of its own, which is killed as a whole at the deadline (a
// compiler driver starts cc1plus, as and ld). Built on common/subprocess.h.

#ifndef NPUD_DAEMON_HELPER_PROCESS_H_
#define NPUD_DAEMON_HELPER_PROCESS_H_

#include <atomic>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace npud::daemon {

struct HelperRun {
  // argv[0] is looked up in PATH unless it contains a '/'.
  std::vector<std::string> argv;
  std::string cwd;
  std::string log_path;
  absl::Time deadline = absl::InfiniteFuture();
  // npud-sandbox-run (daemon/sandbox_run_main.cc) to run the program in,
  // with `writable` its only writable directory; empty: no sandbox.
  std::string sandbox;
  std::string writable;
  int cpu_seconds = 120;
  // When it turns true the program is killed (its client has gone).
  const std::atomic<bool>* cancelled = nullptr;
};

// The exit code of a helper that ran to its end. Otherwise:
//   NotFound          argv[0] does not exist
//   DeadlineExceeded  it was still running at the deadline and was killed
//   Cancelled         `cancelled` turned true and it was killed
//   Aborted           a signal killed it ("killed by signal 11 (Segmentation fault)")
//   Internal          it could not be started or waited for
absl::StatusOr<int> RunHelper(const HelperRun& run);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_HELPER_PROCESS_H_
