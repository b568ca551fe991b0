// vector_ops.h: element-wise vector instructions, "count" (level 2) forms.
//
//   binary  Add Sub Mul Div Max Min AddRelu SubRelu And Or  (dst, src0, src1, count)
//   scalar  Adds Muls Maxs Mins LeakyRelu Axpy             (dst, src, scalar, count)
//   unary   Abs Exp Ln Sqrt Rsqrt Relu Reciprocal Neg Not  (dst, src, count)
//   fill    Duplicate                                      (dst, scalar, count)
//
// dst[i] = op(src0[i], src1[i]) (or with the scalar) for i < count, computed as
// numeric.h describes (half/bfloat16 in float, rounded back after each instruction;
// integers wrap). Axpy accumulates: dst[i] += src[i] * scalar. The scalar's type is
// the tensors' element type (it is not deduced, so Adds(h, h, 2.0f, n) works for a
// half tensor). dst may be one of the sources. Transcendental ops (Div, Exp, Ln, Sqrt,
// Rsqrt, Reciprocal, LeakyRelu) take floating types only, And/Or/Not integers only.
//
// Checks (trap kind 1): count is not negative and no operand is shorter than count.
// The level-0 forms (mask + repeat parameters) are not provided.
#ifndef NPUD_ASCENDC_VECTOR_OPS_H_
#define NPUD_ASCENDC_VECTOR_OPS_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"

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
    return WrapAdd(a, b);
  else
    return a + b;
}
template <class C>
C Minus(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return WrapSub(a, b);
  else
    return a - b;
}
template <class C>
C Times(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return WrapMul(a, b);
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

}  // namespace npud::ascendc

namespace AscendC {

// ---- binary ------------------------------------------------------------------------

template <class T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  ::npud::ascendc::BinaryOp("Add", dst, src0, src1, count,
                            [](auto a, auto b) { return ::npud::ascendc::Plus(a, b); });
}
template <class T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  ::npud::ascendc::BinaryOp("Sub", dst, src0, src1, count,
                            [](auto a, auto b) { return ::npud::ascendc::Minus(a, b); });
}
template <class T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  ::npud::ascendc::BinaryOp("Mul", dst, src0, src1, count,
                            [](auto a, auto b) { return ::npud::ascendc::Times(a, b); });
}
template <class T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  ::npud::ascendc::RequireFloating<T>();
  ::npud::ascendc::BinaryOp("Div", dst, src0, src1, count, [](auto a, auto b) { return a / b; });
}
template <class T>
void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  ::npud::ascendc::BinaryOp("Max", dst, src0, src1, count,
                            [](auto a, auto b) { return a < b ? b : a; });
}
template <class T>
void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  ::npud::ascendc::BinaryOp("Min", dst, src0, src1, count,
                            [](auto a, auto b) { return b < a ? b : a; });
}
template <class T>
void AddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             const int32_t& count) {
  ::npud::ascendc::BinaryOp("AddRelu", dst, src0, src1, count, [](auto a, auto b) {
    return ::npud::ascendc::ReluOf(::npud::ascendc::Plus(a, b));
  });
}
template <class T>
void SubRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             const int32_t& count) {
  ::npud::ascendc::BinaryOp("SubRelu", dst, src0, src1, count, [](auto a, auto b) {
    return ::npud::ascendc::ReluOf(::npud::ascendc::Minus(a, b));
  });
}
template <class T>
void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  ::npud::ascendc::RequireIntegral<T>();
  ::npud::ascendc::BinaryOp("And", dst, src0, src1, count,
                            [](auto a, auto b) { return static_cast<T>(a & b); });
}
template <class T>
void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
        const int32_t& count) {
  ::npud::ascendc::RequireIntegral<T>();
  ::npud::ascendc::BinaryOp("Or", dst, src0, src1, count,
                            [](auto a, auto b) { return static_cast<T>(a | b); });
}

// ---- with a scalar -----------------------------------------------------------------

template <class T>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename ::npud::ascendc::NoDeduce<T>::type& scalar, const int32_t& count) {
  const auto s = ::npud::ascendc::Widen(scalar);
  ::npud::ascendc::UnaryOp("Adds", dst, src, count,
                           [s](auto a) { return ::npud::ascendc::Plus(a, s); });
}
template <class T>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename ::npud::ascendc::NoDeduce<T>::type& scalar, const int32_t& count) {
  const auto s = ::npud::ascendc::Widen(scalar);
  ::npud::ascendc::UnaryOp("Muls", dst, src, count,
                           [s](auto a) { return ::npud::ascendc::Times(a, s); });
}
template <class T>
void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename ::npud::ascendc::NoDeduce<T>::type& scalar, const int32_t& count) {
  const auto s = ::npud::ascendc::Widen(scalar);
  ::npud::ascendc::UnaryOp("Maxs", dst, src, count, [s](auto a) { return a < s ? s : a; });
}
template <class T>
void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename ::npud::ascendc::NoDeduce<T>::type& scalar, const int32_t& count) {
  const auto s = ::npud::ascendc::Widen(scalar);
  ::npud::ascendc::UnaryOp("Mins", dst, src, count, [s](auto a) { return s < a ? s : a; });
}
// dst[i] = src[i] >= 0 ? src[i] : src[i] * scalar
template <class T>
void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const typename ::npud::ascendc::NoDeduce<T>::type& scalar, const int32_t& count) {
  ::npud::ascendc::RequireFloating<T>();
  const auto s = ::npud::ascendc::Widen(scalar);
  ::npud::ascendc::UnaryOp("LeakyRelu", dst, src, count,
                           [s](auto a) { return a >= 0 ? a : a * s; });
}
// dst[i] = dst[i] + src[i] * scalar (the product rounded first for half)
template <class T>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename ::npud::ascendc::NoDeduce<T>::type& scalar, const int32_t& count) {
  using namespace ::npud::ascendc;
  RequireFloating<T>();
  CheckOperand("Axpy", dst, count, "destination");
  CheckOperand("Axpy", src, count, "source");
  const auto s = Widen(scalar);
  T* d = dst.Data();
  const T* x = src.Data();
  NPUD_ELEMENTWISE
  for (int32_t i = 0; i < count; ++i)
    d[i] = Narrow<T>(Widen(d[i]) + Widen(Narrow<T>(Widen(x[i]) * s)));
}

// ---- unary -------------------------------------------------------------------------

template <class T>
void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::UnaryOp("Abs", dst, src, count, [](auto a) {
    using C = decltype(a);
    return a < C(0) ? ::npud::ascendc::Minus(C(0), a) : a;
  });
}
template <class T>
void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::UnaryOp("Relu", dst, src, count,
                           [](auto a) { return ::npud::ascendc::ReluOf(a); });
}
template <class T>
void Neg(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::UnaryOp("Neg", dst, src, count, [](auto a) {
    using C = decltype(a);
    return ::npud::ascendc::Minus(C(0), a);
  });
}
template <class T>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::RequireFloating<T>();
  ::npud::ascendc::UnaryOp("Exp", dst, src, count, [](auto a) { return std::exp(a); });
}
template <class T>
void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::RequireFloating<T>();
  ::npud::ascendc::UnaryOp("Ln", dst, src, count, [](auto a) { return std::log(a); });
}
template <class T>
void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::RequireFloating<T>();
  ::npud::ascendc::UnaryOp("Sqrt", dst, src, count, [](auto a) { return std::sqrt(a); });
}
template <class T>
void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::RequireFloating<T>();
  ::npud::ascendc::UnaryOp("Rsqrt", dst, src, count, [](auto a) { return 1 / std::sqrt(a); });
}
template <class T>
void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::RequireFloating<T>();
  ::npud::ascendc::UnaryOp("Reciprocal", dst, src, count, [](auto a) { return 1 / a; });
}
template <class T>
void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  ::npud::ascendc::RequireIntegral<T>();
  ::npud::ascendc::UnaryOp("Not", dst, src, count, [](auto a) { return static_cast<T>(~a); });
}

// ---- fill --------------------------------------------------------------------------

template <class T>
void Duplicate(const LocalTensor<T>& dst, const typename ::npud::ascendc::NoDeduce<T>::type& scalar,
               const int32_t& count) {
  ::npud::ascendc::CheckOperand("Duplicate", dst, count, "destination");
  T* d = dst.Data();
  NPUD_ELEMENTWISE
  for (int32_t i = 0; i < count; ++i) d[i] = scalar;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_VECTOR_OPS_H_
