// onchip_buffers.h: the on-chip buffers of an AI core and which TPosition names
// which of them, so that every way of reaching a buffer (TPipe::InitBuffer, a
// LocalMemAllocator, the raw-address LocalTensor(pos, addr, size) constructor)
// reaches the same bytes, as on the NPU: a tensor made at A1 address 0 and a
// queue's first A1 buffer alias.
//
// The unified buffer is the block's (NpudBlockContext::ub_base). L1, L0A, L0B,
// L0C and the bias table are memory of the running thread (one block runs on one
// thread at a time; cross_block.h saves them when a block waits), allocated once
// at the largest size of any simulated chip; FixedPoolSize is the size of the
// __NPU_ARCH__ chip, which is what the checks use.
#ifndef NPUD_ASCENDC_ONCHIP_BUFFERS_H_
#define NPUD_ASCENDC_ONCHIP_BUFFERS_H_

#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/qualifiers.h"
#include "npud_ascendc/visibility.h"

namespace npud::ascendc {

enum class Pool : uint8_t { kUB, kL1, kL0A, kL0B, kL0C, kBiasTable, kCount, kNone = kCount };

inline const char* PoolName(Pool pool) {
  switch (pool) {
    case Pool::kUB:
      return "unified buffer";
    case Pool::kL1:
      return "L1 buffer";
    case Pool::kL0A:
      return "L0A buffer";
    case Pool::kL0B:
      return "L0B buffer";
    case Pool::kL0C:
      return "L0C buffer";
    case Pool::kBiasTable:
      return "bias table";
    default:
      return "no buffer";
  }
}

// Capacity of the buffers that are not the executor's unified buffer, on the
// __NPU_ARCH__ chip.
inline uint64_t FixedPoolSize(Pool pool) {
  constexpr bool k310p = __NPU_ARCH__ == 2002;
  switch (pool) {
    case Pool::kL1:
      return k310p ? 1048576 : 524288;
    case Pool::kL0A:
    case Pool::kL0B:
      return 65536;
    case Pool::kL0C:
      return k310p ? 262144 : 131072;
    case Pool::kBiasTable:
      return 1024;
    default:
      return 0;
  }
}

// The running thread's copy of one of the buffers beside the UB, at the largest
// size of any chip (so one kernel object serves every arch it was built for).
template <Pool kPool>
constexpr uint64_t ThreadPoolBytes() {
  return kPool == Pool::kL1 ? 1048576 : kPool == Pool::kL0C ? 262144 : 65536;
}
template <Pool kPool>
NPUD_ASCENDC_HIDDEN uint8_t* ThreadPool() {
  alignas(64) static thread_local uint8_t pool[ThreadPoolBytes<kPool>()];
  tls_block.pools_used |= 1u << static_cast<uint32_t>(kPool);
  return pool;
}

// The first byte of `pool` for the running block, or nullptr for Pool::kNone (and
// for the UB outside a kernel).
inline uint8_t* PoolBase(Pool pool) {
  switch (pool) {
    case Pool::kUB:
      return Context() != nullptr ? Context()->ub_base : nullptr;
    case Pool::kL1:
      return ThreadPool<Pool::kL1>();
    case Pool::kL0A:
      return ThreadPool<Pool::kL0A>();
    case Pool::kL0B:
      return ThreadPool<Pool::kL0B>();
    case Pool::kL0C:
      return ThreadPool<Pool::kL0C>();
    case Pool::kBiasTable:
      return ThreadPool<Pool::kBiasTable>();
    default:
      return nullptr;
  }
}

// The fixpipe buffer (TPosition C2PIPE2GM / C2PIPE2LOCAL), which holds the
// per-column quantisation words of the fixpipe (fixpipe.h): 2 KiB on the 910B.
inline constexpr uint64_t kFixpipeBufferBytes = 2048;
NPUD_ASCENDC_HIDDEN inline uint8_t* FixpipeBuffer() {
  alignas(64) static thread_local uint8_t buffer[kFixpipeBufferBytes];
  return buffer;
}

// How many bytes of `pool` the running block may use.
inline uint64_t PoolCapacity(Pool pool) {
  if (pool == Pool::kUB) return Context() != nullptr ? Context()->ub_size : 0;
  return FixedPoolSize(pool);
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_ONCHIP_BUFFERS_H_
