// float_overflow.h
//
// The AI cores' float overflow status and the modes around it, as the 910B
// has them:
//
//  * npud's cores compute in INF/NAN mode (IEEE results, the hardware's
//    default on this chip); saturation mode is not simulated, so
//    aclrtSetDeviceSatMode(SATURATION) answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT
//    as CANN does on a chip without that mode.
//  * The status is per process and device: a kernel block whose arithmetic
//    overflows, divides by zero or makes a NaN raises it (npud reads the
//    CPU's floating-point exception flags around each block). Reading it
//    into device memory and resetting it are ordered on a stream: the client
//    waits for the stream's earlier work, then asks npud. The per-stream
//    overflow switch is kept and reported; checking is always on.
//  * A context's overflow buffer (aclrtCtxGetFloatOverflowAddr) is 512 bytes
//    of device memory, allocated at the first ask.

#ifndef NPUD_CLIENT_CORE_FLOAT_OVERFLOW_H_
#define NPUD_CLIENT_CORE_FLOAT_OVERFLOW_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// What aclrtGetOverflowStatus writes: the first 32-bit word is 1 after an
// overflow, 0 otherwise; the rest is zero.
inline constexpr uint64_t kOverflowStatusBytes = 64;

absl::Status SetStreamOverflowSwitch(void* stream, uint32_t flag);
absl::StatusOr<uint32_t> StreamOverflowSwitch(void* stream);

// aclrtFloatOverflowMode values.
absl::Status SetDeviceSatMode(uint32_t mode);
uint32_t DeviceSatMode();

// Writes the status of the stream's device into `output` (device memory of
// kOverflowStatusBytes) as a task of `stream`.
absl::Status GetOverflowStatus(void* output, uint64_t size, void* stream);
// Clears the status once the stream's earlier work is done.
absl::Status ResetOverflowStatus(void* stream);

absl::StatusOr<void*> ContextOverflowBuffer();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_FLOAT_OVERFLOW_H_
