// tdt_queues.h
//
// TdtQueues: the TDT message queues of every device (acl_tdt.h channels and
// acl_tdt_queue.h queues), and the routes that forward what is enqueued on
// one queue to others. Queue ids and names are the device's: a name is
// unique among a device's queues whoever created them. A queue belongs to
// the session that created it; only that session may use it, and it goes,
// with its routes and messages, when the session ends.
//
// Bounded: a queue holds at most its depth of messages, a session at most
// kMaxSessionBytes of queued messages and kMaxSessionQueues queues, so a
// client that only enqueues is refused (ACL_ERROR_RT_QUEUE_FULL), never
// grows the daemon. Nothing here waits; callers retry.
//
// Thread-safe.

#ifndef NPUD_DAEMON_TDT_QUEUES_H_
#define NPUD_DAEMON_TDT_QUEUES_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class TdtQueues {
 public:
  // Limits per session: queued bytes (messages and user data), queues.
  static constexpr uint64_t kMaxSessionBytes = 256ull << 20;
  static constexpr size_t kMaxSessionQueues = 1024;
  // A device's queue ids lie below this (CANN's queue scheduler's bound).
  static constexpr uint32_t kMaxQueueId = 8192;
  static constexpr size_t kMaxNameLength = 127;
  static constexpr uint32_t kMinDepth = 2;
  static constexpr uint32_t kMaxDepth = 8192;
  static constexpr size_t kMaxUserDataBytes = 4096;

  struct Message {
    std::string data;
    std::string user_data;
  };
  // A route as the client names it; status ACL_TDT_QUEUE_ROUTE_*.
  struct Route {
    uint32_t src = 0;
    uint32_t dst = 0;
    int32_t status = 0;
  };
  enum class QueryMode { kSrc = 0, kDst = 1, kSrcAndDst = 2, kAbnormal = 100 };

  // A queue named `name` ("": unnamed) of `depth` messages on `device_id`:
  // its id. kRtParamInvalid for a depth out of range or a name too long;
  // ACL_ERROR_INVALID_PARAM for a name the device already has (what CANN's
  // queue samples expect of a stale name).
  absl::StatusOr<uint32_t> Create(uint64_t session, int device_id, const std::string& name,
                                  uint32_t depth) ABSL_LOCKS_EXCLUDED(mu_);
  // ACL_ERROR_FAILURE while routes to or from it are bound.
  absl::Status Destroy(uint64_t session, int device_id, uint32_t queue_id) ABSL_LOCKS_EXCLUDED(mu_);

  // kRtQueueFull when the queue (or a queue a route forwards it to) has no
  // room, or the session's byte bound is reached.
  absl::Status Enqueue(uint64_t session, int device_id, uint32_t queue_id, Message message)
      ABSL_LOCKS_EXCLUDED(mu_);
  // kRtQueueEmpty when there is nothing. A message of more than `max_bytes`
  // (0: any) stays: kRtParamInvalid, with its length in *too_large.
  absl::StatusOr<Message> Dequeue(uint64_t session, int device_id, uint32_t queue_id,
                                  uint64_t max_bytes, uint64_t* too_large) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<uint64_t> Size(uint64_t session, int device_id, uint32_t queue_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Reset(uint64_t session, int device_id, uint32_t queue_id) ABSL_LOCKS_EXCLUDED(mu_);

  // Binds (or unbinds) each route; returns them with their new status.
  // Binding fails (ACL_ERROR_FAILURE) unless every route bound; a route
  // whose ends are the same queue, or that would chain onto another, does
  // not. Unbinding a route that is not bound succeeds.
  absl::StatusOr<std::vector<Route>> Bind(uint64_t session, int device_id,
                                          const std::vector<Route>& routes, bool unbind)
      ABSL_LOCKS_EXCLUDED(mu_);
  // The session's bound routes the query names.
  absl::StatusOr<std::vector<Route>> Query(uint64_t session, int device_id, int32_t mode,
                                           uint32_t src, uint32_t dst) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // The session ended: its queues and their routes go.
  void ReleaseSession(uint64_t session) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Queue {
    uint64_t owner = 0;
    std::string name;
    uint32_t depth = 0;
    std::deque<Message> messages;
  };
  using Key = std::pair<int, uint32_t>;  // device, queue id

  absl::StatusOr<Queue*> Find(uint64_t session, int device_id, uint32_t queue_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<const Queue*> Find(uint64_t session, int device_id, uint32_t queue_id) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Moves messages along bound routes out of `device_id`'s queue `src`, as
  // long as every destination has room.
  void Forward(int device_id, uint32_t src) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::vector<uint32_t> RouteTargets(int device_id, uint32_t src) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  void Account(uint64_t session, int64_t bytes) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<Key, Queue> queues_ ABSL_GUARDED_BY(mu_);
  // Bound routes: (device, src, dst).
  std::vector<std::tuple<int, uint32_t, uint32_t>> routes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<int, uint32_t> next_id_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, uint64_t> session_bytes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, size_t> session_queues_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_TDT_QUEUES_H_
