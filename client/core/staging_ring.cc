#include "client/core/staging_ring.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "client/core/call_pipeline.h"
#include "client/core/host_memory.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

absl::StatusOr<std::unique_ptr<StagingRing>> StagingRing::Create(CallPipeline& session,
                                                                 uint64_t window_id) {
  NPUD_ASSIGN_OR_RETURN(void* base, MapSharedWindow(session, window_id, kSlotBytes * kSlots,
                                                    /*at=*/nullptr, v1::HOST_WINDOW_STAGING));
  return std::unique_ptr<StagingRing>(
      new StagingRing(session, window_id, static_cast<uint8_t*>(base)));
}

StagingRing::StagingRing(CallPipeline& session, uint64_t window_id, uint8_t* base)
    : session_(session), window_id_(window_id), base_(base) {
  for (size_t slot = 0; slot < kSlots; ++slot) free_.push_back(slot);
}

size_t StagingRing::AcquireSlot() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](std::vector<size_t>* free) { return !free->empty(); }, &free_));
  const size_t slot = free_.back();
  free_.pop_back();
  return slot;
}

std::optional<size_t> StagingRing::TryAcquireSlot() {
  absl::MutexLock lock(&mu_);
  if (free_.empty()) return std::nullopt;
  const size_t slot = free_.back();
  free_.pop_back();
  return slot;
}

void StagingRing::ReleaseSlot(size_t slot) {
  absl::MutexLock lock(&mu_);
  free_.push_back(slot);
}

absl::Status StagingRing::ToDevice(uint64_t device, const uint8_t* host, size_t size) {
  return Run(true, const_cast<uint8_t*>(host), device, size);
}

absl::Status StagingRing::ToHost(uint8_t* host, uint64_t device, size_t size) {
  return Run(false, host, device, size);
}

absl::Status StagingRing::Run(bool to_device, uint8_t* host, uint64_t device, size_t size) {
  struct InFlight {
    size_t slot;
    size_t offset;  // Of the chunk in the copy.
    size_t length;
    std::shared_ptr<CallPipeline::Pending> reply;
  };
  std::deque<InFlight> in_flight;
  absl::Status first_error;
  // Waits for the oldest chunk; for a read, moves its bytes out of the slot.
  // Returns the slot for reuse.
  const auto finish_oldest = [&]() {
    InFlight chunk = std::move(in_flight.front());
    in_flight.pop_front();
    auto reply = session_.Await(*chunk.reply);
    if (!reply.ok()) {
      if (first_error.ok()) first_error = reply.status();
    } else if (!to_device) {
      std::memcpy(host + chunk.offset, base_ + chunk.slot * kSlotBytes, chunk.length);
    }
    return chunk.slot;
  };
  for (size_t offset = 0; offset < size && first_error.ok(); offset += kSlotBytes) {
    const size_t length = std::min(kSlotBytes, size - offset);
    // A copy keeps at most half the ring, and when no slot is free it reuses
    // its own oldest one: it only ever waits for other copies' slots while
    // it holds none, so copies cannot wait on each other in a circle.
    size_t slot;
    if (in_flight.size() >= kSlots / 2) {
      slot = finish_oldest();
    } else if (auto free = TryAcquireSlot(); free.has_value()) {
      slot = *free;
    } else if (!in_flight.empty()) {
      slot = finish_oldest();
    } else {
      slot = AcquireSlot();
    }
    if (to_device) std::memcpy(base_ + slot * kSlotBytes, host + offset, length);
    v1::Call call;
    v1::HostCopy* copy = call.mutable_host_copy();
    copy->set_device_address(device + offset);
    copy->set_window_id(window_id_);
    copy->set_window_offset(slot * kSlotBytes);
    copy->set_size(length);
    copy->set_to_device(to_device);
    in_flight.push_back(InFlight{slot, offset, length, session_.Begin(std::move(call))});
  }
  while (!in_flight.empty()) ReleaseSlot(finish_oldest());
  return first_error;
}

}  // namespace npud::client
