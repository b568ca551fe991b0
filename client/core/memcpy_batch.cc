#include "client/core/memcpy_batch.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/memory_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// The driver's bound on a synchronous batch (DEVMM_MEMCPY_BATCH_MAX_COUNT).
constexpr size_t kMaxSyncCopies = 4096;

// Pageable and NUMA host memory count as host memory in the comparison.
uint32_t Normalized(uint32_t type) {
  return type == kUnregisteredMemory || type == kHostNumaMemory ? kHostMemory : type;
}

// Whether `pointer` lies where (`id`, `type`) says.
absl::StatusOr<bool> LocatedAt(const void* pointer, uint32_t id, uint32_t type) {
  NPUD_ASSIGN_OR_RETURN(const PointerAttributes actual, PointerAttributesOf(pointer));
  if (Normalized(actual.type) != Normalized(type)) return false;
  return Normalized(type) != kDeviceMemory || actual.device == id;
}

absl::Status BadCopy(size_t index, size_t* fail_index, const std::string& why) {
  if (fail_index != nullptr) *fail_index = index;
  return AclError(kRtParamInvalid, absl::StrFormat("copy %d of the batch: %s", index, why));
}

// The ACL-level kind of copy `index` after its locations were checked.
absl::StatusOr<CopyKind> KindOf(size_t index, const BatchAttr& attr, size_t* fail_index) {
  const uint32_t dst = Normalized(attr.dst_type), src = Normalized(attr.src_type);
  if (src == kHostMemory && dst == kDeviceMemory) return CopyKind::kHostToDevice;
  if (src == kDeviceMemory && dst == kHostMemory) return CopyKind::kDeviceToHost;
  return BadCopy(index, fail_index, "only host-to-device and device-to-host copies batch");
}

}  // namespace

absl::Status MemcpyBatch(absl::Span<const BatchCopy> copies, absl::Span<const BatchAttr> attrs,
                         absl::Span<const size_t> attr_indexes, bool async, void* stream,
                         size_t* fail_index) {
  if (fail_index != nullptr) *fail_index = SIZE_MAX;
  if (attrs.empty()) return AclError(kRtParamInvalid, "numAttrs must be positive");
  if (attrs.size() > copies.size()) {
    return AclError(kRtParamInvalid, absl::StrFormat("numAttrs %d is above numBatches %d",
                                                     attrs.size(), copies.size()));
  }
  if (!async && copies.size() > kMaxSyncCopies) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("a synchronous batch takes at most %d copies", kMaxSyncCopies));
  }
  if (attr_indexes[0] != 0) return AclError(kRtParamInvalid, "attrsIndexes[0] must be 0");
  for (size_t k = 1; k < attr_indexes.size(); ++k) {
    if (attr_indexes[k] <= attr_indexes[k - 1] || attr_indexes[k] >= copies.size()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("attrsIndexes[%d] = %d does not rise within the batch", k,
                                      attr_indexes[k]));
    }
  }
  if (async) NPUD_RETURN_IF_ERROR(CurrentContext().status());

  // Every copy is checked before any is made.
  std::vector<CopyKind> kinds(copies.size());
  size_t k = 0;
  for (size_t i = 0; i < copies.size(); ++i) {
    while (k + 1 < attr_indexes.size() && attr_indexes[k + 1] <= i) ++k;
    const BatchCopy& copy = copies[i];
    const BatchAttr& attr = attrs[k];
    if (copy.dst == nullptr || copy.src == nullptr) {
      return BadCopy(i, fail_index, "a null address");
    }
    if (async && (copy.size == 0 || copy.size > copy.dest_max)) {
      return BadCopy(i, fail_index, "an asynchronous copy needs 0 < size <= destMax");
    }
    NPUD_ASSIGN_OR_RETURN(const bool dst_ok, LocatedAt(copy.dst, attr.dst_id, attr.dst_type));
    NPUD_ASSIGN_OR_RETURN(const bool src_ok, LocatedAt(copy.src, attr.src_id, attr.src_type));
    if (!dst_ok || !src_ok) {
      return BadCopy(i, fail_index,
                     absl::StrFormat("its %s is not where attribute %d says",
                                     dst_ok ? "source" : "destination", k));
    }
    NPUD_ASSIGN_OR_RETURN(kinds[i], KindOf(i, attr, fail_index));
  }
  for (size_t i = 0; i < copies.size(); ++i) {
    const BatchCopy& copy = copies[i];
    if (copy.size == 0) continue;
    NPUD_RETURN_IF_ERROR(Memcpy(copy.dst, copy.dest_max, copy.src, copy.size,
                                static_cast<uint32_t>(kinds[i]), async, stream));
  }
  return absl::OkStatus();
}

}  // namespace npud::client
