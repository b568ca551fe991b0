#include "client/core/copy_planner.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "client/core/call_pipeline.h"
#include "client/core/model_ops.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "common/wire_constants.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

CopyRoute PlanCopy(const CopyFacts& facts) {
  if (facts.in_window) return CopyRoute::kWindow;
  if (facts.sync && facts.local && facts.count >= kStagingThreshold) return CopyRoute::kStaging;
  const bool large = facts.bulk && facts.count > kBulkThreshold;
  if (facts.to_device) {
    // Over the bulk channel only when the bytes may be read later: a
    // synchronous copy's caller waits, aclrtMallocHost memory stays put until
    // the stream is synchronized. A capture keeps its copies' bytes, inline.
    const bool readable_later = facts.sync || facts.pinned_host;
    return large && readable_later && !facts.captured ? CopyRoute::kBulk : CopyRoute::kInline;
  }
  if (!facts.sync && facts.captured) return CopyRoute::kRefused;
  return large ? CopyRoute::kBulk : CopyRoute::kInline;
}

CopyFacts CopyPlanner::Facts(bool to_device, uint64_t stream_id, const void* host, size_t count,
                             const std::optional<WindowRange>& window) const {
  CopyFacts facts;
  facts.to_device = to_device;
  facts.count = count;
  facts.sync = stream_id == 0;
  facts.in_window = window.has_value();
  facts.local = session_.CanShareMemory();
  facts.bulk = session_.bulk() != nullptr;
  facts.captured = !facts.sync && StreamCaptures(stream_id);
  facts.pinned_host = Runtime::Get().host_memory().Contains(host, count);
  return facts;
}

StagingRing* CopyPlanner::Ring() {
  absl::MutexLock lock(&mu_);
  if (!ring_tried_) {
    ring_tried_ = true;
    absl::StatusOr<std::unique_ptr<StagingRing>> ring =
        StagingRing::Create(session_, Runtime::Get().objects().MintId());
    if (ring.ok()) ring_ = *std::move(ring);
  }
  return ring_.get();
}

absl::Status CopyPlanner::ToDevice(uint64_t stream_id, uint64_t dst, const uint8_t* src,
                                   size_t count) {
  const std::optional<WindowRange> window = Runtime::Get().host_memory().FindWindow(src, count);
  CopyFacts facts = Facts(/*to_device=*/true, stream_id, src, count, window);
  StagingRing* ring = nullptr;
  CopyRoute route = PlanCopy(facts);
  if (route == CopyRoute::kStaging && (ring = Ring()) == nullptr) {
    facts.local = false;  // no ring to be had after all
    route = PlanCopy(facts);
  }
  switch (route) {
    case CopyRoute::kWindow:
      return ThroughWindow(stream_id, dst, *window, count, /*to_device=*/true);
    case CopyRoute::kStaging:
      return ring->ToDevice(dst, src, count);
    case CopyRoute::kBulk:
      return BulkToDevice(stream_id, dst, src, count);
    case CopyRoute::kInline:
    case CopyRoute::kRefused:  // not a route to the device
      break;
  }
  return InlineToDevice(stream_id, dst, src, count);
}

absl::Status CopyPlanner::ToHost(uint64_t stream_id, void* dst, uint64_t src, size_t count) {
  const std::optional<WindowRange> window = Runtime::Get().host_memory().FindWindow(dst, count);
  CopyFacts facts = Facts(/*to_device=*/false, stream_id, dst, count, window);
  StagingRing* ring = nullptr;
  CopyRoute route = PlanCopy(facts);
  if (route == CopyRoute::kStaging && (ring = Ring()) == nullptr) {
    facts.local = false;
    route = PlanCopy(facts);
  }
  switch (route) {
    case CopyRoute::kWindow:
      return ThroughWindow(stream_id, src, *window, count, /*to_device=*/false);
    case CopyRoute::kStaging:
      return ring->ToHost(static_cast<uint8_t*>(dst), src, count);
    case CopyRoute::kRefused:
      return AclError(kRtFeatureNotSupport,
                      "a captured copy to host memory needs memory npud can reach itself "
                      "(aclrtMallocHost memory with a local daemon)");
    case CopyRoute::kBulk:
      return ReadBack(stream_id, dst, src, count, /*bulk=*/true);
    case CopyRoute::kInline:
      break;
  }
  return ReadBack(stream_id, dst, src, count, /*bulk=*/false);
}

// One memcpy in npud when the copy runs.
absl::Status CopyPlanner::ThroughWindow(uint64_t stream_id, uint64_t device,
                                        const WindowRange& host, size_t count, bool to_device) {
  v1::Call call;
  v1::HostCopy* copy = call.mutable_host_copy();
  copy->set_stream_id(stream_id);
  copy->set_device_address(device);
  copy->set_window_id(host.window_id);
  copy->set_window_offset(host.offset);
  copy->set_size(count);
  copy->set_to_device(to_device);
  if (stream_id != 0) return session_.Submit(std::move(call));
  return session_.Call(std::move(call)).status();
}

// npud pulls the bytes from `src` over the bulk channel when the copy runs.
absl::Status CopyPlanner::BulkToDevice(uint64_t stream_id, uint64_t dst, const uint8_t* src,
                                       size_t count) {
  BulkChannel& bulk = *session_.bulk();
  const bool async = stream_id != 0;
  const uint64_t transfer = session_.NewTransferId();
  bulk.Offer(transfer, absl::Span<const uint8_t>(src, count), /*forget_when_sent=*/async);
  v1::Call call;
  v1::WriteDevice* write = call.mutable_write_device();
  write->set_stream_id(stream_id);
  write->set_address(dst);
  write->set_bulk_transfer_id(transfer);
  write->set_bulk_size(count);
  if (async) {
    absl::Status submitted = session_.Submit(std::move(call));
    if (!submitted.ok()) bulk.Withdraw(transfer);
    return submitted;
  }
  absl::Status copied = session_.Call(std::move(call)).status();
  bulk.Withdraw(transfer);
  return copied;
}

// The bytes ride in the call batch, chunk by chunk (captured at the call).
absl::Status CopyPlanner::InlineToDevice(uint64_t stream_id, uint64_t dst, const uint8_t* src,
                                         size_t count) {
  std::vector<v1::Call> calls;
  calls.reserve((count + kDataChunkBytes - 1) / kDataChunkBytes);
  for (size_t offset = 0; offset < count; offset += kDataChunkBytes) {
    const size_t n = std::min(kDataChunkBytes, count - offset);
    v1::Call call;
    v1::WriteDevice* write = call.mutable_write_device();
    write->set_stream_id(stream_id);
    write->set_address(dst + offset);
    write->set_data(src + offset, n);
    if (stream_id != 0) {
      NPUD_RETURN_IF_ERROR(session_.Submit(std::move(call)));
    } else {
      calls.push_back(std::move(call));
    }
  }
  if (stream_id != 0) return absl::OkStatus();
  return session_.CallAll(std::move(calls));
}

// npud sends the bytes back as data chunks of a transfer (over the bulk
// channel with `bulk`), written straight into `dst`.
absl::Status CopyPlanner::ReadBack(uint64_t stream_id, void* dst, uint64_t src, size_t count,
                                   bool bulk) {
  const bool sync = stream_id == 0;
  const uint64_t transfer = session_.BeginTransfer(dst, count, /*awaited=*/sync, bulk);
  v1::Call call;
  v1::ReadDevice* read = call.mutable_read_device();
  read->set_stream_id(stream_id);
  read->set_address(src);
  read->set_size(count);
  read->set_transfer_id(transfer);
  read->set_bulk(bulk);
  if (!sync) {
    absl::Status submitted = session_.Submit(std::move(call));
    // A refused read sends no data: forget its transfer.
    if (!submitted.ok()) return session_.AbandonTransfer(transfer, submitted);
    return absl::OkStatus();
  }
  auto reply = session_.Call(std::move(call));
  // On failure no data comes; WaitTransfer then reports the reply's error.
  absl::Status data = reply.ok() ? session_.WaitTransfer(transfer)
                                 : session_.AbandonTransfer(transfer, reply.status());
  return reply.ok() ? data : reply.status();
}

}  // namespace npud::client
