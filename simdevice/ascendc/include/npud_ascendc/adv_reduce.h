// adv_reduce.h: the advanced two-dimensional reductions ReduceMax, ReduceMin and
// ReduceSum with a pattern (the level-2 forms with a count are in reduce.h).
//
//   ReduceMax<T, Pattern::Reduce::AR | RA, isReuseSource>(dst, src[, sharedTmpBuffer],
//                                                         srcShape, srcInnerPad)
//       AR: srcShape {a, r}, dst[i] = max_k src[i][k]   (one value per row)
//       RA: srcShape {r, a}, dst[j] = max_i src[i][j]   (one value per column)
//   ReduceMin, ReduceSum alike.
// The inner axis is stored padded to 32 bytes (srcInnerPad must be true on the Atlas
// A2, as upstream documents); the padding is not reduced. Sums are taken in double and
// rounded once to T. isReuseSource and sharedTmpBuffer change nothing.
// Checks (trap kind 1): srcInnerPad is true, the shape fits src and dst.
#ifndef NPUD_ASCENDC_ADV_REDUCE_H_
#define NPUD_ASCENDC_ADV_REDUCE_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "npud_ascendc/pattern_axes.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

enum class AdvReduceOp { kMax, kMin, kSum };

template <AdvReduceOp op, class T, class P>
void AdvReduce(const char* name, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, const uint32_t src_shape[], bool inner_pad) {
  const PatternAxes axes = CheckPatternAxes<P>(name, dst, src, src_shape, inner_pad);
  for (uint32_t i = 0; i < axes.kept; ++i) {
    double acc = 0;
    for (uint32_t k = 0; k < axes.reduced; ++k) {
      const double v = static_cast<double>(static_cast<float>(src.Data()[axes.Index(i, k)]));
      if constexpr (op == AdvReduceOp::kSum) {
        acc += v;
      } else if (k == 0) {
        acc = v;
      } else if constexpr (op == AdvReduceOp::kMax) {
        acc = v > acc || std::isnan(v) ? v : acc;
      } else {
        acc = v < acc || std::isnan(v) ? v : acc;
      }
    }
    if constexpr (std::is_integral_v<T>) {
      dst.Data()[i] = static_cast<T>(acc);
    } else {
      dst.Data()[i] = T(static_cast<float>(acc));
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

#define NPUD_ADV_REDUCE(Name, op)                                                       \
  template <class T, class pattern, bool isReuseSource = false>                         \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,           \
            const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t srcShape[], \
            bool srcInnerPad) {                                                         \
    ::npud::ascendc::AdvReduce<::npud::ascendc::AdvReduceOp::op, T, pattern>(           \
        #Name, dstTensor, srcTensor, srcShape, srcInnerPad);                            \
  }                                                                                     \
  template <class T, class pattern, bool isReuseSource = false>                         \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,           \
            const uint32_t srcShape[], bool srcInnerPad) {                              \
    ::npud::ascendc::AdvReduce<::npud::ascendc::AdvReduceOp::op, T, pattern>(           \
        #Name, dstTensor, srcTensor, srcShape, srcInnerPad);                            \
  }
NPUD_ADV_REDUCE(ReduceMax, kMax)
NPUD_ADV_REDUCE(ReduceMin, kMin)
NPUD_ADV_REDUCE(ReduceSum, kSum)
#undef NPUD_ADV_REDUCE

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_REDUCE_H_
