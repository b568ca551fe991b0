#include "daemon/session/session_limits.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"

namespace npud::daemon {

absl::Status MemoryQuota::Charge(uint64_t bytes, uint64_t overdraft) {
  absl::MutexLock lock(&mu_);
  const uint64_t limit = limit_ + overdraft;
  if (limit_ != 0 && bytes > limit - std::min(used_, limit)) {
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("session memory limit: %u bytes requested, %u of %u in use",
                                    bytes, used_, limit_));
  }
  used_ += bytes;
  return absl::OkStatus();
}

void MemoryQuota::Uncharge(uint64_t bytes) {
  absl::MutexLock lock(&mu_);
  used_ -= std::min(bytes, used_);
}

uint64_t MemoryQuota::used() const {
  absl::MutexLock lock(&mu_);
  return used_;
}

absl::Status CheckCount(uint64_t count, uint32_t limit, AclCode code, const char* what) {
  if (limit == 0 || count < limit) return absl::OkStatus();
  return AclError(code,
                  absl::StrFormat("session limit: %u %s in use, at most %u", count, what, limit));
}

}  // namespace npud::daemon
