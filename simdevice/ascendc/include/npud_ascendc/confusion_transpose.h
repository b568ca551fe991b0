// confusion_transpose.h: the advanced Transpose with a ConfusionTransposeTiling, which
// swaps the two middle axes of a [B, A1, A2, A3] tensor between the NZ and ND formats
// or transposes a matrix.
//
//   Transpose(dst, src[, sharedTmpBuffer], transposeType, tiling)
//     TRANSPOSE_NZ2ND_0213  src NZ: for each (b, a1) an [A2, A3] matrix as
//                           [A3/16, A2/16, 16, 16] fractals; dst ND [B, A2, A1, A3]
//     TRANSPOSE_NZ2NZ_0213  the same src; dst NZ: for each (b, a2) an [A1, A3] matrix
//                           as [A3/16, A1/16, 16, 16]
//     TRANSPOSE_ND2ND_ONLY  src ND [H, W], dst ND [W, H]
//   Other types fail the block (not simulated).
// The tiling is opaque to kernels: GetTransposeTilingInfo (tiling/pad_tiling.h) keeps
// the source shape in param0..param3 (B, A1, A2, A3; or H, W for ND2ND_ONLY), which is
// npud's own layout of CANN's 18 fields. Elements are copied bit for bit; the
// scratch buffer is not needed.
// Checks (trap kind 1): the shape fits dst and src, NZ lengths are multiples of 16.
#ifndef NPUD_ASCENDC_CONFUSION_TRANSPOSE_H_
#define NPUD_ASCENDC_CONFUSION_TRANSPOSE_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/gather_transpose.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, TransposeType transposeType,
               ConfusionTransposeTiling& tiling) {
  using ::npud::ascendc::Fail;
  if (transposeType == TransposeType::TRANSPOSE_ND2ND_ONLY) {
    const uint64_t h = tiling.param0, w = tiling.param1;
    if (h * w > src.GetSize() || h * w > dst.GetSize()) {
      Fail("Transpose: [%llu, %llu] does not fit src (%u) or dst (%u)",
           static_cast<unsigned long long>(h), static_cast<unsigned long long>(w), src.GetSize(),
           dst.GetSize());
    }
    for (uint64_t i = 0; i < h; ++i) {
      for (uint64_t j = 0; j < w; ++j) dst.Data()[j * h + i] = src.Data()[i * w + j];
    }
    return;
  }
  const bool to_nd = transposeType == TransposeType::TRANSPOSE_NZ2ND_0213;
  if (!to_nd && transposeType != TransposeType::TRANSPOSE_NZ2NZ_0213) {
    Fail("Transpose: transpose type %d is not simulated", static_cast<int>(transposeType));
  }
  const uint64_t b = tiling.param0, a1 = tiling.param1, a2 = tiling.param2, a3 = tiling.param3;
  const uint64_t total = b * a1 * a2 * a3;
  if (a2 % 16 != 0 || a3 % 16 != 0 || (!to_nd && a1 % 16 != 0) || total > src.GetSize() ||
      total > dst.GetSize()) {
    Fail(
        "Transpose: [%llu, %llu, %llu, %llu] is not whole fractals or does not fit src (%u) or "
        "dst (%u)",
        static_cast<unsigned long long>(b), static_cast<unsigned long long>(a1),
        static_cast<unsigned long long>(a2), static_cast<unsigned long long>(a3), src.GetSize(),
        dst.GetSize());
  }
  for (uint64_t ib = 0; ib < b; ++ib) {
    for (uint64_t i1 = 0; i1 < a1; ++i1) {
      for (uint64_t i2 = 0; i2 < a2; ++i2) {
        for (uint64_t i3 = 0; i3 < a3; ++i3) {
          const uint64_t from =
              ((((ib * a1 + i1) * (a3 / 16) + i3 / 16) * (a2 / 16) + i2 / 16) * 16 + i2 % 16) * 16 +
              i3 % 16;
          const uint64_t to =
              to_nd ? ((ib * a2 + i2) * a1 + i1) * a3 + i3
                    : ((((ib * a2 + i2) * (a3 / 16) + i3 / 16) * (a1 / 16) + i1 / 16) * 16 +
                       i1 % 16) *
                              16 +
                          i3 % 16;
          dst.Data()[to] = src.Data()[from];
        }
      }
    }
  }
}
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
               ConfusionTransposeTiling& tiling) {
  Transpose(dst, src, LocalTensor<uint8_t>(), transposeType, tiling);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CONFUSION_TRANSPOSE_H_
