// resource_limits.h
//
// Per-device and per-stream core limits (aclrtSetDeviceResLimit and the
// stream variants). The simulator keeps and reports them; they do not change
// how many simulated cores a launch uses (its block count decides that).

#ifndef NPUD_CLIENT_CORE_RESOURCE_LIMITS_H_
#define NPUD_CLIENT_CORE_RESOURCE_LIMITS_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

// The limits set so far, by (device or stream id, type); unset means the
// device's full core count. Owned by the Runtime. Thread-safe.
class CoreLimits {
 public:
  void SetDevice(int32_t device, uint32_t type, uint32_t value) ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<uint32_t> Device(int32_t device, uint32_t type) const ABSL_LOCKS_EXCLUDED(mu_);
  void ResetDevice(int32_t device) ABSL_LOCKS_EXCLUDED(mu_);
  void SetStream(uint64_t stream, uint32_t type, uint32_t value) ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<uint32_t> Stream(uint64_t stream, uint32_t type) const ABSL_LOCKS_EXCLUDED(mu_);
  void ResetStream(uint64_t stream) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::pair<int64_t, uint32_t>, uint32_t> device_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::pair<uint64_t, uint32_t>, uint32_t> stream_ ABSL_GUARDED_BY(mu_);
};

// `type` is an aclrtDevResLimitType: 0 cube cores, 1 vector cores.
absl::Status SetDeviceLimit(int32_t device, uint32_t type, uint32_t value);
absl::StatusOr<uint32_t> GetDeviceLimit(int32_t device, uint32_t type);
absl::Status ResetDeviceLimits(int32_t device);
absl::Status SetStreamLimit(void* stream, uint32_t type, uint32_t value);
absl::StatusOr<uint32_t> GetStreamLimit(void* stream, uint32_t type);
absl::Status ResetStreamLimits(void* stream);
// aclrtUseStreamResInCurrentThread / Unuse: the calling thread takes the
// limits of `stream` (the last one wins) or gives them up again.
absl::Status UseStreamLimitsInThread(void* stream);
absl::Status UnuseStreamLimitsInThread(void* stream);
// aclrtGetResInCurrentThread: the limit the calling thread works under —
// its stream's if it uses one, else its current device's (the process's
// limit, else the core count).
absl::StatusOr<uint32_t> GetThreadLimit(uint32_t type);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_RESOURCE_LIMITS_H_
