// resource_limits.h
//
// Per-device and per-stream core limits (aclrtSetDeviceResLimit and the
// stream variants). The simulator keeps and reports them; they do not change
// how many simulated cores a launch uses (its block count decides that).

#ifndef NPUD_CLIENT_CORE_RESOURCE_LIMITS_H_
#define NPUD_CLIENT_CORE_RESOURCE_LIMITS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// `type` is an aclrtDevResLimitType: 0 cube cores, 1 vector cores.
absl::Status SetDeviceLimit(int32_t device, uint32_t type, uint32_t value);
absl::StatusOr<uint32_t> GetDeviceLimit(int32_t device, uint32_t type);
absl::Status ResetDeviceLimits(int32_t device);
absl::Status SetStreamLimit(void* stream, uint32_t type, uint32_t value);
absl::StatusOr<uint32_t> GetStreamLimit(void* stream, uint32_t type);
absl::Status ResetStreamLimits(void* stream);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_RESOURCE_LIMITS_H_
