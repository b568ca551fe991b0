// reduce_pattern.h: which axes an advanced reduction reduces. ReducePattern names the
// pattern in host tiling calls and configs; Pattern::Reduce::AR / RA are the type
// template arguments the kernel APIs (ReduceMax<T, Pattern::Reduce::AR>, ...) take.
// "A" is an axis kept, "R" one reduced, outermost first.
#ifndef NPUD_ASCENDC_REDUCE_PATTERN_H_
#define NPUD_ASCENDC_REDUCE_PATTERN_H_

#include <cstdint>

namespace AscendC {

enum class ReducePattern : uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};

namespace Pattern::Reduce {
struct AR {
  static constexpr ReducePattern kPattern = ReducePattern::AR;
};
struct RA {
  static constexpr ReducePattern kPattern = ReducePattern::RA;
};
}  // namespace Pattern::Reduce

}  // namespace AscendC

#endif  // NPUD_ASCENDC_REDUCE_PATTERN_H_
