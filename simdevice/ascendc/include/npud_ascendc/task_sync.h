// task_sync.h: WaitPreTaskEnd / SetNextTaskStart, SuperKernel's early start between
// the sub-kernels of one launch (Atlas A3 and Ascend 950). On A2, which npud
// simulates, CANN documents both as compiling and doing nothing; so they do here.
#ifndef NPUD_ASCENDC_TASK_SYNC_H_
#define NPUD_ASCENDC_TASK_SYNC_H_

#include "npud_ascendc/qualifiers.h"

namespace AscendC {

template <bool FORCE = false>
__aicore__ inline void WaitPreTaskEnd() {}
__aicore__ inline void SetNextTaskStart() {}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_TASK_SYNC_H_
