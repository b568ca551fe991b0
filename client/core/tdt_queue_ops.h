// tdt_queue_ops.h
//
// TDT queues as the client sees them (acl_tdt.h channels and
// acl_tdt_queue.h queues): calls to npud, which keeps the queues. npud
// never waits; the waiting that timeouts ask for happens here, by retrying
// with a growing pause (50 us up to 2 ms) until there is room or data, or
// the time is up.
//
// Timeouts are CANN's: -1 waits for ever, 0 not at all, > 0 milliseconds.

#ifndef NPUD_CLIENT_CORE_TDT_QUEUE_OPS_H_
#define NPUD_CLIENT_CORE_TDT_QUEUE_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

absl::StatusOr<uint32_t> CreateTdtQueue(int32_t device, const std::string& name, uint32_t depth);
absl::Status DestroyTdtQueue(int32_t device, uint32_t queue_id);

// kRtQueueFull once the timeout has passed without room.
absl::Status EnqueueTdt(int32_t device, uint32_t queue_id, std::string data, std::string user_data,
                        int32_t timeout_ms);

struct TdtMessage {
  std::string data;
  std::string user_data;
  // The message's length (with too_large: it stayed queued, having more
  // than max_bytes).
  uint64_t size = 0;
  bool too_large = false;
};
// kRtQueueEmpty once the timeout has passed without data. `max_bytes` 0:
// any size.
absl::StatusOr<TdtMessage> DequeueTdt(int32_t device, uint32_t queue_id, uint64_t max_bytes,
                                      int32_t timeout_ms);

// Messages queued.
absl::StatusOr<uint64_t> TdtQueueSize(int32_t device, uint32_t queue_id);
// Drops every queued message.
absl::Status ResetTdtQueue(int32_t device, uint32_t queue_id);

struct TdtRoute {
  uint32_t src = 0;
  uint32_t dst = 0;
  int32_t status = 0;
};
// Binds (unbinds) `routes` and updates their status; fails unless all did.
absl::Status BindTdtRoutes(int32_t device, std::vector<TdtRoute>* routes, bool unbind);
absl::StatusOr<std::vector<TdtRoute>> QueryTdtRoutes(int32_t device, int32_t mode, uint32_t src,
                                                     uint32_t dst);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_TDT_QUEUE_OPS_H_
