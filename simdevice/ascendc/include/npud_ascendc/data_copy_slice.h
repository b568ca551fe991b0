// data_copy_slice.h: DataCopy with SliceInfo, the sliced copy between GM and the UB
// (a software form in the reference too: it is a series of plain bursts).
//
// Each operand is a dimValue-dimensional array, dimension 0 fastest, each dimension
// shapeValue elements long. A SliceInfo picks, in dimension 0, bursts of burstLen
// 32-byte blocks from startIndex on, stride elements between one burst's end and the
// next one's start, as long as a burst ends at or before endIndex; in the other
// dimensions the indices startIndex, startIndex + 1 + stride, ... up to endIndex. The
// source's bursts, in order (dimension 0 fastest), are copied to the destination's.
#ifndef NPUD_ASCENDC_DATA_COPY_SLICE_H_
#define NPUD_ASCENDC_DATA_COPY_SLICE_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "npud_ascendc/check.h"
#include "npud_ascendc/shape_info.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct SliceInfo {
  SliceInfo() = default;
  SliceInfo(uint32_t startIndexIn, uint32_t endIndexIn, uint32_t strideIn, uint32_t burstLenIn,
            uint32_t shapeValueIn = 0)
      : startIndex(startIndexIn),
        endIndex(endIndexIn),
        stride(strideIn),
        burstLen(burstLenIn),
        shapeValue(shapeValueIn) {}
  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 0;
  uint32_t shapeValue = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

// The element offsets of a slice's bursts, in order, and their length in elements.
template <class T>
std::vector<uint64_t> SliceBursts(const AscendC::SliceInfo info[], uint32_t dims,
                                  uint64_t* burst_elements) {
  if (dims == 0 || dims > static_cast<uint32_t>(AscendC::K_MAX_DIM)) {
    Fail("DataCopy (SliceInfo): dimValue %u is outside [1, %d]", dims, AscendC::K_MAX_DIM);
  }
  const uint64_t len = uint64_t{info[0].burstLen} * 32 / sizeof(T);
  if (len == 0) Fail("DataCopy (SliceInfo): burstLen of dimension 0 must be at least 1");
  *burst_elements = len;
  std::vector<uint64_t> offsets;
  for (uint64_t at = info[0].startIndex; at + len - 1 <= info[0].endIndex;
       at += len + info[0].stride) {
    offsets.push_back(at);
  }
  uint64_t pitch = info[0].shapeValue;
  for (uint32_t d = 1; d < dims; ++d) {
    std::vector<uint64_t> next;
    for (uint64_t i = info[d].startIndex; i <= info[d].endIndex; i += 1 + info[d].stride) {
      for (uint64_t inner : offsets) next.push_back(i * pitch + inner);
    }
    offsets.swap(next);
    pitch *= info[d].shapeValue;
  }
  return offsets;
}

// Copies the source bursts to the destination bursts; `local_elements` bounds the
// local operand (the destination if local_is_dst, else the source), in elements.
template <class T>
void CopySlices(T* dst, const T* src, const AscendC::SliceInfo dst_info[],
                const AscendC::SliceInfo src_info[], uint32_t dims, uint64_t local_elements,
                bool local_is_dst) {
  uint64_t dst_len = 0, src_len = 0;
  const std::vector<uint64_t> to = SliceBursts<T>(dst_info, dims, &dst_len);
  const std::vector<uint64_t> from = SliceBursts<T>(src_info, dims, &src_len);
  if (to.size() != from.size() || dst_len != src_len) {
    Fail(
        "DataCopy (SliceInfo): the source has %zu bursts of %llu elements, the destination "
        "%zu of %llu",
        from.size(), static_cast<unsigned long long>(src_len), to.size(),
        static_cast<unsigned long long>(dst_len));
  }
  for (size_t i = 0; i < to.size(); ++i) {
    const uint64_t local_end = (local_is_dst ? to[i] : from[i]) + dst_len;
    if (local_end > local_elements) {
      Fail("DataCopy (SliceInfo): burst %zu reaches element %llu of a local tensor of %llu", i,
           static_cast<unsigned long long>(local_end),
           static_cast<unsigned long long>(local_elements));
    }
    std::memmove(dst + to[i], src + from[i], dst_len * sizeof(T));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  ::npud::ascendc::CopySlices(dst.Data(), src.GetPhyAddr(), dstSliceInfo, srcSliceInfo, dimValue,
                              dst.GetSize(), true);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  ::npud::ascendc::CopySlices(dst.GetPhyAddr(), src.Data(), dstSliceInfo, srcSliceInfo, dimValue,
                              src.GetSize(), false);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_DATA_COPY_SLICE_H_
