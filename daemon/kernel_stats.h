// kernel_stats.h
//
// KernelStats: what kernels did since npud started, for the metrics —
// launches and device time per kernel name (npud_kernel_launches_total,
// npud_kernel_seconds_total) and failed launches per ACL code
// (npud_kernel_faults_total). Client programs name their kernels and their
// kernel hosts report the codes, so a hostile one could make millions of
// either: at most kMaxNames names and kMaxCodes codes are kept, and any
// further one counts under "(other)" / code 0.
// Thread-safe.

#ifndef NPUD_DAEMON_KERNEL_STATS_H_
#define NPUD_DAEMON_KERNEL_STATS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class KernelStats {
 public:
  static constexpr size_t kMaxNames = 512;
  static constexpr size_t kMaxCodes = 64;
  static constexpr char kOther[] = "(other)";

  struct PerKernel {
    uint64_t launches = 0;
    // Time the launches ran on the device, as their kernel host measured it.
    int64_t run_ns = 0;
  };

  // A launch was submitted.
  void CountLaunch(absl::string_view kernel) ABSL_LOCKS_EXCLUDED(mu_);
  // A launch ran for `ns`.
  void AddRunTime(absl::string_view kernel, int64_t ns) ABSL_LOCKS_EXCLUDED(mu_);
  // A launch failed with ACL error `code`.
  void CountFault(int32_t code) ABSL_LOCKS_EXCLUDED(mu_);

  absl::flat_hash_map<std::string, PerKernel> Kernels() const ABSL_LOCKS_EXCLUDED(mu_);
  absl::flat_hash_map<int32_t, uint64_t> Faults() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  PerKernel& Entry(absl::string_view kernel) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, PerKernel> kernels_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<int32_t, uint64_t> faults_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_KERNEL_STATS_H_
