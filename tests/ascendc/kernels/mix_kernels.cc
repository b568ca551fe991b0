// Mix kernels (one cube and two vector cores per block, npud_ascendc/mix_group.h):
// identities, flags in both directions, and the failures a group must report.
#include "kernel_operator.h"

using namespace AscendC;

// Each core writes {GetBlockIdx, GetSubBlockIdx, GetTaskRation, is AIC} to its slot:
// slot 0 of a block for the cube core, 1 and 2 for its vector cores.
extern "C" __global__ __mix__(1, 2) void mix_identity(__gm__ int64_t* out) {
  const int64_t group = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / 2;
  const int64_t slot = group * 3 + (ASCEND_IS_AIC ? 0 : 1 + GetSubBlockIdx());
  out[slot * 4 + 0] = GetBlockIdx();
  out[slot * 4 + 1] = GetSubBlockIdx();
  out[slot * 4 + 2] = GetTaskRation();
  out[slot * 4 + 3] = ASCEND_IS_AIC ? 1 : 0;
}

// data[block] goes cube -> vectors -> cube: the cube core stores 10, raises flag 3;
// each vector core adds its 1 + GetSubBlockIdx() to its own slot copy once the flag
// came, and raises flag 4; the cube core waits for both and sums their slots.
extern "C" __global__ __mix__(1, 2) void mix_round_trip(__gm__ int32_t* data) {
  if ASCEND_IS_AIC {
    const int64_t b = GetBlockIdx();
    data[b * 4 + 1] = 10;
    data[b * 4 + 2] = 10;
    CrossCoreSetFlag<2, PIPE_FIX>(3);
    CrossCoreWaitFlag(4);
    data[b * 4 + 0] = data[b * 4 + 1] + data[b * 4 + 2];
  }
  if ASCEND_IS_AIV {
    const int64_t b = GetBlockIdx() / 2;
    CrossCoreWaitFlag(3);
    data[b * 4 + 1 + GetSubBlockIdx()] += static_cast<int32_t>(1 + GetSubBlockIdx());
    CrossCoreSetFlag<2, PIPE_MTE3>(4);
  }
}

// The vector cores wait for a flag nobody raises.
extern "C" __global__ __mix__(1, 2) void mix_deadlock() {
  if ASCEND_IS_AIV { CrossCoreWaitFlag(5); }
}

// The second vector core fails a check; the cube core waits for both vector cores.
extern "C" __global__ __mix__(1, 2) void mix_vector_fails() {
  if ASCEND_IS_AIC { CrossCoreWaitFlag(1); }
  if ASCEND_IS_AIV {
    if (GetSubBlockIdx() == 1) {
      LocalMemAllocator<Hardware::UB> ub;
      ub.Alloc<float>(1u << 20);  // 4 MiB: beyond the UB
    }
    CrossCoreSetFlag<2, PIPE_S>(1);
  }
}

NPUD_KERNEL_REGISTER_AS(mix_identity, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(mix_round_trip, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(mix_deadlock, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(mix_vector_fails, NPUD_CORE_TYPE_MIX);
