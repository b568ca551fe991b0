// tensor_expr.h: the operator forms of the whole-tensor binary operations,
//
//   dst = src0 + src1;    (also -, *, /, &, |)
//
// as upstream spells Add(dst, src0, src1, count) with count the whole of dst. The
// operator gives an expression; assigning it to a LocalTensor runs the operation.
#ifndef NPUD_ASCENDC_TENSOR_EXPR_H_
#define NPUD_ASCENDC_TENSOR_EXPR_H_

#include <cstdint>

#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

namespace AscendC {

enum class TensorExprOp { kAdd, kSub, kMul, kDiv, kAnd, kOr };

template <class T, TensorExprOp kOp>
struct TensorBinaryExpr {
  LocalTensor<T> src0, src1;

  void EvalInto(const LocalTensor<T>& dst) const {
    // Whole tensors: as many elements as dst has (the sources must hold them).
    if (src0.GetSize() < dst.GetSize() || src1.GetSize() < dst.GetSize()) {
      ::npud::ascendc::Fail(
          "LocalTensor operator: the sources have %u and %u elements, the destination %u",
          src0.GetSize(), src1.GetSize(), dst.GetSize());
    }
    const int32_t count = static_cast<int32_t>(dst.GetSize());
    if constexpr (kOp == TensorExprOp::kAdd) Add(dst, src0, src1, count);
    if constexpr (kOp == TensorExprOp::kSub) Sub(dst, src0, src1, count);
    if constexpr (kOp == TensorExprOp::kMul) Mul(dst, src0, src1, count);
    if constexpr (kOp == TensorExprOp::kDiv) Div(dst, src0, src1, count);
    if constexpr (kOp == TensorExprOp::kAnd) And(dst, src0, src1, count);
    if constexpr (kOp == TensorExprOp::kOr) Or(dst, src0, src1, count);
  }
};

#define NPUD_TENSOR_OPERATOR(symbol, op)                                           \
  template <class T>                                                               \
  TensorBinaryExpr<T, TensorExprOp::op> operator symbol(const LocalTensor<T>& a,   \
                                                        const LocalTensor<T>& b) { \
    return TensorBinaryExpr<T, TensorExprOp::op>{a, b};                            \
  }
NPUD_TENSOR_OPERATOR(+, kAdd)
NPUD_TENSOR_OPERATOR(-, kSub)
NPUD_TENSOR_OPERATOR(*, kMul)
NPUD_TENSOR_OPERATOR(/, kDiv)
NPUD_TENSOR_OPERATOR(&, kAnd)
NPUD_TENSOR_OPERATOR(|, kOr)
#undef NPUD_TENSOR_OPERATOR

}  // namespace AscendC

#endif  // NPUD_ASCENDC_TENSOR_EXPR_H_
