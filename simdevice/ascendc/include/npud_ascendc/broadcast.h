// broadcast.h: Broadcast<T, dim, axis>, numpy's broadcast of a dense tensor to a
// larger shape along the axis whose source length is 1.
//
//   Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape[dim], srcShape[dim]
//                                          [, sharedTmpBuffer])
//       dst (dense, dstShape) [i0, ..., i(dim-1)] = src (dense, srcShape) at the same
//       index, taken as 0 along every axis whose source length is 1.
// The Atlas A2 takes dim 1 or 2; upstream requires srcShape[axis] == 1 and the other
// lengths equal, which is checked. Elements are copied bit for bit (any type).
// sharedTmpBuffer is not needed. The Ascend 950 form with a BroadcastTiling is not
// simulated.
// Checks (trap kind 1): the shapes agree with axis, and fit dst and src.
#ifndef NPUD_ASCENDC_BROADCAST_H_
#define NPUD_ASCENDC_BROADCAST_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  static_assert(dim >= 1 && dim <= 8 && axis >= 0 && axis < dim,
                "Broadcast: axis must name one of the dim axes");
  uint64_t dst_size = 1, src_size = 1;
  for (int32_t d = 0; d < dim; ++d) {
    const bool ok =
        d == axis ? srcShape[d] == 1 || srcShape[d] == dstShape[d] : srcShape[d] == dstShape[d];
    if (!ok) {
      ::npud::ascendc::Fail("Broadcast: axis %d of the source is %u, the destination's %u", d,
                            srcShape[d], dstShape[d]);
    }
    dst_size *= dstShape[d];
    src_size *= srcShape[d];
  }
  if (dst_size > dstLocal.GetSize() || src_size > srcLocal.GetSize()) {
    ::npud::ascendc::Fail("Broadcast: %llu elements to %llu do not fit src (%u) or dst (%u)",
                          static_cast<unsigned long long>(src_size),
                          static_cast<unsigned long long>(dst_size), srcLocal.GetSize(),
                          dstLocal.GetSize());
  }
  // Walk dst in order; src's offset follows, standing still along a broadcast axis.
  uint32_t index[8] = {};
  for (uint64_t e = 0; e < dst_size; ++e) {
    uint64_t s = 0;
    for (int32_t d = 0; d < dim; ++d) s = s * srcShape[d] + (srcShape[d] == 1 ? 0 : index[d]);
    dstLocal.Data()[e] = srcLocal.Data()[s];
    for (int32_t d = dim - 1; d >= 0; --d) {
      if (++index[d] < dstShape[d]) break;
      index[d] = 0;
    }
  }
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t>& /*sharedTmpBuffer*/) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_BROADCAST_H_
