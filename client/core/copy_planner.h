// copy_planner.h
//
// Where the client decides how the bytes of a copy between host and device
// memory travel, and the CopyPlanner that carries copies out that way for
// one daemon's session (it owns that session's staging ring).
//
// The routes, in the order they are considered:
//   window   host memory npud shares (aclrtMallocHost, registered memory
//            with a local daemon): npud does the one memcpy when the copy runs;
//   staging  a synchronous copy of pageable memory from kStagingThreshold
//            bytes on, when the daemon is local: through slots of a window
//            shared with npud (staging_ring.h);
//   bulk     more than kBulkThreshold bytes when the session has a bulk
//            channel: to the device only when the bytes may be read later
//            (a synchronous copy, or pinned memory) and the stream does not
//            capture; to the host whenever it is not captured;
//   inline   everything else: in the call batch (to the device in chunks,
//            captured at the call as CANN does for pageable memory), or back
//            as data chunks;
//   refused  an asynchronous copy to host memory npud cannot reach, on a
//            stream that captures (a replay could not deliver its bytes).

#ifndef NPUD_CLIENT_CORE_COPY_PLANNER_H_
#define NPUD_CLIENT_CORE_COPY_PLANNER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "client/core/host_memory.h"
#include "client/core/staging_ring.h"

namespace npud::client {

class CallPipeline;

// Synchronous pageable copies from this size on go through the staging ring
// when the daemon is local; smaller ones ride inline in one message.
inline constexpr size_t kStagingThreshold = 64 << 10;
// Copies larger than this move over the bulk channel when the session has
// one; up to it they ride inline with the call batch, which costs no extra
// round trip.
inline constexpr size_t kBulkThreshold = 64 << 10;

enum class CopyRoute { kWindow, kStaging, kBulk, kInline, kRefused };

// What the choice of a route depends on.
struct CopyFacts {
  bool to_device = false;
  size_t count = 0;
  bool sync = false;         // no stream: the caller waits for the copy
  bool in_window = false;    // the host bytes are in memory npud shares
  bool local = false;        // the session can share memory (local daemon)
  bool bulk = false;         // the session has a usable bulk channel
  bool captured = false;     // the stream records into a model
  bool pinned_host = false;  // the host bytes are aclrtMallocHost memory
};

CopyRoute PlanCopy(const CopyFacts& facts);

// Copies between host and device memory over one daemon's session. Thread-
// safe; lives as long as its session.
class CopyPlanner {
 public:
  explicit CopyPlanner(CallPipeline& session) : session_(session) {}
  CopyPlanner(const CopyPlanner&) = delete;
  CopyPlanner& operator=(const CopyPlanner&) = delete;

  // `count` bytes from `src` to device address `dst` (to host `dst` from
  // device address `src`), on `stream_id` (0: synchronously).
  absl::Status ToDevice(uint64_t stream_id, uint64_t dst, const uint8_t* src, size_t count);
  absl::Status ToHost(uint64_t stream_id, void* dst, uint64_t src, size_t count);

 private:
  CopyFacts Facts(bool to_device, uint64_t stream_id, const void* host, size_t count,
                  const std::optional<WindowRange>& window) const;
  // The session's staging ring, made on first use; null if it cannot be
  // had (a remote daemon, or no window).
  StagingRing* Ring() ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status ThroughWindow(uint64_t stream_id, uint64_t device, const WindowRange& host,
                             size_t count, bool to_device);
  absl::Status BulkToDevice(uint64_t stream_id, uint64_t dst, const uint8_t* src, size_t count);
  absl::Status InlineToDevice(uint64_t stream_id, uint64_t dst, const uint8_t* src, size_t count);
  absl::Status ReadBack(uint64_t stream_id, void* dst, uint64_t src, size_t count, bool bulk);

  CallPipeline& session_;
  absl::Mutex mu_;
  bool ring_tried_ ABSL_GUARDED_BY(mu_) = false;
  std::unique_ptr<StagingRing> ring_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_COPY_PLANNER_H_
