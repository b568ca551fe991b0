// aipp.h: the AI Core's image pre-processing on the 910B family (dav-2201):
// SetAippFunctions sets the source image and what to do with it; LoadImageToLocal
// moves a crop of it from GM into L1 doing that.
//
// What is simulated, in the reference's order (crop, channel swap, data type
// conversion, padding, channel padding):
//   * formats YUV400 (1 channel), RGB888 (3, interleaved), XRGB8888 (4 in, 3 out:
//     the fourth is dropped; isSwapAX first moves X from channel 0 to 3) and
//     YUV420SP (a Y plane and an interleaved UV plane of half the resolution each
//     way: pixel (y, x) takes the UV pair at row y / 2, column pair x / 2);
//   * the crop (horizStartPos, vertStartPos, horizSize, vertSize of a source
//     srcHorizSize pixels wide) and single-line reads (one row, vertSize ignored);
//   * isSwapRB (RGB888, XRGB8888), isSwapUV (YUV420SP);
//   * conversion to int8_t (x - mean, saturated to [-128, 127]; min and var do not
//     apply) or half ((x - mean - min) * var, computed in float and rounded to half
//     once: the reference gives the formula, not its intermediate roundings);
//   * padding mode 0 (constants paddingValueCh0..3 left and right; the reference
//     allows no top or bottom padding in it) and mode 1 (the nearest row or column
//     of the image), in the output type;
//   * channel padding to 32 bytes (32 int8_t or 16 half channels; mode 0) or to 4
//     channels (mode 1) with cPaddingValue, for every pixel.
// The output in L1 is the image's rows of pixels of C0 channels each: pixel (h, w)
// at (h * width + w) * C0, width = leftPad + horizSize + rightPad.
// Not simulated, failing the block with a message: colour space conversion (the
// reference's formula and the bias it uses in each direction are in images that
// its text does not reproduce) and padding modes 2 and 3 (block copies, whose
// source block the text leaves open).
#ifndef NPUD_ASCENDC_AIPP_H_
#define NPUD_ASCENDC_AIPP_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/visibility.h"

namespace AscendC {

enum class AippInputFormat : uint8_t {
  YUV420SP_U8 = 0,
  XRGB8888_U8 = 1,
  RGB888_U8 = 4,
  YUV400_U8 = 9,
};

template <class T>
struct AippPaddingParams {
  uint32_t paddingMode{0};
  T paddingValueCh0{0};
  T paddingValueCh1{0};
  T paddingValueCh2{0};
  T paddingValueCh3{0};
};

struct AippSwapParams {
  bool isSwapRB{false};
  bool isSwapUV{false};
  bool isSwapAX{false};
};

struct AippSingleLineParams {
  bool isSingleLineCopy{false};
};

struct AippDataTypeConvParams {
  uint8_t dtcMeanCh0{0};
  uint8_t dtcMeanCh1{0};
  uint8_t dtcMeanCh2{0};
  half dtcMinCh0{0};
  half dtcMinCh1{0};
  half dtcMinCh2{0};
  half dtcVarCh0{1.0};
  half dtcVarCh1{1.0};
  half dtcVarCh2{1.0};
  uint32_t dtcRoundMode{0};
};

template <class T>
struct AippChannelPaddingParams {
  uint32_t cPaddingMode;
  T cPaddingValue;
};

struct AippColorSpaceConvParams {
  bool isEnableCsc{false};
  int16_t cscMatrixR0C0{0};
  int16_t cscMatrixR0C1{0};
  int16_t cscMatrixR0C2{0};
  int16_t cscMatrixR1C0{0};
  int16_t cscMatrixR1C1{0};
  int16_t cscMatrixR1C2{0};
  int16_t cscMatrixR2C0{0};
  int16_t cscMatrixR2C1{0};
  int16_t cscMatrixR2C2{0};
  uint8_t cscBiasIn0{0};
  uint8_t cscBiasIn1{0};
  uint8_t cscBiasIn2{0};
  uint8_t cscBiasOut0{0};
  uint8_t cscBiasOut1{0};
  uint8_t cscBiasOut2{0};
};

template <class T>
struct AippParams {
  AippPaddingParams<T> paddingParams;
  AippSwapParams swapParams;
  AippSingleLineParams singleLineParams;
  AippDataTypeConvParams dtcParams;
  AippChannelPaddingParams<T> cPaddingParams;
  AippColorSpaceConvParams cscParams;
};

struct LoadImageToLocalParams {
  LoadImageToLocalParams() = default;
  LoadImageToLocalParams(uint16_t horizSizeIn, uint16_t vertSizeIn, uint16_t horizStartPosIn,
                         uint16_t vertStartPosIn, uint16_t srcHorizSizeIn, uint8_t topPadSizeIn,
                         uint8_t botPadSizeIn, uint16_t leftPadSizeIn, uint16_t rightPadSizeIn)
      : horizSize(horizSizeIn),
        vertSize(vertSizeIn),
        horizStartPos(horizStartPosIn),
        vertStartPos(vertStartPosIn),
        srcHorizSize(srcHorizSizeIn),
        topPadSize(topPadSizeIn),
        botPadSize(botPadSizeIn),
        leftPadSize(leftPadSizeIn),
        rightPadSize(rightPadSizeIn) {}

  uint16_t horizSize = 0;
  uint16_t vertSize = 0;
  uint16_t horizStartPos = 0;
  uint16_t vertStartPos = 0;
  uint16_t srcHorizSize = 0;
  uint8_t topPadSize = 0;
  uint8_t botPadSize = 0;
  uint16_t leftPadSize = 0;
  uint16_t rightPadSize = 0;
  uint8_t sid = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

// The AIPP registers SetAippFunctions writes: per core, so they outlive a block on
// its thread, as on the NPU until a kernel sets them again.
struct AippRegisters {
  bool set = false;
  const uint8_t* src0 = nullptr;
  const uint8_t* src1 = nullptr;
  AscendC::AippInputFormat format = AscendC::AippInputFormat::YUV400_U8;
  // The output type SetAippFunctions was told (its U): its size and whether it is
  // floating point; LoadImageToLocal's must match.
  uint32_t out_size = 0;
  bool out_float = false;
  uint32_t padding_mode = 0;
  float padding_value[4] = {0, 0, 0, 0};
  AscendC::AippSwapParams swap;
  bool single_line = false;
  float mean[3] = {0, 0, 0};
  float min[3] = {0, 0, 0};
  float var[3] = {1, 1, 1};
  uint32_t channel_padding_mode = 0;
  float channel_padding_value = 0;
  bool csc = false;
};
NPUD_ASCENDC_HIDDEN inline AippRegisters& AippState() {
  static thread_local AippRegisters registers;
  return registers;
}

inline uint32_t ImageChannels(AscendC::AippInputFormat format) {
  switch (format) {
    case AscendC::AippInputFormat::YUV400_U8:
      return 1;
    default:
      return 3;
  }
}

// Channel c of source pixel (y, x), after the format's channel handling and swaps.
inline uint8_t SourceChannel(const AippRegisters& r, uint32_t src_width, uint32_t y, uint32_t x,
                             uint32_t c) {
  using AscendC::AippInputFormat;
  const uint64_t pixel = uint64_t{y} * src_width + x;
  switch (r.format) {
    case AippInputFormat::YUV400_U8:
      return r.src0[pixel];
    case AippInputFormat::RGB888_U8:
      if (r.swap.isSwapRB && c != 1) c = 2 - c;
      return r.src0[pixel * 3 + c];
    case AippInputFormat::XRGB8888_U8:
      if (r.swap.isSwapRB && c != 1) c = 2 - c;
      // XRGB with the X first: moved behind (RGBX), then dropped.
      return r.src0[pixel * 4 + (r.swap.isSwapAX ? c + 1 : c)];
    case AippInputFormat::YUV420SP_U8: {
      if (c == 0) return r.src0[pixel];
      if (r.swap.isSwapUV) c = 3 - c;
      return r.src1[uint64_t{y / 2} * src_width + x / 2 * 2 + (c - 1)];
    }
  }
  return 0;
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, class U>
void SetAippFunctions(const GlobalTensor<T>& src0, const GlobalTensor<T>& src1,
                      AippInputFormat format, AippParams<U> config) {
  static_assert(std::is_same_v<T, uint8_t>, "SetAippFunctions reads uint8_t images");
  ::npud::ascendc::AippRegisters& r = ::npud::ascendc::AippState();
  r.set = true;
  r.src0 = src0.GetPhyAddr();
  r.src1 = src1.GetPhyAddr();
  r.format = format;
  r.out_size = sizeof(U);
  r.out_float = std::is_floating_point_v<U> || std::is_same_v<U, half>;
  r.padding_mode = config.paddingParams.paddingMode;
  r.padding_value[0] = static_cast<float>(config.paddingParams.paddingValueCh0);
  r.padding_value[1] = static_cast<float>(config.paddingParams.paddingValueCh1);
  r.padding_value[2] = static_cast<float>(config.paddingParams.paddingValueCh2);
  r.padding_value[3] = static_cast<float>(config.paddingParams.paddingValueCh3);
  r.swap = config.swapParams;
  r.single_line = config.singleLineParams.isSingleLineCopy;
  const AippDataTypeConvParams& d = config.dtcParams;
  r.mean[0] = d.dtcMeanCh0;
  r.mean[1] = d.dtcMeanCh1;
  r.mean[2] = d.dtcMeanCh2;
  r.min[0] = static_cast<float>(d.dtcMinCh0);
  r.min[1] = static_cast<float>(d.dtcMinCh1);
  r.min[2] = static_cast<float>(d.dtcMinCh2);
  r.var[0] = static_cast<float>(d.dtcVarCh0);
  r.var[1] = static_cast<float>(d.dtcVarCh1);
  r.var[2] = static_cast<float>(d.dtcVarCh2);
  r.channel_padding_mode = config.cPaddingParams.cPaddingMode;
  r.channel_padding_value = static_cast<float>(config.cPaddingParams.cPaddingValue);
  r.csc = config.cscParams.isEnableCsc;
}

template <class T, class U>
void SetAippFunctions(const GlobalTensor<T>& src0, AippInputFormat format, AippParams<U> config) {
  SetAippFunctions(src0, src0, format, config);
  if (format == AippInputFormat::YUV420SP_U8) ::npud::ascendc::AippState().src1 = nullptr;
}

template <class T>
void LoadImageToLocal(const LocalTensor<T>& dst, const LoadImageToLocalParams& p) {
  static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, half>,
                "LoadImageToLocal writes int8_t or half on this chip");
  using ::npud::ascendc::Fail;
  constexpr const char* kOp = "LoadImageToLocal";
  const ::npud::ascendc::AippRegisters& r = ::npud::ascendc::AippState();
  if (!r.set) Fail("%s: SetAippFunctions has not set the image", kOp);
  if (r.out_size != sizeof(T) || r.out_float != std::is_same_v<T, half>) {
    Fail("%s: the destination's type is not the output type SetAippFunctions was given", kOp);
  }
  if (::npud::ascendc::PoolOf(dst.Position()) != ::npud::ascendc::Pool::kL1) {
    Fail("%s: the destination must be in L1 (A1/B1)", kOp);
  }
  if (r.csc) {
    Fail(
        "%s: colour space conversion is not simulated (its formula is not in the reference's "
        "text)",
        kOp);
  }
  if (r.padding_mode > 1) {
    Fail("%s: padding mode %u (block copies) is not simulated", kOp, r.padding_mode);
  }
  if (r.padding_mode == 0 && (p.topPadSize != 0 || p.botPadSize != 0)) {
    Fail("%s: padding mode 0 pads left and right only (topPadSize %u, botPadSize %u)", kOp,
         p.topPadSize, p.botPadSize);
  }
  if (p.horizSize == 0 || p.vertSize == 0) {
    Fail("%s: horizSize %u and vertSize %u must be at least 2", kOp, p.horizSize, p.vertSize);
  }
  if (r.format == AippInputFormat::YUV420SP_U8 && r.src1 == nullptr) {
    Fail("%s: a YUV420SP image needs its UV plane (SetAippFunctions with src1)", kOp);
  }
  if (p.horizStartPos % 2 != 0 || (r.format == AippInputFormat::YUV420SP_U8 &&
                                   (p.vertStartPos % 2 != 0 || p.srcHorizSize % 2 != 0))) {
    Fail("%s: horizStartPos%s must be even for this format", kOp,
         r.format == AippInputFormat::YUV420SP_U8 ? ", vertStartPos and srcHorizSize" : "");
  }
  const uint32_t channels = ::npud::ascendc::ImageChannels(r.format);
  const uint32_t c0 = r.channel_padding_mode == 1 ? 4 : 32 / sizeof(T);
  const uint32_t rows = r.single_line ? 1 : p.vertSize;
  const uint32_t height = p.topPadSize + rows + p.botPadSize;
  const uint32_t width = p.leftPadSize + p.horizSize + p.rightPadSize;
  const uint64_t need = uint64_t{height} * width * c0;
  if (need > dst.GetSize()) {
    Fail("%s: %u x %u pixels of %u channels need %llu elements; the destination has %u", kOp,
         height, width, c0, static_cast<unsigned long long>(need), dst.GetSize());
  }
  // One output value of image pixel (y, x) (crop coordinates), channel c.
  auto convert = [&](uint32_t y, uint32_t x, uint32_t c) -> T {
    const float in = ::npud::ascendc::SourceChannel(r, p.srcHorizSize, p.vertStartPos + y,
                                                    p.horizStartPos + x, c);
    if constexpr (std::is_same_v<T, int8_t>) {
      return static_cast<int8_t>(std::clamp(in - r.mean[c], -128.0f, 127.0f));
    } else {
      return static_cast<T>((in - r.mean[c] - r.min[c]) * r.var[c]);
    }
  };
  T* out = dst.Data();
  for (uint32_t h = 0; h < height; ++h) {
    for (uint32_t w = 0; w < width; ++w) {
      T* pixel = out + (uint64_t{h} * width + w) * c0;
      const bool inside = h >= p.topPadSize && h < p.topPadSize + rows && w >= p.leftPadSize &&
                          w < p.leftPadSize + p.horizSize;
      for (uint32_t c = 0; c < c0; ++c) {
        if (c >= channels) {
          pixel[c] = static_cast<T>(r.channel_padding_value);
        } else if (inside || r.padding_mode == 1) {
          // Mode 1: the nearest pixel of the image, row and column clamped.
          const uint32_t y = std::min<uint32_t>(h - std::min<uint32_t>(h, p.topPadSize), rows - 1);
          const uint32_t x =
              std::min<uint32_t>(w - std::min<uint32_t>(w, p.leftPadSize), p.horizSize - 1u);
          pixel[c] = convert(y, x, c);
        } else {
          pixel[c] = static_cast<T>(r.padding_value[c]);
        }
      }
    }
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_AIPP_H_
