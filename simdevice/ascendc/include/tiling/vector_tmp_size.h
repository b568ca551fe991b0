// tiling/vector_tmp_size.h: TensorShape and the host functions that size the
// scratch buffer (sharedTmpBuffer) of the advanced vector APIs.
//
// npud's advanced APIs (npud_ascendc/adv_math.h, adv_reduce_fill.h) compute
// straight from their sources and need no scratch space; they accept a
// sharedTmpBuffer of any size. So that kernels which carve their buffers by these
// sizes get room, every function reports two float-sized intermediate rows of the
// shape (rounded up to 32 bytes) as the maximum and one 256-byte repeat of them as
// the minimum.
#ifndef NPUD_TILING_VECTOR_TMP_SIZE_H_
#define NPUD_TILING_VECTOR_TMP_SIZE_H_

#include <cstdint>
#include <vector>

#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

// A tensor's dimensions.
class TensorShape {
 public:
  TensorShape() = default;
  TensorShape(const std::vector<int64_t>& dims) : dims_(dims) {}  // NOLINT: implicit, as CANN's
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  const std::vector<int64_t>& GetDims() const { return dims_; }
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace AscendC

namespace npud::ascendc::tiling {

inline void TmpSizes(const AscendC::TensorShape& shape, uint32_t& max_value, uint32_t& min_value) {
  const uint64_t row = static_cast<uint64_t>(shape.GetShapeSize()) * sizeof(float);
  max_value = static_cast<uint32_t>((2 * row + 31) / 32 * 32);
  min_value = 2 * 256;
  if (max_value < min_value) max_value = min_value;
}

}  // namespace npud::ascendc::tiling

// GetXxxMaxMinTmpSize(shape, typeSize, isReuseSource, maxValue, minValue) for each API.
#define NPUD_TMP_SIZE_FUNCTION(Name)                                                             \
  namespace AscendC {                                                                            \
  inline void Get##Name##MaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/, \
                                       bool /*isReuseSource*/, uint32_t& maxValue,               \
                                       uint32_t& minValue) {                                     \
    ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);                             \
  }                                                                                              \
  }
NPUD_TMP_SIZE_FUNCTION(Sigmoid)
NPUD_TMP_SIZE_FUNCTION(Exp)
NPUD_TMP_SIZE_FUNCTION(Erf)
NPUD_TMP_SIZE_FUNCTION(Erfc)
NPUD_TMP_SIZE_FUNCTION(Log)
NPUD_TMP_SIZE_FUNCTION(Acos)
NPUD_TMP_SIZE_FUNCTION(Acosh)
NPUD_TMP_SIZE_FUNCTION(Asin)
NPUD_TMP_SIZE_FUNCTION(Asinh)
NPUD_TMP_SIZE_FUNCTION(Atan)
NPUD_TMP_SIZE_FUNCTION(Atanh)
NPUD_TMP_SIZE_FUNCTION(Cos)
NPUD_TMP_SIZE_FUNCTION(Cosh)
NPUD_TMP_SIZE_FUNCTION(Sin)
NPUD_TMP_SIZE_FUNCTION(Sinh)
NPUD_TMP_SIZE_FUNCTION(Tan)
NPUD_TMP_SIZE_FUNCTION(Tanh)
NPUD_TMP_SIZE_FUNCTION(Ceil)
NPUD_TMP_SIZE_FUNCTION(Floor)
NPUD_TMP_SIZE_FUNCTION(Frac)
NPUD_TMP_SIZE_FUNCTION(Trunc)
NPUD_TMP_SIZE_FUNCTION(Round)
NPUD_TMP_SIZE_FUNCTION(Sign)
NPUD_TMP_SIZE_FUNCTION(Xor)
NPUD_TMP_SIZE_FUNCTION(Axpy)
NPUD_TMP_SIZE_FUNCTION(Clamp)
NPUD_TMP_SIZE_FUNCTION(Fmod)
NPUD_TMP_SIZE_FUNCTION(Hypot)
NPUD_TMP_SIZE_FUNCTION(GeGLU)
NPUD_TMP_SIZE_FUNCTION(ReGlu)
NPUD_TMP_SIZE_FUNCTION(DropOut)
#undef NPUD_TMP_SIZE_FUNCTION

namespace AscendC {

// The forms with the platform first (CANN 9's newer functions).
inline void GetRintMaxMinTmpSize(const platform_ascendc::PlatformAscendC* /*platform*/,
                                 const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                 bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetPowerMaxMinTmpSize(const TensorShape& srcShape1, const TensorShape& srcShape2,
                                  const bool /*typeIsInt*/, const uint32_t /*typeSize*/,
                                  const bool /*isReuseSource*/, uint32_t& maxValue,
                                  uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(
      srcShape1.GetShapeSize() >= srcShape2.GetShapeSize() ? srcShape1 : srcShape2, maxValue,
      minValue);
}
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize,
                                const bool /*isReuseSource*/, uint32_t& maxSize,
                                uint32_t& minSize) {
  ::npud::ascendc::tiling::TmpSizes(TensorShape({static_cast<int64_t>(n)}), maxSize, minSize);
  (void)typeSize;
}
inline void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                   const bool /*isLastAxis*/, const bool /*isReuseSource*/,
                                   uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
}
inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*platform*/,
                                  const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                  const bool /*isReuseSource*/, uint32_t& maxValue,
                                  uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                   uint32_t& maxValue, uint32_t& minValue,
                                   const bool /*isReuseSource*/) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetSiluTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                           bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetSwishTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                            bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                      const TensorShape& /*srcShape*/, const TensorShape& dstShape,
                                      uint32_t /*typeSize*/, const bool /*isReuseSource*/,
                                      uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(dstShape, maxValue, minValue);
}
inline uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                     const bool /*isReuseSource*/) {
  uint32_t max_value = 0, min_value = 0;
  ::npud::ascendc::tiling::TmpSizes(srcShape, max_value, min_value);
  return max_value;
}
inline uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                     const bool /*isReuseSource*/) {
  uint32_t max_value = 0, min_value = 0;
  ::npud::ascendc::tiling::TmpSizes(srcShape, max_value, min_value);
  return min_value;
}
inline uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/) {
  uint32_t max_value = 0, min_value = 0;
  ::npud::ascendc::tiling::TmpSizes(srcShape, max_value, min_value);
  return max_value;
}
inline uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/) {
  uint32_t max_value = 0, min_value = 0;
  ::npud::ascendc::tiling::TmpSizes(srcShape, max_value, min_value);
  return min_value;
}

}  // namespace AscendC

#endif  // NPUD_TILING_VECTOR_TMP_SIZE_H_
