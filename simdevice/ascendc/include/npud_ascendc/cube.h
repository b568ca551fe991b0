// cube.h: the cube path of the basic API on the 910B family (dav-2201): GM -> L1
// in the NZ format (DataCopy with Nd2NzParams), L1 -> L0A/L0B (LoadData with
// LoadData2DParams), the matrix multiply (Mmad) into L0C and L0C -> GM with
// conversion (Fixpipe with FixpipeParamsV220).
//
// The layouts, for an element type of C0 = 32 / sizeof(T) elements per 32-byte
// block, fractals of 16 rows x C0 columns (512 bytes):
//   ND (GM)   row-major, a row every srcDValue / dstStride elements.
//   NZ (L1)   the matrix in column blocks of C0 columns; element (r, c) at
//             ((c / C0) * dstNzC0Stride + r * dstNzNStride) * C0 + c % C0, strides
//             in 32-byte blocks.
//   L0A       fractals (m block, k block) in row-major order, each row-major:
//             A(m, k) at ((m/16) * kBlocks + k/C0) * 16*C0 + (m%16) * C0 + k%C0.
//   L0B       fractals (k block, n block) in row-major order, each stored with n
//             as its row: B(k, n) at ((k/C0) * nBlocks + n/16) * 16*C0 + (n%16) * C0 + k%C0
//             (what LoadData with ifTranspose makes of NZ fractals of B).
//   L0C (NZ)  float or int32 results in column blocks of 16:
//             C(m, n) at ((n/16) * mPadded + m) * 16 + n%16, mPadded = m rounded up to 16.
// LoadData moves whole fractals: repeatTimes of them, the source advancing by
// srcStride fractals from startIndex, the destination by 1 + dstGap; ifTranspose
// transposes each (16 x 16, 2-byte types only). Mmad accumulates in float (int64
// then the result type for integers) and starts from zero when cmatrixInitVal is
// set. Fixpipe converts as
// quantPre says (NoQuant, F322F16, F322BF16) and applies ReLU when reluEn is set.
// What is not simulated fails the block with a message that names it.
#ifndef NPUD_ASCENDC_CUBE_H_
#define NPUD_ASCENDC_CUBE_H_

#include <cstdint>
#include <memory>
#include <type_traits>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/tensor.h"

enum class QuantMode_t : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

namespace AscendC {

struct Nd2NzParams {
  uint16_t ndNum = 1;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint8_t sid = 0;
  uint16_t dstGap = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  uint8_t unitFlag = 0;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;
};

struct FixpipeParamsV220 {
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  bool reluEn = false;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  uint8_t unitFlag = 0;
};

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  const T* in = src.GetPhyAddr();
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      for (uint32_t c = 0; c < p.dValue; ++c) {
        const uint64_t to =
            uint64_t{nd} * p.dstNzMatrixStride +
            (uint64_t{c / c0} * p.dstNzC0Stride + uint64_t{r} * p.dstNzNStride) * c0 + c % c0;
        if (to >= dst.GetSize()) {
          ::npud::ascendc::Fail(
              "DataCopy(Nd2NzParams): element (%u, %u) of matrix %u lands at %llu, "
              "beyond the %u elements of the destination",
              r, c, nd, static_cast<unsigned long long>(to), dst.GetSize());
        }
        dst.Data()[to] = in[uint64_t{nd} * p.srcNdMatrixStride + uint64_t{r} * p.srcDValue + c];
      }
    }
  }
}

template <class T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  constexpr uint32_t kFractal = 16 * c0;
  if (p.ifTranspose && sizeof(T) != 2) {
    ::npud::ascendc::Fail(
        "LoadData: ifTranspose of %zu-byte elements is not simulated (2-byte "
        "types only)",
        sizeof(T));
  }
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t from = (uint64_t{p.startIndex} + uint64_t{i} * p.srcStride) * kFractal;
    const uint64_t to = uint64_t{i} * (1u + p.dstGap) * kFractal;
    if (from + kFractal > src.GetSize() || to + kFractal > dst.GetSize()) {
      ::npud::ascendc::Fail(
          "LoadData: fractal %u reads [%llu, %llu) of %u or writes [%llu, %llu) "
          "of %u elements",
          i, static_cast<unsigned long long>(from),
          static_cast<unsigned long long>(from + kFractal), src.GetSize(),
          static_cast<unsigned long long>(to), static_cast<unsigned long long>(to + kFractal),
          dst.GetSize());
    }
    const T* in = src.Data() + from;
    T* out = dst.Data() + to;
    for (uint32_t r = 0; r < 16; ++r) {
      for (uint32_t c = 0; c < c0; ++c) {
        out[p.ifTranspose ? c * 16 + r : r * c0 + c] = in[r * c0 + c];
      }
    }
  }
}

template <class C, class A, class B>
void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& a, const LocalTensor<B>& b,
          const MmadParams& p) {
  static_assert(sizeof(A) == sizeof(B), "Mmad: A and B must have element types of one size");
  using Acc = std::conditional_t<std::is_integral_v<C>, int64_t, float>;
  constexpr uint32_t c0 = 32 / sizeof(A);
  if (p.cmatrixSource) {
    ::npud::ascendc::Fail("Mmad: cmatrixSource (C from the bias table) is not simulated");
  }
  const uint32_t m_padded = (p.m + 15u) / 16u * 16u;
  const uint32_t k_blocks = (p.k + c0 - 1) / c0;
  const uint32_t n_blocks = (p.n + 15u) / 16u;
  const uint64_t a_need = uint64_t{m_padded / 16} * k_blocks * 16 * c0;
  const uint64_t b_need = uint64_t{k_blocks} * n_blocks * 16 * c0;
  const uint64_t c_need = uint64_t{n_blocks} * m_padded * 16;
  if (a_need > a.GetSize() || b_need > b.GetSize() || c_need > dst.GetSize()) {
    ::npud::ascendc::Fail(
        "Mmad: m=%u n=%u k=%u needs %llu, %llu and %llu elements of A, B and C; "
        "they have %u, %u and %u",
        p.m, p.n, p.k, static_cast<unsigned long long>(a_need),
        static_cast<unsigned long long>(b_need), static_cast<unsigned long long>(c_need),
        a.GetSize(), b.GetSize(), dst.GetSize());
  }
  // A as rows [m][k] and B as rows [n][k] of the accumulation type, converted once,
  // so the m x n x k loop is plain multiply-adds over contiguous rows (four partial
  // sums: the hardware's order of accumulation is not defined either).
  std::unique_ptr<Acc[]> rows_a(new Acc[uint64_t{p.m} * p.k]);
  std::unique_ptr<Acc[]> rows_b(new Acc[uint64_t{p.n} * p.k]);
  for (uint32_t m = 0; m < p.m; ++m) {
    for (uint32_t k = 0; k < p.k; ++k) {
      rows_a[uint64_t{m} * p.k + k] = static_cast<Acc>(
          a.Data()[(uint64_t{m / 16} * k_blocks + k / c0) * 16 * c0 + (m % 16) * c0 + k % c0]);
    }
  }
  for (uint32_t n = 0; n < p.n; ++n) {
    for (uint32_t k = 0; k < p.k; ++k) {
      rows_b[uint64_t{n} * p.k + k] = static_cast<Acc>(
          b.Data()[(uint64_t{k / c0} * n_blocks + n / 16) * 16 * c0 + (n % 16) * c0 + k % c0]);
    }
  }
  C* pc = dst.Data();
  for (uint32_t m = 0; m < p.m; ++m) {
    const Acc* ra = &rows_a[uint64_t{m} * p.k];
    for (uint32_t n = 0; n < p.n; ++n) {
      const Acc* rb = &rows_b[uint64_t{n} * p.k];
      Acc s0{}, s1{}, s2{}, s3{};
      uint32_t k = 0;
      for (; k + 4 <= p.k; k += 4) {
        s0 += ra[k] * rb[k];
        s1 += ra[k + 1] * rb[k + 1];
        s2 += ra[k + 2] * rb[k + 2];
        s3 += ra[k + 3] * rb[k + 3];
      }
      for (; k < p.k; ++k) s0 += ra[k] * rb[k];
      C& out = pc[(uint64_t{n / 16} * m_padded + m) * 16 + n % 16];
      const Acc sum = (s0 + s1) + (s2 + s3);
      out = static_cast<C>(p.cmatrixInitVal ? sum : static_cast<Acc>(out) + sum);
    }
  }
}

template <class T, class U>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
  const bool converts = !std::is_same_v<T, U>;
  const bool supported = (p.quantPre == QuantMode_t::NoQuant && !converts) ||
                         (p.quantPre == QuantMode_t::F322F16 && std::is_same_v<T, half>) ||
                         (p.quantPre == QuantMode_t::F322BF16 && std::is_same_v<T, bfloat16_t>);
  if (!supported) {
    ::npud::ascendc::Fail(
        "Fixpipe: quantPre %d from %zu-byte to %zu-byte elements is not "
        "simulated (NoQuant, F322F16 and F322BF16 are)",
        static_cast<int>(p.quantPre), sizeof(U), sizeof(T));
  }
  T* out = dst.GetPhyAddr();
  const U* in = src.Data();
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    for (uint32_t m = 0; m < p.mSize; ++m) {
      for (uint32_t n = 0; n < p.nSize; ++n) {
        const uint64_t from =
            uint64_t{nd} * p.srcNdStride * 16 + (uint64_t{n / 16} * p.srcStride + m) * 16 + n % 16;
        if (from >= src.GetSize()) {
          ::npud::ascendc::Fail(
              "Fixpipe: element (%u, %u) is at %llu, beyond the %u elements of "
              "the source",
              m, n, static_cast<unsigned long long>(from), src.GetSize());
        }
        U v = in[from];
        if (p.reluEn && v < U{}) v = U{};
        T& to = out[uint64_t{nd} * p.dstNdStride + uint64_t{m} * p.dstStride + n];
        if constexpr (std::is_same_v<T, U>) {
          to = v;
        } else {
          to = static_cast<T>(static_cast<float>(v));
        }
      }
    }
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CUBE_H_
