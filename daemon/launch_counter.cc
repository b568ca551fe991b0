#include "daemon/launch_counter.h"

namespace npud::daemon {

void LaunchCounter::Count(absl::string_view kernel) {
  absl::MutexLock lock(&mu_);
  auto it = counts_.find(kernel);
  if (it != counts_.end()) {
    ++it->second;
  } else if (counts_.size() < kMaxNames) {
    counts_.emplace(std::string(kernel), 1);
  } else {
    ++counts_[kOther];  // at most one name past the bound
  }
}

absl::flat_hash_map<std::string, uint64_t> LaunchCounter::Snapshot() const {
  absl::MutexLock lock(&mu_);
  return counts_;
}

}  // namespace npud::daemon
