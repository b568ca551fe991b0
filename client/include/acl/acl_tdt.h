/*
 * Tensor data transfer (TDT) channels: a named, bounded queue of datasets
 * (lists of tensors) between a program and a device. A dataset is sent
 * whole and received whole; the bytes are copied at send, so the sender's
 * buffers may be reused at once. With npud the queue lives in the daemon,
 * on the device the channel was created for, and belongs to the process
 * that created it (released when it exits).
 *
 * Timeouts (milliseconds): -1 waits for room or data, 0 fails at once with
 * ACL_ERROR_RT_QUEUE_FULL / ACL_ERROR_RT_QUEUE_EMPTY, > 0 waits that long.
 *
 * Functions exported by libacl_tdt_channel.so (npud: the same library as
 * libacl_rt.so).
 */
#ifndef INC_EXTERNAL_ACL_ACL_TDT_H_
#define INC_EXTERNAL_ACL_ACL_TDT_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a dataset item holds. Only tensors carry data and dims. */
enum acltdtTensorType {
  ACL_TENSOR_DATA_UNDEFINED = -1,
  ACL_TENSOR_DATA_TENSOR,
  ACL_TENSOR_DATA_END_OF_SEQUENCE,
  ACL_TENSOR_DATA_ABNORMAL,
  ACL_TENSOR_DATA_SLICE_TENSOR,
  ACL_TENSOR_DATA_END_TENSOR
};
#ifndef __cplusplus
typedef enum acltdtTensorType acltdtTensorType;
#endif

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

/* Item getters; each returns the "none" value (UNDEFINED, NULL, 0) for a
 * NULL item. A received item's data lives as long as its dataset. */
ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem,
                                                        size_t* sliceNum, size_t* sliceId);
/* Copies the item's dims into dims[0 .. dimNum); dimNum must cover them. */
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims,
                                                   size_t dimNum);

/* A tensor item refers to `data` (not copied, not freed) of `size` bytes
 * with at most 128 dims; other kinds carry neither data nor dims. */
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType,
                                                         const int64_t* dims, size_t dimNum,
                                                         aclDataType dataType, void* data,
                                                         size_t size);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem* dataItem);

/* A dataset lists items it does not own, except a received dataset, which
 * owns (and frees) what it received. */
ACL_FUNC_VISIBILITY acltdtDataset* acltdtCreateDataset();
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset* dataset);
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index);
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset* dataset);
ACL_FUNC_VISIBILITY const char* acltdtGetDatasetName(const acltdtDataset* dataset);

ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle* handle);
/* Channels without a capacity belong to CANN's TensorFlow data path; npud
 * does not offer them (NULL, logged). */
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name);
/* A channel of at most `capacity` datasets (2 .. 8192) named `name` (at
 * most 127 characters, unique on the device); NULL on failure. */
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId,
                                                                         const char* name,
                                                                         size_t capacity);
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle* handle);
/* Drops every dataset queued in the channel. */
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle* handle);
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle* handle,
                                              const acltdtDataset* dataset, int32_t timeout);
/* `dataset` must be empty or one received before; it then owns the items. */
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle* handle,
                                                 acltdtDataset* dataset, int32_t timeout);
/* The number of datasets queued. */
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_TDT_H_ */
