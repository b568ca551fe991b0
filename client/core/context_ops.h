// context_ops.h
//
// Devices and contexts as CANN defines them: aclrtSetDevice opens a device
// for the process and makes its primary context current for the calling
// thread; aclrtCreateContext makes an additional context; every context has
// a default stream (what a null aclrtStream means); the current context is
// per thread.

#ifndef NPUD_CLIENT_CORE_CONTEXT_OPS_H_
#define NPUD_CLIENT_CORE_CONTEXT_OPS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/core/object_registry.h"

namespace npud::client {

absl::Status SetDevice(int32_t device);
absl::Status ResetDevice(int32_t device, bool force);
// The device of the calling thread's current context.
absl::StatusOr<int32_t> CurrentDevice();
absl::Status SynchronizeDevice(int32_t timeout_ms);
// aclrtGetHardwareSyncAddr: the address a kernel gives SetSyncBaseAddr for
// the flags between the cube and vector cores of the current context's
// device. On the NPU it names registers, not memory; npud's flags need no
// base, so it is a per-device address no mapping can ever hold (non-canonical
// on x86-64: a kernel that dereferences it faults).
absl::StatusOr<void*> HardwareSyncAddress();
// aclrtGetPrimaryCtxState: whether `device` is set (its primary context
// exists) in this process.
absl::StatusOr<bool> PrimaryContextActive(int32_t device);

// Creates a context on `device` and makes it current; returns its id.
absl::StatusOr<uint64_t> CreateContext(int32_t device);
absl::Status DestroyContext(uint64_t context);
absl::Status SetCurrentContext(uint64_t context);

struct CurrentContextInfo {
  uint64_t id;
  ContextRecord record;
};
// The calling thread's current context, or ACL_ERROR_RT_CONTEXT_NULL.
absl::StatusOr<CurrentContextInfo> CurrentContext();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_CONTEXT_OPS_H_
