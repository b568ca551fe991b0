#include "client/core/float_overflow.h"

#include <array>
#include <atomic>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/context_ops.h"
#include "client/core/daemon_calls.h"
#include "client/core/memory_ops.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

constexpr uint32_t kSaturation = 0;  // ACL_RT_OVERFLOW_MODE_SATURATION
constexpr uint32_t kInfNan = 1;      // ACL_RT_OVERFLOW_MODE_INFNAN
constexpr uint64_t kContextBufferBytes = 512;

// Asks npud for the status of `device`, lowering it with `reset`.
absl::StatusOr<bool> QueryStatus(int32_t device, bool reset) {
  v1::Call call;
  call.mutable_float_overflow_status()->set_device_id(device);
  call.mutable_float_overflow_status()->set_reset(reset);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.overflow().overflow();
}

class ContextBuffers {
 public:
  static ContextBuffers& Get() {
    static auto* const buffers = new ContextBuffers;
    return *buffers;
  }
  absl::StatusOr<void*> For(uint64_t context) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = buffers_.find(context);
    if (it != buffers_.end()) return it->second;
    NPUD_ASSIGN_OR_RETURN(void* buffer, MallocDevice(kContextBufferBytes, 0));
    NPUD_RETURN_IF_ERROR(Memset(buffer, kContextBufferBytes, 0, kContextBufferBytes,
                                /*async=*/false, nullptr));
    buffers_.emplace(context, buffer);
    return buffer;
  }

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, void*> buffers_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

absl::Status SetStreamOverflowSwitch(void* stream, uint32_t flag) {
  if (flag > 1) {
    return AclError(kRtParamInvalid, absl::StrFormat("overflow switch %d is not 0 or 1", flag));
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  NPUD_RETURN_IF_ERROR(NotCapturing(target.id));
  Runtime::Get().objects().UpdateStream(
      target.id, [flag](StreamRecord& record) { record.overflow_switch = flag; });
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> StreamOverflowSwitch(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamRecord record, StreamInfo(stream));
  return record.overflow_switch;
}

absl::Status SetDeviceSatMode(uint32_t mode) {
  if (mode == kSaturation) {
    return AclError(kRtFeatureNotSupport,
                    "saturation mode is not simulated: npud's AI cores compute in INF/NAN mode");
  }
  if (mode != kInfNan) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%d is not an aclrtFloatOverflowMode to set", mode));
  }
  return absl::OkStatus();
}

uint32_t DeviceSatMode() { return kInfNan; }

absl::Status GetOverflowStatus(void* output, uint64_t size, void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  if (output == nullptr) return AclError(kRtParamInvalid, "the output address is null");
  if (size != kOverflowStatusBytes) {
    return AclError(kRtParamInvalid, absl::StrFormat("the overflow status takes %d bytes, not %d",
                                                     kOverflowStatusBytes, size));
  }
  NPUD_RETURN_IF_ERROR(NotCapturing(target.id));
  NPUD_RETURN_IF_ERROR(SynchronizeStream(stream, -1));
  NPUD_ASSIGN_OR_RETURN(const bool overflow, QueryStatus(target.device, /*reset=*/false));
  std::array<uint32_t, kOverflowStatusBytes / sizeof(uint32_t)> status{};
  status[0] = overflow ? 1 : 0;
  return Memcpy(output, size, status.data(), sizeof(status),
                static_cast<uint32_t>(CopyKind::kHostToDevice), /*async=*/true, stream);
}

absl::Status ResetOverflowStatus(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  NPUD_RETURN_IF_ERROR(NotCapturing(target.id));
  NPUD_RETURN_IF_ERROR(SynchronizeStream(stream, -1));
  return QueryStatus(target.device, /*reset=*/true).status();
}

absl::StatusOr<void*> ContextOverflowBuffer() {
  NPUD_ASSIGN_OR_RETURN(const CurrentContextInfo context, CurrentContext());
  return ContextBuffers::Get().For(context.id);
}

}  // namespace npud::client
