// stream_ops.h
//
// Streams: creation (client-minted ids, no round trip), destruction,
// synchronization and queries. A null aclrtStream means the default stream
// of the calling thread's current context.

#ifndef NPUD_CLIENT_CORE_STREAM_OPS_H_
#define NPUD_CLIENT_CORE_STREAM_OPS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/core/object_registry.h"

namespace npud::client {

struct StreamTarget {
  uint64_t id;
  int32_t device;
  bool is_default;
};

// Resolves an aclrtStream handle (null: the current context's default).
absl::StatusOr<StreamTarget> ResolveStream(void* handle);
// ACL_ERROR_RT_STREAM_CAPTURED while the stream captures a model: CANN
// refuses to synchronize, query or destroy it then, and to read or reset
// the overflow status on it.
absl::Status NotCapturing(uint64_t stream_id);

absl::StatusOr<void*> CreateStream(uint32_t priority, uint32_t flags);
absl::Status DestroyStream(void* handle, bool force);
// timeout_ms < 0 waits forever.
absl::Status SynchronizeStream(void* handle, int32_t timeout_ms);
// True when every task of the stream has finished.
absl::StatusOr<bool> StreamIdle(void* handle);
absl::Status SetStreamFailureMode(void* handle, uint64_t mode);
// The stream's record (null: the current context's default stream).
absl::StatusOr<StreamRecord> StreamInfo(void* handle);
// aclrtSetStreamAttribute / aclrtGetStreamAttribute for aclrtStreamAttr
// `attr`, the value widened to 64 bits (only the failure mode is 64 bits
// wide). Priorities are clamped to [0, 7] as CANN clamps them; the launch
// blocking mode is not simulated (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
absl::Status SetStreamAttribute(void* handle, uint32_t attr, uint64_t value);
absl::StatusOr<uint64_t> GetStreamAttribute(void* handle, uint32_t attr);
// aclrtNonBlockingLaunchBegin/End: sections, nested, in which launches do
// not block. npud's launches never block the caller (the launch blocking
// mode is not simulated), so a section changes nothing but its count; an
// End without a Begin is ACL_ERROR_RT_PARAM_INVALID, as in CANN.
absl::Status BeginNonBlockingLaunches(void* stream);
absl::Status EndNonBlockingLaunches(void* stream);
// aclrtGetStreamAvailableNum: how many more streams the process may create
// (the session's limit, else 65536, less those it has).
absl::StatusOr<uint32_t> AvailableStreams();
// aclrtGetThreadLastTaskId: the number of the last task of the stream the
// calling thread named last (npud numbers a stream's tasks from 1); 0 if
// it has named none.
absl::StatusOr<uint32_t> LastTaskIdOfThread();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_STREAM_OPS_H_
