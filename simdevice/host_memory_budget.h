// host_memory_budget.h
//
// HostMemoryBudget: the host RAM all simulated devices together may use.
// Device memory is this host's memory (lazily: a reservation costs nothing
// until it is touched), and the devices advertise more of it than a host
// usually has, so without a daemon-wide bound one client allocating and
// touching could push npud into the kernel's OOM killer. Every device
// allocation and every physical memory handle takes its bytes from the
// budget first; past it, the allocating call fails with 207001 and nothing
// else is affected. Lock-free; shared by the devices of one DeviceSet.

#ifndef NPUD_SIMDEVICE_HOST_MEMORY_BUDGET_H_
#define NPUD_SIMDEVICE_HOST_MEMORY_BUDGET_H_

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace npud::sim {

class HostMemoryBudget {
 public:
  // 0 means no limit.
  explicit HostMemoryBudget(uint64_t limit_bytes) : limit_(limit_bytes) {}

  // Takes `bytes`, or returns false (taking nothing) if they do not fit.
  bool Take(uint64_t bytes) {
    uint64_t used = used_.load(std::memory_order_relaxed);
    do {
      if (limit_ != 0 && bytes > limit_ - std::min(used, limit_)) return false;
    } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
  }
  void Give(uint64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

  uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_; }

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> used_{0};
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_HOST_MEMORY_BUDGET_H_
