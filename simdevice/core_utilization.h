// core_utilization.h
//
// CoreUtilization: how busy a device's AI cores were over the last second
// (aclrtGetDeviceUtilizationRate). Each kernel launch that ran is kept for
// the window with the cores it held: a vector kernel one vector core per
// block, a cube kernel one cube core, a mix kernel one cube and two vector
// cores (the 1:2 ratio npud runs). The answer is the share of the window's
// core time they took, clipped to the window, per core kind.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_CORE_UTILIZATION_H_
#define NPUD_SIMDEVICE_CORE_UTILIZATION_H_

#include <cstdint>
#include <deque>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace npud::sim {

class CoreUtilization {
 public:
  static constexpr int64_t kWindowNs = 1'000'000'000;

  CoreUtilization(uint32_t vector_cores, uint32_t cube_cores)
      : vector_cores_(vector_cores), cube_cores_(cube_cores) {}

  // A launch of `blocks` blocks of a kernel of `kernel_type` (KernelType:
  // 0 vector, 1 cube, 2 mix) ran from `start_ns` to `end_ns`.
  void Add(uint32_t kernel_type, uint32_t blocks, int64_t start_ns, int64_t end_ns)
      ABSL_LOCKS_EXCLUDED(mu_);

  struct Percent {
    int32_t vector = 0;
    int32_t cube = 0;
  };
  // Over [now_ns - kWindowNs, now_ns], 0 to 100.
  Percent At(int64_t now_ns) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Busy {
    int64_t start_ns, end_ns;
    uint32_t vector, cube;  // cores held
  };
  const uint32_t vector_cores_;
  const uint32_t cube_cores_;
  absl::Mutex mu_;
  // In the order they ended; those that ended before the window are dropped.
  std::deque<Busy> busy_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_CORE_UTILIZATION_H_
