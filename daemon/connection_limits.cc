#include "daemon/connection_limits.h"

#include "absl/strings/str_cat.h"

namespace npud::daemon {

ConnectionLimits::Admission::~Admission() { limits_->Release(peer_); }

absl::StatusOr<std::unique_ptr<ConnectionLimits::Admission>> ConnectionLimits::Admit(
    absl::string_view peer) {
  absl::MutexLock lock(&mu_);
  if (total_ > 0 && open_ >= total_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("npud holds its limit of ", total_, " connections"));
  }
  int& mine = per_peer_open_[peer];
  if (per_peer_ > 0 && mine >= per_peer_) {
    return absl::ResourceExhaustedError(
        absl::StrCat(peer, " holds its limit of ", per_peer_, " connections"));
  }
  ++mine;
  ++open_;
  return std::unique_ptr<Admission>(new Admission(this, std::string(peer)));
}

int ConnectionLimits::open() const {
  absl::MutexLock lock(&mu_);
  return open_;
}

void ConnectionLimits::Release(const std::string& peer) {
  absl::MutexLock lock(&mu_);
  --open_;
  auto it = per_peer_open_.find(peer);
  if (--it->second == 0) per_peer_open_.erase(it);
}

}  // namespace npud::daemon
