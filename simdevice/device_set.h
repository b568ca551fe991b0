// device_set.h
//
// DeviceSet: the simulated NPUs of one npud (or of one in-process client)
// and the scheduler that runs their streams.
//
// Thread-safe. Destroy every stream, event and task before the set.

#ifndef NPUD_SIMDEVICE_DEVICE_SET_H_
#define NPUD_SIMDEVICE_DEVICE_SET_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"

#include "absl/status/statusor.h"
#include "simdevice/ai_core_pool.h"
#include "simdevice/device.h"
#include "simdevice/device_config.h"
#include "simdevice/device_range.h"
#include "simdevice/executor/kernel_host_directory.h"
#include "simdevice/host_memory_budget.h"
#include "simdevice/poller.h"
#include "simdevice/stream_scheduler.h"
#include "simdevice/virtual_address_space.h"

namespace npud::sim {

class DeviceSet {
 public:
  struct Options {
    int device_count = 4;
    DeviceConfig device;
    // Scheduler workers; 0 picks max(4, hardware threads).
    int scheduler_threads = 0;
    // Host RAM all devices' memory may take together (0: no limit).
    uint64_t host_memory_limit_bytes = 0;
    // Which of kAddressSlots disjoint address windows the devices and the
    // reserved virtual addresses occupy. Daemons in different slots hand out
    // disjoint addresses, which a client using several of them needs to tell
    // their pointers apart.
    // Slot 0 (the default) may hold up to 64 devices and then reaches into
    // the slots above it; a daemon in slot 1 or higher must fit its slot.
    int address_slot = 0;
  };
  static constexpr int kAddressSlots = 4;

  static absl::StatusOr<std::unique_ptr<DeviceSet>> Create(const Options& options);
  ~DeviceSet();

  int count() const { return static_cast<int>(devices_.size()); }

  // The device with this id, or kRtInvalidDeviceId.
  absl::StatusOr<Device*> Get(int device_id) const;

  // Pins the device allocation (aclrtMalloc) that holds [address, address +
  // size), on whichever device it lives, or fails with kRtParamInvalid.
  // Mapped physical memory is found through vmm().
  absl::StatusOr<DeviceRange> Resolve(uint64_t address, uint64_t size) const;

  // The device whose address range holds `address`, or nullptr.
  Device* DeviceOfAddress(uint64_t address) const;

  StreamScheduler& scheduler() { return *scheduler_; }
  // The AI cores of in-process kernels, started (with their fault handler)
  // on first use; npud never uses them (its kernels run in kernel hosts).
  AiCorePool& cores() ABSL_LOCKS_EXCLUDED(cores_mu_);
  // The kernel hosts of all sessions; released memory is withdrawn from
  // them before it is reused.
  KernelHostDirectory& kernel_hosts() { return *kernel_hosts_; }
  // The address ranges device memory and virtual addresses live in.
  std::vector<std::pair<uint64_t, uint64_t>> AddressRanges() const;
  Poller& poller() { return *poller_; }
  // Reserved device virtual addresses and the physical memory mapped there,
  // shared by all devices.
  VirtualAddressSpace& vmm() { return *vmm_; }
  const HostMemoryBudget& host_memory() const { return *host_memory_; }

 private:
  DeviceSet(int scheduler_threads, int cores, uint64_t ub_bytes);
  // Withdraws released memory from kernel hosts; wired into the devices.
  void WatchReleases();

  // Constant after Create(). Destroyed in reverse: cores, scheduler, virtual
  // addresses (their mappings hold physical memory charged to devices),
  // devices, the budget they take from.
  std::unique_ptr<HostMemoryBudget> host_memory_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::unique_ptr<VirtualAddressSpace> vmm_;
  std::unique_ptr<StreamScheduler> scheduler_;
  const int core_count_;
  const uint64_t ub_bytes_;
  absl::Mutex cores_mu_;
  std::unique_ptr<AiCorePool> cores_ ABSL_GUARDED_BY(cores_mu_);
  // Outlives the memory that reports releases to it.
  std::unique_ptr<KernelHostDirectory> kernel_hosts_ = std::make_unique<KernelHostDirectory>();
  std::unique_ptr<Poller> poller_ = std::make_unique<Poller>();
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DEVICE_SET_H_
