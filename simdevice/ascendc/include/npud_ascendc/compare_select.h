// compare_select.h: Compare, Compares and Select, the "count" forms.
//
//   Compare(dst, src0, src1, CMPMODE, count)        bit i of dst = src0[i] op src1[i]
//   Compares(dst, src0, scalar, CMPMODE, count)      bit i of dst = src0[i] op scalar
//   Select(dst, mask, src0, src1, VSEL_TENSOR_TENSOR_MODE | VSEL_CMPMASK_SPR, count)
//   Select(dst, mask, src0, scalar, VSEL_TENSOR_SCALAR_MODE, count)
//                                                   dst[i] = bit i of mask ? src0[i] : src1
//
// Masks are bit strings: element i is bit i % 8 of byte i / 8 of the mask tensor,
// whatever its element type (uint8_t, uint16_t, ...). As on the hardware, Compare
// and Compares work on whole 256-byte blocks: of `count`, only the elements that fill
// whole blocks are compared (the rest of dst is left as it was). Types: half and
// float with every mode, int32_t with EQ only (CANN's rule; others fail the block).
// half values compare as their float values.
//
//   Compare(src0, src1, CMPMODE, mask, BinaryRepeatParams)  one repeat's bits into the
//                                                   comparison mask register
//   GetCmpMask(dst) / SetCmpMask(src)               its 16 bytes, low word first
// Select with VSEL_CMPMASK_SPR takes the mask's first repeat of bits (256 / sizeof(T))
// for every repeat, as the hardware loads them into the register.
#ifndef NPUD_ASCENDC_COMPARE_SELECT_H_
#define NPUD_ASCENDC_COMPARE_SELECT_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE
};

}  // namespace AscendC

namespace npud::ascendc {

inline bool CompareValues(float a, float b, AscendC::CMPMODE mode) {
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return a < b;
    case AscendC::CMPMODE::GT:
      return a > b;
    case AscendC::CMPMODE::EQ:
      return a == b;
    case AscendC::CMPMODE::LE:
      return a <= b;
    case AscendC::CMPMODE::GE:
      return a >= b;
    case AscendC::CMPMODE::NE:
      return a != b;
  }
  return false;
}

// The elements Compare works on: those that fill whole 256-byte blocks.
template <class T>
int32_t WholeBlocks(int32_t count) {
  constexpr int32_t per_block = 256 / static_cast<int32_t>(sizeof(T));
  return count / per_block * per_block;
}

template <class T, class U>
void CheckMask(const char* op, const AscendC::LocalTensor<U>& mask, int32_t count,
               const char* role) {
  const uint64_t need = (static_cast<uint64_t>(count) + 7) / 8;
  if (uint64_t{mask.GetSize()} * sizeof(U) < need) {
    Fail("%s: %d elements need %llu bytes of the %s mask, which has %llu", op, count,
         static_cast<unsigned long long>(need), role,
         static_cast<unsigned long long>(uint64_t{mask.GetSize()} * sizeof(U)));
  }
}

template <class T, class U, class Rhs>
void CompareInto(const char* op, const AscendC::LocalTensor<U>& dst,
                 const AscendC::LocalTensor<T>& src0, Rhs rhs, AscendC::CMPMODE mode,
                 int32_t count) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                "Compare: the sources are half, float or int32_t");
  if (std::is_same_v<T, int32_t> && mode != AscendC::CMPMODE::EQ) {
    Fail("%s: int32_t sources compare with CMPMODE::EQ only", op);
  }
  CheckOperand(op, src0, count, "first source");
  const int32_t n = WholeBlocks<T>(count);
  CheckMask<T>(op, dst, n, "destination");
  uint8_t* bits = reinterpret_cast<uint8_t*>(dst.Data());
  for (int32_t i = 0; i < n; ++i) {
    const bool hit = std::is_same_v<T, int32_t> ? src0.Data()[i] == static_cast<T>(rhs(i))
                                                : CompareValues(static_cast<float>(src0.Data()[i]),
                                                                static_cast<float>(rhs(i)), mode);
    const uint8_t bit = static_cast<uint8_t>(1u << (i % 8));
    bits[i / 8] =
        hit ? static_cast<uint8_t>(bits[i / 8] | bit) : static_cast<uint8_t>(bits[i / 8] & ~bit);
  }
}

template <class T>
void CompareToRegister(const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                       AscendC::CMPMODE mode, const LaneMask& m,
                       const AscendC::BinaryRepeatParams& p) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Compare into the register: the sources are half or float");
  const Strided<T> a("Compare", "first source", src0, p.src0BlkStride, p.src0RepStride);
  const Strided<T> b("Compare", "second source", src1, p.src1BlkStride, p.src1RepStride);
  uint64_t bits[2] = {0, 0};
  ForEachRepeat(m, 1, LanesFor(sizeof(T)), [&](uint32_t r, const uint64_t active[2]) {
    if (r != 0) return;  // the register holds one repeat
    ForEachLane(active, [&](uint32_t k) {
      if (CompareValues(static_cast<float>(a.At(0, k)), static_cast<float>(b.At(0, k)), mode)) {
        bits[k / 64] |= uint64_t{1} << (k % 64);
      }
    });
  });
  tls_block.cmp_mask[0] = bits[0];
  tls_block.cmp_mask[1] = bits[1];
}

// Writes a 128-bit register's two words into the first 16 bytes of dst.
template <class U>
void StoreRegister16(const char* op, const AscendC::LocalTensor<U>& dst, const uint64_t words[2]) {
  if (uint64_t{dst.GetSize()} * sizeof(U) < 16)
    Fail("%s: the destination has fewer than 16 bytes", op);
  std::memcpy(dst.Data(), words, 16);
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, class U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE mode, uint32_t count) {
  ::npud::ascendc::CheckOperand("Compare", src1, static_cast<int32_t>(count), "second source");
  const T* b = src1.Data();
  ::npud::ascendc::CompareInto(
      "Compare", dst, src0, [b](int32_t i) { return b[i]; }, mode, static_cast<int32_t>(count));
}

template <class T, class U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
              typename ::npud::ascendc::NoDeduce<T>::type scalar, CMPMODE mode, uint32_t count) {
  ::npud::ascendc::CompareInto(
      "Compares", dst, src0, [scalar](int32_t) { return scalar; }, mode,
      static_cast<int32_t>(count));
}

template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE mode, uint32_t count) {
  if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    ::npud::ascendc::Fail(
        "Select: two source tensors go with VSEL_TENSOR_TENSOR_MODE or "
        "VSEL_CMPMASK_SPR");
  }
  const int32_t n = static_cast<int32_t>(count);
  ::npud::ascendc::CheckOperand("Select", dst, n, "destination");
  ::npud::ascendc::CheckOperand("Select", src0, n, "first source");
  ::npud::ascendc::CheckOperand("Select", src1, n, "second source");
  // VSEL_CMPMASK_SPR: the mask's first repeat of bits serves every repeat.
  const int32_t lanes = static_cast<int32_t>(::npud::ascendc::LanesFor(sizeof(T)));
  const bool per_repeat = mode == SELMODE::VSEL_CMPMASK_SPR;
  ::npud::ascendc::CheckMask<T>("Select", mask, per_repeat && n > lanes ? lanes : n, "selection");
  const uint8_t* bits = reinterpret_cast<const uint8_t*>(mask.Data());
  for (int32_t i = 0; i < n; ++i) {
    const int32_t bit = per_repeat ? i % lanes : i;
    dst.Data()[i] = (bits[bit / 8] >> (bit % 8)) & 1u ? src0.Data()[i] : src1.Data()[i];
  }
}

template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0,
            typename ::npud::ascendc::NoDeduce<T>::type scalar, SELMODE mode, uint32_t count) {
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    ::npud::ascendc::Fail(
        "Select: a scalar second source goes with "
        "SELMODE::VSEL_TENSOR_SCALAR_MODE");
  }
  const int32_t n = static_cast<int32_t>(count);
  ::npud::ascendc::CheckOperand("Select", dst, n, "destination");
  ::npud::ascendc::CheckOperand("Select", src0, n, "first source");
  ::npud::ascendc::CheckMask<T>("Select", mask, n, "selection");
  const uint8_t* bits = reinterpret_cast<const uint8_t*>(mask.Data());
  for (int32_t i = 0; i < n; ++i) {
    dst.Data()[i] = (bits[i / 8] >> (i % 8)) & 1u ? src0.Data()[i] : scalar;
  }
}

// One repeat compared into the comparison mask register.
template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask, const BinaryRepeatParams& repeatParams) {
  ::npud::ascendc::CompareToRegister(src0, src1, cmpMode,
                                     ::npud::ascendc::MaskOfLength<isSetMask>(mask), repeatParams);
}
template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], const BinaryRepeatParams& repeatParams) {
  ::npud::ascendc::CompareToRegister(src0, src1, cmpMode,
                                     ::npud::ascendc::MaskOfBits<isSetMask>(mask), repeatParams);
}

template <class T>
void GetCmpMask(const LocalTensor<T>& dst) {
  ::npud::ascendc::StoreRegister16("GetCmpMask", dst, ::npud::ascendc::tls_block.cmp_mask);
}
template <class T>
void SetCmpMask(const LocalTensor<T>& src) {
  if (uint64_t{src.GetSize()} * sizeof(T) < 16) {
    ::npud::ascendc::Fail("SetCmpMask: the source has fewer than 16 bytes");
  }
  std::memcpy(::npud::ascendc::tls_block.cmp_mask, src.Data(), 16);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_COMPARE_SELECT_H_
