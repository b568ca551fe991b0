#include "daemon/connection_limits.h"

#include "absl/strings/str_cat.h"

namespace npud::daemon {

ConnectionLimits::Admission::~Admission() { limits_->Release(uid_); }

absl::StatusOr<std::unique_ptr<ConnectionLimits::Admission>> ConnectionLimits::Admit(uint32_t uid) {
  absl::MutexLock lock(&mu_);
  if (total_ > 0 && open_ >= total_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("npud holds its limit of ", total_, " connections"));
  }
  int& mine = per_uid_open_[uid];
  if (per_uid_ > 0 && mine >= per_uid_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("uid ", uid, " holds its limit of ", per_uid_, " connections"));
  }
  ++mine;
  ++open_;
  return std::unique_ptr<Admission>(new Admission(this, uid));
}

int ConnectionLimits::open() const {
  absl::MutexLock lock(&mu_);
  return open_;
}

void ConnectionLimits::Release(uint32_t uid) {
  absl::MutexLock lock(&mu_);
  --open_;
  auto it = per_uid_open_.find(uid);
  if (--it->second == 0) per_uid_open_.erase(it);
}

}  // namespace npud::daemon
