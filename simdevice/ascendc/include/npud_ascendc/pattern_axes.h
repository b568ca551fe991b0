// pattern_axes.h: the axes of a two-dimensional advanced reduction with a pattern
// (adv_reduce.h, adv_reduce_pattern_ops.h). srcShape is {outer, inner}; the inner
// axis is stored padded to 32 bytes (srcInnerPad must be true on the Atlas A2) and
// its padding is never read. AR keeps the outer axis (one result per row), RA the
// inner one (one per column).
// Checks (trap kind 1): srcInnerPad is true, the shape fits src and the results dst.
#ifndef NPUD_ASCENDC_PATTERN_AXES_H_
#define NPUD_ASCENDC_PATTERN_AXES_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/reduce_pattern.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

struct PatternAxes {
  uint32_t kept = 0;     // results
  uint32_t reduced = 0;  // values per result
  uint32_t stride = 0;   // elements per stored row
  bool ar = true;
  // Where the k-th value of result i is in src.
  uint64_t Index(uint32_t i, uint32_t k) const {
    return ar ? uint64_t{i} * stride + k : uint64_t{k} * stride + i;
  }
};

template <class P, class T>
PatternAxes CheckPatternAxes(const char* name, const AscendC::LocalTensor<T>& dst,
                             const AscendC::LocalTensor<T>& src, const uint32_t src_shape[],
                             bool inner_pad) {
  static_assert(
      P::kPattern == AscendC::ReducePattern::AR || P::kPattern == AscendC::ReducePattern::RA,
      "only the AR and RA patterns are simulated");
  if (!inner_pad) Fail("%s: srcInnerPad must be true on the Atlas A2", name);
  constexpr uint32_t kPerBlock = 32 / sizeof(T) == 0 ? 1 : 32 / sizeof(T);
  const uint32_t outer = src_shape[0], inner = src_shape[1];
  PatternAxes axes;
  axes.stride = (inner + kPerBlock - 1) / kPerBlock * kPerBlock;
  axes.ar = P::kPattern == AscendC::ReducePattern::AR;
  axes.kept = axes.ar ? outer : inner;
  axes.reduced = axes.ar ? inner : outer;
  if (outer != 0 && uint64_t{outer - 1} * axes.stride + inner > src.GetSize()) {
    Fail("%s: [%u, %u] (inner axis padded to %u) does not fit src (%u)", name, outer, inner,
         axes.stride, src.GetSize());
  }
  if (axes.kept > dst.GetSize()) {
    Fail("%s: %u results do not fit dst (%u)", name, axes.kept, dst.GetSize());
  }
  return axes;
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_PATTERN_AXES_H_
