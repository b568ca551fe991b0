// fixpipe.h: moving results out of L0C on the 910B family (dav-2201): Fixpipe with
// FixpipeParamsV220 to GM or to L1, and the older DataCopy with DataCopyCO12DstParams,
// with the conversions on the way (quantPre) and ReLU, and the registers they read
// (SetFixpipeNz2ndFlag, SetFixpipePreQuantFlag, SetFixPipeConfig).
//
// L0C holds C in the NZ layout: column blocks of 16, element (m, n) at
// (n / 16) * srcStride * 16 + m * 16 + n % 16 (srcStride counts 16-element rows);
// the ndNum matrices of a batch are srcNdStride * 256 elements apart. Outputs:
//   ROW_MAJOR (NZ2ND)  row m of matrix i at i * dstNdStride + m * dstStride elements.
//   NZ                 blocks of 16 columns (32 for int8/uint8 outputs, pairs of 16
//                      merged; 8 for float with channel split), element (m, n) at
//                      (n / W) * dstStride * 32 bytes + m * W + n % W.
// Conversions, as the reference's pseudo-code (fixpipe_l0c2gm/scripts) computes them:
//   NoQuant            none (float and int32 stay).
//   F322F16, F322BF16  float rounded to half / bfloat16, to nearest even.
//   DEQF16, REQ8,      x * M (M from bits [31:13] of the quantisation word, the (1, 8,
//   QF322B8_PRE        10) float of the hardware; for negative x, 0 instead when ReLU is
//                      on), to half (DEQF16) or rounded to even, saturated to [-256,
//                      255], plus the 9-bit offset (bits 37..45), saturated to int8 or
//                      uint8 (bit 46 says which). Bit 36 first shifts int32 inputs
//                      right by bits 32..35 and saturates them to int16.
//   V*                 the same with the word of the output column from the fixpipe
//                      buffer (SetFixPipeConfig) or the cbufWorkspace tensor.
// ReLU without quantisation clamps negatives to 0. unitFlag only orders the NPU's
// pipes and changes nothing here.
#ifndef NPUD_ASCENDC_FIXPIPE_H_
#define NPUD_ASCENDC_FIXPIPE_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/visibility.h"

enum class QuantMode_t : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

namespace AscendC {

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };

struct FixpipeConfig {
  constexpr FixpipeConfig(CO2Layout layout) : format(layout) {}  // NOLINT: as the reference
  constexpr FixpipeConfig(CO2Layout layout, bool /*isToUB: dav-3510*/) : format(layout) {}
  CO2Layout format;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        reluEn(reluEnIn) {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn, QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn,
                    uint16_t srcNdStrideIn, uint16_t dstNdStrideIn, uint8_t unitFlagIn,
                    bool isChannelSplitIn = false)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn),
        isChannelSplit(isChannelSplitIn) {}

  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() = default;
  DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn,
                        uint16_t srcStrideIn, QuantMode_t quantPreIn, uint8_t reluPreIn,
                        bool channelSplitIn, bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}

  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

}  // namespace AscendC

namespace npud::ascendc {

// The fixpipe's registers on the core: the scalar quantisation word
// (SetFixpipePreQuantFlag), where the per-column words are (SetFixPipeConfig: a
// tensor in the fixpipe buffer, here any host address), and the NZ2ND batch
// (SetFixpipeNz2ndFlag), which DataCopy from L0C reads.
struct FixpipeRegisters {
  uint64_t quant_scalar = 0;
  const uint64_t* quant_vector = nullptr;
  uint16_t nd_num = 1;
  uint16_t src_nd_stride = 0;
  uint16_t dst_nd_stride = 0;
};
NPUD_ASCENDC_HIDDEN inline FixpipeRegisters& FixpipeState() {
  static thread_local FixpipeRegisters registers;
  return registers;
}

inline bool IsVectorQuant(QuantMode_t mode) {
  return mode == QuantMode_t::VDEQF16 || mode == QuantMode_t::VQF322B8_PRE ||
         mode == QuantMode_t::VREQ8;
}

// The multiplier of a quantisation word: bits [31:13] as a float.
inline float QuantMultiplier(uint64_t word) {
  const uint32_t bits = static_cast<uint32_t>(word) & 0xFFFFE000u;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

inline float RoundEven(float v) { return std::nearbyint(v); }  // the default FE_TONEAREST

inline float Saturate(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

// One L0C value, converted as `mode` says into T.
template <class T, class U>
T ConvertOut(U value, QuantMode_t mode, uint64_t word, bool relu) {
  switch (mode) {
    case QuantMode_t::NoQuant:
      if (relu && value < U{}) value = U{};
      if constexpr (std::is_same_v<T, U>) {
        return value;
      } else {
        Fail("Fixpipe: NoQuant cannot convert %zu-byte results to %zu-byte outputs", sizeof(U),
             sizeof(T));
      }
    case QuantMode_t::F322F16:
    case QuantMode_t::F322BF16: {
      float v = static_cast<float>(value);
      if (relu && v < 0) v = 0;
      return static_cast<T>(v);
    }
    default:
      break;
  }
  float x;
  if constexpr (std::is_integral_v<U>) {
    int64_t in = value;
    if (((word >> 36) & 1) != 0) {
      in >>= (word >> 32) & 0xF;
      in = in < -32768 ? -32768 : in > 32767 ? 32767 : in;
    }
    x = static_cast<float>(in);
  } else {
    x = static_cast<float>(value);
    if (((word >> 36) & 1) != 0) {
      x = Saturate(RoundEven(x / static_cast<float>(1u << ((word >> 32) & 0xF))), -32768, 32767);
    }
  }
  const float m1 = QuantMultiplier(word);
  const float scaled = x >= 0 ? x * m1 : x * (relu ? 0.0f : m1);
  if (mode == QuantMode_t::DEQF16 || mode == QuantMode_t::VDEQF16) {
    return static_cast<T>(Saturate(scaled, -65504.0f, 65504.0f));
  }
  const float offset = static_cast<float>((word >> 37) & 0x1FF);
  const float q = Saturate(RoundEven(Saturate(scaled, -256, 255)) + offset, -32768, 32767);
  const bool is_signed = ((word >> 46) & 1) != 0;
  const float out = is_signed ? Saturate(q, -128, 127) : Saturate(q, 0, 255);
  return static_cast<T>(static_cast<int>(out));
}

// Which conversions lead from U to T on this chip.
template <class T, class U>
bool ConversionSupported(QuantMode_t mode) {
  constexpr bool f32 = std::is_same_v<U, float>, s32 = std::is_same_v<U, int32_t>;
  constexpr bool b8 = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>;
  switch (mode) {
    case QuantMode_t::NoQuant:
      return std::is_same_v<T, U>;
    case QuantMode_t::F322F16:
      return f32 && std::is_same_v<T, half>;
    case QuantMode_t::F322BF16:
      return f32 && std::is_same_v<T, bfloat16_t>;
    case QuantMode_t::DEQF16:
    case QuantMode_t::VDEQF16:
      return s32 && std::is_same_v<T, half>;
    case QuantMode_t::QF322B8_PRE:
    case QuantMode_t::VQF322B8_PRE:
      return f32 && b8;
    case QuantMode_t::REQ8:
    case QuantMode_t::VREQ8:
      return s32 && b8;
  }
  return false;
}

// The move itself: `out` is where output element (matrix, m, n) goes, as an element
// offset from `dst`.
struct FixpipeMove {
  uint16_t m_size, n_size, src_stride, nd_num, src_nd_stride;
  QuantMode_t mode;
  uint64_t scalar;
  const uint64_t* vector;  // per-column words for the V* modes
  bool relu;
};

// Whether every L0C element the move reads is inside the source's `size` elements,
// checked once per move: the furthest is in the last matrix's last row, at the end
// of one of its 16-column blocks.
inline bool FixpipeSourceFits(const FixpipeMove& mv, uint64_t size) {
  if (mv.nd_num == 0 || mv.m_size == 0 || mv.n_size == 0) return true;
  const uint64_t last_row =
      uint64_t{mv.nd_num - 1u} * mv.src_nd_stride * 256 + (mv.m_size - 1u) * 16u;
  for (uint32_t n = 0; n < mv.n_size; n += 16) {
    const uint32_t last = mv.n_size - n < 16 ? mv.n_size - 1 : n + 15;
    if (last_row + uint64_t{last / 16} * mv.src_stride * 16 + last % 16 >= size) return false;
  }
  return true;
}

template <class T, class U, class Out>
void RunFixpipe(const char* op, T* dst, const AscendC::LocalTensor<U>& src, const FixpipeMove& mv,
                Out out) {
  if (!ConversionSupported<T, U>(mv.mode)) {
    Fail("%s: quantPre %d from %zu-byte to %zu-byte elements is not supported", op,
         static_cast<int>(mv.mode), sizeof(U), sizeof(T));
  }
  const bool vector = IsVectorQuant(mv.mode);
  if (vector && mv.vector == nullptr) {
    Fail(
        "%s: quantPre %d needs the per-column quantisation words (SetFixPipeConfig or a "
        "cbufWorkspace tensor)",
        op, static_cast<int>(mv.mode));
  }
  // The words are read first (the NPU loads them into the fixpipe buffer before the
  // move), so an output over the words' L1 memory does not change them.
  std::vector<uint64_t> words(vector ? mv.vector : nullptr,
                              vector ? mv.vector + mv.n_size : nullptr);
  const U* in = src.Data();
  const bool inside = FixpipeSourceFits(mv, src.GetSize());
  for (uint32_t nd = 0; nd < mv.nd_num; ++nd) {
    for (uint32_t m = 0; m < mv.m_size; ++m) {
      for (uint32_t n = 0; n < mv.n_size; ++n) {
        const uint64_t from = uint64_t{nd} * mv.src_nd_stride * 256 +
                              (uint64_t{n / 16} * mv.src_stride + m) * 16 + n % 16;
        if (!inside && from >= src.GetSize()) {
          Fail(
              "%s: element (%u, %u) of matrix %u is at %llu, beyond the %u elements of the "
              "source",
              op, m, n, nd, static_cast<unsigned long long>(from), src.GetSize());
        }
        const uint64_t word = vector ? words[n] : mv.scalar;
        dst[out(nd, m, n)] = ConvertOut<T>(in[from], mv.mode, word, mv.relu);
      }
    }
  }
}

// Element offset of (m, n) in an NZ output with a dstStride of `stride` 32-byte blocks.
template <class T>
uint64_t NzOffset(uint32_t m, uint32_t n, uint32_t n_size, uint32_t stride, bool channel_split) {
  uint32_t width = 16;
  if constexpr (sizeof(T) == 1) {
    // Int8 channel merge: pairs of 16-column blocks become one of 32, except a last
    // odd block.
    width = (n / 32 * 32 + 32 <= (n_size + 15) / 16 * 16) ? 32 : 16;
  }
  if (channel_split) width = 8;
  const uint64_t block_elements = uint64_t{stride} * 32 / sizeof(T);
  return (n / width) * block_elements + uint64_t{m} * width + n % width;
}

template <class T, class U, const AscendC::FixpipeConfig& config>
void FixpipeTo(const char* op, T* dst, const AscendC::LocalTensor<U>& src,
               const AscendC::FixpipeParamsV220& p, const uint64_t* vector) {
  if (config.format == AscendC::CO2Layout::COLUMN_MAJOR) {
    Fail("%s: CFG_COLUMN_MAJOR (NZ2DN) is a dav-3510 feature", op);
  }
  const FixpipeMove mv{p.mSize,    p.nSize,     p.srcStride, p.ndNum, p.srcNdStride,
                       p.quantPre, p.deqScalar, vector,      p.reluEn};
  if (config.format == AscendC::CO2Layout::ROW_MAJOR) {
    RunFixpipe(op, dst, src, mv, [&](uint32_t nd, uint32_t m, uint32_t n) {
      return uint64_t{nd} * p.dstNdStride + uint64_t{m} * p.dstStride + n;
    });
  } else {
    RunFixpipe(op, dst, src, mv, [&](uint32_t nd, uint32_t m, uint32_t n) {
      return uint64_t{nd} * p.dstNdStride +
             NzOffset<T>(m, n, p.nSize, p.dstStride, p.isChannelSplit);
    });
  }
}

}  // namespace npud::ascendc

namespace AscendC {

// L0C (CO1) -> GM.
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsV220& intriParams) {
  ::npud::ascendc::FixpipeTo<T, U, config>("Fixpipe", dst.GetPhyAddr(), src, intriParams,
                                           ::npud::ascendc::FixpipeState().quant_vector);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR, class S,
          std::enable_if_t<std::is_same_v<S, uint64_t>, bool> = true>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams) {
  ::npud::ascendc::FixpipeTo<T, U, config>("Fixpipe", dst.GetPhyAddr(), src, intriParams,
                                           cbufWorkspace.Data());
}

// L0C (CO1) -> L1 (A1/B1/C1). The 910B writes L1 in NZ only.
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsV220& intriParams) {
  ::npud::ascendc::FixpipeTo<T, U, config>("Fixpipe", dst.Data(), src, intriParams,
                                           ::npud::ascendc::FixpipeState().quant_vector);
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR, class S,
          std::enable_if_t<std::is_same_v<S, uint64_t>, bool> = true>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams) {
  ::npud::ascendc::FixpipeTo<T, U, config>("Fixpipe", dst.Data(), src, intriParams,
                                           cbufWorkspace.Data());
}

inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
  ::npud::ascendc::FixpipeRegisters& r = ::npud::ascendc::FixpipeState();
  r.nd_num = ndNum;
  r.src_nd_stride = srcNdStride;
  r.dst_nd_stride = dstNdStride;
}

inline void SetFixpipePreQuantFlag(uint64_t config) {
  ::npud::ascendc::FixpipeState().quant_scalar = config;
}

// The per-column quantisation words for the V* modes: a tensor in the fixpipe buffer.
template <class T>
void SetFixPipeConfig(const LocalTensor<T>& preTensor, bool /*isUnitFlag*/ = false) {
  ::npud::ascendc::FixpipeState().quant_vector =
      reinterpret_cast<const uint64_t*>(preTensor.Data());
}
template <class T>
void SetFixPipeConfig(const LocalTensor<T>& /*reluPre*/, const LocalTensor<T>& quantPre,
                      bool isUnitFlag = false) {
  SetFixPipeConfig(quantPre, isUnitFlag);
}

// DataCopy out of L0C: the same move, its layout chosen by nz2ndEn (ND batches from
// SetFixpipeNz2ndFlag) and its words from SetFixpipePreQuantFlag / SetFixPipeConfig.
template <class T, class U>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyCO12DstParams& p) {
  const ::npud::ascendc::FixpipeRegisters& r = ::npud::ascendc::FixpipeState();
  FixpipeParamsV220 f(p.nSize, p.mSize, p.srcStride, p.dstStride, p.reluPre != 0, p.quantPre,
                      static_cast<int64_t>(r.quant_scalar), 1, 0, 0, p.unitFlag, p.channelSplit);
  if (p.nz2ndEn) {
    f.ndNum = r.nd_num;
    f.srcNdStride = r.src_nd_stride;
    f.dstNdStride = r.dst_nd_stride;
    ::npud::ascendc::FixpipeTo<T, U, CFG_ROW_MAJOR>("DataCopy (L0C)", dst.GetPhyAddr(), src, f,
                                                    r.quant_vector);
  } else {
    ::npud::ascendc::FixpipeTo<T, U, CFG_NZ>("DataCopy (L0C)", dst.GetPhyAddr(), src, f,
                                             r.quant_vector);
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_FIXPIPE_H_
