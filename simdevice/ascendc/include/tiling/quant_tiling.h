// tiling/quant_tiling.h: TensorDataType (CANN's ge::DataType, which the advanced APIs'
// host functions take) and the scratch sizes of the quantisation APIs and the
// advanced reductions.
//
// npud's AscendAntiQuant, AscendQuant and AscendDequant (anti_quant.h, quant.h) need no scratch
// space; the sizes follow the other advanced APIs (tiling/vector_tmp_size.h) so kernels that carve
// their buffers by them get room.
#ifndef NPUD_TILING_QUANT_TILING_H_
#define NPUD_TILING_QUANT_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/reduce_pattern.h"
#include "npud_ascendc/sort_config.h"
#include "tiling/vector_tmp_size.h"

namespace ge {

// ge::DataType's values (graph/types.h), those an advanced API's tiling may name.
enum DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_INT4 = 29,
};

}  // namespace ge

namespace optiling {
using TopkTiling = ::AscendC::tiling::TopkTiling;
}  // namespace optiling

namespace AscendC {

using TensorDataType = ge::DataType;

inline void GetAscendAntiQuantMaxMinTmpSize(const TensorShape& srcShape,
                                            const TensorShape& /*scaleShape*/, bool /*isTranspose*/,
                                            TensorDataType /*inputDataType*/,
                                            TensorDataType /*outputDataType*/, uint32_t& maxValue,
                                            uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline uint32_t GetAscendAntiQuantMaxTmpSize(const TensorShape& srcShape,
                                             const TensorShape& scaleShape, bool isTranspose,
                                             TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
  uint32_t max_value = 0, min_value = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType,
                                  max_value, min_value);
  return max_value;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const TensorShape& srcShape,
                                             const TensorShape& scaleShape, bool isTranspose,
                                             TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
  uint32_t max_value = 0, min_value = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType,
                                  max_value, min_value);
  return min_value;
}

// The advanced ReduceMax, ReduceMin and ReduceSum (npud_ascendc/adv_reduce.h) need no
// scratch space.
#define NPUD_REDUCE_TMP_SIZE(Name)                                                               \
  inline void Get##Name##MaxMinTmpSize(                                                          \
      const TensorShape& srcShape, const TensorDataType /*dataType*/, ReducePattern /*pattern*/, \
      bool /*isSrcInnerPad*/, bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) {  \
    ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);                             \
  }
NPUD_REDUCE_TMP_SIZE(ReduceMax)
NPUD_REDUCE_TMP_SIZE(ReduceMin)
NPUD_REDUCE_TMP_SIZE(ReduceSum)
#undef NPUD_REDUCE_TMP_SIZE

// Sort (npud_ascendc/adv_sort.h) needs no scratch space.
inline void GetSortMaxMinTmpSize(const TensorShape& srcShape, TensorDataType /*valueType*/,
                                 TensorDataType /*indexType*/, bool /*isReuseSource*/,
                                 const SortConfig& /*config*/, uint32_t& maxValue,
                                 uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}

// The advanced Select (npud_ascendc/adv_select.h) needs no scratch space.
inline void GetSelectMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                   const uint32_t /*srcTypeSize*/, const TensorShape& /*maskShape*/,
                                   const uint32_t /*maskTypeSize*/, const bool /*isReuseMask*/,
                                   uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(
      src0Shape.GetShapeSize() >= src1Shape.GetShapeSize() ? src0Shape : src1Shape, maxValue,
      minValue);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const TensorShape& src0Shape,
                                                const TensorShape& src1Shape,
                                                const uint32_t srcTypeSize,
                                                const TensorShape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t& maxValue, uint32_t& minValue) {
  GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask,
                         maxValue, minValue);
}

// TopK (npud_ascendc/topk.h) needs no scratch space and nothing of its tiling; the
// tiling records the row shape and k.
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                 const int32_t inner, const int32_t outter,
                                 const bool /*isReuseSource*/, const bool /*isInitIndex*/,
                                 enum TopKMode /*mode*/, const bool /*isLargest*/,
                                 const uint32_t /*dataTypeSize*/, uint32_t& maxValue,
                                 uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(TensorShape({outter, inner}), maxValue, minValue);
  return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                           const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool /*isInitIndex*/,
                           enum TopKMode /*mode*/, const bool /*isLargest*/,
                           tiling::TopkTiling& t) {
  t = tiling::TopkTiling{};
  t.allDataSize = inner * outter;
  t.innerDataSize = inner;
  t.sortRepeat = static_cast<uint32_t>(inner / 32);
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  t.kAlignTwoBytes = (k + 15) / 16 * 16;
  (void)dataTypeSize;
  return true;
}

// AscendQuant and AscendDequant (npud_ascendc/quant.h) need no scratch space either.
inline void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                        uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetAscendDequantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                          uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPUD_TILING_QUANT_TILING_H_
