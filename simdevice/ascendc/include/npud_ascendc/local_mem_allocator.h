// local_mem_allocator.h: LocalMemAllocator, the allocator of static tensor
// programming (no TPipe, no queues): each Alloc hands out the next piece of a
// physical buffer as a LocalTensor.
//
// Tensors are handed out at increasing 32-byte aligned offsets of the buffer from
// 0, so GetCurAddr() is what the NPU would report, and every allocator of one
// buffer in a block starts at its address 0 (they alias, as on the NPU). The
// unified buffer (Hardware::UB, the default) is the block's (NpudBlockContext);
// L1, L0A, L0B, L0C and BIAS are memory of the running thread, sized as on the
// __NPU_ARCH__ chip (onchip_buffers.h: ThreadPool, FixedPoolSize). An Alloc beyond a buffer
// fails the block. FIXBUF is a compile error that names it.
#ifndef NPUD_ASCENDC_LOCAL_MEM_ALLOCATOR_H_
#define NPUD_ASCENDC_LOCAL_MEM_ALLOCATOR_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/onchip_buffers.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/tpipe.h"

namespace AscendC {
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };
}  // namespace AscendC

namespace npud::ascendc {

constexpr Pool PoolOfHardware(AscendC::Hardware hard) {
  switch (hard) {
    case AscendC::Hardware::UB:
      return Pool::kUB;
    case AscendC::Hardware::L1:
      return Pool::kL1;
    case AscendC::Hardware::L0A:
      return Pool::kL0A;
    case AscendC::Hardware::L0B:
      return Pool::kL0B;
    case AscendC::Hardware::L0C:
      return Pool::kL0C;
    case AscendC::Hardware::BIAS:
      return Pool::kBiasTable;
    default:
      return Pool::kNone;
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static constexpr ::npud::ascendc::Pool kPool = ::npud::ascendc::PoolOfHardware(hard);
  static_assert(kPool != ::npud::ascendc::Pool::kNone,
                "npud: LocalMemAllocator supports Hardware::UB, L1, L0A, L0B, L0C and BIAS "
                "(FIXBUF is not simulated)");

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
    const uint64_t end = uint64_t{addr} + uint64_t{tileSize} * sizeof(DataType);
    next_ = static_cast<uint32_t>((end + kAlign - 1) / kAlign * kAlign);
    if constexpr (kPool == ::npud::ascendc::Pool::kUB) {
      return LocalTensor<DataType>(pos, addr, tileSize);  // fails the block if it does not fit
    } else {
      const uint64_t capacity = ::npud::ascendc::FixedPoolSize(kPool);
      if (end > capacity) {
        ::npud::ascendc::Fail(
            "LocalMemAllocator::Alloc: bytes [%u, %llu) are outside the %s of "
            "%llu bytes",
            addr, static_cast<unsigned long long>(end), ::npud::ascendc::PoolName(kPool),
            static_cast<unsigned long long>(capacity));
      }
      return LocalTensor<DataType>::FromBuffer(
          pos, reinterpret_cast<DataType*>(::npud::ascendc::ThreadPool<kPool>() + addr), tileSize);
    }
  }

 private:
  static constexpr uint64_t kAlign = 32;
  uint32_t next_ = 0;
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LOCAL_MEM_ALLOCATOR_H_
