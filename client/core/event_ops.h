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
absl::Status RecordEvent(void* event, void* stream);
absl::Status ResetEvent(void* event, void* stream);
absl::Status StreamWaitEvent(void* stream, void* event);
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
