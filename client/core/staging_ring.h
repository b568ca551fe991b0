// staging_ring.h
//
// StagingRing: synchronous copies between pageable host memory and device
// memory for a client on the daemon's host. The bytes go through slots of
// one window shared with npud (see host_memory.h): the client copies a chunk
// into a slot while the daemon copies the previous one to the device (or the
// other way round), so a copy costs one extra memcpy, overlapped, instead of
// a trip through the socket.
//
// Thread-safe: concurrent copies share the slots (see Run() for why they
// cannot deadlock).

#ifndef NPUD_CLIENT_CORE_STAGING_RING_H_
#define NPUD_CLIENT_CORE_STAGING_RING_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

class CallPipeline;

class StagingRing {
 public:
  static constexpr size_t kSlotBytes = 4 << 20;
  static constexpr size_t kSlots = 8;

  // A ring over a new window `window_id` shared with the daemon of
  // `session` (which must be able to share memory, and outlive the ring).
  static absl::StatusOr<std::unique_ptr<StagingRing>> Create(CallPipeline& session,
                                                             uint64_t window_id);

  absl::Status ToDevice(uint64_t device, const uint8_t* host, size_t size);
  absl::Status ToHost(uint8_t* host, uint64_t device, size_t size);

 private:
  StagingRing(CallPipeline& session, uint64_t window_id, uint8_t* base);

  // A free slot, waiting for one if none is free.
  size_t AcquireSlot() ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<size_t> TryAcquireSlot() ABSL_LOCKS_EXCLUDED(mu_);
  void ReleaseSlot(size_t slot) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Run(bool to_device, uint8_t* host, uint64_t device, size_t size);

  CallPipeline& session_;
  const uint64_t window_id_;
  uint8_t* const base_;

  absl::Mutex mu_;
  std::vector<size_t> free_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_STAGING_RING_H_
