// ascendc_utils.h: AscendCUtils, the static helpers kernels call around their work.
//
//   AscendCUtils::SetOverflow(mode)  chooses how the vector unit treats float overflow
//       (1: keep inf/nan, 0: saturate). npud's vector operations compute in IEEE
//       arithmetic with inf and nan throughout, so the call changes nothing.
#ifndef NPUD_ASCENDC_ASCENDC_UTILS_H_
#define NPUD_ASCENDC_ASCENDC_UTILS_H_

#include <cstdint>

namespace AscendC {

class AscendCUtils {
 public:
  static void SetOverflow(uint64_t /*mode*/) {}
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ASCENDC_UTILS_H_
