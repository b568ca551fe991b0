#include "simdevice/core_utilization.h"

#include <algorithm>

namespace npud::sim {
namespace {

// A kernel type's blocks hold this many cores of each kind.
constexpr uint32_t kVectorPerBlock[] = {1, 0, 2};
constexpr uint32_t kCubePerBlock[] = {0, 1, 1};

// A window holds at most this many launches: past it the oldest go (a
// burst of tiny launches under-reports rather than grows without bound).
constexpr size_t kMaxKept = 1 << 16;

}  // namespace

void CoreUtilization::Add(uint32_t kernel_type, uint32_t blocks, int64_t start_ns, int64_t end_ns) {
  if (kernel_type > 2 || end_ns <= start_ns) return;
  const uint32_t vector = std::min(blocks * kVectorPerBlock[kernel_type], vector_cores_);
  const uint32_t cube = std::min(blocks * kCubePerBlock[kernel_type], cube_cores_);
  absl::MutexLock lock(&mu_);
  while (!busy_.empty() &&
         (busy_.size() >= kMaxKept || busy_.front().end_ns < end_ns - kWindowNs)) {
    busy_.pop_front();
  }
  busy_.push_back(Busy{start_ns, end_ns, vector, cube});
}

CoreUtilization::Percent CoreUtilization::At(int64_t now_ns) {
  const int64_t from = now_ns - kWindowNs;
  double vector_ns = 0;
  double cube_ns = 0;
  {
    absl::MutexLock lock(&mu_);
    while (!busy_.empty() && busy_.front().end_ns < from) busy_.pop_front();
    for (const Busy& busy : busy_) {
      const int64_t overlap = std::min(busy.end_ns, now_ns) - std::max(busy.start_ns, from);
      if (overlap <= 0) continue;
      vector_ns += static_cast<double>(overlap) * busy.vector;
      cube_ns += static_cast<double>(overlap) * busy.cube;
    }
  }
  auto percent = [](double used_ns, uint32_t cores) {
    if (cores == 0) return 0;
    const double share = used_ns / (static_cast<double>(kWindowNs) * cores);
    return static_cast<int32_t>(std::clamp(share * 100.0 + 0.5, 0.0, 100.0));
  };
  return Percent{percent(vector_ns, vector_cores_), percent(cube_ns, cube_cores_)};
}

}  // namespace npud::sim
