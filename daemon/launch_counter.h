// launch_counter.h
//
// LaunchCounter: kernel launches per kernel name since npud started, for
// the metrics (npud_kernel_launches_total). Client programs name their
// kernels, so a hostile one could make millions of names: at most kMaxNames
// are kept, and launches of any further name count under "(other)".
// Thread-safe.

#ifndef NPUD_DAEMON_LAUNCH_COUNTER_H_
#define NPUD_DAEMON_LAUNCH_COUNTER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class LaunchCounter {
 public:
  static constexpr size_t kMaxNames = 512;
  static constexpr char kOther[] = "(other)";

  void Count(absl::string_view kernel) ABSL_LOCKS_EXCLUDED(mu_);
  absl::flat_hash_map<std::string, uint64_t> Snapshot() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, uint64_t> counts_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_LAUNCH_COUNTER_H_
