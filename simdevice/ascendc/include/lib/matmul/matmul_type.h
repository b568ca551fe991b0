// lib/matmul/matmul_type.h: the type arguments of AscendC::Matmul besides its
// configuration — MatmulType (where an operand lives, its format, element type,
// transposition, batch layout, A2/B2 sharing), MatmulCallBackFunc (user copies that
// replace the Matmul's own) and the policies of Impl::Detail (which blocks a Matmul
// computes and how it stages them).
//
// Policies only change how the NPU schedules its buffers, except the triangular ones,
// which leave the blocks below (upper) or above (lower) the diagonal of a core's C
// untouched; lib/matmul_intf.h reads kTriangle for that.
#ifndef NPUD_LIB_MATMUL_MATMUL_TYPE_H_
#define NPUD_LIB_MATMUL_MATMUL_TYPE_H_

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "lib/matmul/matmul_config.h"

namespace AscendC {

template <AscendC::TPosition kPosition, CubeFormat kFormat, class TYPE, bool kTranspose = false,
          LayoutMode kLayout = LayoutMode::NONE, bool kIbShare = false>
struct MatmulType {
  static constexpr AscendC::TPosition pos = kPosition;
  static constexpr CubeFormat format = kFormat;
  using T = TYPE;     // CANN's name
  using Type = TYPE;  // npud's older one
  static constexpr bool isTrans = kTranspose;
  static constexpr LayoutMode layout = kLayout;
  static constexpr bool ibShare = kIbShare;
};

// B of a sparse Matmul (SetSparseIndex): stored densely, two of every four K values
// (N x K/2, transposed), with 2-bit indices at `kIndexPosition` saying which.
template <AscendC::TPosition kPosition, AscendC::TPosition kIndexPosition, CubeFormat kFormat,
          class TYPE, bool kTranspose = false, LayoutMode kLayout = LayoutMode::NONE,
          bool kIbShare = false>
struct SparseMatmulType : MatmulType<kPosition, kFormat, TYPE, kTranspose, kLayout, kIbShare> {
  static constexpr AscendC::TPosition indexPosition = kIndexPosition;
  static constexpr bool isSparse = true;
};

namespace npud_matmul {
template <class T, class = void>
struct IsSparse : std::false_type {};
template <class T>
struct IsSparse<T, std::void_t<decltype(T::isSparse)>> : std::bool_constant<T::isSparse> {};
}  // namespace npud_matmul

// The user copies: C from L0C to GM, an A block from GM into L1, a B block from GM into
// L1 (see lib/matmul_intf.h for what npud calls and when). nullptr keeps the Matmul's.
using MatmulDataCopyOut = void (*)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                                   const void* dataCopyOutParams, const uint64_t tilingPtr,
                                   const uint64_t dataPtr);
using MatmulCopyA1 = void (*)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row,
                              int col, int useM, int useK, const uint64_t tilingPtr,
                              const uint64_t dataPtr);
using MatmulCopyB1 = void (*)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row,
                              int col, int useK, int useN, const uint64_t tilingPtr,
                              const uint64_t dataPtr);

template <MatmulDataCopyOut kDataCopyOut = nullptr, MatmulCopyA1 kCopyA1 = nullptr,
          MatmulCopyB1 kCopyB1 = nullptr>
struct MatmulCallBackFunc {
  static constexpr MatmulDataCopyOut DataCopyOutPtr = kDataCopyOut;
  static constexpr MatmulCopyA1 CopyA1Ptr = kCopyA1;
  static constexpr MatmulCopyB1 CopyB1Ptr = kCopyB1;
};

// What DataCopyOut receives (CANN's fields; npud fills the sizes of the block).
struct DataCopyOutParams {
  uint16_t cBurstNum = 0;
  uint16_t burstLen = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  uint16_t oriNSize = 0;
  bool enUnitFlag = false;
  uint64_t quantScalar = 0;
  uint64_t cbufWorkspaceAddr = 0;
};

// The type of a Matmul's results in L0C for inputs of type T (int32 for 8-bit inputs,
// float otherwise), as a kernel that manages CO1 itself names it.
template <class T>
struct GetMmDstType {
  using Type = std::conditional_t<std::is_integral_v<T>, int32_t, float>;
};

namespace Impl {
constexpr int32_t QUEUE_DEPTH = 1;  // the depth of the queues the Matmul's buffers use
}  // namespace Impl

namespace Impl::Detail {

// kTriangle: 0 every block, 1 the blocks on and above the diagonal, 2 on and below.
#define NPUD_MATMUL_POLICY(name, triangle)                                                    \
  template <const auto& MM_CFG = CFG_NORM, class IMPL = void, class A = void, class B = void, \
            class C = void, class BIAS = void>                                                \
  struct name {                                                                               \
    static constexpr int kTriangle = triangle;                                                \
  };
NPUD_MATMUL_POLICY(MatmulPolicy, 0)
NPUD_MATMUL_POLICY(TrianUpperMatmulPolicy, 1)
NPUD_MATMUL_POLICY(TrianLowerMatmulPolicy, 2)
NPUD_MATMUL_POLICY(NBuffer33MatmulPolicy, 0)
#undef NPUD_MATMUL_POLICY

}  // namespace Impl::Detail

}  // namespace AscendC

#endif  // NPUD_LIB_MATMUL_MATMUL_TYPE_H_
