// vector_ops.h: element-wise vector instructions.
//
//   binary  Add Sub Mul Div Max Min AddRelu SubRelu And Or   (dst, src0, src1, ...)
//           FusedMulAdd (dst = src0 * dst + src1), MulAddRelu (relu of that)
//   scalar  Adds Muls Maxs Mins LeakyRelu ShiftLeft ShiftRight (dst, src, scalar, ...)
//   unary   Abs Exp Ln Sqrt Rsqrt Relu Reciprocal Neg Not    (dst, src, ...)
//   fill    Duplicate                                        (dst, scalar, ...)
//   Axpy (dst += src * scalar) and MulAddDst (dst += src0 * src1), also half into float
//
// Each in the level-2 form (..., count): the first count elements; and the level-0
// forms (..., mask or mask[2], repeatTime, BinaryRepeatParams / UnaryRepeatParams,
// or for Duplicate the destination's block and repeat strides) that repeat.h and
// vector_mask.h describe. Values are computed as numeric.h says (half/bfloat16 in
// float, rounded back after each instruction; integers wrap). The scalar's type is the
// tensors' element type (it is not deduced, so Adds(h, h, 2.0f, n) works for a half
// tensor). dst may be one of the sources. Transcendental ops (Div, Exp, Ln, Sqrt,
// Rsqrt, Reciprocal, LeakyRelu) take floating types only, logic and shifts integers.
// ShiftLeft of a signed type keeps the sign bit (upstream's arithmetic left shift);
// ShiftRight of a signed type is arithmetic, with roundEn adding the last bit out.
//
// Checks (trap kind 1): count is not negative and no operand is shorter than count;
// a level-0 instruction touches no element outside its tensors.
#ifndef NPUD_ASCENDC_VECTOR_OPS_H_
#define NPUD_ASCENDC_VECTOR_OPS_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"

// The element loops below carry no dependence from one iteration to the next:
// dst may equal a source (in place), but AscendC does not allow a partial
// overlap. Saying so lets g++ vectorize them at -O2, where it would
// otherwise keep them scalar for fear of aliasing. (clang vectorizes them
// with run-time alias checks, and its assume_safety would insist even where
// it cannot, e.g. for half.)
#if defined(__clang__)
#define NPUD_ELEMENTWISE
#else
#define NPUD_ELEMENTWISE _Pragma("GCC ivdep")
#endif

namespace npud::ascendc {

using AscendC::LocalTensor;

template <class T>
struct NoDeduce {
  using type = T;
};

template <class T>
void CheckOperand(const char* op, const LocalTensor<T>& t, int32_t count, const char* role) {
  if (count < 0) Fail("%s: count %d is negative", op, count);
  if (static_cast<uint32_t>(count) > t.GetSize()) {
    Fail("%s: count %d exceeds the %u elements of the %s tensor", op, count, t.GetSize(), role);
  }
}

// dst[i] = f(src0[i], src1[i]) in the compute type.
template <class T, class F>
void BinaryOp(const char* op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
              const LocalTensor<T>& src1, int32_t count, F f) {
  static_assert(kIsVectorType<T>, "unsupported vector element type");
  CheckOperand(op, dst, count, "destination");
  CheckOperand(op, src0, count, "first source");
  CheckOperand(op, src1, count, "second source");
  T* d = dst.Data();
  const T* a = src0.Data();
  const T* b = src1.Data();
  NPUD_ELEMENTWISE
  for (int32_t i = 0; i < count; ++i) d[i] = Narrow<T>(f(Widen(a[i]), Widen(b[i])));
}

// dst[i] = f(src[i]) in the compute type.
template <class T, class F>
void UnaryOp(const char* op, const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count,
             F f) {
  static_assert(kIsVectorType<T>, "unsupported vector element type");
  CheckOperand(op, dst, count, "destination");
  CheckOperand(op, src, count, "source");
  T* d = dst.Data();
  const T* s = src.Data();
  NPUD_ELEMENTWISE
  for (int32_t i = 0; i < count; ++i) d[i] = Narrow<T>(f(Widen(s[i])));
}

template <class C>
C Plus(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return IntSaturation() ? SatAdd(a, b) : WrapAdd(a, b);
  else
    return a + b;
}
template <class C>
C Minus(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return IntSaturation() ? SatSub(a, b) : WrapSub(a, b);
  else
    return a - b;
}
template <class C>
C Times(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return IntSaturation() ? SatMul(a, b) : WrapMul(a, b);
  else
    return a * b;
}
template <class C>
C ReluOf(C a) {
  return a > C(0) ? a : C(0);
}

template <class T>
constexpr void RequireFloating() {
  static_assert(kIsFloating<T>, "this vector instruction takes half, bfloat16_t or float tensors");
}
template <class T>
constexpr void RequireIntegral() {
  static_assert(std::is_integral_v<T>, "this vector instruction takes integer tensors");
}

template <class T>
constexpr void RequireVector() {
  static_assert(kIsVectorType<T>, "unsupported vector element type");
}

// The level-0 loops of the three shapes.
template <class T, class F>
void BinaryRepeat(const char* op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                  const LocalTensor<T>& src1, const LaneMask& m, uint32_t repeat_times,
                  const AscendC::BinaryRepeatParams& p, F f) {
  const Strided<T> d(op, "destination", dst, p.dstBlkStride, p.dstRepStride);
  const Strided<T> a(op, "first source", src0, p.src0BlkStride, p.src0RepStride);
  const Strided<T> b(op, "second source", src1, p.src1BlkStride, p.src1RepStride);
  RunRepeats(m, repeat_times, LanesFor(sizeof(T)), d, [&](uint32_t r, uint32_t k) {
    return Narrow<T>(f(Widen(a.At(r, k)), Widen(b.At(r, k))));
  });
}
template <class T, class F>
void UnaryRepeat(const char* op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const LaneMask& m, uint32_t repeat_times, const AscendC::UnaryRepeatParams& p,
                 F f) {
  const Strided<T> d(op, "destination", dst, p.dstBlkStride, p.dstRepStride);
  const Strided<T> s(op, "source", src, p.srcBlkStride, p.srcRepStride);
  RunRepeats(m, repeat_times, LanesFor(sizeof(T)), d,
             [&](uint32_t r, uint32_t k) { return Narrow<T>(f(Widen(s.At(r, k)))); });
}
// dst = f(src0, src1, dst): instructions that read their destination.
template <class D, class S, class F>
void DstBinaryRepeat(const char* op, const LocalTensor<D>& dst, const LocalTensor<S>& src0,
                     const LocalTensor<S>& src1, const LaneMask& m, uint32_t repeat_times,
                     const AscendC::BinaryRepeatParams& p, F f) {
  const Strided<D> d(op, "destination", dst, p.dstBlkStride, p.dstRepStride);
  const Strided<S> a(op, "first source", src0, p.src0BlkStride, p.src0RepStride);
  const Strided<S> b(op, "second source", src1, p.src1BlkStride, p.src1RepStride);
  RunRepeats(m, repeat_times, LanesFor(sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S)), d,
             [&](uint32_t r, uint32_t k) {
               return Narrow<D>(f(Widen(a.At(r, k)), Widen(b.At(r, k)), Widen(d.At(r, k))));
             });
}
template <class D, class S, class F>
void DstBinaryOp(const char* op, const LocalTensor<D>& dst, const LocalTensor<S>& src0,
                 const LocalTensor<S>& src1, int32_t count, F f) {
  CheckOperand(op, dst, count, "destination");
  CheckOperand(op, src0, count, "first source");
  CheckOperand(op, src1, count, "second source");
  D* d = dst.Data();
  const S* a = src0.Data();
  const S* b = src1.Data();
  for (int32_t i = 0; i < count; ++i) d[i] = Narrow<D>(f(Widen(a[i]), Widen(b[i]), Widen(d[i])));
}

// The operations, on compute-type values.
struct AddFn {
  template <class C>
  C operator()(C a, C b) const {
    return Plus(a, b);
  }
};
struct SubFn {
  template <class C>
  C operator()(C a, C b) const {
    return Minus(a, b);
  }
};
struct MulFn {
  template <class C>
  C operator()(C a, C b) const {
    return Times(a, b);
  }
};
struct DivFn {
  template <class C>
  C operator()(C a, C b) const {
    return a / b;
  }
};
struct MaxFn {
  template <class C>
  C operator()(C a, C b) const {
    return a < b ? b : a;
  }
};
struct MinFn {
  template <class C>
  C operator()(C a, C b) const {
    return b < a ? b : a;
  }
};
struct AddReluFn {
  template <class C>
  C operator()(C a, C b) const {
    return ReluOf(Plus(a, b));
  }
};
struct SubReluFn {
  template <class C>
  C operator()(C a, C b) const {
    return ReluOf(Minus(a, b));
  }
};
struct AndFn {
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a & b);
  }
};
struct OrFn {
  template <class C>
  C operator()(C a, C b) const {
    return static_cast<C>(a | b);
  }
};
struct AbsFn {
  template <class C>
  C operator()(C a) const {
    return a < C(0) ? Minus(C(0), a) : a;
  }
};
struct ReluFn {
  template <class C>
  C operator()(C a) const {
    return ReluOf(a);
  }
};
struct NegFn {
  template <class C>
  C operator()(C a) const {
    return Minus(C(0), a);
  }
};
struct ExpFn {
  template <class C>
  C operator()(C a) const {
    return std::exp(a);
  }
};
struct LnFn {
  template <class C>
  C operator()(C a) const {
    return std::log(a);
  }
};
struct SqrtFn {
  template <class C>
  C operator()(C a) const {
    return std::sqrt(a);
  }
};
struct RsqrtFn {
  template <class C>
  C operator()(C a) const {
    return 1 / std::sqrt(a);
  }
};
struct ReciprocalFn {
  template <class C>
  C operator()(C a) const {
    return 1 / a;
  }
};
struct NotFn {
  template <class C>
  C operator()(C a) const {
    return static_cast<C>(~a);
  }
};
// With the scalar s (already in the compute type).
template <class C>
struct AddsFn {
  C s;
  C operator()(C a) const { return Plus(a, s); }
};
template <class C>
struct MulsFn {
  C s;
  C operator()(C a) const { return Times(a, s); }
};
template <class C>
struct MaxsFn {
  C s;
  C operator()(C a) const { return a < s ? s : a; }
};
template <class C>
struct MinsFn {
  C s;
  C operator()(C a) const { return s < a ? s : a; }
};
template <class C>
struct LeakyReluFn {
  C s;
  C operator()(C a) const { return a >= 0 ? a : a * s; }
};
// Upstream's left shift: an unsigned value shifts logically, a signed one keeps its
// sign bit.
template <class C>
struct ShiftLeftFn {
  C s;
  C operator()(C a) const {
    using U = std::make_unsigned_t<C>;
    const uint32_t n = static_cast<uint32_t>(s);
    const U shifted = n >= sizeof(C) * 8 ? U(0) : static_cast<U>(static_cast<U>(a) << n);
    if constexpr (std::is_signed_v<C>) {
      const U sign = static_cast<U>(U(1) << (sizeof(C) * 8 - 1));
      return static_cast<C>((static_cast<U>(a) & sign) | (shifted & static_cast<U>(~sign)));
    }
    return static_cast<C>(shifted);
  }
};
// Arithmetic for signed types; round adds the last bit shifted out.
template <class C>
struct ShiftRightFn {
  C s;
  bool round = false;
  C operator()(C a) const {
    const uint32_t n = static_cast<uint32_t>(s);
    const uint32_t width = sizeof(C) * 8;
    C out;
    if (n >= width) {
      out = std::is_signed_v<C> && a < 0 ? C(-1) : C(0);
    } else {
      out = static_cast<C>(a >> n);
    }
    if (round && n > 0 && n <= width) out = WrapAdd(out, static_cast<C>((a >> (n - 1)) & 1));
    return out;
  }
};

}  // namespace npud::ascendc

// The three forms of one instruction. `check` is a constexpr requirement on T.
#define NPUD_VECTOR_BINARY(Name, fn, check)                                                    \
  template <class T>                                                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            const int32_t& count) {                                                            \
    ::npud::ascendc::check<T>();                                                               \
    ::npud::ascendc::BinaryOp(#Name, dst, src0, src1,                                          \
                              static_cast<int32_t>(::npud::ascendc::Level2Count<true>(count)), \
                              ::npud::ascendc::fn{});                                          \
  }                                                                                            \
  template <class T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) { \
    ::npud::ascendc::check<T>();                                                               \
    ::npud::ascendc::BinaryRepeat(#Name, dst, src0, src1,                                      \
                                  ::npud::ascendc::MaskOfLength<isSetMask>(mask), repeatTime,  \
                                  repeatParams, ::npud::ascendc::fn{});                        \
  }                                                                                            \
  template <class T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            const uint64_t mask[], const uint8_t repeatTime,                                   \
            const BinaryRepeatParams& repeatParams) {                                          \
    ::npud::ascendc::check<T>();                                                               \
    ::npud::ascendc::BinaryRepeat(#Name, dst, src0, src1,                                      \
                                  ::npud::ascendc::MaskOfBits<isSetMask>(mask), repeatTime,    \
                                  repeatParams, ::npud::ascendc::fn{});                        \
  }

#define NPUD_VECTOR_UNARY(Name, fn, check)                                                        \
  template <class T>                                                                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {         \
    ::npud::ascendc::check<T>();                                                                  \
    ::npud::ascendc::UnaryOp(#Name, dst, src,                                                     \
                             static_cast<int32_t>(::npud::ascendc::Level2Count<true>(count)),     \
                             ::npud::ascendc::fn{});                                              \
  }                                                                                               \
  template <class T, bool isSetMask = true>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,                  \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                    \
    ::npud::ascendc::check<T>();                                                                  \
    ::npud::ascendc::UnaryRepeat(#Name, dst, src, ::npud::ascendc::MaskOfLength<isSetMask>(mask), \
                                 repeatTime, repeatParams, ::npud::ascendc::fn{});                \
  }                                                                                               \
  template <class T, bool isSetMask = true>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],          \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                    \
    ::npud::ascendc::check<T>();                                                                  \
    ::npud::ascendc::UnaryRepeat(#Name, dst, src, ::npud::ascendc::MaskOfBits<isSetMask>(mask),   \
                                 repeatTime, repeatParams, ::npud::ascendc::fn{});                \
  }

// `fn` is a template over the compute type, built from the widened scalar.
#define NPUD_VECTOR_SCALAR(Name, fn, check)                                                        \
  template <class T, bool isSetMask = true>                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                  \
            const typename ::npud::ascendc::NoDeduce<T>::type& scalarValue,                        \
            const int32_t& count) {                                                                \
    ::npud::ascendc::check<T>();                                                                   \
    using C = ::npud::ascendc::ComputeOf<T>;                                                       \
    ::npud::ascendc::UnaryOp(#Name, dst, src,                                                      \
                             static_cast<int32_t>(::npud::ascendc::Level2Count<isSetMask>(count)), \
                             ::npud::ascendc::fn<C>{::npud::ascendc::Widen(scalarValue)});         \
  }                                                                                                \
  template <class T, bool isSetMask = true>                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                  \
            const typename ::npud::ascendc::NoDeduce<T>::type& scalarValue, uint64_t mask,         \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                     \
    ::npud::ascendc::check<T>();                                                                   \
    using C = ::npud::ascendc::ComputeOf<T>;                                                       \
    ::npud::ascendc::UnaryRepeat(#Name, dst, src, ::npud::ascendc::MaskOfLength<isSetMask>(mask),  \
                                 repeatTime, repeatParams,                                         \
                                 ::npud::ascendc::fn<C>{::npud::ascendc::Widen(scalarValue)});     \
  }                                                                                                \
  template <class T, bool isSetMask = true>                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                  \
            const typename ::npud::ascendc::NoDeduce<T>::type& scalarValue, const uint64_t mask[], \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                     \
    ::npud::ascendc::check<T>();                                                                   \
    using C = ::npud::ascendc::ComputeOf<T>;                                                       \
    ::npud::ascendc::UnaryRepeat(#Name, dst, src, ::npud::ascendc::MaskOfBits<isSetMask>(mask),    \
                                 repeatTime, repeatParams,                                         \
                                 ::npud::ascendc::fn<C>{::npud::ascendc::Widen(scalarValue)});     \
  }

namespace AscendC {

NPUD_VECTOR_BINARY(Add, AddFn, RequireVector)
NPUD_VECTOR_BINARY(Sub, SubFn, RequireVector)
NPUD_VECTOR_BINARY(Mul, MulFn, RequireVector)
NPUD_VECTOR_BINARY(Div, DivFn, RequireFloating)
NPUD_VECTOR_BINARY(Max, MaxFn, RequireVector)
NPUD_VECTOR_BINARY(Min, MinFn, RequireVector)
NPUD_VECTOR_BINARY(AddRelu, AddReluFn, RequireVector)
NPUD_VECTOR_BINARY(SubRelu, SubReluFn, RequireVector)
NPUD_VECTOR_BINARY(And, AndFn, RequireIntegral)
NPUD_VECTOR_BINARY(Or, OrFn, RequireIntegral)

NPUD_VECTOR_UNARY(Abs, AbsFn, RequireVector)
NPUD_VECTOR_UNARY(Relu, ReluFn, RequireVector)
NPUD_VECTOR_UNARY(Neg, NegFn, RequireVector)
NPUD_VECTOR_UNARY(Exp, ExpFn, RequireFloating)
NPUD_VECTOR_UNARY(Ln, LnFn, RequireFloating)
NPUD_VECTOR_UNARY(Sqrt, SqrtFn, RequireFloating)
NPUD_VECTOR_UNARY(Rsqrt, RsqrtFn, RequireFloating)
NPUD_VECTOR_UNARY(Reciprocal, ReciprocalFn, RequireFloating)
NPUD_VECTOR_UNARY(Not, NotFn, RequireIntegral)

NPUD_VECTOR_SCALAR(Adds, AddsFn, RequireVector)
NPUD_VECTOR_SCALAR(Muls, MulsFn, RequireVector)
NPUD_VECTOR_SCALAR(Maxs, MaxsFn, RequireVector)
NPUD_VECTOR_SCALAR(Mins, MinsFn, RequireVector)
NPUD_VECTOR_SCALAR(LeakyRelu, LeakyReluFn, RequireFloating)
NPUD_VECTOR_SCALAR(ShiftLeft, ShiftLeftFn, RequireIntegral)

#undef NPUD_VECTOR_BINARY
#undef NPUD_VECTOR_UNARY
#undef NPUD_VECTOR_SCALAR

// ShiftRight: the scalar shape, and roundEn on the level-0 forms.
template <class T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const typename ::npud::ascendc::NoDeduce<T>::type& scalarValue,
                const int32_t& count) {
  using namespace ::npud::ascendc;
  RequireIntegral<T>();
  UnaryOp("ShiftRight", dst, src, static_cast<int32_t>(Level2Count<isSetMask>(count)),
          ShiftRightFn<T>{scalarValue});
}
template <class T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const typename ::npud::ascendc::NoDeduce<T>::type& scalarValue, uint64_t mask,
                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                bool roundEn = false) {
  using namespace ::npud::ascendc;
  RequireIntegral<T>();
  UnaryRepeat("ShiftRight", dst, src, MaskOfLength<isSetMask>(mask), repeatTime, repeatParams,
              ShiftRightFn<T>{scalarValue, roundEn});
}
template <class T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const typename ::npud::ascendc::NoDeduce<T>::type& scalarValue,
                const uint64_t mask[], const uint8_t repeatTime,
                const UnaryRepeatParams& repeatParams, bool roundEn = false) {
  using namespace ::npud::ascendc;
  RequireIntegral<T>();
  UnaryRepeat("ShiftRight", dst, src, MaskOfBits<isSetMask>(mask), repeatTime, repeatParams,
              ShiftRightFn<T>{scalarValue, roundEn});
}

// ---- reading the destination ---------------------------------------------------------

// dst = src0 * dst + src1, and its relu.
template <class T>
void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 const int32_t& count) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  DstBinaryOp("FusedMulAdd", dst, src0, src1, static_cast<int32_t>(Level2Count<true>(count)),
              [](auto a, auto b, auto d) { return a * d + b; });
}
template <class T>
void MulAddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const int32_t& count) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  DstBinaryOp("MulAddRelu", dst, src0, src1, static_cast<int32_t>(Level2Count<true>(count)),
              [](auto a, auto b, auto d) { return ReluOf(a * d + b); });
}
// dst = src0 * src1 + dst; T may be float with U half.
template <class T, class U>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               const int32_t& count) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  DstBinaryOp("MulAddDst", dst, src0, src1, static_cast<int32_t>(Level2Count<true>(count)),
              [](auto a, auto b, auto d) { return a * b + d; });
}

#define NPUD_VECTOR_DST_BINARY(Name, expr)                                                       \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {   \
    ::npud::ascendc::RequireFloating<T>();                                                       \
    ::npud::ascendc::DstBinaryRepeat(#Name, dst, src0, src1,                                     \
                                     ::npud::ascendc::MaskOfLength<isSetMask>(mask), repeatTime, \
                                     repeatParams, expr);                                        \
  }                                                                                              \
  template <class T, bool isSetMask = true>                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            const uint64_t mask[], const uint8_t repeatTime,                                     \
            const BinaryRepeatParams& repeatParams) {                                            \
    ::npud::ascendc::RequireFloating<T>();                                                       \
    ::npud::ascendc::DstBinaryRepeat(#Name, dst, src0, src1,                                     \
                                     ::npud::ascendc::MaskOfBits<isSetMask>(mask), repeatTime,   \
                                     repeatParams, expr);                                        \
  }
NPUD_VECTOR_DST_BINARY(FusedMulAdd, [](auto a, auto b, auto d) { return a * d + b; })
NPUD_VECTOR_DST_BINARY(MulAddRelu,
                       [](auto a, auto b, auto d) { return ::npud::ascendc::ReluOf(a * d + b); })
#undef NPUD_VECTOR_DST_BINARY

template <class T, class U, bool isSetMask = true>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  DstBinaryRepeat("MulAddDst", dst, src0, src1, MaskOfLength<isSetMask>(mask), repeatTime,
                  repeatParams, [](auto a, auto b, auto d) { return a * b + d; });
}
template <class T, class U, bool isSetMask = true>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               const uint64_t mask[], const uint8_t repeatTime,
               const BinaryRepeatParams& repeatParams) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  DstBinaryRepeat("MulAddDst", dst, src0, src1, MaskOfBits<isSetMask>(mask), repeatTime,
                  repeatParams, [](auto a, auto b, auto d) { return a * b + d; });
}

// dst = dst + src * scalar, the product rounded to U first (for half); T may be float
// with U half.
template <class T, class U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const typename ::npud::ascendc::NoDeduce<U>::type& scalar, const int32_t& count) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  RequireFloating<U>();
  const int32_t n = static_cast<int32_t>(Level2Count<true>(count));
  CheckOperand("Axpy", dst, n, "destination");
  CheckOperand("Axpy", src, n, "source");
  const auto s = Widen(scalar);
  T* d = dst.Data();
  const U* x = src.Data();
  NPUD_ELEMENTWISE
  for (int32_t i = 0; i < n; ++i) d[i] = Narrow<T>(Widen(d[i]) + Widen(Narrow<U>(Widen(x[i]) * s)));
}
template <class T, class U, bool isSetMask = true, class Mask>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
          const typename ::npud::ascendc::NoDeduce<U>::type& scalar, Mask mask,
          const uint8_t repeatTime, const UnaryRepeatParams& p) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  RequireFloating<U>();
  const LaneMask m = MaskOf<isSetMask>(mask);
  const auto s = Widen(scalar);
  const Strided<T> d("Axpy", "destination", dst, p.dstBlkStride, p.dstRepStride);
  const Strided<U> x("Axpy", "source", src, p.srcBlkStride, p.srcRepStride);
  RunRepeats(m, repeatTime, LanesFor(sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)), d,
             [&](uint32_t r, uint32_t k) {
               return Narrow<T>(Widen(d.At(r, k)) + Widen(Narrow<U>(Widen(x.At(r, k)) * s)));
             });
}

// ---- fill --------------------------------------------------------------------------

template <class T>
void Duplicate(const LocalTensor<T>& dst, const typename ::npud::ascendc::NoDeduce<T>::type& scalar,
               const int32_t& count) {
  const int32_t n = static_cast<int32_t>(::npud::ascendc::Level2Count<true>(count));
  ::npud::ascendc::CheckOperand("Duplicate", dst, n, "destination");
  T* d = dst.Data();
  NPUD_ELEMENTWISE
  for (int32_t i = 0; i < n; ++i) d[i] = scalar;
}
template <class T, bool isSetMask = true, class Mask>
void Duplicate(const LocalTensor<T>& dst, const typename ::npud::ascendc::NoDeduce<T>::type& scalar,
               Mask mask, const uint8_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  using namespace ::npud::ascendc;
  const LaneMask m = MaskOf<isSetMask>(mask);
  const Strided<T> d("Duplicate", "destination", dst, dstBlockStride, dstRepeatStride);
  RunRepeats(m, repeatTime, LanesFor(sizeof(T)), d, [&](uint32_t, uint32_t) { return scalar; });
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_VECTOR_OPS_H_
