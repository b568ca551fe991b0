// kernel_host_directory.h
//
// KernelHostDirectory: every live kernel host of one DeviceSet, so memory
// that is released (its last reference gone, about to be handed out again)
// can be withdrawn from every host that maps it — its owner's and those of
// sessions that imported it — before anyone else gets the addresses.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_EXECUTOR_KERNEL_HOST_DIRECTORY_H_
#define NPUD_SIMDEVICE_EXECUTOR_KERNEL_HOST_DIRECTORY_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/executor/kernel_host.h"

namespace npud::sim {

class KernelHostDirectory {
 public:
  void Add(const std::shared_ptr<KernelHost>& host) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    hosts_.erase(std::remove_if(hosts_.begin(), hosts_.end(),
                                [](const std::weak_ptr<KernelHost>& h) { return h.expired(); }),
                 hosts_.end());
    hosts_.push_back(host);
  }

  // The hosts alive now.
  size_t Live() const ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<std::weak_ptr<KernelHost>> hosts;
    {
      absl::MutexLock lock(&mu_);
      hosts = hosts_;
    }
    // Outside mu_: a host whose last reference this is goes here.
    size_t live = 0;
    for (const std::weak_ptr<KernelHost>& weak : hosts) {
      std::shared_ptr<KernelHost> host = weak.lock();
      live += host != nullptr && host->alive() ? 1 : 0;
    }
    return live;
  }

  // Returns once no host maps any of [address, address + size).
  void Revoke(uint64_t address, uint64_t size) ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<std::shared_ptr<KernelHost>> live;
    {
      absl::MutexLock lock(&mu_);
      for (const std::weak_ptr<KernelHost>& weak : hosts_) {
        if (auto host = weak.lock()) live.push_back(std::move(host));
      }
    }
    for (const auto& host : live) host->Revoke(address, size);
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<std::weak_ptr<KernelHost>> hosts_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EXECUTOR_KERNEL_HOST_DIRECTORY_H_
