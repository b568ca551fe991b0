// cube.h: the cube's arithmetic on the 910B family (dav-2201): GM -> L1 in the NZ
// format (DataCopy with Nd2NzParams), the matrix multiply into L0C (Mmad, with a
// bias, accumulation or the bias table as C's start; MmadWithSparse), InitConstValue.
// The moves into L0A/L0B are in load_data.h, the moves out of L0C in fixpipe.h.
//
// The layouts, for element types of C0 = 32 bytes of elements per fractal row (64
// int4b_t, 32 b8, 16 b16, 8 b32), fractals of 16 rows x C0 columns (512 bytes):
//   ND (GM)   row-major, a row every srcDValue elements.
//   NZ (L1)   the matrix in column blocks of C0 columns; element (r, c) at
//             ((c / C0) * dstNzC0Stride + r * dstNzNStride) * C0 + c % C0, strides
//             in 32-byte blocks.
//   L0A       fractals (m block, k block) in row-major order, each row-major:
//             A(m, k) at ((m/16) * kBlocks + k/C0) * 16*C0 + (m%16) * C0 + k%C0, with
//             kBlocks = ceil(k / C0) (for float with kDirectionAlign, ceil(k/16) * 2).
//   L0B       fractals (k block, n block) in row-major order, each stored with n as
//             its row: B(k, n) at ((k/C0) * nBlocks + n/16) * 16*C0 + (n%16) * C0 + k%C0.
//   L0C (NZ)  float or int32 results in column blocks of 16:
//             C(m, n) at ((n/16) * mPadded + m) * 16 + n%16, mPadded = m rounded up to 16.
// With m == 1 the cube runs as GEMV: A is a row of k contiguous elements.
// Mmad multiplies exactly (products of half, bfloat16 and integers are exact in its
// accumulator) and accumulates in float (in int64, then int32, for integers), as the
// cube's fp32 accumulator does: half and bfloat16 inputs are not rounded on the way,
// only the L0C result is a float. What is not simulated fails the block with a
// message that names it.
#ifndef NPUD_ASCENDC_CUBE_H_
#define NPUD_ASCENDC_CUBE_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/cube_panels.h"
#include "npud_ascendc/fixpipe.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/int4b.h"
#include "npud_ascendc/load_data.h"
#include "npud_ascendc/mmad_config.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/visibility.h"

namespace AscendC {

struct Nd2NzParams {
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
              uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}

  uint16_t ndNum = 1;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

struct MmadParams {
  MmadParams() = default;
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn,
             bool enSsparseIn, bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
             bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}

  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // deprecated: accumulate into C (as cmatrixInitVal = false)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // C starts from the bias table (address 0)
  bool cmatrixInitVal = true;  // C starts from 0
};

template <class T>
struct InitConstValueParams {
  InitConstValueParams() = default;
  InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn,
                       T initValueIn)
      : repeatTimes(repeatTimesIn),
        blockNum(blockNumIn),
        dstGap(dstGapIn),
        initValue(initValueIn) {}
  InitConstValueParams(uint16_t repeatTimesIn, T initValueIn)
      : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = T{};
};

}  // namespace AscendC

namespace npud::ascendc {

// Whether every element an ND -> NZ copy writes is inside the destination's `size`
// elements: the last element of each run of C0 columns of the last row of the last
// matrix is the furthest (the strides only add). A row's last run is padded with
// zeros to C0 elements, which the copy writes too.
inline bool Nd2NzFits(const AscendC::Nd2NzParams& p, uint32_t c0, uint64_t size) {
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return true;
  const uint64_t last_row =
      uint64_t{p.ndNum - 1u} * p.dstNzMatrixStride + uint64_t{p.nValue - 1u} * p.dstNzNStride * c0;
  for (uint32_t c = 0; c < p.dValue; c += c0) {
    if (last_row + uint64_t{c / c0} * p.dstNzC0Stride * c0 + c0 - 1 >= size) return false;
  }
  return true;
}

// ND -> NZ from `in` (GM or a local tensor) into `dst`, in the C0 = 32 / sizeof(T)
// columns of each fractal row: each row of each ND matrix becomes runs of C0 columns,
// the last run padded with zeros to C0 when dValue * sizeof(T) is not a multiple of
// 32 bytes (the reference's "补0对齐到32字节"). Data beyond `dst` fails the block;
// padding beyond it may still land in the rest of its buffer, as on the NPU.
template <class T>
void RunNd2Nz(const char* op, const AscendC::LocalTensor<T>& dst, const T* in,
              const AscendC::Nd2NzParams& p) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  T* out = dst.Data();
  const bool fits = Nd2NzFits(p, c0, dst.GetSize());
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      const T* row = in + uint64_t{nd} * p.srcNdMatrixStride + uint64_t{r} * p.srcDValue;
      for (uint32_t c = 0; c < p.dValue; c += c0) {
        const uint64_t to =
            uint64_t{nd} * p.dstNzMatrixStride +
            (uint64_t{c / c0} * p.dstNzC0Stride + uint64_t{r} * p.dstNzNStride) * c0;
        const uint32_t run = p.dValue - c < c0 ? p.dValue - c : c0;
        if (!fits) {
          // Find the first element outside, in the NPU's order, to name it.
          for (uint32_t i = 0; i < c0; ++i) {
            if (to + i < dst.GetSize()) continue;
            if (i < run) {
              Fail(
                  "%s: element (%u, %u) of matrix %u lands at %llu, beyond the %u elements of "
                  "the destination",
                  op, r, c + i, nd, static_cast<unsigned long long>(to + i), dst.GetSize());
            }
            RequireInBuffer(op, dst, to + i);
          }
        }
        // A row's run of C0 columns is contiguous on both sides.
        std::memcpy(static_cast<void*>(out + to), row + c, run * sizeof(T));
        if (run < c0) std::memset(static_cast<void*>(out + to + run), 0, (c0 - run) * sizeof(T));
      }
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

// GM (ND) -> L1 (NZ), and GM -> UB (the reference's software ND2NZ into VECIN, the
// same layout). int4b_t matrices are moved as bytes: their dValue and srcDValue count
// bytes (pairs of elements), as the reference's callers pass them.
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  if constexpr (::npud::ascendc::ElementBits<T> == 4) {
    DataCopy(dst.template ReinterpretCast<int8_t>(), src.template ReinterpretCast<int8_t>(), p);
  } else {
    ::npud::ascendc::RunNd2Nz("DataCopy(Nd2NzParams)", dst, src.GetPhyAddr(), p);
  }
}

}  // namespace AscendC

namespace npud::ascendc {

template <class A>
MmadShape ShapeOf(const AscendC::MmadParams& p) {
  MmadShape s;
  s.m = p.m;
  s.n = p.n;
  s.k = p.k;
  s.c0 = static_cast<uint32_t>(256 / ElementBits<A>);
  s.k_blocks = (p.k + s.c0 - 1) / s.c0;
  if (std::is_same_v<A, float> && p.kDirectionAlign) s.k_blocks = (p.k + 15) / 16 * 2;
  s.n_blocks = (p.n + 15u) / 16u;
  s.m_padded = (p.m + 15u) / 16u * 16u;
  s.gemv = p.m == 1;
  return s;
}

// Fails the block unless A, B and C hold what the shape reads. The cube reads and
// writes whole fractals, which may run past a tensor a kernel declared with its
// unaligned size (into the rest of the L0 buffer, as on the NPU): only running past
// the buffer itself fails.
template <class T>
void CheckOperand(const char* op, const char* role, const AscendC::LocalTensor<T>& t,
                  uint64_t need) {
  if (need <= t.GetSize()) return;
  const Pool pool = PoolOf(t.Position());
  const uint8_t* base = PoolBase(pool);
  const uint8_t* data = reinterpret_cast<const uint8_t*>(t.Data());
  if (base == nullptr || pool == Pool::kUB || data < base ||
      static_cast<uint64_t>(data - base) + ElementBytes<T>(need) > PoolCapacity(pool)) {
    Fail("%s: %s needs %llu elements from its start; the tensor has %u and its %s ends first", op,
         role, static_cast<unsigned long long>(need), t.GetSize(), PoolName(pool));
  }
}

template <class C, class A, class B>
void CheckMmadOperands(const char* op, const MmadShape& s, const AscendC::LocalTensor<C>& dst,
                       const AscendC::LocalTensor<A>& a, const AscendC::LocalTensor<B>& b,
                       uint32_t b_rows) {
  const uint64_t a_need = s.gemv ? s.k : uint64_t{s.m_padded / 16} * s.k_blocks * 16 * s.c0;
  const uint64_t b_need = uint64_t{(b_rows + s.c0 - 1) / s.c0} * s.n_blocks * 16 * s.c0;
  const uint64_t c_need = uint64_t{s.n_blocks} * s.m_padded * 16;
  CheckOperand(op, "A", a, a_need);
  CheckOperand(op, "B", b, b_need);
  CheckOperand(op, "C", dst, c_need);
}

// The element types the 910B's cube multiplies, and what it accumulates them into.
template <class C, class A, class B>
constexpr bool kMmadTypesSupported =
    std::is_same_v<A, B> &&
    ((std::is_same_v<C, int32_t> &&
      (std::is_same_v<A, int8_t> || std::is_same_v<A, AscendC::int4b_t>)) ||
     (std::is_same_v<C, float> &&
      (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t> || std::is_same_v<A, float>)));

// C (+)= A x B for an m x n x k shape, element by element. `init(row, col, have)`
// gives the accumulator's start; `a_col(row, col)` maps B's row (the k of the
// product) to A's column. Sparse matrices need the mapping; dense ones take
// RunDenseMmad (cube_panels.h), which computes the same bits faster.
template <class C, class A, class B, class Init, class ACol>
void RunMmad(const MmadShape& s, const AscendC::LocalTensor<C>& dst,
             const AscendC::LocalTensor<A>& a, const AscendC::LocalTensor<B>& b, uint32_t b_rows,
             Init init, ACol a_col) {
  using Acc = std::conditional_t<std::is_integral_v<C>, int64_t, float>;
  // B's columns as rows of the accumulation type, converted once, so the inner loop
  // runs over contiguous memory.
  std::unique_ptr<Acc[]> cols_b(new Acc[uint64_t{s.n} * b_rows]);
  for (uint32_t col = 0; col < s.n; ++col) {
    for (uint32_t row = 0; row < b_rows; ++row) {
      cols_b[uint64_t{col} * b_rows + row] =
          static_cast<Acc>(LoadElement(b.Data(), s.BIndex(row, col)));
    }
  }
  std::unique_ptr<Acc[]> row_a(new Acc[b_rows]);
  C* pc = dst.Data();
  for (uint32_t row = 0; row < s.m; ++row) {
    for (uint32_t col = 0; col < s.n; ++col) {
      for (uint32_t i = 0; i < b_rows; ++i) {
        row_a[i] = static_cast<Acc>(LoadElement(a.Data(), s.AIndex(row, a_col(i, col))));
      }
      const Acc* rb = &cols_b[uint64_t{col} * b_rows];
      Acc sum = init(row, col, static_cast<Acc>(pc[s.CIndex(row, col)]));
      for (uint32_t i = 0; i < b_rows; ++i) sum += row_a[i] * rb[i];
      pc[s.CIndex(row, col)] = static_cast<C>(sum);
    }
  }
}

// The sparse index buffer LoadDataWithSparse fills beside L0B: 2 bits per element of
// the dense B, a quarter of L0B's size, at a quarter of the B's L0B byte offset.
NPUD_ASCENDC_HIDDEN inline uint8_t* SparseIndexBuffer() {
  alignas(64) static thread_local uint8_t buffer[65536 / 4];
  return buffer;
}
inline uint64_t L0BOffset(const void* p) {
  return static_cast<uint64_t>(static_cast<const uint8_t*>(p) - ThreadPool<Pool::kL0B>());
}

}  // namespace npud::ascendc

namespace AscendC {

template <class C, class A, class B>
void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
          const MmadParams& p) {
  static_assert(::npud::ascendc::kMmadTypesSupported<C, A, B>,
                "Mmad: the 910B multiplies int8/int4b_t into int32_t and half/bfloat16_t/float "
                "into float");
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  const ::npud::ascendc::MmadShape s = ::npud::ascendc::ShapeOf<A>(p);
  ::npud::ascendc::CheckMmadOperands("Mmad", s, dst, fm, filter, p.k);
  using Acc = std::conditional_t<std::is_integral_v<C>, int64_t, float>;
  const bool from_bias = !p.cmatrixInitVal && p.cmatrixSource;
  const bool from_c = !p.cmatrixInitVal && !p.cmatrixSource;
  const C* bias =
      reinterpret_cast<const C*>(::npud::ascendc::ThreadPool<::npud::ascendc::Pool::kBiasTable>());
  ::npud::ascendc::RunDenseMmad(
      s, dst.Data(), fm.Data(), filter.Data(), p.k,
      [&](uint32_t, uint32_t col, Acc have) {
        return from_bias ? static_cast<Acc>(bias[col]) : from_c || p.isBias ? have : Acc{};
      },
      ::npud::ascendc::MmadControl());
}

// With a bias tensor in the bias table (C2): C = A x B + bias, the bias a row of n.
template <class C, class A, class B, class D>
void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
          const LocalTensor<D>& bias, const MmadParams& p) {
  static_assert(::npud::ascendc::kMmadTypesSupported<C, A, B> && std::is_same_v<C, D>,
                "Mmad: the bias has the result's type (int32_t or float)");
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  const ::npud::ascendc::MmadShape s = ::npud::ascendc::ShapeOf<A>(p);
  ::npud::ascendc::CheckMmadOperands("Mmad", s, dst, fm, filter, p.k);
  if (bias.GetSize() < p.n) {
    ::npud::ascendc::Fail("Mmad: n=%u needs %u bias elements, the bias has %u", p.n, p.n,
                          bias.GetSize());
  }
  using Acc = std::conditional_t<std::is_integral_v<C>, int64_t, float>;
  const D* b = bias.Data();
  ::npud::ascendc::RunDenseMmad(
      s, dst.Data(), fm.Data(), filter.Data(), p.k,
      [&](uint32_t, uint32_t col, Acc) { return static_cast<Acc>(b[col]); },
      ::npud::ascendc::MmadControl());
}

// LoadDataWithSparse: repeatTimes fractals of the dense int8 B from fractal
// startIndex of `src` to L0B, and their index fractals (128 bytes each, 2 bits per
// element in the element order of the B fractal, the first in the low bits) from
// `idx` to the index buffer MmadWithSparse reads.
template <class T, class U>
void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<U>& idx, const LoadData2DParams& p) {
  static_assert(std::is_same_v<T, int8_t> && std::is_same_v<U, uint8_t>,
                "LoadDataWithSparse moves int8_t weights and uint8_t indices");
  if (dst.Position() != TPosition::B2) {
    ::npud::ascendc::Fail("LoadDataWithSparse: the destination must be in L0B (B2)");
  }
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t from = uint64_t{p.startIndex} + i;
    ::npud::ascendc::RequireInside("LoadDataWithSparse", "source", src, from * 512, 512);
    ::npud::ascendc::RequireInside("LoadDataWithSparse", "index", idx, from * 128, 128);
    ::npud::ascendc::RequireInside("LoadDataWithSparse", "destination", dst, uint64_t{i} * 512,
                                   512);
    std::memcpy(dst.Data() + uint64_t{i} * 512, src.Data() + from * 512, 512);
    const uint64_t at = ::npud::ascendc::L0BOffset(dst.Data()) / 4 + uint64_t{i} * 128;
    std::memcpy(::npud::ascendc::SparseIndexBuffer() + at, idx.Data() + from * 128, 128);
  }
}

// MmadWithSparse: A (m x k, int8) times the 4:2 sparse B given densely (k/2 x n) with
// its indices: dense rows 2j and 2j+1 of column n stand for rows 4j + i0 and
// 4j + 1 + i1 of the full B, (i0, i1) their 2-bit indices; C (int32) (+)= the product.
template <class C, class A, class B>
void MmadWithSparse(const LocalTensor<C>& dst, const LocalTensor<A>& fm,
                    const LocalTensor<B>& filter, const MmadParams& p) {
  static_assert(
      std::is_same_v<C, int32_t> && std::is_same_v<A, int8_t> && std::is_same_v<B, int8_t>,
      "MmadWithSparse: int8_t A and B into an int32_t C");
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  const ::npud::ascendc::MmadShape s = ::npud::ascendc::ShapeOf<A>(p);
  const uint32_t dense_rows = (p.k + 1) / 2;
  ::npud::ascendc::CheckMmadOperands("MmadWithSparse", s, dst, fm, filter, dense_rows);
  const uint8_t* index =
      ::npud::ascendc::SparseIndexBuffer() + ::npud::ascendc::L0BOffset(filter.Data()) / 4;
  auto index_of = [&](uint32_t row, uint32_t col) {
    const uint64_t e = s.BIndex(row, col);
    return (index[e / 4] >> (2 * (e % 4))) & 3u;
  };
  ::npud::ascendc::RunMmad(
      s, dst, fm, filter, dense_rows,
      [&](uint32_t, uint32_t, int64_t have) { return p.cmatrixInitVal ? int64_t{0} : have; },
      [&](uint32_t i, uint32_t col) {
        const uint32_t group = i / 2 * 4;
        return i % 2 == 0 ? group + index_of(i, col) : group + 1 + index_of(i, col);
      });
}

// Fill (InitConstValue, its older name): repeatTimes repeats of blockNum blocks of
// initValue, dstGap blocks between repeats; a block is 32 bytes in L1 and a 512-byte
// fractal in L0A/L0B. Nothing happens if either count is 0.
template <class T, class U>
void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
  static_assert(std::is_same_v<T, U>, "Fill: the value has the tensor's type");
  const TPosition pos = dst.Position();
  const bool l0 = pos == TPosition::A2 || pos == TPosition::B2;
  if (!l0 && ::npud::ascendc::PoolOf(pos) != ::npud::ascendc::Pool::kL1) {
    ::npud::ascendc::Fail("Fill: the tensor must be in L1, L0A or L0B (it is at %s)",
                          PositionName(pos));
  }
  const uint64_t per_block = (l0 ? 512 : 32) / sizeof(T);
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint64_t first = uint64_t{r} * (p.blockNum + p.dstGap) * per_block;
    const uint64_t count = uint64_t{p.blockNum} * per_block;
    ::npud::ascendc::RequireInside("Fill", "destination", dst, static_cast<int64_t>(first), count);
    for (uint64_t i = 0; i < count; ++i) dst.Data()[first + i] = p.initValue;
  }
}
template <class T, class U>
void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
  Fill(dst, p);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CUBE_H_
