// device_load.h
//
// How busy a device is (aclrtGetDeviceUtilizationRate): npud measures the
// share of the device's vector and cube core time that the kernels of all
// its clients took over the last second (simdevice/core_utilization.h).

#ifndef NPUD_CLIENT_CORE_DEVICE_LOAD_H_
#define NPUD_CLIENT_CORE_DEVICE_LOAD_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace npud::client {

struct DeviceLoad {
  int32_t vector_percent = 0;
  int32_t cube_percent = 0;
};
absl::StatusOr<DeviceLoad> DeviceUtilization(int32_t device);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DEVICE_LOAD_H_
