// shape_info.h: ShapeInfo and DataFormat, a tensor's shape as the advanced APIs read
// it (LocalTensor::SetShapeInfo / GetShapeInfo carry one).
#ifndef NPUD_ASCENDC_SHAPE_INFO_H_
#define NPUD_ASCENDC_SHAPE_INFO_H_

#include <cstdint>

namespace AscendC {

inline constexpr int32_t K_MAX_DIM = 8;

// NCDHW, NDC1HWC0 and FRACTAL_Z_3D are the 3-D formats TransData converts between.
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

struct ShapeInfo {
  ShapeInfo() {}
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[],
            const uint8_t inputOriginalShapeDim, const uint32_t inputOriginalShape[],
            const DataFormat inputFormat)
      : shapeDim(Clamp(inputShapeDim)),
        originalShapeDim(Clamp(inputOriginalShapeDim)),
        dataFormat(inputFormat) {
    for (uint8_t i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
    for (uint8_t i = 0; i < originalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
  }
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, DataFormat::ND) {}

  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_DIM] = {};
  uint32_t originalShape[K_MAX_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;

 private:
  static uint8_t Clamp(uint8_t dims) { return dims > K_MAX_DIM ? K_MAX_DIM : dims; }
};

// The product of the shape's dimensions.
inline int GetShapeSize(const ShapeInfo& shapeInfo) {
  int n = 1;
  for (uint8_t i = 0; i < shapeInfo.shapeDim; ++i) n *= static_cast<int>(shapeInfo.shape[i]);
  return n;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SHAPE_INFO_H_
