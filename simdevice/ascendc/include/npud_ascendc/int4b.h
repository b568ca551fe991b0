// int4b.h: int4b_t, the cube's 4-bit signed integer, and how element offsets turn
// into byte offsets.
//
// Two int4b_t share a byte, the element with the even index in the low nibble (the
// packing the reference documents: 6 and 7 make 0x76). Tensors of int4b_t count
// elements, so offsets and sizes are in nibbles: tensor.h scales them with
// ElementBits, and the cube reads elements through LoadElement. sizeof(int4b_t) is
// 1 so that a lone value (a scalar, a pointer cast) still works.
#ifndef NPUD_ASCENDC_INT4B_H_
#define NPUD_ASCENDC_INT4B_H_

#include <cstdint>
#include <type_traits>

namespace AscendC {

struct int4b_t {
  int4b_t() = default;
  constexpr int4b_t(int v) : bits(static_cast<uint8_t>(v & 0xF)) {}  // NOLINT: a value type
  constexpr operator int() const { return (bits & 0x8) != 0 ? int{bits} - 16 : int{bits}; }
  uint8_t bits = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

// Bits of one element of T in on-chip and global memory (const or not).
template <class T>
inline constexpr uint64_t kStorageBits = 8 * sizeof(T);
template <>
inline constexpr uint64_t kStorageBits<AscendC::int4b_t> = 4;
template <class T>
inline constexpr uint64_t ElementBits = kStorageBits<std::remove_cv_t<T>>;

// Bytes that `count` elements of T take (a half byte rounds up).
template <class T>
constexpr uint64_t ElementBytes(uint64_t count) {
  return (count * ElementBits<T> + 7) / 8;
}

// Element `index` of the array of T at `base`, widened (int4b_t sign-extended).
template <class T>
auto LoadElement(const T* base, uint64_t index) {
  if constexpr (ElementBits<T> == 4) {
    const uint8_t byte = reinterpret_cast<const uint8_t*>(base)[index / 2];
    const int nibble = (index % 2 != 0 ? byte >> 4 : byte) & 0xF;
    return (nibble & 0x8) != 0 ? nibble - 16 : nibble;
  } else {
    return base[index];
  }
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_INT4B_H_
