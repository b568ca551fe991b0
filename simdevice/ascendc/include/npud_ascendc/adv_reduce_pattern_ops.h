// adv_reduce_pattern_ops.h: the advanced ReduceMean, ReduceAny, ReduceAll and
// ReduceProd, two-dimensional reductions with a pattern as ReduceSum's (adv_reduce.h).
//
//   ReduceMean<T, Pattern::Reduce::AR | RA, isReuseSource>(dst, src[, sharedTmpBuffer],
//                                                          srcShape, srcInnerPad)
//       AR: srcShape {a, r}, dst[i] = mean_k src[i][k]   (one value per row)
//       RA: srcShape {r, a}, dst[j] = mean_i src[i][j]   (one value per column)
//   ReduceAny, ReduceAll (logical or / and of 0s and 1s), ReduceProd alike.
//
// Numerics (the reference's A2 implementation): ReduceMean sums as ReduceSum does and
// multiplies the sum by the float reciprocal 1.0f / r (not a division, so a mean of
// three equal values need not be that value). ReduceProd multiplies in float, each
// product rounded, in order of the reduced axis. ReduceAny/All take the maximum /
// minimum, which is or / and for the 0s and 1s they are defined on (uint8_t or float).
// T is float for ReduceMean and ReduceProd. The inner axis is padded to 32 bytes
// (srcInnerPad must be true on the Atlas A2); the padding is not read.
// Checks (trap kind 1): srcInnerPad is true, the shape fits src and dst.
#ifndef NPUD_ASCENDC_ADV_REDUCE_PATTERN_OPS_H_
#define NPUD_ASCENDC_ADV_REDUCE_PATTERN_OPS_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/pattern_axes.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

enum class PatternReduceOp { kMean, kAny, kAll, kProd };

template <PatternReduceOp op, class T, class P>
void PatternReduce(const char* name, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src, const uint32_t src_shape[], bool inner_pad) {
  if constexpr (op == PatternReduceOp::kAny || op == PatternReduceOp::kAll) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, uint8_t>,
                  "ReduceAny and ReduceAll take uint8_t or float tensors");
  } else {
    static_assert(std::is_same_v<T, float>, "ReduceMean and ReduceProd take float tensors");
  }
  const PatternAxes axes = CheckPatternAxes<P>(name, dst, src, src_shape, inner_pad);
  for (uint32_t i = 0; i < axes.kept; ++i) {
    double sum = 0;  // ReduceMean: summed as adv_reduce.h's ReduceSum, rounded once
    T acc{};
    for (uint32_t k = 0; k < axes.reduced; ++k) {
      const T v = src.Data()[axes.Index(i, k)];
      if constexpr (op == PatternReduceOp::kMean) {
        sum += static_cast<double>(v);
      } else if (k == 0) {
        acc = v;
      } else if constexpr (op == PatternReduceOp::kProd) {
        acc = acc * v;
      } else if constexpr (op == PatternReduceOp::kAny) {
        acc = v > acc ? v : acc;
      } else {
        acc = v < acc ? v : acc;
      }
    }
    if constexpr (op == PatternReduceOp::kMean) {
      const float reciprocal = 1.0f / static_cast<float>(static_cast<int32_t>(axes.reduced));
      acc = static_cast<float>(sum) * reciprocal;
    }
    dst.Data()[i] = acc;
  }
}

}  // namespace npud::ascendc

namespace AscendC {

#define NPUD_PATTERN_REDUCE(Name, op)                                                   \
  template <class T, class pattern, bool isReuseSource = false>                         \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,           \
            const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t srcShape[], \
            bool srcInnerPad) {                                                         \
    ::npud::ascendc::PatternReduce<::npud::ascendc::PatternReduceOp::op, T, pattern>(   \
        #Name, dstTensor, srcTensor, srcShape, srcInnerPad);                            \
  }                                                                                     \
  template <class T, class pattern, bool isReuseSource = false>                         \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,           \
            const uint32_t srcShape[], bool srcInnerPad) {                              \
    ::npud::ascendc::PatternReduce<::npud::ascendc::PatternReduceOp::op, T, pattern>(   \
        #Name, dstTensor, srcTensor, srcShape, srcInnerPad);                            \
  }
NPUD_PATTERN_REDUCE(ReduceMean, kMean)
NPUD_PATTERN_REDUCE(ReduceAny, kAny)
NPUD_PATTERN_REDUCE(ReduceAll, kAll)
NPUD_PATTERN_REDUCE(ReduceProd, kProd)
#undef NPUD_PATTERN_REDUCE

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_REDUCE_PATTERN_OPS_H_
