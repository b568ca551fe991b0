// gather_transpose.h: Gather, Gatherb, GatherMask and the plain 16 x 16 Transpose.
//
//   Gather(dst, src, srcOffset, srcBaseAddr, count)
//       dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)] for i < count; the
//       offsets are bytes and must address whole elements inside src.
//   Gatherb(dst, src, offset, repeatTime, {dstBlkStride, dstRepStride})
//       whole 32-byte blocks: block j of repeat r of dst (at r * dstRepStride + j *
//       dstBlkStride blocks) = the 32 bytes at byte offset[8r + j] of src.
//   GatherMask(dst, src0, pattern, reduceMode, mask, {src0BlockStride, repeatTimes,
//              src0RepeatStride, src1RepeatStride}, rsvdCnt)
//       the elements of src0 whose pattern bit is 1, packed from dst[0]; rsvdCnt the
//       number kept. The pattern is a tensor of bits (element i of a repeat is bit
//       i % 8 of byte i / 8; uint16_t patterns for 2-byte elements, uint32_t for
//       4-byte ones) or a built-in one: 1 even, 2 odd, 3..6 i % 4 == 0..3, 7 all.
//       reduceMode false: repeatTimes repeats of 256 bytes each; true: repeatTimes
//       repeats of the first `mask` elements each. Leaves normal mask mode.
//   Transpose(dst, src)
//       the 16 x 16 matrix of 2-byte elements (half, int16_t, uint16_t) at src,
//       transposed into dst (dst may be src).
//   Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt{n, c, h, w, type})
//       TRANSPOSE_NCHW2NHWC / NHWC2NCHW (h * w * sizeof(T) a multiple of 32 bytes;
//       dst and src apart) and TRANSPOSE_ND2ND_B16; the NZ types are not supported
//       (as on the 910B).
//   TransDataTo5HD<T>(dstList, srcList, params)
//       16 x 16 transposes of the 32-byte blocks the two address lists name (UB
//       addresses, GetPhyAddr()), repeatTimes times with the repeat strides; 1-byte
//       elements fill one half of each destination block, 4-byte ones give row r of
//       the 16 source columns in destination blocks 2r and 2r + 1.
// What breaks these rules fails the block with a message (trap kind 1).
#ifndef NPUD_ASCENDC_GATHER_TRANSPOSE_H_
#define NPUD_ASCENDC_GATHER_TRANSPOSE_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

namespace AscendC {

template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint32_t count) {
  const int32_t n = static_cast<int32_t>(count);
  ::npud::ascendc::CheckOperand("Gather", dst, n, "destination");
  ::npud::ascendc::CheckOperand("Gather", srcOffset, n, "offset");
  for (int32_t i = 0; i < n; ++i) {
    const uint64_t byte = uint64_t{srcBaseAddr} + srcOffset.Data()[i];
    if (byte % sizeof(T) != 0 || byte / sizeof(T) >= src.GetSize()) {
      ::npud::ascendc::Fail(
          "Gather: element %d's offset %llu bytes is not an element of the "
          "%u-element source",
          i, static_cast<unsigned long long>(byte), src.GetSize());
    }
    dst.Data()[i] = src.Data()[byte / sizeof(T)];
  }
}

struct GatherRepeatParams {
  GatherRepeatParams() {}
  GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint32_t blockNumber = 8;
  uint8_t dstBlkStride = 1;
  uint8_t dstRepStride = 8;
};

template <class T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
             const GatherRepeatParams& repeatParams) {
  using namespace ::npud::ascendc;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gatherb takes 2- or 4-byte elements");
  CheckOperand("Gatherb", offset, int32_t{repeatTime} * 8, "offset");
  const uint32_t blk = repeatParams.dstBlkStride == 0 ? 1 : repeatParams.dstBlkStride;
  const uint64_t src_bytes = uint64_t{src.GetSize()} * sizeof(T);
  const uint64_t dst_bytes = uint64_t{dst.GetSize()} * sizeof(T);
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t j = 0; j < 8; ++j) {
      const uint64_t from = offset.Data()[r * 8 + j];
      const uint64_t to = (uint64_t{r} * repeatParams.dstRepStride + uint64_t{j} * blk) * 32;
      if (from % 32 != 0 || from + 32 > src_bytes) {
        Fail("Gatherb: offset %llu bytes is not a whole block of the %llu-byte source",
             static_cast<unsigned long long>(from), static_cast<unsigned long long>(src_bytes));
      }
      if (to + 32 > dst_bytes) {
        Fail("Gatherb: repeat %u block %u is beyond the %llu-byte destination", r, j,
             static_cast<unsigned long long>(dst_bytes));
      }
      std::memcpy(reinterpret_cast<uint8_t*>(dst.Data()) + to,
                  reinterpret_cast<const uint8_t*>(src.Data()) + from, 32);
    }
  }
}

struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                   const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 0;
  uint8_t src1RepeatStride = 0;
};
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
inline constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

}  // namespace AscendC

namespace npud::ascendc {

// GatherMask over `pattern_bit(r, i)`, element i of repeat r.
template <class T, class PatternBit>
void GatherMaskImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                    bool reduce_mode, uint32_t mask, const AscendC::GatherMaskParams& p,
                    uint64_t& kept, PatternBit pattern_bit) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask takes 2- or 4-byte elements");
  constexpr uint32_t kLanes = LanesFor(sizeof(T));
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  const Strided<T> s("GatherMask", "source", src0, p.src0BlockStride, p.src0RepeatStride);
  const uint32_t per_repeat = reduce_mode ? mask : kLanes;
  uint64_t n = 0;
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    for (uint32_t i = 0; i < per_repeat; ++i) {
      if (!pattern_bit(r, i)) continue;
      T value;
      if (reduce_mode) {  // the first `mask` elements from the repeat's start, contiguous
        const uint64_t at = uint64_t{r} * p.src0RepeatStride * kPerBlock + i;
        if (at >= src0.GetSize()) {
          Fail("GatherMask: repeat %u element %u is beyond the source's %u elements", r, i,
               src0.GetSize());
        }
        value = src0.Data()[at];
      } else {
        value = s.At(r, i);
      }
      if (n >= dst.GetSize()) {
        Fail("GatherMask: more than the destination's %u elements are kept", dst.GetSize());
      }
      dst.Data()[n++] = value;
    }
  }
  kept = n;
  tls_block.mask_counter = false;
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, class U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  static_assert(sizeof(U) == sizeof(T), "GatherMask: the pattern's element size is the data's");
  const uint8_t* bits = reinterpret_cast<const uint8_t*>(src1Pattern.Data());
  const uint64_t bytes = uint64_t{src1Pattern.GetSize()} * sizeof(U);
  ::npud::ascendc::GatherMaskImpl(
      dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt, [&](uint32_t r, uint32_t i) {
        const uint64_t byte = uint64_t{r} * gatherMaskParams.src1RepeatStride * 32 + i / 8;
        if (byte >= bytes) {
          ::npud::ascendc::Fail("GatherMask: pattern bit %u of repeat %u is beyond its %llu bytes",
                                i, r, static_cast<unsigned long long>(bytes));
        }
        return ((bits[byte] >> (i % 8)) & 1) != 0;
      });
}
template <class T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  if (src1Pattern < 1 || src1Pattern > 7) {
    ::npud::ascendc::Fail("GatherMask: built-in pattern %u is not 1..7", src1Pattern);
  }
  ::npud::ascendc::GatherMaskImpl(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                                  [src1Pattern](uint32_t, uint32_t i) {
                                    switch (src1Pattern) {
                                      case 1:
                                        return i % 2 == 0;
                                      case 2:
                                        return i % 2 == 1;
                                      case 7:
                                        return true;
                                      default:
                                        return i % 4 == static_cast<uint32_t>(src1Pattern - 3);
                                    }
                                  });
}

template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(sizeof(T) == 2, "Transpose: the 16 x 16 transpose takes 2-byte elements");
  constexpr uint32_t kSide = 16;
  ::npud::ascendc::CheckOperand("Transpose", dst, kSide * kSide, "destination");
  ::npud::ascendc::CheckOperand("Transpose", src, kSide * kSide, "source");
  // Through a copy: dst may be src.
  T in[kSide * kSide];
  std::memcpy(in, src.Data(), sizeof(in));
  T* out = dst.Data();
  for (uint32_t r = 0; r < kSide; ++r) {
    for (uint32_t c = 0; c < kSide; ++c) out[c * kSide + r] = in[r * kSide + c];
  }
}

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW
};

struct TransposeParamsExt {
  TransposeParamsExt() {}
  TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                     const uint16_t wSizeIn, const TransposeType transposeTypeIn)
      : nSize(nSizeIn),
        cSize(cSizeIn),
        hSize(hSizeIn),
        wSize(wSizeIn),
        transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

// The enhanced form: ND2ND_B16 (16 x 16), NCHW2NHWC, NHWC2NCHW.
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const TransposeParamsExt& p) {
  using ::npud::ascendc::Fail;
  switch (p.transposeType) {
    case TransposeType::TRANSPOSE_TYPE_NONE:
      return;
    case TransposeType::TRANSPOSE_ND2ND_B16:
      if constexpr (sizeof(T) == 2) {
        return Transpose(dst, src);
      }
      Fail("Transpose: TRANSPOSE_ND2ND_B16 takes 2-byte elements");
    case TransposeType::TRANSPOSE_NCHW2NHWC:
    case TransposeType::TRANSPOSE_NHWC2NCHW:
      break;
    default:
      Fail("Transpose: transpose type %u is not supported (as on the 910B)",
           static_cast<unsigned>(p.transposeType));
  }
  const uint64_t n = p.nSize, c = p.cSize, hw = uint64_t{p.hSize} * p.wSize;
  if (n == 0 || c == 0 || hw == 0) return;
  if (hw * sizeof(T) % 32 != 0) {
    Fail("Transpose: hSize * wSize * %zu bytes (%llu) is not a multiple of 32", sizeof(T),
         static_cast<unsigned long long>(hw * sizeof(T)));
  }
  const uint64_t total = n * c * hw;
  ::npud::ascendc::CheckOperand("Transpose", dst, static_cast<int32_t>(total), "destination");
  ::npud::ascendc::CheckOperand("Transpose", src, static_cast<int32_t>(total), "source");
  const T* in = src.Data();
  T* out = dst.Data();
  if (in < out + total && out < in + total) Fail("Transpose: the destination overlaps the source");
  const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
  for (uint64_t b = 0; b < n; ++b) {
    for (uint64_t ch = 0; ch < c; ++ch) {
      for (uint64_t x = 0; x < hw; ++x) {
        const uint64_t nchw = (b * c + ch) * hw + x, nhwc = (b * hw + x) * c + ch;
        if (to_nhwc) {
          out[nhwc] = in[nchw];
        } else {
          out[nchw] = in[nhwc];
        }
      }
    }
  }
}

inline constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
  TransDataTo5HDParams() {}
  TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                       const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                       const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

// The 32-byte block at host address `addr` (+ `offset` blocks), inside the block's UB.
inline uint8_t* UbBlock(const char* op, uint64_t addr, uint64_t offset_blocks) {
  const NpudBlockContext* ctx = Context();
  const uint64_t at = addr + offset_blocks * 32;
  const uint64_t base = ctx != nullptr ? reinterpret_cast<uint64_t>(ctx->ub_base) : 0;
  if (ctx == nullptr || at < base || at + 32 > base + ctx->ub_size || (at - base) % 32 != 0) {
    Fail("%s: address 0x%llx is not a 32-byte block of the unified buffer", op,
         static_cast<unsigned long long>(at));
  }
  return reinterpret_cast<uint8_t*>(at);
}

// TransDataTo5HD over 16 source and 16 destination block addresses.
template <class T>
void TransDataTo5HDImpl(const uint64_t* dst_list, const uint64_t* src_list,
                        const AscendC::TransDataTo5HDParams& p) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "TransDataTo5HD takes 1-, 2- or 4-byte elements");
  constexpr const char* kOp = "TransDataTo5HD";
  for (uint32_t k = 0; k < p.repeatTimes; ++k) {
    // A single repeat starts one stride further on (the reference's rule).
    const uint64_t step = p.repeatTimes == 1 ? 1 : k;
    T src[16][32 / sizeof(T)];
    for (uint32_t j = 0; j < 16; ++j) {
      std::memcpy(src[j], UbBlock(kOp, src_list[j], step * p.srcRepStride), 32);
    }
    for (uint32_t i = 0; i < 16; ++i) {
      T* d = reinterpret_cast<T*>(UbBlock(kOp, dst_list[i], step * p.dstRepStride));
      if constexpr (sizeof(T) == 2) {
        for (uint32_t j = 0; j < 16; ++j) d[j] = src[j][i];
      } else if constexpr (sizeof(T) == 1) {
        const uint32_t to = p.dstHighHalf ? 16 : 0, from = p.srcHighHalf ? 16 : 0;
        for (uint32_t j = 0; j < 16; ++j) d[to + j] = src[j][from + i];
      } else {
        // Row r of the 16 x 8 matrix of source columns: dst blocks 2r and 2r + 1.
        const uint32_t r = i / 2, half_of = i % 2;
        for (uint32_t e = 0; e < 8; ++e) d[e] = src[half_of * 8 + e][r];
      }
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                    uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams) {
  ::npud::ascendc::TransDataTo5HDImpl<T>(dstList, srcList, nchwconvParams);
}
template <class T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams) {
  uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE], src[NCHW_CONV_ADDR_LIST_SIZE];
  for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
    dst[i] = dstList[i].GetPhyAddr();
    src[i] = srcList[i].GetPhyAddr();
  }
  ::npud::ascendc::TransDataTo5HDImpl<T>(dst, src, nchwconvParams);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_GATHER_TRANSPOSE_H_
