// compound_cast.h: the instructions that compute and convert in one go, and the
// level-0 form of Cast.
//
//   AddReluCast / SubReluCast (dst, src0, src1, ...)   dst = Cast(relu(src0 +/- src1))
//       half -> int8_t, int16_t -> int8_t, float -> half
//   MulCast (dst, src0, src1, ...)                    dst = Cast(src0 * src1)
//       half -> int8_t / uint8_t
//   AddDeqRelu (dst, src0, src1, ...)                 dst = relu(half((src0 + src1) * scale))
//       int32_t -> half, scale from SetDeqScale(half)
//   Cast (dst, src, RoundMode, mask, repeatTime, UnaryRepeatParams)
// Each has the level-2 form (..., count) and the level-0 ones (mask or mask[2],
// repeatTime, repeat parameters), a repeat covering 256 bytes of the wider type.
// The sum or product is computed exactly (in double) and converted once, to nearest
// even, saturating (CAST_NONE's rule); Cast rounds as its mode says (cast.h).
#ifndef NPUD_ASCENDC_COMPOUND_CAST_H_
#define NPUD_ASCENDC_COMPOUND_CAST_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/cast.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/vector_mask.h"
#include "npud_ascendc/vector_ops.h"

namespace npud::ascendc {

template <class D, class S, class F>
void CastBinaryCount(const char* op, const AscendC::LocalTensor<D>& dst,
                     const AscendC::LocalTensor<S>& src0, const AscendC::LocalTensor<S>& src1,
                     int64_t count, F f) {
  const int32_t n = static_cast<int32_t>(count);
  CheckOperand(op, dst, n, "destination");
  CheckOperand(op, src0, n, "first source");
  CheckOperand(op, src1, n, "second source");
  for (int32_t i = 0; i < n; ++i) {
    dst.Data()[i] = ConvertElement<D>(
        f(static_cast<double>(Widen(src0.Data()[i])), static_cast<double>(Widen(src1.Data()[i]))),
        Rounding::kNearestEven);
  }
}

template <class D, class S, class F>
void CastBinaryRepeat(const char* op, const AscendC::LocalTensor<D>& dst,
                      const AscendC::LocalTensor<S>& src0, const AscendC::LocalTensor<S>& src1,
                      const LaneMask& m, uint32_t repeat_times,
                      const AscendC::BinaryRepeatParams& p, F f) {
  const Strided<D> d(op, "destination", dst, p.dstBlkStride, p.dstRepStride);
  const Strided<S> a(op, "first source", src0, p.src0BlkStride, p.src0RepStride);
  const Strided<S> b(op, "second source", src1, p.src1BlkStride, p.src1RepStride);
  RunRepeats(m, repeat_times, LanesFor(sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S)), d,
             [&](uint32_t r, uint32_t k) {
               return ConvertElement<D>(f(static_cast<double>(Widen(a.At(r, k))),
                                          static_cast<double>(Widen(b.At(r, k)))),
                                        Rounding::kNearestEven);
             });
}

inline double ReluOfDouble(double x) { return x > 0 ? x : 0; }

}  // namespace npud::ascendc

#define NPUD_CAST_BINARY(Name, CountType, expression)                                          \
  template <class T, class U>                                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
            CountType count) {                                                                 \
    ::npud::ascendc::CastBinaryCount(#Name, dst, src0, src1,                                   \
                                     ::npud::ascendc::Level2Count<true>(count),                \
                                     [](double a, double b) { return expression; });           \
  }                                                                                            \
  template <class T, class U, bool isSetMask = true>                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
            uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) { \
    ::npud::ascendc::CastBinaryRepeat(                                                         \
        #Name, dst, src0, src1, ::npud::ascendc::MaskOf<isSetMask>(mask), repeatTime,          \
        repeatParams, [](double a, double b) { return expression; });                          \
  }                                                                                            \
  template <class T, class U, bool isSetMask = true>                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
            const uint64_t mask[], const uint8_t repeatTime,                                   \
            const BinaryRepeatParams& repeatParams) {                                          \
    ::npud::ascendc::CastBinaryRepeat(                                                         \
        #Name, dst, src0, src1, ::npud::ascendc::MaskOf<isSetMask>(mask), repeatTime,          \
        repeatParams, [](double a, double b) { return expression; });                          \
  }

namespace AscendC {

NPUD_CAST_BINARY(AddReluCast, const uint32_t, ::npud::ascendc::ReluOfDouble(a + b))
NPUD_CAST_BINARY(SubReluCast, const uint32_t, ::npud::ascendc::ReluOfDouble(a - b))
NPUD_CAST_BINARY(MulCast, uint32_t, a* b)
#undef NPUD_CAST_BINARY

inline void SetDeqScale(half scale) {
  ::npud::ascendc::tls_block.deq_scale = static_cast<float>(scale);
}

// relu(half((src0 + src1) * scale)), the sum exact, the product rounded once.
inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                       const LocalTensor<int32_t>& src1, const int32_t& count) {
  const double scale = ::npud::ascendc::tls_block.deq_scale;
  ::npud::ascendc::CastBinaryCount(
      "AddDeqRelu", dst, src0, src1, ::npud::ascendc::Level2Count<true>(count),
      [scale](double a, double b) { return ::npud::ascendc::ReluOfDouble((a + b) * scale); });
}
template <bool isSetMask = true, class Mask>
void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                const LocalTensor<int32_t>& src1, Mask mask, const uint8_t repeatTime,
                const BinaryRepeatParams& repeatParams) {
  const double scale = ::npud::ascendc::tls_block.deq_scale;
  ::npud::ascendc::CastBinaryRepeat(
      "AddDeqRelu", dst, src0, src1, ::npud::ascendc::MaskOf<isSetMask>(mask), repeatTime,
      repeatParams,
      [scale](double a, double b) { return ::npud::ascendc::ReluOfDouble((a + b) * scale); });
}

// Cast's level-0 forms.
template <class D, class S, bool isSetMask = true, class Mask>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& roundMode,
          Mask mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
  using namespace ::npud::ascendc;
  if constexpr (ElementBits<D> == 4) {
    // To int4b_t: 64 elements to a 32-byte block, each the int8 conversion saturated
    // to [-8, 7], stored in its nibble.
    static_assert(kIsVectorType<S>, "Cast: unsupported source type");
    const Rounding r = RoundingOf(roundMode);
    const Strided<S> s("Cast", "source", src, repeatParams.srcBlkStride, repeatParams.srcRepStride);
    uint8_t* out = reinterpret_cast<uint8_t*>(dst.Data());
    ForEachRepeat(MaskOf<isSetMask>(mask), repeatTime, LanesFor(sizeof(S)),
                  [&](uint32_t rep, const uint64_t active[2]) {
                    ForEachLane(active, [&](uint32_t k) {
                      int v = ConvertElement<int8_t>(static_cast<double>(Widen(s.At(rep, k))), r);
                      v = v < -8 ? -8 : v > 7 ? 7 : v;
                      const uint64_t i = (uint64_t{rep} * repeatParams.dstRepStride +
                                          uint64_t{k / 64} * repeatParams.dstBlkStride) *
                                             64 +
                                         k % 64;
                      if (i >= dst.GetSize()) {
                        Fail(
                            "Cast: repeat %u, lane %u of the destination is element %llu, "
                            "beyond its %u elements",
                            rep, k, static_cast<unsigned long long>(i), dst.GetSize());
                      }
                      uint8_t& byte = out[i / 2];
                      byte = i % 2 != 0 ? static_cast<uint8_t>((byte & 0x0F) | ((v & 0xF) << 4))
                                        : static_cast<uint8_t>((byte & 0xF0) | (v & 0xF));
                    });
                  });
  } else {
    static_assert(kIsVectorType<S> && kIsVectorType<D>, "Cast: unsupported element type");
    const Rounding r = RoundingOf(roundMode);
    const Strided<D> d("Cast", "destination", dst, repeatParams.dstBlkStride,
                       repeatParams.dstRepStride);
    const Strided<S> s("Cast", "source", src, repeatParams.srcBlkStride, repeatParams.srcRepStride);
    RunRepeats(MaskOf<isSetMask>(mask), repeatTime,
               LanesFor(sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S)), d,
               [&](uint32_t rep, uint32_t k) {
                 return ConvertElement<D>(static_cast<double>(Widen(s.At(rep, k))), r);
               });
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_COMPOUND_CAST_H_
