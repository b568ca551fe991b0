#include "client/core/tdt_channel.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "client/core/memory_ops.h"
#include "client/core/runtime.h"
#include "client/core/tdt_queue_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

// acltdtTensorType values that may travel.
constexpr int32_t kTensor = 0, kEndOfSequence = 1, kAbnormal = 2;

absl::Status CopyBytes(const TdtItem& item, std::string* out) {
  const size_t size = item.byte_size();
  if (size == 0) return absl::OkStatus();
  if (item.bytes() == nullptr) {
    return AclError(kAclInvalidParam, absl::StrFormat("an item of %d bytes without data", size));
  }
  out->resize(size);
  if (Runtime::Get().IsDevicePointer(item.bytes())) {
    return Memcpy(out->data(), size, item.bytes(), size,
                  static_cast<uint32_t>(CopyKind::kDeviceToHost), /*async=*/false, nullptr);
  }
  out->assign(static_cast<const char*>(item.bytes()), size);
  return absl::OkStatus();
}

}  // namespace

absl::Status SendDataset(int32_t device, uint32_t queue_id, const std::string& name,
                         const std::vector<const TdtItem*>& items, int32_t timeout_ms) {
  v1::TdtDatasetPayload payload;
  payload.set_name(name);
  for (const TdtItem* item : items) {
    if (item->tensor_type != kTensor && item->tensor_type != kEndOfSequence &&
        item->tensor_type != kAbnormal) {
      return AclError(kAclInvalidParam, absl::StrFormat("an item of tensor type %d cannot be sent",
                                                        item->tensor_type));
    }
    v1::TdtDatasetPayload::Item* out = payload.add_items();
    out->set_tensor_type(item->tensor_type);
    out->set_data_type(item->data_type);
    out->mutable_dims()->Add(item->dims.begin(), item->dims.end());
    out->set_slice_num(item->slice_num);
    out->set_slice_id(item->slice_id);
    NPUD_RETURN_IF_ERROR(CopyBytes(*item, out->mutable_data()));
  }
  return EnqueueTdt(device, queue_id, payload.SerializeAsString(), "", timeout_ms);
}

absl::StatusOr<TdtReceived> ReceiveDataset(int32_t device, uint32_t queue_id, int32_t timeout_ms) {
  NPUD_ASSIGN_OR_RETURN(TdtMessage message, DequeueTdt(device, queue_id, 0, timeout_ms));
  v1::TdtDatasetPayload payload;
  if (!payload.ParseFromString(message.data)) {
    return AclError(kAclFailure,
                    absl::StrFormat("queue %u held a message that is not a dataset", queue_id));
  }
  TdtReceived received;
  received.name = payload.name();
  for (v1::TdtDatasetPayload::Item& in : *payload.mutable_items()) {
    TdtItem item;
    item.tensor_type = in.tensor_type();
    item.data_type = in.data_type();
    item.dims.assign(in.dims().begin(), in.dims().end());
    item.slice_num = in.slice_num();
    item.slice_id = in.slice_id();
    item.received = std::move(*in.mutable_data());
    item.is_received = true;
    received.items.push_back(std::move(item));
  }
  return received;
}

}  // namespace npud::client
