// gather_transpose.h: Gather (count form) and the plain 16 x 16 Transpose.
//
//   Gather(dst, src, srcOffset, srcBaseAddr, count)
//       dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)] for i < count; the
//       offsets are bytes and must address whole elements inside src.
//   Transpose(dst, src)
//       the 16 x 16 matrix of 2-byte elements (half, int16_t, uint16_t) at src,
//       transposed into dst (dst and src must not overlap).
// What breaks these rules fails the block with a message (trap kind 1). The
// enhanced Transpose (TransposeParamsExt) is not provided (it does not compile).
#ifndef NPUD_ASCENDC_GATHER_TRANSPOSE_H_
#define NPUD_ASCENDC_GATHER_TRANSPOSE_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

namespace AscendC {

template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint32_t count) {
  const int32_t n = static_cast<int32_t>(count);
  ::npud::ascendc::CheckOperand("Gather", dst, n, "destination");
  ::npud::ascendc::CheckOperand("Gather", srcOffset, n, "offset");
  for (int32_t i = 0; i < n; ++i) {
    const uint64_t byte = uint64_t{srcBaseAddr} + srcOffset.Data()[i];
    if (byte % sizeof(T) != 0 || byte / sizeof(T) >= src.GetSize()) {
      ::npud::ascendc::Fail(
          "Gather: element %d's offset %llu bytes is not an element of the "
          "%u-element source",
          i, static_cast<unsigned long long>(byte), src.GetSize());
    }
    dst.Data()[i] = src.Data()[byte / sizeof(T)];
  }
}

template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(sizeof(T) == 2, "Transpose: the 16 x 16 transpose takes 2-byte elements");
  constexpr uint32_t kSide = 16;
  ::npud::ascendc::CheckOperand("Transpose", dst, kSide * kSide, "destination");
  ::npud::ascendc::CheckOperand("Transpose", src, kSide * kSide, "source");
  const T* in = src.Data();
  T* out = dst.Data();
  if (in < out + kSide * kSide && out < in + kSide * kSide) {
    ::npud::ascendc::Fail("Transpose: the destination overlaps the source");
  }
  for (uint32_t r = 0; r < kSide; ++r) {
    for (uint32_t c = 0; c < kSide; ++c) out[c * kSide + r] = in[r * kSide + c];
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_GATHER_TRANSPOSE_H_
