// pad.h: Pad and UnPad, which widen the rows of a [height, width] tensor to 32 bytes
// or cut columns off their right end. The shape comes from the tiling
// (PadTilingFunc / UnPadTilingFunc, tiling/pad_tiling.h).
//
//   Pad(dst, src, padParams[, sharedTmpBuffer], tiling)
//     width not 32-byte aligned: src holds srcHeight rows of srcWidth back to back (as
//         a kernel copies them in); each dst row is the width rounded up to 32 bytes:
//         leftPad columns of padValue, the src row, padValue to the end of the row.
//     width aligned: src and dst rows of srcWidth; the columns from srcOriWidth on
//         (those past the row's valid data) become padValue, the rest is copied.
//   UnPad(dst, src, unPadParams[, sharedTmpBuffer], tiling)
//     src rows of srcWidth (32-byte aligned); dst holds srcHeight rows of
//     srcWidth - rightPad back to back. leftPad has no effect, as upstream documents.
// padValue is converted to T. sharedTmpBuffer is not needed.
// Checks (trap kind 1): the shape fits dst and src; UnPad's width is 32-byte aligned and
// rightPad less than 32 bytes.
#ifndef NPUD_ASCENDC_PAD_H_
#define NPUD_ASCENDC_PAD_H_

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

template <class T>
T PadValue(int32_t value) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(value);
  } else {
    return T(static_cast<float>(value));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

struct PadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         LocalTensor<uint8_t>& /*sharedTmpBuffer*/, PadTiling& tiling) {
  const uint32_t height = tiling.srcHeight;
  const uint32_t width = tiling.srcWidth;
  const T pad = ::npud::ascendc::PadValue<T>(padParams.padValue);
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  if ((width * sizeof(T)) % 32 != 0) {
    const uint32_t out = (width + kPerBlock - 1) / kPerBlock * kPerBlock;
    if (width + padParams.leftPad > out) {
      ::npud::ascendc::Fail("Pad: %u columns and %u on the left exceed the aligned width %u", width,
                            padParams.leftPad, out);
    }
    if (uint64_t{height} * width > srcTensor.GetSize() ||
        uint64_t{height} * out > dstTensor.GetSize()) {
      ::npud::ascendc::Fail("Pad: [%u, %u] to rows of %u does not fit src (%u) or dst (%u)", height,
                            width, out, srcTensor.GetSize(), dstTensor.GetSize());
    }
    // Backwards, so that dst may be src: a row never moves left.
    for (uint32_t i = height; i-- > 0;) {
      const T* s = srcTensor.Data() + uint64_t{i} * width;
      T* d = dstTensor.Data() + uint64_t{i} * out;
      for (uint32_t j = out; j-- > 0;) {
        d[j] = j < padParams.leftPad || j >= padParams.leftPad + width ? pad
                                                                       : s[j - padParams.leftPad];
      }
    }
    return;
  }
  const uint32_t valid =
      tiling.srcOriWidth != 0 && tiling.srcOriWidth < width ? tiling.srcOriWidth : width;
  if (uint64_t{height} * width > srcTensor.GetSize() ||
      uint64_t{height} * width > dstTensor.GetSize()) {
    ::npud::ascendc::Fail("Pad: [%u, %u] does not fit src (%u) or dst (%u)", height, width,
                          srcTensor.GetSize(), dstTensor.GetSize());
  }
  for (uint64_t i = 0; i < height; ++i) {
    for (uint32_t j = 0; j < width; ++j) {
      dstTensor.Data()[i * width + j] = j >= valid ? pad : srcTensor.Data()[i * width + j];
    }
  }
}
template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         PadTiling& tiling) {
  LocalTensor<uint8_t> none;
  Pad(dstTensor, srcTensor, padParams, none, tiling);
}

template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
           UnPadTiling& tiling) {
  const uint32_t height = tiling.srcHeight;
  const uint32_t width = tiling.srcWidth;
  const uint32_t right = unPadParams.rightPad;
  if ((width * sizeof(T)) % 32 != 0 || right * sizeof(T) >= 32 || right > width) {
    ::npud::ascendc::Fail(
        "UnPad: the width %u must be 32-byte aligned and rightPad %u under 32 bytes", width, right);
  }
  const uint32_t out = width - right;
  if (uint64_t{height} * width > srcTensor.GetSize() ||
      uint64_t{height} * out > dstTensor.GetSize()) {
    ::npud::ascendc::Fail("UnPad: [%u, %u] to rows of %u does not fit src (%u) or dst (%u)", height,
                          width, out, srcTensor.GetSize(), dstTensor.GetSize());
  }
  // Forwards, so that dst may be src: a row never moves right.
  for (uint64_t i = 0; i < height; ++i) {
    for (uint32_t j = 0; j < out; ++j)
      dstTensor.Data()[i * out + j] = srcTensor.Data()[i * width + j];
  }
}
template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, UnPadTiling& tiling) {
  LocalTensor<uint8_t> none;
  UnPad(dstTensor, srcTensor, unPadParams, none, tiling);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_PAD_H_
