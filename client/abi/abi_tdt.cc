// ACL entry points of TDT channels (acl_tdt.h): datasets and their items
// are objects of this library; channels are queues in npud
// (client/core/tdt_channel.h).

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "client/abi/abi_status.h"
#include "client/core/tdt_channel.h"
#include "client/core/tdt_queue_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;

// The opaque types behind the handles.
struct acltdtDataItem : npud::client::TdtItem {};

struct acltdtDataset {
  std::string name;
  std::vector<acltdtDataItem*> items;
  // A received dataset owns (and frees) its items.
  bool owns_items = false;

  ~acltdtDataset() {
    if (owns_items) {
      for (acltdtDataItem* item : items) delete item;
    }
  }
};

struct acltdtChannelHandle {
  uint32_t device = 0;
  std::string name;
  uint32_t queue_id = 0;
};

namespace {

constexpr size_t kMaxDims = 128;
constexpr size_t kMaxChannelName = 127;
constexpr size_t kMinCapacity = 2;
constexpr size_t kMaxCapacity = 8192;

// Null with the reason kept for aclGetRecentErrMsg and logged.
template <typename T>
T* Refuse(const char* function, const std::string& why) {
  npud::client::Unrecorded(npud::AclError(npud::kAclInvalidParam, why), function);
  return nullptr;
}

absl::Status CheckTimeout(int32_t timeout) {
  if (timeout < -1) {
    return npud::AclError(npud::kAclInvalidParam,
                          absl::StrFormat("timeout %d: -1, 0 or milliseconds", timeout));
  }
  return absl::OkStatus();
}

}  // namespace

namespace npud::abi_impl {

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem) {
  return dataItem == nullptr ? ACL_TENSOR_DATA_UNDEFINED
                             : static_cast<acltdtTensorType>(dataItem->tensor_type);
}

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) {
  return dataItem == nullptr ? ACL_DT_UNDEFINED : static_cast<aclDataType>(dataItem->data_type);
}

void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) {
  return dataItem == nullptr ? nullptr : const_cast<void*>(dataItem->bytes());
}

size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) {
  return dataItem == nullptr ? 0 : dataItem->byte_size();
}

size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) {
  return dataItem == nullptr ? 0 : dataItem->dims.size();
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum,
                                    size_t* sliceId) {
  NPUD_REQUIRE_NOT_NULL(dataItem);
  NPUD_REQUIRE_NOT_NULL(sliceNum);
  NPUD_REQUIRE_NOT_NULL(sliceId);
  *sliceNum = dataItem->slice_num;
  *sliceId = dataItem->slice_id;
  return ACL_SUCCESS;
}

aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum) {
  NPUD_REQUIRE_NOT_NULL(dataItem);
  if ((dims == nullptr) != (dimNum == 0) || dimNum < dataItem->dims.size()) {
    return npud::client::Unrecorded(
        AclError(kAclInvalidParam,
                 absl::StrFormat("room for %d dims (%s) for an item of %d", dimNum,
                                 dims == nullptr ? "null" : "given", dataItem->dims.size())),
        __func__);
  }
  if (!dataItem->dims.empty()) {
    std::memcpy(dims, dataItem->dims.data(), dataItem->dims.size() * sizeof(int64_t));
  }
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
                                     aclDataType dataType, void* data, size_t size) {
  if ((dims == nullptr) != (dimNum == 0)) {
    return Refuse<acltdtDataItem>(__func__, "dims and dimNum disagree");
  }
  if (dimNum > kMaxDims) {
    return Refuse<acltdtDataItem>(__func__,
                                  absl::StrFormat("%d dims, at most %d", dimNum, kMaxDims));
  }
  auto* item = new acltdtDataItem;
  item->tensor_type = tdtType;
  if (tdtType != ACL_TENSOR_DATA_TENSOR) {
    // Markers carry no data; CANN ignores data and size for them.
    if (dims != nullptr) {
      delete item;
      return Refuse<acltdtDataItem>(__func__, "only tensor items have dims");
    }
    item->data_type = ACL_DT_UNDEFINED;
    return item;
  }
  if (dims != nullptr) item->dims.assign(dims, dims + dimNum);
  item->data_type = dataType;
  item->data = data;
  item->size = size;
  return item;
}

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) {
  NPUD_REQUIRE_NOT_NULL(dataItem);
  delete dataItem;
  return ACL_SUCCESS;
}

acltdtDataset* acltdtCreateDataset() { return new acltdtDataset; }

aclError acltdtDestroyDataset(acltdtDataset* dataset) {
  NPUD_REQUIRE_NOT_NULL(dataset);
  delete dataset;
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index) {
  if (dataset == nullptr || index >= dataset->items.size()) return nullptr;
  return dataset->items[index];
}

aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem) {
  NPUD_REQUIRE_NOT_NULL(dataset);
  NPUD_REQUIRE_NOT_NULL(dataItem);
  if (dataset->owns_items) {
    return Result(AclError(kAclFeatureUnsupported, "items cannot be added to a received dataset"),
                  __func__);
  }
  dataset->items.push_back(dataItem);
  return ACL_SUCCESS;
}

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) {
  return dataset == nullptr ? 0 : dataset->items.size();
}

const char* acltdtGetDatasetName(const acltdtDataset* dataset) {
  return dataset == nullptr ? nullptr : dataset->name.c_str();
}

aclError acltdtStopChannel(acltdtChannelHandle* handle) {
  // As CANN's capacity channels: nothing to stop, blocked calls end by
  // their timeouts.
  NPUD_REQUIRE_NOT_NULL(handle);
  return ACL_SUCCESS;
}

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
  (void)deviceId;
  (void)name;
  npud::client::Unrecorded(
      AclError(kRtFeatureNotSupport,
               "channels without a capacity (TensorFlow's data path) are not simulated: use "
               "acltdtCreateChannelWithCapacity"),
      __func__);
  return nullptr;
}

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name,
                                                     size_t capacity) {
  if (name == nullptr) return Refuse<acltdtChannelHandle>(__func__, "name is null");
  if (strnlen(name, kMaxChannelName + 1) > kMaxChannelName) {
    return Refuse<acltdtChannelHandle>(
        __func__, absl::StrFormat("a channel name has at most %d characters", kMaxChannelName));
  }
  if (capacity < kMinCapacity || capacity > kMaxCapacity) {
    return Refuse<acltdtChannelHandle>(
        __func__, absl::StrFormat("capacity %d: %d to %d", capacity, kMinCapacity, kMaxCapacity));
  }
  auto queue = npud::client::CreateTdtQueue(static_cast<int32_t>(deviceId), name,
                                            static_cast<uint32_t>(capacity));
  if (!queue.ok()) {
    npud::client::Unrecorded(queue.status(), __func__);
    return nullptr;
  }
  return new acltdtChannelHandle{deviceId, name, *queue};
}

aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  const absl::Status destroyed =
      npud::client::DestroyTdtQueue(static_cast<int32_t>(handle->device), handle->queue_id);
  // Kept on failure, as CANN does: the caller may try again.
  if (destroyed.ok()) delete handle;
  return Result(destroyed, __func__);
}

aclError acltdtCleanChannel(acltdtChannelHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  return Result(npud::client::ResetTdtQueue(static_cast<int32_t>(handle->device), handle->queue_id),
                __func__);
}

aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset,
                          int32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(dataset);
  if (absl::Status valid = CheckTimeout(timeout); !valid.ok()) return Result(valid, __func__);
  std::vector<const npud::client::TdtItem*> items(dataset->items.begin(), dataset->items.end());
  return Result(npud::client::SendDataset(static_cast<int32_t>(handle->device), handle->queue_id,
                                          dataset->name, items, timeout),
                __func__);
}

aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset,
                             int32_t timeout) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(dataset);
  if (absl::Status valid = CheckTimeout(timeout); !valid.ok()) return Result(valid, __func__);
  // Checked before anything is taken off the queue, so a wrong dataset
  // loses no message.
  if (!dataset->owns_items && !dataset->items.empty()) {
    return Result(AclError(kAclInvalidParam,
                           "receive into an empty dataset or one received before, not one "
                           "holding the program's items"),
                  __func__);
  }
  auto received =
      npud::client::ReceiveDataset(static_cast<int32_t>(handle->device), handle->queue_id, timeout);
  if (!received.ok()) return Result(received.status(), __func__);
  for (acltdtDataItem* item : dataset->items) delete item;
  dataset->items.clear();
  dataset->owns_items = true;
  dataset->name = std::move(received->name);
  for (npud::client::TdtItem& in : received->items) {
    auto* item = new acltdtDataItem;
    static_cast<npud::client::TdtItem&>(*item) = std::move(in);
    dataset->items.push_back(item);
  }
  return ACL_SUCCESS;
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(size);
  return npud::client::ResultInto(
      npud::client::TdtQueueSize(static_cast<int32_t>(handle->device), handle->queue_id), size,
      __func__);
}

}  // namespace npud::abi_impl
