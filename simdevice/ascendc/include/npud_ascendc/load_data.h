// load_data.h: the moves into the cube's L0A/L0B buffers on the 910B family
// (dav-2201): LoadData in its 2D form (whole 512-byte fractals), LoadDataWithTranspose
// (square blocks transposed on the way), LoadData in its 3D (image to column) V2
// form with the feature-map and padding registers it reads (SetFmatrix,
// SetLoadDataPaddingValue), and LoadDataWithSparse.
//
// The layouts these produce are the ones cube.h's Mmad reads (see there): L0A holds
// A in fractals of 16 rows x C0 columns, m-block major; L0B holds B in fractals of
// 16 n-rows x C0 k-columns, k-block major. C0 = 32 bytes of elements (64 int4b_t,
// 32 b8, 16 b16, 8 b32). Every move below is a copy of elements: none converts a
// value, so a 2D load moves bytes whatever the element type.
//
// The algorithms follow the reference's pseudo-code of each instruction
// (examples/.../load_data_l12l0/scripts: load2d.py, load_data_with_transpose.py,
// load3d.py). Forms and element types the 910B does not support, and the register
// state the simulator does not model, fail the block with a message that names them.
#ifndef NPUD_ASCENDC_LOAD_DATA_H_
#define NPUD_ASCENDC_LOAD_DATA_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/int4b.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/visibility.h"

namespace AscendC {

struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint8_t sid = 0;
  uint16_t dstGap = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};

struct LoadData2dTransposeParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

enum class FmatrixMode : uint8_t {
  FMATRIX_LEFT = 0,
  FMATRIX_RIGHT = 1,
};

// Whether LoadData (3D) sets the feature-map (l1H, l1W, padList) and padding-value
// registers from its parameters, or uses what SetFmatrix / SetLoadDataPaddingValue set.
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

template <class T>
struct LoadData3DParamsV2 {
  uint8_t padList[4] = {0, 0, 0, 0};  // left, right, top, bottom
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = T{};
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

// The V2 parameters packed: extConfig = mStartPt << 48 | kStartPt << 32 |
// mExtension << 16 | kExtension; filterConfig = dilationFilterH << 40 |
// dilationFilterW << 32 | filterH << 24 | filterW << 16 | strideH << 8 | strideW. The
// feature map and padding value come from SetFmatrix / SetLoadDataPaddingValue.
struct LoadData3DParamsV2Pro {
  LoadData3DParamsV2Pro() = default;
  LoadData3DParamsV2Pro(uint16_t channelSizeIn, bool enTransposeIn, bool enSmallKIn,
                        bool filterSizeWIn, bool filterSizeHIn, bool fMatrixCtrlIn,
                        uint64_t extConfigIn, uint64_t filterConfigIn)
      : channelSize(channelSizeIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn),
        extConfig(extConfigIn),
        filterConfig(filterConfigIn) {}
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  uint64_t extConfig = 0;
  uint64_t filterConfig = 0X10101010101;
};

struct LoadDataRepeatParam {
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint16_t dstStride = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

// The 3D load's registers: the feature map (SetFmatrix), the padding value
// (SetLoadDataPaddingValue, raw bits), the repeat (SetLoadDataRepeat). They belong
// to the core, so they outlive a block on its thread, as on the NPU until a kernel
// sets them again.
struct Load3dRegisters {
  uint16_t l1h = 0;
  uint16_t l1w = 0;
  uint8_t pad[4] = {0, 0, 0, 0};
  uint32_t pad_bits = 0;
  AscendC::LoadDataRepeatParam repeat;
};
NPUD_ASCENDC_HIDDEN inline Load3dRegisters& Load3dState() {
  static thread_local Load3dRegisters registers;
  return registers;
}

// Elements of one 32-byte row of a fractal and of one 512-byte fractal.
template <class T>
inline constexpr uint32_t kC0 = static_cast<uint32_t>(256 / ElementBits<T>);
template <class T>
inline constexpr uint32_t kFractalElements = 16 * kC0<T>;

// Copies element `from` of `src` to element `to` of `dst` (nibbles for int4b_t).
template <class T>
void MoveElement(T* dst, uint64_t to, const T* src, uint64_t from) {
  if constexpr (ElementBits<T> == 4) {
    const uint8_t byte = reinterpret_cast<const uint8_t*>(src)[from / 2];
    const uint8_t nibble = (from % 2 != 0 ? byte >> 4 : byte) & 0xF;
    uint8_t& out = reinterpret_cast<uint8_t*>(dst)[to / 2];
    out = to % 2 != 0 ? static_cast<uint8_t>((out & 0x0F) | (nibble << 4))
                      : static_cast<uint8_t>((out & 0xF0) | nibble);
  } else {
    dst[to] = src[from];
  }
}

// Element `index` of the array at `base` set to the raw bits `bits`.
template <class T>
void StoreBits(T* base, uint64_t index, uint32_t bits) {
  if constexpr (ElementBits<T> == 4) {
    uint8_t& out = reinterpret_cast<uint8_t*>(base)[index / 2];
    out = index % 2 != 0 ? static_cast<uint8_t>((out & 0x0F) | ((bits & 0xF) << 4))
                         : static_cast<uint8_t>((out & 0xF0) | (bits & 0xF));
  } else {
    std::memcpy(static_cast<void*>(&base[index]), &bits, sizeof(T));
  }
}

// Fails the block unless elements [first, first + count) are inside `t`.
template <class T>
void RequireInside(const char* op, const char* role, const AscendC::LocalTensor<T>& t,
                   int64_t first, uint64_t count) {
  if (first < 0 || static_cast<uint64_t>(first) + count > t.GetSize()) {
    Fail("%s: the %s's elements [%lld, %lld) are outside its %u elements", op, role,
         static_cast<long long>(first), static_cast<long long>(first + count), t.GetSize());
  }
}

// Fails the block unless element `index` of `t` is inside the physical buffer `t` is
// in. The 3D load writes whole fractals of its extensions, which may run past the
// tensor a kernel declared (into the rest of L0A/L0B, as on the NPU).
template <class T>
void RequireInBuffer(const char* op, const AscendC::LocalTensor<T>& t, uint64_t index) {
  const Pool pool = PoolOf(t.Position());
  const uint8_t* base = PoolBase(pool);
  const uint8_t* at = reinterpret_cast<const uint8_t*>(AdvanceElements(t.Data(), index));
  if (base == nullptr || at < base || static_cast<uint64_t>(at - base) >= PoolCapacity(pool)) {
    Fail("%s: element %llu of the destination is outside the %s", op,
         static_cast<unsigned long long>(index), PoolName(pool));
  }
}

// Copies 512-byte fractal number `from` of `src` to fractal `to` of `dst`, each 16 x C0
// element row-major; with `transpose` the 16 x 16 (b16) fractal is transposed.
template <class T>
void MoveFractal(T* dst, uint64_t to, const T* src, uint64_t from, bool transpose) {
  constexpr uint32_t c0 = kC0<T>;
  const uint64_t out = to * kFractalElements<T>;
  const uint64_t in = from * kFractalElements<T>;
  if (!transpose) {
    std::memcpy(AdvanceElements(dst, out), AdvanceElements(src, in), 512);
    return;
  }
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < c0; ++c) dst[out + c * 16 + r] = src[in + r * c0 + c];
  }
}

}  // namespace npud::ascendc

namespace AscendC {

// LoadData (2D): repeatTimes fractals, the source advancing srcStride fractals per
// repeat from fractal startIndex (backwards with addrMode 1), the destination
// 1 + dstGap fractals per repeat; ifTranspose transposes each (b16 only).
template <class T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  using ::npud::ascendc::Fail;
  if (p.ifTranspose && ::npud::ascendc::ElementBits<T> != 16) {
    Fail("LoadData: ifTranspose of %llu-bit elements is not supported (b16 only)",
         static_cast<unsigned long long>(::npud::ascendc::ElementBits<T>));
  }
  constexpr uint32_t kFrac = ::npud::ascendc::kFractalElements<T>;
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const int64_t step = int64_t{p.srcStride} * i;
    const int64_t from = p.addrMode == 0 ? p.startIndex + step : p.startIndex - step;
    const int64_t to = int64_t{i} * (1 + p.dstGap);
    ::npud::ascendc::RequireInside("LoadData", "source", src, from * kFrac, kFrac);
    ::npud::ascendc::RequireInside("LoadData", "destination", dst, to * kFrac, kFrac);
    ::npud::ascendc::MoveFractal(dst.Data(), static_cast<uint64_t>(to), src.Data(),
                                 static_cast<uint64_t>(from), p.ifTranspose);
  }
}

// The same from global memory (GM -> L0A/L0B); GM is not bounds-checked.
template <class T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) {
  if (p.ifTranspose) {
    ::npud::ascendc::Fail("LoadData: ifTranspose is only supported from L1 (A1/B1)");
  }
  constexpr uint32_t kFrac = ::npud::ascendc::kFractalElements<T>;
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const int64_t step = int64_t{p.srcStride} * i;
    const int64_t from = p.addrMode == 0 ? p.startIndex + step : p.startIndex - step;
    const int64_t to = int64_t{i} * (1 + p.dstGap);
    ::npud::ascendc::RequireInside("LoadData", "destination", dst, to * kFrac, kFrac);
    ::npud::ascendc::MoveFractal(dst.Data(), static_cast<uint64_t>(to), src.GetPhyAddr(),
                                 static_cast<uint64_t>(from), false);
  }
}

// LoadDataWithTranspose: per repeat one square of N x N elements (N = 16 for b16 and
// b32, 32 for b8, 64 for int4b_t: N*N/(16*C0) fractals of the source, which holds it
// in the NZ layout, C0 columns a block), transposed, cut back into 16 x C0 fractals
// (row blocks major) that land 1 + dstFracGap fractals apart. Squares are srcStride
// squares apart from square startIndex; repeats start 1 + dstGap fractals apart.
template <class T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& p) {
  using ::npud::ascendc::ElementBits;
  constexpr uint32_t c0 = ::npud::ascendc::kC0<T>;
  constexpr uint32_t kFrac = ::npud::ascendc::kFractalElements<T>;
  constexpr uint32_t n = ElementBits<T> == 32 ? 16 : c0;  // the square's side
  constexpr uint32_t kSquare = n * n;
  constexpr uint32_t col_tiles = n / c0;
  constexpr uint32_t fractals = kSquare / kFrac;
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const int64_t step = int64_t{p.srcStride} * i;
    const int64_t square = p.addrMode == 0 ? p.startIndex + step : p.startIndex - step;
    const int64_t in = square * kSquare;
    const int64_t out = int64_t{i} * (1 + p.dstGap) * kFrac;
    ::npud::ascendc::RequireInside("LoadDataWithTranspose", "source", src, in, kSquare);
    ::npud::ascendc::RequireInside("LoadDataWithTranspose", "destination", dst, out,
                                   uint64_t{fractals - 1} * (1 + p.dstFracGap) * kFrac + kFrac);
    for (uint32_t f = 0; f < fractals; ++f) {
      const uint32_t row0 = f / col_tiles * 16;
      const uint32_t col0 = f % col_tiles * c0;
      const uint64_t frac = static_cast<uint64_t>(out) + uint64_t{f} * (1 + p.dstFracGap) * kFrac;
      for (uint32_t r = 0; r < 16; ++r) {
        for (uint32_t c = 0; c < c0; ++c) {
          // Element (row0 + r, col0 + c) of the transposed square is element
          // (col0 + c, row0 + r) of the source square.
          const uint32_t sr = col0 + c, sc = row0 + r;
          const uint64_t from = static_cast<uint64_t>(in) + (sc / c0) * uint64_t{n} * c0 +
                                uint64_t{sr} * c0 + sc % c0;
          ::npud::ascendc::MoveElement(dst.Data(), frac + uint64_t{r} * c0 + c, src.Data(), from);
        }
      }
    }
  }
}

template <class T>
void SetLoadDataPaddingValue(const T padValue) {
  uint32_t bits = 0;
  std::memcpy(&bits, static_cast<const void*>(&padValue),
              sizeof(T) < sizeof(bits) ? sizeof(T) : sizeof(bits));
  ::npud::ascendc::Load3dState().pad_bits = bits;
}

inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4],
                       const FmatrixMode& /*fmatrixMode: one register serves both*/) {
  ::npud::ascendc::Load3dRegisters& r = ::npud::ascendc::Load3dState();
  r.l1h = l1H;
  r.l1w = l1W;
  for (int i = 0; i < 4; ++i) r.pad[i] = padList[i];
}

// The boundary only bounds the NPU's reads of L1; the simulator checks every read
// against the source tensor instead.
inline void SetLoadDataBoundary(uint32_t /*boundaryValue*/) {}

inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
  ::npud::ascendc::Load3dState().repeat = repeatParams;
}

// LoadData (3D, V2): the feature map in L1 is NC1HWC0 (C1 blocks of H x W x C0); the
// image-to-column matrix has a row per output position (ho * Wout + wo) and a column
// per (c1, kh, kw, c0), c1 major; positions in the padding read the padding value.
// Rows [mStartPt, +mExtension) and columns [kStartPt, +kExtension) of it go to:
//   A2, no transpose: 16 x C0 fractals, row blocks major (the Mmad's A layout);
//   A2, enTranspose (b16/b32): the block transposed, so that with A^T in L1 the
//       result is A's layout (for b32 with K aligned to 16, kDirectionAlign);
//   B2 (b16/b32): the Mmad's B layout with the matrix's rows as B's k.
template <class T, const IsResetLoad3dConfig& config = IS_RESER_LOAD3D_DEFAULT_CONFIG, class U>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData3DParamsV2<U>& p) {
  using ::npud::ascendc::ElementBits;
  using ::npud::ascendc::Fail;
  static_assert(std::is_same_v<T, U>, "LoadData3DParamsV2<U>: U must be the tensors' type");
  constexpr uint32_t c0 = ::npud::ascendc::kC0<T>;
  ::npud::ascendc::Load3dRegisters& regs = ::npud::ascendc::Load3dState();
  if (config.isSetFMatrix) {
    regs.l1h = p.l1H;
    regs.l1w = p.l1W;
    for (int i = 0; i < 4; ++i) regs.pad[i] = p.padList[i];
  }
  if (config.isSetPadding) SetLoadDataPaddingValue(p.padValue);
  if (regs.repeat.repeatTime > 1) {
    Fail("LoadData (3D): SetLoadDataRepeat with repeatTime %u is not simulated",
         regs.repeat.repeatTime);
  }
  if (p.enSmallK) Fail("LoadData (3D): enSmallK is not supported on this chip");
  const uint32_t h = regs.l1h, w = regs.l1w;
  if (h == 0 || w == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0) return;
  const uint32_t fh = p.filterH + (p.filterSizeH ? 256u : 0u);
  const uint32_t fw = p.filterW + (p.filterSizeW ? 256u : 0u);
  if (fh == 0 || fw == 0) return;
  if (p.strideH == 0 || p.strideW == 0) Fail("LoadData (3D): the strides must be at least 1");
  const uint32_t pad_l = regs.pad[0], pad_r = regs.pad[1], pad_t = regs.pad[2], pad_b = regs.pad[3];
  const int64_t span_h = int64_t{fh - 1} * p.dilationFilterH + 1;
  const int64_t span_w = int64_t{fw - 1} * p.dilationFilterW + 1;
  const int64_t out_w = (int64_t{w} + pad_l + pad_r - span_w) / p.strideW + 1;
  const uint32_t c1 = (p.channelSize + c0 - 1) / c0;
  const bool to_b = dst.Position() == TPosition::B2;
  const bool transpose = to_b || p.enTranspose;
  if (transpose && ElementBits<T> != 16 && ElementBits<T> != 32) {
    Fail("LoadData (3D): %s of %llu-bit elements is not supported (b16 and b32 only)",
         to_b ? "a load into L0B" : "enTranspose", static_cast<unsigned long long>(ElementBits<T>));
  }
  const uint32_t m_ext = p.mExtension, k_ext = p.kExtension;
  const uint32_t m_blocks16 = (m_ext + 15) / 16;
  const uint32_t k_blocks = (k_ext + c0 - 1) / c0;
  const uint32_t k_blocks16 = (k_ext + 15) / 16;
  const uint64_t src_elements = uint64_t{c1} * h * w * c0;
  ::npud::ascendc::RequireInside("LoadData (3D)", "source", src, 0, src_elements);
  for (uint32_t mi = 0; mi < m_ext; ++mi) {
    const int64_t row = int64_t{p.mStartPt} + mi;
    const int64_t ho = row / out_w, wo = row % out_w;
    for (uint32_t ki = 0; ki < k_ext; ++ki) {
      const uint32_t col = p.kStartPt + ki;
      const uint32_t block = col / c0;
      const uint32_t channel_block = block / (fh * fw);
      const uint32_t kpos = block % (fh * fw);
      const int64_t ih = ho * p.strideH + int64_t{kpos / fw} * p.dilationFilterH - pad_t;
      const int64_t iw = wo * p.strideW + int64_t{kpos % fw} * p.dilationFilterW - pad_l;
      uint64_t to;
      if (!transpose) {
        to = (uint64_t{mi / 16} * k_blocks + ki / c0) * 16 * c0 + (mi % 16) * c0 + ki % c0;
      } else if (ElementBits<T> == 16) {
        to = to_b ? ((uint64_t{mi / 16} * k_blocks16 + ki / 16) * 16 + ki % 16) * 16 + mi % 16
                  : ((uint64_t{ki / 16} * m_blocks16 + mi / 16) * 16 + ki % 16) * 16 + mi % 16;
      } else {
        to = to_b ? (uint64_t{mi / 8} * k_blocks16 * 16 + ki) * 8 + mi % 8
                  : (((uint64_t{ki / 16} * m_blocks16 + mi / 16) * 2 + (mi % 16) / 8) * 16 +
                     ki % 16) *
                            8 +
                        mi % 8;
      }
      ::npud::ascendc::RequireInBuffer("LoadData (3D)", dst, to);
      const bool in_map = ih >= 0 && iw >= 0 && ih < int64_t{h} && iw < int64_t{w} &&
                          row < out_w * ((int64_t{h} + pad_t + pad_b - span_h) / p.strideH + 1) &&
                          channel_block < c1;
      if (!in_map) {
        ::npud::ascendc::StoreBits(dst.Data(), to, regs.pad_bits);
        continue;
      }
      const uint64_t from = ((uint64_t{channel_block} * h + static_cast<uint64_t>(ih)) * w +
                             static_cast<uint64_t>(iw)) *
                                c0 +
                            col % c0;
      ::npud::ascendc::MoveElement(dst.Data(), to, src.Data(), from);
    }
  }
}

// LoadData (3D, V2 Pro): the V2 load with its extents and filter packed into two
// words, reading the feature-map and padding registers as they are.
inline constexpr IsResetLoad3dConfig kNpudLoad3dKeepRegisters = {false, false};
template <class T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData3DParamsV2Pro& p) {
  LoadData3DParamsV2<T> v2;
  v2.channelSize = p.channelSize;
  v2.enTranspose = p.enTranspose;
  v2.enSmallK = p.enSmallK;
  v2.filterSizeW = p.filterSizeW;
  v2.filterSizeH = p.filterSizeH;
  v2.fMatrixCtrl = p.fMatrixCtrl;
  v2.mStartPt = static_cast<uint16_t>(p.extConfig >> 48);
  v2.kStartPt = static_cast<uint16_t>(p.extConfig >> 32);
  v2.mExtension = static_cast<uint16_t>(p.extConfig >> 16);
  v2.kExtension = static_cast<uint16_t>(p.extConfig);
  v2.dilationFilterH = static_cast<uint8_t>(p.filterConfig >> 40);
  v2.dilationFilterW = static_cast<uint8_t>(p.filterConfig >> 32);
  v2.filterH = static_cast<uint8_t>(p.filterConfig >> 24);
  v2.filterW = static_cast<uint8_t>(p.filterConfig >> 16);
  v2.strideH = static_cast<uint8_t>(p.filterConfig >> 8);
  v2.strideW = static_cast<uint8_t>(p.filterConfig);
  LoadData<T, kNpudLoad3dKeepRegisters>(dst, src, v2);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LOAD_DATA_H_
