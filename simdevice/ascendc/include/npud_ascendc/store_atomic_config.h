// store_atomic_config.h: the atomic configuration of local->GM stores as one register,
// SetStoreAtomicConfig<AtomicDtype, AtomicOp>() and GetStoreAtomicConfig(type, op).
//
// It is the state SetAtomicAdd/Max/Min<T> and SetAtomicNone set (data_copy.h):
// SetStoreAtomicConfig<ATOMIC_F16, ATOMIC_SUM>() is SetAtomicAdd<half>(), with
// ATOMIC_NONE SetAtomicNone(); GetStoreAtomicConfig reads back the type code (0 none,
// 1 float, 2 half, 3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t) and the operation
// (0 sum; 1 max and 2 min after SetAtomicMax/Min). The copies themselves combine
// elements of the copy's own type.
#ifndef NPUD_ASCENDC_STORE_ATOMIC_CONFIG_H_
#define NPUD_ASCENDC_STORE_ATOMIC_CONFIG_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/block_context.h"
#include "npud_ascendc/fp16.h"

namespace AscendC {

enum class AtomicDtype {
  ATOMIC_NONE = 0,
  ATOMIC_F32,
  ATOMIC_F16,
  ATOMIC_S16,
  ATOMIC_S32,
  ATOMIC_S8,
  ATOMIC_BF16,
};
enum class AtomicOp { ATOMIC_SUM = 0 };

}  // namespace AscendC

namespace npud::ascendc {

// The AtomicDtype code of an atomic store's element type (0 for the others).
template <class T>
constexpr uint8_t AtomicDtypeOf() {
  using AscendC::AtomicDtype;
  AtomicDtype d = AtomicDtype::ATOMIC_NONE;
  if constexpr (std::is_same_v<T, float>) d = AtomicDtype::ATOMIC_F32;
  if constexpr (std::is_same_v<T, half>) d = AtomicDtype::ATOMIC_F16;
  if constexpr (std::is_same_v<T, int16_t>) d = AtomicDtype::ATOMIC_S16;
  if constexpr (std::is_same_v<T, int32_t>) d = AtomicDtype::ATOMIC_S32;
  if constexpr (std::is_same_v<T, int8_t>) d = AtomicDtype::ATOMIC_S8;
  if constexpr (std::is_same_v<T, bfloat16_t>) d = AtomicDtype::ATOMIC_BF16;
  return static_cast<uint8_t>(d);
}

}  // namespace npud::ascendc

namespace AscendC {

template <AtomicDtype type, AtomicOp op>
void SetStoreAtomicConfig() {
  static_assert(op == AtomicOp::ATOMIC_SUM, "the store atomic operation is a sum");
  auto& block = ::npud::ascendc::tls_block;
  block.atomic = type == AtomicDtype::ATOMIC_NONE ? ::npud::ascendc::AtomicMode::kNone
                                                  : ::npud::ascendc::AtomicMode::kAdd;
  block.atomic_dtype = static_cast<uint8_t>(type);
}

inline void GetStoreAtomicConfig(uint16_t& atomicType, uint16_t& atomicOp) {
  const auto& block = ::npud::ascendc::tls_block;
  using ::npud::ascendc::AtomicMode;
  atomicType = block.atomic == AtomicMode::kNone ? 0 : block.atomic_dtype;
  atomicOp = block.atomic == AtomicMode::kMax ? 1 : block.atomic == AtomicMode::kMin ? 2 : 0;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_STORE_ATOMIC_CONFIG_H_
