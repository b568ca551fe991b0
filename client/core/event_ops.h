// event_ops.h
//
// Events: creation (client-minted ids), record/reset/wait as stream tasks,
// and host-side queries and waits, with CANN's flag rules.

#ifndef NPUD_CLIENT_CORE_EVENT_OPS_H_
#define NPUD_CLIENT_CORE_EVENT_OPS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// How an event was created, which decides the flags it accepts.
enum class EventApi { kCreateEvent, kWithFlag, kExWithFlag };

absl::StatusOr<void*> CreateEvent(EventApi api, uint32_t flags);
absl::Status DestroyEvent(void* event);
// ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL: inside a capture, the
// record or wait of an event shared with work outside the model (a captured
// record or wait is replayed as one, so the external form only adds CANN's
// checks: an aclrtCreateEventExWithFlag(ACL_EVENT_SYNC) event, a capturing
// stream). An event keeps the record flag and the wait flag it was first
// used with.
inline constexpr uint32_t kEventFlagExternal = 1;
absl::Status RecordEvent(void* event, void* stream, uint32_t flag = 0);
absl::Status ResetEvent(void* event, void* stream);
// `timeout_s`: the stream fails with ACL_ERROR_RT_WAIT_TIMEOUT if the event
// is not recorded within so many seconds (0: never); kOpWaitTimeout takes
// aclrtSetOpWaitTimeout's.
inline constexpr int64_t kOpWaitTimeout = -1;
absl::Status StreamWaitEvent(void* stream, void* event, int64_t timeout_s = kOpWaitTimeout,
                             uint32_t flag = 0);
// aclrtQueryEventStatus: the newest record has executed (events made by
// aclrtCreateEventExWithFlag also count as complete before any record).
absl::StatusOr<bool> EventComplete(void* event);
// timeout_ms < 0 waits forever.
absl::Status SynchronizeEvent(void* event, int32_t timeout_ms);
absl::StatusOr<float> EventElapsedMs(void* start, void* end);
absl::StatusOr<uint64_t> EventTimestampUs(void* event);
// aclrtGetEventId: the id the event got at its first record, numbered per
// device from 1; ACL_ERROR_RT_INTERNAL_ERROR before any record, as CANN.
absl::StatusOr<uint32_t> EventHardwareId(void* event);
// aclrtGetEventAvailNum: how many more events the process may create (the
// session's limit, else 65536, less those it has).
absl::StatusOr<uint32_t> AvailableEvents();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_EVENT_OPS_H_
