// adv_select.h: the advanced Select, which chooses per element between a tensor and a
// scalar by a byte mask (the level-2 Select with a bit mask and a mode is in
// compare_select.h).
//
//   Select<T, U, isReuseMask>(dst, srcTensor, srcScalar, mask, sharedTmpBuffer, info)
//       dst[i][j] = mask[i][j] == 0 ? srcTensor[i][j] : srcScalar
//   Select<T, U, isReuseMask>(dst, srcScalar, srcTensor, mask, sharedTmpBuffer, info)
//       dst[i][j] = mask[i][j] == 0 ? srcScalar : srcTensor[i][j]
// over info.firstAxis rows of info.srcLastAxis elements; the mask's rows are
// maskLastAxis long (the elements past srcLastAxis are ignored). The mask is never
// modified here (isReuseMask allows upstream to), and the scratch buffer is not needed.
// Checks (trap kind 1): maskLastAxis >= srcLastAxis, the shape fits dst, src and mask.
#ifndef NPUD_ASCENDC_ADV_SELECT_H_
#define NPUD_ASCENDC_ADV_SELECT_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
  SelectWithBytesMaskShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

// tensor_when_zero: the tensor is taken where the mask is 0 (else the scalar).
template <class T, class U>
void SelectBytes(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& tensor,
                 T scalar, const AscendC::LocalTensor<U>& mask,
                 const AscendC::SelectWithBytesMaskShapeInfo& info, bool tensor_when_zero) {
  const uint64_t rows = info.firstAxis, cols = info.srcLastAxis;
  if (info.maskLastAxis < info.srcLastAxis || rows * cols > dst.GetSize() ||
      rows * cols > tensor.GetSize() || rows * info.maskLastAxis > mask.GetSize()) {
    Fail("Select: [%u, %u] with mask rows of %u does not fit dst (%u), src (%u) or mask (%u)",
         info.firstAxis, info.srcLastAxis, info.maskLastAxis, dst.GetSize(), tensor.GetSize(),
         mask.GetSize());
  }
  for (uint64_t i = 0; i < rows; ++i) {
    for (uint64_t j = 0; j < cols; ++j) {
      const bool zero = mask.Data()[i * info.maskLastAxis + j] == U(0);
      dst.Data()[i * cols + j] = zero == tensor_when_zero ? tensor.Data()[i * cols + j] : scalar;
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
            const SelectWithBytesMaskShapeInfo& info) {
  ::npud::ascendc::SelectBytes(dst, src0, src1, mask, info, true);
}
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
            const SelectWithBytesMaskShapeInfo& info) {
  ::npud::ascendc::SelectBytes(dst, src1, src0, mask, info, false);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_SELECT_H_
