// device_set.h
//
// DeviceSet: the simulated NPUs of one npud (or of one in-process client)
// and the scheduler that runs their streams.
//
// Thread-safe. Destroy every stream, event and task before the set.

#ifndef NPUD_SIMDEVICE_DEVICE_SET_H_
#define NPUD_SIMDEVICE_DEVICE_SET_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "simdevice/ai_core_pool.h"
#include "simdevice/device.h"
#include "simdevice/device_config.h"
#include "simdevice/device_range.h"
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
  };

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
  AiCorePool& cores() { return *cores_; }
  Poller& poller() { return *poller_; }
  // Reserved device virtual addresses and the physical memory mapped there,
  // shared by all devices.
  VirtualAddressSpace& vmm() { return *vmm_; }

 private:
  DeviceSet(int scheduler_threads, int cores, uint64_t ub_bytes);

  // Constant after Create(). Destroyed in reverse: cores, scheduler, virtual
  // addresses (their mappings hold physical memory charged to devices),
  // devices.
  std::vector<std::unique_ptr<Device>> devices_;
  std::unique_ptr<VirtualAddressSpace> vmm_;
  std::unique_ptr<StreamScheduler> scheduler_;
  std::unique_ptr<AiCorePool> cores_;
  std::unique_ptr<Poller> poller_ = std::make_unique<Poller>();
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DEVICE_SET_H_
