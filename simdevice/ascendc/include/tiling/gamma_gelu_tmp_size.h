// tiling/gamma_gelu_tmp_size.h: the host scratch sizes of Digamma, Lgamma and
// FasterGeluV2 (GetGeluMaxMinTmpSize, the form of the Gelu family that returns both).
// npud's kernels need no scratch (npud_ascendc/adv_gamma_gelu_v2.h); the sizes are
// those of the other element-wise APIs (vector_tmp_size.h), so a kernel that reserves
// them has room.
#ifndef NPUD_TILING_GAMMA_GELU_TMP_SIZE_H_
#define NPUD_TILING_GAMMA_GELU_TMP_SIZE_H_

#include <cstdint>

#include "tiling/vector_tmp_size.h"

namespace AscendC {

inline void GetDigammaMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                    const bool /*isReuseSource*/, uint32_t& maxValue,
                                    uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetLgammaMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                   const bool /*isReuseSource*/, uint32_t& maxValue,
                                   uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                 uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPUD_TILING_GAMMA_GELU_TMP_SIZE_H_
