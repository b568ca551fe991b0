// tiling/softmax_flash_tiling.h: the host side of SoftmaxFlash (the first flash
// softmax, npud_ascendc/softmax_flash.h): SoftMax's scratch sizes and tiling (the
// [M, K] rows it reads).
#ifndef NPUD_TILING_SOFTMAX_FLASH_TILING_H_
#define NPUD_TILING_SOFTMAX_FLASH_TILING_H_

#include <cstdint>

#include "tiling/softmax_tiling.h"

namespace AscendC {

inline uint32_t GetSoftMaxFlashMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                          const bool /*isUpdate*/, const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                          const bool /*isUpdate*/, const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void SoftMaxFlashTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize,
                                   tiling::SoftMaxTiling& softmaxFlashTiling,
                                   const bool /*isUpdate*/ = false) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxFlashTiling);
}

}  // namespace AscendC

#endif  // NPUD_TILING_SOFTMAX_FLASH_TILING_H_
