// tbuf_pool.h: TBufPool, a region of one on-chip buffer that TPipe::InitBufPool (or a
// bigger TBufPool) gives out and that hands its bytes to queues, TBufs and smaller
// pools in turn; Reset takes them all back, so one region serves one stage of a
// kernel after another. Two pools made over the same memory (InitBufPool with a
// shared pool) alias, as on the NPU. EXTERN_IMPL_BUFPOOL lets a kernel write its own
// pool class on the same region (the reference's experimental custom pools).
//
// A pool holds at most bufIDSize buffers (16 at most); a request beyond the region
// or beyond that count fails the block.
#ifndef NPUD_ASCENDC_TBUF_POOL_H_
#define NPUD_ASCENDC_TBUF_POOL_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/tpipe.h"

namespace AscendC {
// What GetBufHandle returns: an opaque token the simulator does not read.
using TBufHandle = void*;
}  // namespace AscendC

namespace npud::ascendc {

// A pool's region: `len` bytes from byte `start` of its buffer, handed out from `cur`.
struct PoolRegion {
  uint32_t start = 0;
  uint32_t len = 0;
  uint32_t cur = 0;
  uint8_t count = 0;  // buffers handed out

  void Bind(uint32_t at, uint32_t bytes) {
    start = at;
    len = bytes;
    cur = at;
    count = 0;
  }
  // The next `bytes` (rounded up to 32) for `buffers` more buffers, at most `max` in all.
  uint32_t Take(const char* what, uint32_t bytes, uint32_t buffers, uint32_t max) {
    if (len == 0) Fail("TBufPool::%s: the pool was not initialised (InitBufPool)", what);
    const uint64_t aligned = (uint64_t{bytes} + 31) / 32 * 32;
    if (uint64_t{cur} + aligned > uint64_t{start} + len) {
      Fail("TBufPool::%s: %llu more bytes exceed the pool's %u bytes (%u in use)", what,
           static_cast<unsigned long long>(aligned), len, cur - start);
    }
    if (count + buffers > max) {
      Fail("TBufPool::%s: %u more buffers would make %u, beyond the pool's bufIDSize of %u", what,
           buffers, count + buffers, max);
    }
    const uint32_t at = cur;
    cur = static_cast<uint32_t>(cur + aligned);
    count = static_cast<uint8_t>(count + buffers);
    return at;
  }
};

}  // namespace npud::ascendc

namespace AscendC {

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
  static_assert(bufIDSize <= 16, "TBufPool: bufIDSize is at most 16");

 public:
  TBufPool() = default;
  TBufPool(const TBufPool&) = delete;
  TBufPool& operator=(const TBufPool&) = delete;

  // Gives `que` `num` buffers of `len` bytes (rounded up to 32) from the pool.
  template <class Queue>
  bool InitBuffer(Queue& que, uint8_t num, uint32_t len) {
    const uint32_t aligned = (len + 31) / 32 * 32;
    const uint32_t at = region_.Take("InitBuffer", aligned * num, num, bufIDSize);
    que.InitStartBufHandle(TBufHandle{}, num, aligned);
    for (uint32_t i = 0; i < num; ++i)
      que.InitBufHandle(this, i, TBufHandle{}, at + i * aligned, aligned);
    return true;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    const uint32_t aligned = (len + 31) / 32 * 32;
    const uint32_t at = region_.Take("InitBuffer", aligned, 1, bufIDSize);
    buf.InitStartBufHandle(TBufHandle{}, 1, aligned);
    buf.InitBufHandle(this, 0, TBufHandle{}, at, aligned);
    return true;
  }
  // Gives a smaller pool `len` bytes of this one (or the memory of `shareBuf`).
  template <class BufPool>
  bool InitBufPool(BufPool& bufPool, uint32_t len) {
    const uint32_t aligned = (len + 31) / 32 * 32;
    bufPool.NpudBindRegion(region_.Take("InitBufPool", aligned, 0, bufIDSize), aligned);
    return true;
  }
  template <class BufPool, class Shared>
  bool InitBufPool(BufPool& bufPool, uint32_t len, Shared& shareBuf) {
    if (len > shareBuf.NpudRegionLength()) {
      ::npud::ascendc::Fail("TBufPool::InitBufPool: %u bytes do not fit the %u of the shared pool",
                            len, shareBuf.NpudRegionLength());
    }
    bufPool.NpudBindRegion(shareBuf.NpudRegionStart(), shareBuf.NpudRegionLength());
    return true;
  }
  // Takes every buffer back (their tensors dangle until they are given out again).
  void Reset() { region_.Bind(region_.start, region_.len); }

  // The simulator's hooks for TPipe::InitBufPool and pools that share this one.
  static constexpr TPosition NpudPosition() { return pos; }
  void NpudBindRegion(uint32_t start, uint32_t len) { region_.Bind(start, len); }
  uint32_t NpudRegionStart() const { return region_.start; }
  uint32_t NpudRegionLength() const { return region_.len; }

 private:
  ::npud::ascendc::PoolRegion region_;
};

}  // namespace AscendC

// Inside a kernel's own pool class: the members the reference's macro provides
// (Reset, Init, GetBufHandle, Get/SetCurAddr, Get/SetCurBufSize) over a region of
// the buffer POSITION names, with room for BUFID_SIZE buffers. Addresses are byte
// offsets in that buffer, as TPipe::InitBufPool hands them out.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                         \
 public:                                                                               \
  void Reset() { npud_region_.Bind(npud_region_.start, npud_region_.len); }            \
  void Init() { npud_region_ = ::npud::ascendc::PoolRegion{}; }                        \
  ::AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                 \
    return &npud_handles_[offset < (BUFID_SIZE) ? offset : 0];                         \
  }                                                                                    \
  uint32_t GetCurAddr() { return npud_region_.cur; }                                   \
  void SetCurAddr(uint32_t curAddr) { npud_region_.cur = curAddr; }                    \
  uint8_t GetCurBufSize() { return npud_region_.count; }                               \
  void SetCurBufSize(uint8_t curBufSize) { npud_region_.count = curBufSize; }          \
  static constexpr ::AscendC::TPosition NpudPosition() { return POSITION; }            \
  void NpudBindRegion(uint32_t start, uint32_t len) { npud_region_.Bind(start, len); } \
  uint32_t NpudRegionStart() const { return npud_region_.start; }                      \
  uint32_t NpudRegionLength() const { return npud_region_.len; }                       \
                                                                                       \
 private:                                                                              \
  ::npud::ascendc::PoolRegion npud_region_;                                            \
  uint8_t npud_handles_[(BUFID_SIZE) > 0 ? (BUFID_SIZE) : 1] = {};                     \
                                                                                       \
 public:

#endif  // NPUD_ASCENDC_TBUF_POOL_H_
