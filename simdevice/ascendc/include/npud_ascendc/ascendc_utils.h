// ascendc_utils.h: AscendCUtils, the static helpers kernels call around their work.
//
//   AscendCUtils::SetOverflow(mode)  chooses how the vector unit treats float overflow
//       (1: keep inf/nan, 0: saturate): CTRL[48], as SetCtrlSpr<48, 48>(mode)
//       (ctrl_register.h, where what the bit does is described).
#ifndef NPUD_ASCENDC_ASCENDC_UTILS_H_
#define NPUD_ASCENDC_ASCENDC_UTILS_H_

#include <cstdint>

#include "npud_ascendc/block_context.h"

namespace AscendC {

class AscendCUtils {
 public:
  static void SetOverflow(uint64_t mode) {
    constexpr uint64_t kBit = uint64_t{1} << 48;
    uint64_t& ctrl = ::npud::ascendc::tls_block.ctrl;
    ctrl = (mode & 1) != 0 ? (ctrl | kBit) : (ctrl & ~kBit);
  }
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ASCENDC_UTILS_H_
