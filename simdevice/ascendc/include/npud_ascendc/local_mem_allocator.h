// local_mem_allocator.h: LocalMemAllocator, the allocator of static tensor
// programming (no TPipe, no queues): each Alloc hands out the next piece of a
// physical buffer as a LocalTensor.
//
// Only the unified buffer (Hardware::UB, the default) is simulated here: its tensors
// are at increasing 32-byte aligned offsets of the block's UB from 0, so
// GetCurAddr() is what the NPU would report, and an Alloc beyond the UB fails the
// block ("outside the unified buffer"). The other buffers (L1, L0A/B/C, BIAS,
// FIXBUF) are a compile error that names them rather than a wrong result.
#ifndef NPUD_ASCENDC_LOCAL_MEM_ALLOCATOR_H_
#define NPUD_ASCENDC_LOCAL_MEM_ALLOCATOR_H_

#include <cstdint>

#include "npud_ascendc/tensor.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard == Hardware::UB,
                "npud: LocalMemAllocator supports Hardware::UB only (L1, L0A, L0B, L0C, BIAS and "
                "FIXBUF are not simulated for static tensor programming)");

 public:
  LocalMemAllocator() = default;

  uint32_t GetCurAddr() const { return next_; }

  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    return Alloc<TPosition::VECCALC, DataType>(tileSize);
  }
  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    return Alloc<pos, DataType>(tileSize);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) {
    return Alloc<TPosition::VECCALC, DataType>(tileSize);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) {
    const uint32_t addr = next_;
    LocalTensor<DataType> tensor(pos, addr, tileSize);  // fails the block if it does not fit
    const uint64_t end = uint64_t{addr} + uint64_t{tileSize} * sizeof(DataType);
    next_ = static_cast<uint32_t>((end + kAlign - 1) / kAlign * kAlign);
    return tensor;
  }

 private:
  static constexpr uint64_t kAlign = 32;
  uint32_t next_ = 0;
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LOCAL_MEM_ALLOCATOR_H_
