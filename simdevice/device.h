// device.h
//
// Device: one simulated NPU — its figures and its memory. Streams and events
// of a device are created by whoever owns them (the daemon's sessions) and
// run on the DeviceSet's shared scheduler.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_DEVICE_H_
#define NPUD_SIMDEVICE_DEVICE_H_

#include <memory>

#include "simdevice/core_utilization.h"
#include "simdevice/device_config.h"
#include "simdevice/device_memory.h"

namespace npud::sim {

class Device {
 public:
  Device(int id, DeviceConfig config, std::unique_ptr<DeviceMemory> memory)
      : id_(id),
        config_(std::move(config)),
        memory_(std::move(memory)),
        utilization_(config_.vector_cores, config_.cube_cores) {}
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int id() const { return id_; }
  const DeviceConfig& config() const { return config_; }
  DeviceMemory& memory() { return *memory_; }
  const DeviceMemory& memory() const { return *memory_; }
  // Its AI cores' recent load, from the kernel launches that ran.
  CoreUtilization& utilization() { return utilization_; }

 private:
  const int id_;
  const DeviceConfig config_;
  const std::unique_ptr<DeviceMemory> memory_;
  CoreUtilization utilization_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DEVICE_H_
