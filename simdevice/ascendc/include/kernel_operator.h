// kernel_operator.h: the AscendC device API for kernels compiled with g++ into npud
// kernel shared objects (the CPU model of the Ascend AI Core). Include this exactly as
// an AscendC kernel does; compile with the options of npud_ascendc_options.cmake.
//
//   npud_ascendc/visibility.h     NPUD_ASCENDC_HIDDEN for the library's state
//   npud_ascendc/qualifiers.h     __global__ __aicore__ __gm__ ..., GM_ADDR, __NPU_ARCH__
//   npud_ascendc/block_context.h  block_idx, block_num, GetBlockIdx(), GetBlockNum()
//   npud_ascendc/check.h          how checks fail a block; trap()
//   npud_ascendc/assert.h         ascendc_assert, ASCENDC_ASSERT, KERNEL_LOG
//   npud_ascendc/fp16.h, bf16.h   half, bfloat16_t
//   npud_ascendc/int4b.h          int4b_t and element sizes in bits
//   npud_ascendc/onchip_buffers.h the UB, L1, L0A/B/C, bias table and fixpipe buffer
//   npud_ascendc/tensor.h         TPosition, GlobalTensor, LocalTensor
//   npud_ascendc/tpipe.h          TPipe, TQue, TQueBind, TBuf, GetTPipePtr
//   npud_ascendc/tbuf_pool.h      TBufPool, EXTERN_IMPL_BUFPOOL
//   npud_ascendc/spm_buffer.h     TPipe::InitSpmBuffer, WriteSpmBuffer, ReadSpmBuffer
//   npud_ascendc/list_tensor.h    ListTensorDesc, TensorDesc
//   npud_ascendc/local_mem_allocator.h  LocalMemAllocator (static tensor programming)
//   npud_ascendc/data_copy.h      DataCopy, DataCopyPad, Copy, SetAtomicAdd/Max/Min/None
//   npud_ascendc/data_copy_slice.h  DataCopy with SliceInfo
//   npud_ascendc/store_atomic_config.h  Set/GetStoreAtomicConfig
//   npud_ascendc/vector_mask.h    the mask register: SetMaskCount/Norm, SetVectorMask
//   npud_ascendc/repeat.h         level-0 repeats and strides, Binary/UnaryRepeatParams
//   npud_ascendc/vector_ops.h     Add Sub Mul Div Max Min Adds Muls ... Exp Ln Duplicate
//   npud_ascendc/cast.h           Cast, RoundMode
//   npud_ascendc/compound_cast.h  AddReluCast SubReluCast MulCast AddDeqRelu, Cast level-0
//   npud_ascendc/cast_dequant.h   CastDequant, SetDeqScale(scale, offset, signMode | vdeq)
//   npud_ascendc/reduce.h         ReduceSum/Max/Min, ReduceDataBlock, ReduceRepeat,
//                                 ReducePairElem
//   npud_ascendc/compare_select.h Compare, Compares, Select, GetCmpMask, SetCmpMask
//   npud_ascendc/gather_transpose.h  Gather, Gatherb, GatherMask, Transpose
//   npud_ascendc/confusion_transpose.h  Transpose with a ConfusionTransposeTiling
//   npud_ascendc/data_fill.h      Brcb, CreateVecIndex
//   npud_ascendc/bilinear_interpolation.h  BilinearInterpolation
//   npud_ascendc/normalization.h  LayerNorm, RmsNorm
//   npud_ascendc/layer_norm_grad.h  LayerNormGrad, LayerNormGradBeta
//   npud_ascendc/deep_norm.h      DeepNorm
//   npud_ascendc/batch_group_norm.h  BatchNorm, GroupNorm
//   npud_ascendc/welford.h        WelfordUpdate, WelfordFinalize
//   npud_ascendc/normalize.h      LayerNorm (rstd form), Normalize
//   npud_ascendc/softmax.h        SoftMax, SimpleSoftMax, AdjustSoftMaxRes
//   npud_ascendc/softmax_grad.h   SoftmaxGrad, SoftmaxGradFront
//   npud_ascendc/log_softmax.h    LogSoftMax
//   npud_ascendc/softmax_flash.h  SoftmaxFlash (the first flash softmax)
//   npud_ascendc/softmax_flash_v2.h  SoftmaxFlashV2
//   npud_ascendc/softmax_flash_v3.h  SoftmaxFlashV3, SoftMaxParams
//   npud_ascendc/anti_quant.h     AscendAntiQuant
//   npud_ascendc/quant.h          AscendQuant, AscendDequant
//   npud_ascendc/dropout.h        DropOut
//   npud_ascendc/pad.h            Pad, UnPad
//   npud_ascendc/broadcast.h      Broadcast<T, dim, axis> (advanced)
//   npud_ascendc/layout.h         MakeShape, MakeStride, MakeLayout, Layout, Coord
//   npud_ascendc/tensor_expr.h    dst = src0 + src1 (and - * / & |) on LocalTensors
//   npud_ascendc/trans_data.h     TransData (NCDHW, NDC1HWC0, FRACTAL_Z_3D)
//   npud_ascendc/sort.h           Sort32, MrgSort
//   npud_ascendc/adv_sort.h       Concat, Sort, Extract (advanced)
//   npud_ascendc/topk.h           TopK
//   npud_ascendc/adv_select.h     Select by a byte mask (advanced)
//   npud_ascendc/adv_math.h       Sigmoid Gelu Silu Swish Erf Log Sin ... (advanced)
//   npud_ascendc/adv_reduce_fill.h  Sum, CumSum, Arange, Fill (advanced)
//   npud_ascendc/adv_reduce.h     ReduceMax/Min/Sum<T, Pattern::Reduce::AR|RA> (advanced)
//   npud_ascendc/adv_reduce_pattern_ops.h  ReduceMean/Any/All/Prod with a pattern (advanced)
//   npud_ascendc/adv_mean_xor_sum.h  Mean, ReduceXorSum (advanced)
//   npud_ascendc/adv_gamma_gelu_v2.h  Digamma, Lgamma, FasterGeluV2 (advanced)
//   npud_ascendc/adv_mrg_sort.h   MrgSort with the counts of the queues (advanced)
//   npud_ascendc/cube.h           DataCopy ND2NZ, Mmad, MmadWithSparse, Fill (the cube)
//   npud_ascendc/load_data.h      LoadData 2D/3D, LoadDataWithTranspose, SetFmatrix, ...
//   npud_ascendc/fixpipe.h        Fixpipe, DataCopy from L0C, quantisation registers
//   npud_ascendc/cube_copies.h    UB <-> L1/GM layout copies (ND2NZ, NZ2ND), L0C -> L1
//   npud_ascendc/mmad_config.h    SetHF32Mode, SetHF32TransMode, SetMMRowMajor/ColumnMajor
//   npud_ascendc/cube_group.h     KfcWorkspace, CubeResGroupHandle, CreateCubeResGroup
//   npud_ascendc/aipp.h           SetAippFunctions, LoadImageToLocal (image pre-processing)
//   npud_ascendc/cross_block.h    SyncAll, IBSet/IBWait, NotifyNextBlock/WaitPreBlock
//   npud_ascendc/mix_group.h      __mix__ kernels' cores and cross-core flags
//   npud_ascendc/sync.h           PipeBarrier, SetFlag, WaitFlag, TQueSync (no-ops)
//   npud_ascendc/ctrl_register.h  SetCtrlSpr, GetCtrlSpr, Set/GetSaturationFlag
//   npud_ascendc/sys_var.h        GetSystemCycle, InitSocState, cache control,
//                                 SetSysWorkspace, GetUserWorkspace, ...
//   npud_ascendc/scalar_ops.h     GetBitCount, CountLeadingZero, DivCeil, ...
//   npud_ascendc/ascendc_utils.h  AscendCUtils::SetOverflow
//   npud_ascendc/scalar_min_max.h min, max (bisheng's scalar builtins)
//   npud_ascendc/numeric_limits.h NumericLimits
//   npud_ascendc/type_traits.h    IsSameType, Conditional, AscendC::Std
//   npud_ascendc/printf.h         AscendC::printf, PRINTF, DumpTensor
//   npud_ascendc/debug_dump.h     DumpAccChkPoint, PrintTimeStamp
//   npud_ascendc/kernel_tiling_macros.h  GET_TILING_DATA*, COPY_TILING_*, TILING_KEY_IS,
//                                 REGISTER_TILING_* (tikicpulib.h: ICPU_RUN_KF, GmAlloc)
//   npud_kernel_register.h        NPUD_KERNEL_REGISTER, npud_kernel_table
//
// Built with the kernel options, a kernel object exports only npud_kernel_table; the
// library's own state is hidden in any build (npud_ascendc/visibility.h).
// docs/ascendc_api_status.md lists which upstream APIs are simulated.
#ifndef NPUD_KERNEL_OPERATOR_H_
#define NPUD_KERNEL_OPERATOR_H_

#include <cstddef>
#include <cstdint>

#include "npud_ascendc/adv_gamma_gelu_v2.h"
#include "npud_ascendc/adv_math.h"
#include "npud_ascendc/adv_mean_xor_sum.h"
#include "npud_ascendc/adv_mrg_sort.h"
#include "npud_ascendc/adv_reduce.h"
#include "npud_ascendc/adv_reduce_fill.h"
#include "npud_ascendc/adv_reduce_pattern_ops.h"
#include "npud_ascendc/adv_select.h"
#include "npud_ascendc/adv_sort.h"
#include "npud_ascendc/aipp.h"
#include "npud_ascendc/anti_quant.h"
#include "npud_ascendc/ascendc_utils.h"
#include "npud_ascendc/assert.h"
#include "npud_ascendc/batch_group_norm.h"
#include "npud_ascendc/bf16.h"
#include "npud_ascendc/bilinear_interpolation.h"
#include "npud_ascendc/block_context.h"
#include "npud_ascendc/broadcast.h"
#include "npud_ascendc/cast.h"
#include "npud_ascendc/cast_dequant.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/compare_select.h"
#include "npud_ascendc/compound_cast.h"
#include "npud_ascendc/confusion_transpose.h"
#include "npud_ascendc/cross_block.h"
#include "npud_ascendc/cross_core_flags.h"
#include "npud_ascendc/ctrl_register.h"
#include "npud_ascendc/cube.h"
#include "npud_ascendc/cube_copies.h"
#include "npud_ascendc/cube_group.h"
#include "npud_ascendc/data_copy.h"
#include "npud_ascendc/data_copy_slice.h"
#include "npud_ascendc/data_fill.h"
#include "npud_ascendc/debug_dump.h"
#include "npud_ascendc/deep_norm.h"
#include "npud_ascendc/dropout.h"
#include "npud_ascendc/fixpipe.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/gather_transpose.h"
#include "npud_ascendc/group_barrier.h"
#include "npud_ascendc/int4b.h"
#include "npud_ascendc/kernel_tiling_macros.h"
#include "npud_ascendc/layer_norm_grad.h"
#include "npud_ascendc/layout.h"
#include "npud_ascendc/list_tensor.h"
#include "npud_ascendc/load_data.h"
#include "npud_ascendc/local_mem_allocator.h"
#include "npud_ascendc/log_softmax.h"
#include "npud_ascendc/mmad_config.h"
#include "npud_ascendc/normalization.h"
#include "npud_ascendc/normalize.h"
#include "npud_ascendc/numeric_limits.h"
#include "npud_ascendc/onchip_buffers.h"
#include "npud_ascendc/pad.h"
#include "npud_ascendc/printf.h"
#include "npud_ascendc/qualifiers.h"
#include "npud_ascendc/quant.h"
#include "npud_ascendc/reduce.h"
#include "npud_ascendc/scalar_min_max.h"
#include "npud_ascendc/scalar_ops.h"
#include "npud_ascendc/softmax.h"
#include "npud_ascendc/softmax_flash.h"
#include "npud_ascendc/softmax_flash_v2.h"
#include "npud_ascendc/softmax_flash_v3.h"
#include "npud_ascendc/softmax_grad.h"
#include "npud_ascendc/sort.h"
#include "npud_ascendc/spm_buffer.h"
#include "npud_ascendc/store_atomic_config.h"
#include "npud_ascendc/sync.h"
#include "npud_ascendc/sys_var.h"
#include "npud_ascendc/task_sync.h"
#include "npud_ascendc/tbuf_pool.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/tensor_expr.h"
#include "npud_ascendc/topk.h"
#include "npud_ascendc/tpipe.h"
#include "npud_ascendc/trans_data.h"
#include "npud_ascendc/type_traits.h"
#include "npud_ascendc/vector_ops.h"
#include "npud_ascendc/welford.h"
#include "npud_kernel_register.h"

// Inline assembly. The only instruction kernels use is the AI Core trap (error_OP's
// `asm("trap");`), which g++ cannot assemble for the host. `asm(...)` is therefore a
// macro, defined last so that no system header included above sees it, routing the
// stringified operands to npud::ascendc::InlineAsm (check.h): "trap" raises trap kind
// 0, an empty template (compiler barrier) does nothing, anything else fails the block.
// `asm volatile(...)` is not intercepted. A build that prefers -Dasm=npud_asm gets the
// same behaviour; NPUD_NO_ASM_MACRO leaves `asm` alone.
#define npud_asm(...) ::npud::ascendc::InlineAsm(#__VA_ARGS__)
#if !defined(asm) && !defined(NPUD_NO_ASM_MACRO)
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wkeyword-macro"
#endif
#define asm(...) npud_asm(__VA_ARGS__)
#ifdef __clang__
#pragma clang diagnostic pop
#endif
#endif

#endif  // NPUD_KERNEL_OPERATOR_H_
