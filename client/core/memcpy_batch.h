// memcpy_batch.h
//
// aclrtMemcpyBatch and its variants: many host<->device copies in one call,
// each described by the attribute (where its destination and source live)
// that the copy's index falls under. CANN checks every copy against its
// attribute before it moves a byte, and names the first bad copy in
// `failIndex`; npud then makes the copies one by one through the ordinary
// copy path, synchronously or on the stream.

#ifndef NPUD_CLIENT_CORE_MEMCPY_BATCH_H_
#define NPUD_CLIENT_CORE_MEMCPY_BATCH_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace npud::client {

struct BatchCopy {
  void* dst = nullptr;
  size_t dest_max = 0;
  const void* src = nullptr;
  size_t size = 0;
};

// An aclrtMemcpyBatchAttr: aclrtMemLocation (id, aclrtMemLocationType) of
// the destination and of the source.
struct BatchAttr {
  uint32_t dst_id = 0;
  uint32_t dst_type = 0;
  uint32_t src_id = 0;
  uint32_t src_type = 0;
};

// Attribute k covers the copies from attr_indexes[k] up to the next
// attribute's first copy (attr_indexes[0] must be 0, the indexes must rise).
// `fail_index` (may be null) is set to SIZE_MAX, then to the index of a copy
// whose locations do not match its attribute or whose direction is not
// host-to-device or device-to-host. `stream` is used when `async`.
absl::Status MemcpyBatch(absl::Span<const BatchCopy> copies, absl::Span<const BatchAttr> attrs,
                         absl::Span<const size_t> attr_indexes, bool async, void* stream,
                         size_t* fail_index);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MEMCPY_BATCH_H_
