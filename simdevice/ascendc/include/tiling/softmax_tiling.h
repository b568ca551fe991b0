// tiling/softmax_tiling.h: the host side of the SoftMax APIs: their scratch sizes and
// SoftMaxTilingFunc, which fills the SoftMaxTiling the kernel passes to SoftMax.
//
// npud's SoftMax (npud_ascendc/softmax.h) works a row at a time and needs no scratch
// space and nothing of the tiling beyond the shape; the tiling records the shape and
// splits as upstream lays them out (rows of srcK, one 32-byte block of max and sum per
// row) so kernels that read its fields find the shape there.
#ifndef NPUD_TILING_SOFTMAX_TILING_H_
#define NPUD_TILING_SOFTMAX_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/vector_tmp_size.h"

namespace optiling {
using SoftMaxTiling = ::AscendC::tiling::SoftMaxTiling;
using LogSoftMaxTiling = ::AscendC::tiling::LogSoftMaxTiling;
}  // namespace optiling

namespace AscendC {

inline uint32_t GetSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t /*dataTypeSize*/,
                                     const bool /*isReuseSource*/) {
  uint32_t max_value = 0, min_value = 0;
  ::npud::ascendc::tiling::TmpSizes(srcShape, max_value, min_value);
  return max_value;
}
inline uint32_t GetSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*dataTypeSize*/,
                                     const bool /*isReuseSource*/) {
  uint32_t max_value = 0, min_value = 0;
  ::npud::ascendc::tiling::TmpSizes(srcShape, max_value, min_value);
  return min_value;
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                            const uint32_t /*maxSumTypeSize*/, const bool isUpdate,
                                            const bool /*isBasicBlock*/ = false,
                                            const bool /*isFlashOutputBrc*/ = false) {
  return GetSoftMaxMaxTmpSize(srcShape, typeSize, isUpdate);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                            const uint32_t /*maxSumTypeSize*/, const bool isUpdate,
                                            const bool /*isBasicBlock*/ = false,
                                            const bool /*isFlashOutputBrc*/ = false) {
  return GetSoftMaxMinTmpSize(srcShape, typeSize, isUpdate);
}

// SoftmaxGrad and SoftmaxGradFront (npud_ascendc/softmax_grad.h) need no scratch space
// either; the sizes are SoftMax's.
inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool /*isFront*/, const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool /*isFront*/, const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}

// The shape as M rows (the product of all but the last axis) of K.
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t /*localWorkSpaceSize*/, tiling::SoftMaxTiling& t) {
  const size_t dims = srcShape.GetDimNum();
  const uint32_t k = dims == 0 ? 0 : static_cast<uint32_t>(srcShape.GetDim(dims - 1));
  const uint32_t m = k == 0 ? 0 : static_cast<uint32_t>(srcShape.GetShapeSize() / k);
  const uint32_t per_block = dataTypeSize == 0 ? 8 : 32 / dataTypeSize;
  t = tiling::SoftMaxTiling{};
  t.srcM = m;
  t.srcK = k;
  t.srcSize = m * k;
  t.outMaxM = m;
  t.outMaxK = per_block;
  t.outMaxSize = m * per_block;
  t.splitM = m;
  t.splitK = k;
  t.splitSize = m * k;
  t.reduceM = m;
  t.reduceK = per_block;
  t.reduceSize = m * per_block;
  t.rangeM = 1;
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const uint32_t /*maxSumTypeSize*/,
                                     const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& t,
                                     const bool /*isUpdate*/, const bool /*isBasicBlock*/ = false,
                                     const bool /*isFlashOutputBrc*/ = false) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
}

// LogSoftMax (npud_ascendc/log_softmax.h): SoftMax's sizes and tiling.
inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, tiling::LogSoftMaxTiling& t) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
}

// The grad tiling has SoftMax's layout: the kernel reads only the shape from it.
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& t,
                                  const bool /*isFront*/ = false) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
}

}  // namespace AscendC

#endif  // NPUD_TILING_SOFTMAX_TILING_H_
