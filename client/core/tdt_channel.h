// tdt_channel.h
//
// What a TDT channel carries: datasets of tensors, sent as one queue message
// each (a TdtDatasetPayload) and received whole. The bytes are taken at
// send: from host memory directly, from device memory by a synchronous copy.

#ifndef NPUD_CLIENT_CORE_TDT_CHANNEL_H_
#define NPUD_CLIENT_CORE_TDT_CHANNEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// One item of a dataset. A sent item refers to the program's memory
// (`data`, `size`); a received one holds its bytes (`received`).
struct TdtItem {
  int32_t tensor_type = 0;  // acltdtTensorType
  int32_t data_type = -1;   // aclDataType
  std::vector<int64_t> dims;
  const void* data = nullptr;
  size_t size = 0;
  uint32_t slice_num = 0;
  uint32_t slice_id = 0;
  std::string received;
  bool is_received = false;

  const void* bytes() const { return is_received ? received.data() : data; }
  size_t byte_size() const { return is_received ? received.size() : size; }
};

struct TdtReceived {
  std::string name;
  std::vector<TdtItem> items;
};

// Enqueues the items as one message on `device`'s queue `queue_id`
// (timeouts as in tdt_queue_ops.h). Items other than tensors, end of
// sequence and abnormal ones cannot be sent (ACL_ERROR_INVALID_PARAM).
absl::Status SendDataset(int32_t device, uint32_t queue_id, const std::string& name,
                         const std::vector<const TdtItem*>& items, int32_t timeout_ms);
absl::StatusOr<TdtReceived> ReceiveDataset(int32_t device, uint32_t queue_id, int32_t timeout_ms);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_TDT_CHANNEL_H_
