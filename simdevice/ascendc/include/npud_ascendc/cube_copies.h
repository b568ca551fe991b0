// cube_copies.h: the copies that change a matrix's layout between the unified
// buffer, L1, L0C and GM on the 910B family (dav-2201), beside the GM -> L1/UB ND2NZ
// copy of cube.h:
//   DataCopy(L1, UB, Nd2NzParams)          UB (ND) -> L1 (NZ), the same conversion.
//   DataCopyPad(L1, UB, DataCopyExtParams, Nd2NzParams)
//                                          UB -> GM workspace (bursts of blockLen
//                                          bytes) -> L1 (NZ), as the reference
//                                          routes it on this chip.
//   DataCopy(GM, UB, Nz2NdParamsFull)      UB (NZ, rows of 16 elements) -> GM (ND).
//   DataCopy(L1, L0C, DataCopyCO12DstParams)
//                                          L0C -> L1 in NZ with the fixpipe's
//                                          conversions (fixpipe.h).
// The reference implements the UB -> L1 copies in software through the Matmul API's
// GM workspace (AIV -> GM -> AIC); here a mix group's cores share the thread's L1,
// so the data goes straight there, with the same result. The plain UB -> L1 and
// L1 -> GM copies (count and DataCopyParams forms) are data_copy.h's local copies.
#ifndef NPUD_ASCENDC_CUBE_COPIES_H_
#define NPUD_ASCENDC_CUBE_COPIES_H_

#include <cstdint>
#include <cstring>
#include <memory>

#include "npud_ascendc/check.h"
#include "npud_ascendc/cube.h"
#include "npud_ascendc/data_copy.h"
#include "npud_ascendc/fixpipe.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct Nz2NdParamsFull {
  Nz2NdParamsFull() = default;
  Nz2NdParamsFull(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn,
                  uint16_t srcNdMatrixStrideIn, uint16_t srcNStrideIn, uint16_t dstDStrideIn,
                  uint16_t dstNdMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcNStride(srcNStrideIn),
        dstDStride(dstDStrideIn),
        dstNdMatrixStride(dstNdMatrixStrideIn) {}

  uint16_t ndNum = 1;
  uint16_t nValue = 0;
  uint16_t dValue = 0;             // a multiple of 16
  uint16_t srcNdMatrixStride = 1;  // units of 256 elements
  uint16_t srcNStride = 0;         // units of 16 elements: one column block to the next
  uint16_t dstDStride = 0;         // elements
  uint16_t dstNdMatrixStride = 1;  // elements
};

}  // namespace AscendC

namespace npud::ascendc {

template <class T>
void RequirePool(const char* op, const char* role, const AscendC::LocalTensor<T>& t, Pool pool) {
  if (PoolOf(t.Position()) != pool) {
    Fail("%s: the %s must be in the %s (it is at %s)", op, role, PoolName(pool),
         AscendC::PositionName(t.Position()));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

// UB (ND) -> L1 (NZ). The reference allows ndNum 1 only here (its example uses 2);
// any ndNum converts as the GM form does.
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& p) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "DataCopy(Nd2NzParams) from UB moves b8, b16 and b32 elements");
  constexpr const char* kOp = "DataCopy(UB -> L1, Nd2NzParams)";
  ::npud::ascendc::RequirePool(kOp, "source", src, ::npud::ascendc::Pool::kUB);
  ::npud::ascendc::RequirePool(kOp, "destination", dst, ::npud::ascendc::Pool::kL1);
  ::npud::ascendc::CheckLocalAligned(kOp, src, "source");
  ::npud::ascendc::CheckLocalAligned(kOp, dst, "destination");
  if (p.ndNum != 0 && p.nValue != 0 && p.dValue != 0) {
    const uint64_t last = uint64_t{p.ndNum - 1u} * p.srcNdMatrixStride +
                          uint64_t{p.nValue - 1u} * p.srcDValue + p.dValue;
    ::npud::ascendc::CheckLocalFits(kOp, src, last * sizeof(T), "source");
  }
  ::npud::ascendc::RunNd2Nz(kOp, dst, src.Data(), p);
}

// UB -> L1 through the GM workspace: first blockCount bursts of blockLen bytes from
// UB rows (blockLen rounded up to 32 bytes plus srcStride 32-byte blocks apart) to
// the workspace, dstStride bytes between bursts (the reference's example counts it
// in bytes, as GM is); then the ND -> NZ copy of `nd` from the workspace. Workspace
// bytes no burst wrote read as zeros.
template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& dataCopyParams, const Nd2NzParams& nd) {
  static_assert(sizeof(T) <= 8, "DataCopyPad moves elements of at most 8 bytes");
  constexpr const char* kOp = "DataCopyPad(UB -> L1)";
  const DataCopyExtParams& p = dataCopyParams;
  ::npud::ascendc::RequirePool(kOp, "source", src, ::npud::ascendc::Pool::kUB);
  ::npud::ascendc::RequirePool(kOp, "destination", dst, ::npud::ascendc::Pool::kL1);
  ::npud::ascendc::CheckLocalAligned(kOp, src, "source");
  ::npud::ascendc::CheckLocalAligned(kOp, dst, "destination");
  if (p.blockLen % sizeof(T) != 0) {
    ::npud::ascendc::Fail("%s: blockLen %u is not a whole number of %zu-byte elements", kOp,
                          p.blockLen, sizeof(T));
  }
  const uint64_t src_pitch = (uint64_t{p.blockLen} + 31) / 32 * 32 + uint64_t{p.srcStride} * 32;
  const uint64_t gm_pitch = uint64_t{p.blockLen} + p.dstStride;
  ::npud::ascendc::CheckLocalFits(
      kOp, src, ::npud::ascendc::BurstExtent(p.blockCount, p.blockLen, src_pitch), "source");
  uint64_t bytes = ::npud::ascendc::BurstExtent(p.blockCount, p.blockLen, gm_pitch);
  if (nd.ndNum != 0 && nd.nValue != 0 && nd.dValue != 0) {
    const uint64_t read = (uint64_t{nd.ndNum - 1u} * nd.srcNdMatrixStride +
                           uint64_t{nd.nValue - 1u} * nd.srcDValue + nd.dValue) *
                          sizeof(T);
    if (read > bytes) bytes = read;
  }
  const uint64_t elements = (bytes + sizeof(T) - 1) / sizeof(T);
  std::unique_ptr<T[]> workspace(new T[elements ? elements : 1]);
  std::memset(static_cast<void*>(workspace.get()), 0, elements * sizeof(T));
  ::npud::ascendc::CopyBursts(reinterpret_cast<uint8_t*>(workspace.get()),
                              reinterpret_cast<const uint8_t*>(src.Data()), p.blockCount,
                              p.blockLen, src_pitch, gm_pitch);
  ::npud::ascendc::RunNd2Nz(kOp, dst, workspace.get(), nd);
}

// UB (NZ: column blocks of 16 elements, a row of a block 16 contiguous elements) ->
// GM (ND): element (r, c) of matrix i from i * srcNdMatrixStride * 256 +
// (c / 16) * srcNStride * 16 + r * 16 + c % 16 to i * dstNdMatrixStride +
// r * dstDStride + c. Stored as UB -> GM copies are, under the atomic mode.
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const Nz2NdParamsFull& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "DataCopy(Nz2NdParamsFull) moves 16- and 32-bit elements on this chip");
  constexpr const char* kOp = "DataCopy(UB -> GM, Nz2NdParamsFull)";
  ::npud::ascendc::RequirePool(kOp, "source", src, ::npud::ascendc::Pool::kUB);
  ::npud::ascendc::CheckLocalAligned(kOp, src, "source");
  if (p.dValue % 16 != 0) {
    ::npud::ascendc::Fail("%s: dValue %u is not a multiple of 16", kOp, p.dValue);
  }
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  // The furthest element read: the last row of the last column block of the last
  // matrix (the strides only add).
  const uint64_t last = uint64_t{p.ndNum - 1u} * p.srcNdMatrixStride * 256 +
                        uint64_t{p.dValue / 16 - 1u} * p.srcNStride * 16 +
                        uint64_t{p.nValue - 1u} * 16 + 16;
  ::npud::ascendc::CheckLocalFits(kOp, src, last * sizeof(T), "source");
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      for (uint32_t c = 0; c < p.dValue; c += 16) {
        const uint64_t from = uint64_t{nd} * p.srcNdMatrixStride * 256 +
                              uint64_t{c / 16} * p.srcNStride * 16 + r * 16;
        const uint64_t to = uint64_t{nd} * p.dstNdMatrixStride + uint64_t{r} * p.dstDStride + c;
        ::npud::ascendc::StoreToGm(dst.GetPhyAddr() + to, src.Data() + from, 16 * sizeof(T));
      }
    }
  }
}

// L0C (CO1) -> L1, NZ only: the fixpipe's move with its conversions (quantPre from
// the registers SetFixpipePreQuantFlag / SetFixPipeConfig set, ReLU by reluPre),
// dstStride 32-byte blocks between column blocks. NoQuant is not a mode of this path;
// nz2ndEn and channelSplit do nothing on this chip.
template <class T, class U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyCO12DstParams& p) {
  constexpr const char* kOp = "DataCopy(L0C -> L1)";
  ::npud::ascendc::RequirePool(kOp, "source", src, ::npud::ascendc::Pool::kL0C);
  ::npud::ascendc::RequirePool(kOp, "destination", dst, ::npud::ascendc::Pool::kL1);
  if (p.nSize == 0 || p.mSize == 0) return;
  if (p.nSize % 16 != 0) {
    ::npud::ascendc::Fail("%s: nSize %u is not a multiple of 16", kOp, p.nSize);
  }
  if (p.quantPre == QuantMode_t::NoQuant) {
    ::npud::ascendc::Fail("%s: quantPre NoQuant is not a mode of this path", kOp);
  }
  const ::npud::ascendc::FixpipeRegisters& r = ::npud::ascendc::FixpipeState();
  const FixpipeParamsV220 f(p.nSize, p.mSize, p.srcStride, p.dstStride, p.reluPre != 0, p.quantPre,
                            static_cast<int64_t>(r.quant_scalar), 1, 0, 0, p.unitFlag, false);
  ::npud::ascendc::FixpipeTo<T, U, CFG_NZ>(kOp, dst.Data(), src, f, r.quant_vector);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CUBE_COPIES_H_
