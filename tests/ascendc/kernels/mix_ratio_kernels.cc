// Mix kernels of one cube and one vector core per block (KERNEL_TYPE_MIX_AIC_1_1,
// npud_ascendc/mix_group.h), registered as the build tool registers them
// (mix_ratio_test.cc).
#include "kernel_operator.h"

using namespace AscendC;

// Each core writes {GetBlockIdx, GetSubBlockIdx, GetSubBlockNum, is AIC} to slot 0
// (cube) or 1 + GetSubBlockIdx() (vector) of its block's three; then data[block]
// goes cube -> vector -> cube with mode 2 flags: the cube core waits for one raise
// per vector core of its group.
extern "C" __global__ __mix__(1, 1) void mix_one_to_one(__gm__ int64_t* out,
                                                        __gm__ int32_t* data) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  const int64_t block = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / GetSubBlockNum();
  const int64_t slot = block * 3 + (ASCEND_IS_AIC ? 0 : 1 + GetSubBlockIdx());
  out[slot * 4 + 0] = GetBlockIdx();
  out[slot * 4 + 1] = GetSubBlockIdx();
  out[slot * 4 + 2] = GetSubBlockNum();
  out[slot * 4 + 3] = ASCEND_IS_AIC ? 1 : 0;
  if ASCEND_IS_AIC {
    data[block] = 10;
    CrossCoreSetFlag<2, PIPE_FIX>(3);
    CrossCoreWaitFlag(4);
    data[block] *= 2;
  }
  if ASCEND_IS_AIV {
    CrossCoreWaitFlag(3);
    data[block] += 1;
    CrossCoreSetFlag<2, PIPE_MTE3>(4);
  }
}

NPUD_KERNEL_REGISTER_AS(mix_one_to_one, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_MIX_VECTORS("mix_one_to_one", 1);
