#include "daemon/kernel_stats.h"

namespace npud::daemon {

KernelStats::PerKernel& KernelStats::Entry(absl::string_view kernel) {
  auto it = kernels_.find(kernel);
  if (it != kernels_.end()) return it->second;
  if (kernels_.size() < kMaxNames) return kernels_[kernel];
  return kernels_[kOther];  // at most one name past the bound
}

void KernelStats::CountLaunch(absl::string_view kernel) {
  absl::MutexLock lock(&mu_);
  ++Entry(kernel).launches;
}

void KernelStats::AddRunTime(absl::string_view kernel, int64_t ns) {
  absl::MutexLock lock(&mu_);
  Entry(kernel).run_ns += ns;
}

void KernelStats::CountFault(int32_t code) {
  absl::MutexLock lock(&mu_);
  auto it = faults_.find(code);
  if (it != faults_.end()) {
    ++it->second;
  } else if (faults_.size() < kMaxCodes) {
    faults_[code] = 1;
  } else {
    ++faults_[0];
  }
}

absl::flat_hash_map<std::string, KernelStats::PerKernel> KernelStats::Kernels() const {
  absl::MutexLock lock(&mu_);
  return kernels_;
}

absl::flat_hash_map<int32_t, uint64_t> KernelStats::Faults() const {
  absl::MutexLock lock(&mu_);
  return faults_;
}

}  // namespace npud::daemon
