// tpipe.h: TPipe (carves a block's on-chip memory into buffers), the queues TQue and
// TQueBind that pass those buffers between pipeline stages, and TBuf (scratch space).
//
// TPipe::InitBuffer(que, num, len) gives a queue `num` buffers of `len` bytes rounded
// up to 32, consecutively from the pool of the queue's position: VECIN, VECOUT,
// VECCALC, SPM and CO2 from the block's unified buffer (NpudBlockContext::ub_base,
// ub_size bytes); A1, B1, C1 and TSCM from L1; A2 from L0A; B2 from L0B; CO1 from
// L0C; C2 from the bias table (onchip_buffers.h: the running thread's buffers, the
// ones raw-address tensors and LocalMemAllocator reach too, sized as on the
// __NPU_ARCH__ chip). Like the NPU's, a TPipe starts at address 0 of every buffer,
// so two TPipes of one block alias. Checks, as upstream's CPU mode (each failure
// fails the block with trap kind 1): len > 0, num > 0, at most 64 buffers per TPipe,
// and the pool must not overflow ("... exceeds the unified buffer size ...").
//
// A queue's buffers go FREE -AllocTensor-> ALLOCATED -EnQue-> QUEUED -DeQue->
// DEQUEUED -FreeTensor-> FREE (FreeTensor also accepts ALLOCATED, EnQue also accepts
// DEQUEUED). At most `depth` tensors may be queued at once (all `num` if depth is 0).
// Anything else fails the block instead of hanging or corrupting data as it would on
// the NPU: allocating with every buffer in use, DeQue of an empty queue, EnQue beyond
// the depth or of a tensor not allocated from this queue, freeing twice or while
// queued, or using a queue before InitBuffer.
//
// All of these objects are confined to the block (thread) that created them.
#ifndef NPUD_ASCENDC_TPIPE_H_
#define NPUD_ASCENDC_TPIPE_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "npud_ascendc/check.h"
#include "npud_ascendc/onchip_buffers.h"
#include "npud_ascendc/sync.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"
#include "npud_ascendc/visibility.h"

namespace AscendC {
class TPipe;
struct DataCopyParams;
}  // namespace AscendC

namespace npud::ascendc {

NPUD_ASCENDC_HIDDEN inline constexpr uint32_t kMaxBuffersPerPipe = 64;  // upstream's TPipe limit

// The buffers TPipe::InitBuffer assigned to one queue or TBuf.
class BufferSet {
 public:
  uint32_t BufferLength() const { return len_; }
  uint32_t BufferCount() const { return num_; }

  // Buffer `index` of the set is `len` bytes at byte `addr` of the buffer `pool_pos`
  // names (how a TBufPool places a queue's buffers). The buffers of a set must
  // follow each other, as TPipe places them: the simulator keeps one base.
  void PlaceBuffer(AscendC::TPosition pool_pos, uint32_t index, uint32_t addr, uint32_t len) {
    const Pool pool = PoolOf(pool_pos);
    uint8_t* base = PoolBase(pool);
    if (base == nullptr || uint64_t{addr} + len > PoolCapacity(pool)) {
      Fail("InitBufHandle: bytes [%u, %llu) are outside the %s", addr,
           static_cast<unsigned long long>(uint64_t{addr} + len), PoolName(pool));
    }
    if (len != len_ || index >= num_) {
      Fail("InitBufHandle: buffer %u of %u bytes does not match InitStartBufHandle's %u of %u",
           index, len, num_, len_);
    }
    if (index == 0) {
      base_ = base + addr;
    } else if (base_ == nullptr || base + addr != base_ + uint64_t{index} * len_) {
      Fail(
          "InitBufHandle: buffer %u does not follow buffer %u (the simulator places a set's "
          "buffers one after another)",
          index, index - 1);
    }
  }

 protected:
  friend class AscendC::TPipe;

  explicit BufferSet(AscendC::TPosition pos) : pos_(pos) {}

  uint8_t* Buffer(uint32_t i) const { return base_ + uint64_t{i} * len_; }

  AscendC::TPosition pos_;
  uint8_t* base_ = nullptr;
  uint32_t len_ = 0;  // bytes per buffer, a multiple of 32
  uint32_t num_ = 0;
};

// The state machine of TQue/TQueBind, independent of element types.
class QueueCore : public BufferSet {
 public:
  // The start of placing the queue's buffers by hand (custom TBufPools): `num`
  // buffers of `len` bytes, every one free; InitBufHandle places each.
  template <class Handle>
  void InitStartBufHandle(Handle /*start*/, uint8_t num, uint32_t len) {
    num_ = num;
    len_ = len;
    base_ = nullptr;
    ResetQueue();
  }
  template <class BufPool, class Handle>
  void InitBufHandle(BufPool* /*pool*/, uint32_t index, Handle /*handle*/, uint32_t addr,
                     uint32_t len) {
    PlaceBuffer(BufPool::NpudPosition(), index, addr, len);
  }

 protected:
  QueueCore(AscendC::TPosition pos, int32_t depth) : BufferSet(pos), depth_(depth) {}

  uint8_t* Alloc() {
    RequireBound("AllocTensor");
    for (uint32_t i = 0; i < num_; ++i) {
      if (state_[i] == kFree) {
        state_[i] = kAllocated;
        return Buffer(i);
      }
    }
    Fail("TQue::AllocTensor: all %u buffers of the queue are in use (a FreeTensor is missing)",
         num_);
  }

  void Enqueue(const void* addr) {
    const uint32_t i = SlotOf(addr, "EnQue");
    if (state_[i] == kQueued) Fail("TQue::EnQue: buffer %u is already in the queue", i);
    if (state_[i] == kFree) Fail("TQue::EnQue: buffer %u is not allocated (AllocTensor first)", i);
    if (queued_ >= Capacity()) {
      Fail("TQue::EnQue: the queue already holds %u tensors, its depth (a DeQue is missing)",
           queued_);
    }
    fifo_[(head_ + queued_) % kMaxBuffersPerPipe] = static_cast<uint8_t>(i);
    ++queued_;
    state_[i] = kQueued;
  }

  uint8_t* Dequeue() {
    RequireBound("DeQue");
    if (queued_ == 0) Fail("TQue::DeQue: the queue is empty (an EnQue is missing)");
    const uint32_t i = fifo_[head_];
    head_ = (head_ + 1) % kMaxBuffersPerPipe;
    --queued_;
    state_[i] = kDequeued;
    return Buffer(i);
  }

  void Free(const void* addr) {
    const uint32_t i = SlotOf(addr, "FreeTensor");
    if (state_[i] == kFree) Fail("TQue::FreeTensor: buffer %u is already free (freed twice)", i);
    if (state_[i] == kQueued)
      Fail("TQue::FreeTensor: buffer %u is still in the queue (DeQue it first)", i);
    state_[i] = kFree;
  }

  uint32_t Queued() const { return queued_; }
  uint32_t Capacity() const { return depth_ > 0 ? static_cast<uint32_t>(depth_) : num_; }
  bool HasFree() const {
    for (uint32_t i = 0; i < num_; ++i) {
      if (state_[i] == kFree) return true;
    }
    return false;
  }

 private:
  friend class AscendC::TPipe;
  enum State : uint8_t { kFree = 0, kAllocated, kQueued, kDequeued };

  // Every buffer free, nothing queued: the state after (re-)initialisation.
  void ResetQueue() {
    std::memset(state_, 0, sizeof(state_));
    head_ = 0;
    queued_ = 0;
  }

  void RequireBound(const char* what) const {
    if (num_ == 0)
      Fail("TQue::%s: the queue has no buffers (TPipe::InitBuffer was not called)", what);
  }

  // The buffer a tensor passed back to the queue starts at.
  uint32_t SlotOf(const void* addr, const char* what) const {
    RequireBound(what);
    const uint8_t* p = static_cast<const uint8_t*>(addr);
    const uint64_t span = uint64_t{num_} * len_;
    if (p < base_ || p >= base_ + span || (p - base_) % len_ != 0) {
      Fail("TQue::%s: the tensor does not start at a buffer of this queue", what);
    }
    return static_cast<uint32_t>((p - base_) / len_);
  }

  int32_t depth_;
  uint8_t state_[kMaxBuffersPerPipe] = {};
  uint8_t fifo_[kMaxBuffersPerPipe] = {};
  uint32_t head_ = 0;
  uint32_t queued_ = 0;
};

// Base of TBuf, so that TPipe::InitBuffer(buf, len) only takes a TBuf.
class TBufCore : public BufferSet {
 public:
  template <class Handle>
  void InitStartBufHandle(Handle /*start*/, uint8_t num, uint32_t len) {
    num_ = num;
    len_ = len;
    base_ = nullptr;
  }
  template <class BufPool, class Handle>
  void InitBufHandle(BufPool* /*pool*/, uint32_t index, Handle /*handle*/, uint32_t addr,
                     uint32_t len) {
    PlaceBuffer(BufPool::NpudPosition(), index, addr, len);
  }

 protected:
  using BufferSet::BufferSet;
};

}  // namespace npud::ascendc

namespace AscendC {

// A queue whose tensors are produced at `src` and consumed at `dst`; its buffers live
// in the pool of `dst` (of `src` if dst is GM).
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public ::npud::ascendc::QueueCore {
 public:
  TQueBind() : QueueCore(dst == TPosition::GM ? src : dst, depth) {}
  TQueBind(const TQueBind&) = delete;
  TQueBind& operator=(const TQueBind&) = delete;

  template <class T>
  LocalTensor<T> AllocTensor() {
    return MakeTensor<T>(Alloc());
  }
  template <class T>
  bool EnQue(const LocalTensor<T>& tensor) {
    Enqueue(tensor.Data());
    return true;
  }
  template <class T>
  LocalTensor<T> DeQue() {
    return MakeTensor<T>(Dequeue());
  }
  template <class T>
  void FreeTensor(const LocalTensor<T>& tensor) {
    Free(tensor.Data());
  }

  bool VacantInQue() const { return Queued() < Capacity(); }
  bool HasTensorInQue() const { return Queued() != 0; }
  int32_t GetTensorCountInQue() const { return static_cast<int32_t>(Queued()); }
  bool HasIdleBuffer() const { return HasFree(); }
  void FreeAllEvent() {}

 private:
  template <class T>
  LocalTensor<T> MakeTensor(uint8_t* buffer) const {
    return LocalTensor<T>::FromBuffer(pos_, reinterpret_cast<T*>(buffer),
                                      len_ / static_cast<uint32_t>(sizeof(T)));
  }
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// A queue of L1 buffers a kernel fills itself (from `src`) for a Matmul operand at
// TPosition::TSCM.
template <TPosition src, int32_t depth = 1, auto mask = 0>
class TSCM : public TQueBind<src, TPosition::TSCM, depth, mask> {};

// One buffer of scratch space, without queue semantics.
template <TPosition pos = TPosition::VECCALC>
class TBuf : public ::npud::ascendc::TBufCore {
 public:
  TBuf() : TBufCore(pos) {}
  TBuf(const TBuf&) = delete;
  TBuf& operator=(const TBuf&) = delete;

  // The whole buffer.
  template <class T>
  LocalTensor<T> Get() {
    RequireBound("Get");
    return LocalTensor<T>::FromBuffer(pos, reinterpret_cast<T*>(base_),
                                      len_ / static_cast<uint32_t>(sizeof(T)));
  }
  // The first `count` elements.
  template <class T>
  LocalTensor<T> Get(uint32_t count) {
    return GetWithOffset<T>(count, 0);
  }
  // TBuf's queue-style spelling of Get() (kernels written for queues call it).
  template <class T>
  LocalTensor<T> AllocTensor() {
    return Get<T>();
  }
  // A TBuf's tensors are views of its one buffer: nothing to give back (upstream
  // accepts the call too).
  template <class T>
  void FreeTensor(const LocalTensor<T>& /*tensor*/) {}
  // `count` elements starting `offset` bytes into the buffer.
  template <class T>
  LocalTensor<T> GetWithOffset(uint32_t count, uint32_t offset) {
    RequireBound("GetWithOffset");
    const uint64_t end = uint64_t{offset} + uint64_t{count} * sizeof(T);
    if (end > len_) {
      ::npud::ascendc::Fail(
          "TBuf::Get: %u elements at byte offset %u need %llu bytes, the buffer has %u", count,
          offset, static_cast<unsigned long long>(end), len_);
    }
    return LocalTensor<T>::FromBuffer(pos, reinterpret_cast<T*>(base_ + offset), count);
  }

 private:
  void RequireBound(const char* what) const {
    if (num_ == 0)
      ::npud::ascendc::Fail("TBuf::%s: the buffer was not initialised (TPipe::InitBuffer)", what);
  }
};

class TPipe {
 public:
  // Becomes the block's pipe (GetTPipePtr) and, as upstream's, resets the core's
  // state (InitSocState).
  TPipe() {
    ::npud::ascendc::tls_block.pipe = this;
    SetMaskNorm();
    ResetMask();
    ::npud::ascendc::tls_block.atomic = ::npud::ascendc::AtomicMode::kNone;
  }
  ~TPipe() {
    Destroy();
    if (::npud::ascendc::tls_block.pipe == this) ::npud::ascendc::tls_block.pipe = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  // Gives `que` `num` buffers of `len` bytes (rounded up to 32) each.
  bool InitBuffer(::npud::ascendc::QueueCore& que, uint8_t num, uint32_t len) {
    Bind(que, num, len, "queue");
    que.ResetQueue();
    return true;
  }
  // Gives `buf` one buffer of `len` bytes (rounded up to 32).
  bool InitBuffer(::npud::ascendc::TBufCore& buf, uint32_t len) {
    Bind(buf, 1, len, "TBuf");
    return true;
  }

  // Gives a TBufPool (or a custom pool, EXTERN_IMPL_BUFPOOL) `len` bytes (rounded up
  // to 32) of the buffer its position names, to hand out further.
  template <class BufPool>
  bool InitBufPool(BufPool& bufPool, uint32_t len) {
    using ::npud::ascendc::Fail;
    const Pool pool = ::npud::ascendc::PoolOf(BufPool::NpudPosition());
    if (static_cast<int>(pool) >= static_cast<int>(Pool::kCount)) {
      Fail("TPipe::InitBufPool: position %s has no on-chip buffer",
           PositionName(BufPool::NpudPosition()));
    }
    const uint64_t aligned = (uint64_t{len} + 31) / 32 * 32;
    const uint64_t at = used_[static_cast<int>(pool)];
    if (len == 0 || at + aligned > PoolSize(pool)) {
      Fail("TPipe::InitBufPool: %u bytes at byte %llu exceed the %s size of %llu bytes", len,
           static_cast<unsigned long long>(at), ::npud::ascendc::PoolName(pool),
           static_cast<unsigned long long>(PoolSize(pool)));
    }
    bufPool.NpudBindRegion(static_cast<uint32_t>(at), static_cast<uint32_t>(aligned));
    used_[static_cast<int>(pool)] = at + aligned;
    return true;
  }
  // The same over the memory of `shareBuf`, which it shares (start and length).
  template <class BufPool, class Shared>
  bool InitBufPool(BufPool& bufPool, uint32_t len, Shared& shareBuf) {
    if (len > shareBuf.NpudRegionLength()) {
      ::npud::ascendc::Fail("TPipe::InitBufPool: %u bytes do not fit the %u of the shared pool",
                            len, shareBuf.NpudRegionLength());
    }
    bufPool.NpudBindRegion(shareBuf.NpudRegionStart(), shareBuf.NpudRegionLength());
    return true;
  }

  // Forgets every buffer handed out (queues keep dangling views until re-initialised).
  void Reset() {
    std::memset(used_, 0, sizeof(used_));
    buffers_ = 0;
  }
  void Destroy() { Reset(); }

  // The SPM buffer: GM a kernel spills UB data to (spm_buffer.h).
  template <class T>
  void InitSpmBuffer(const GlobalTensor<T>& workspace, const int32_t bufferSize);
  template <class T>
  void WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const DataCopyParams& copyParams,
                      int32_t writeOffset = 0);
  template <class T>
  void WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const int32_t writeSize,
                      int32_t writeOffset = 0);
  template <class T>
  void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const DataCopyParams& copyParams,
                     int32_t readOffset = 0);
  template <class T>
  void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const int32_t readSize,
                     int32_t readOffset = 0);
  uint8_t* spm_base_ = nullptr;  // InitSpmBuffer's workspace
  uint64_t spm_size_ = 0;

  template <HardEvent event>
  TEventID AllocEventID() {
    return static_cast<TEventID>(next_event_++ % 8);
  }
  template <HardEvent event>
  void ReleaseEventID(TEventID /*id*/) {}
  template <HardEvent event>
  TEventID FetchEventID() {
    return static_cast<TEventID>(next_event_ % 8);
  }
  TEventID FetchEventID(HardEvent /*event*/) { return static_cast<TEventID>(next_event_ % 8); }

  // The pool's space no buffer holds yet (PopStackBuffer): false if none is left.
  template <class T>
  bool RemainingBuffer(TPosition pos, LocalTensor<T>& out) {
    const Pool pool = ::npud::ascendc::PoolOf(pos);
    if (static_cast<int>(pool) >= static_cast<int>(Pool::kCount)) return false;
    const uint64_t at = used_[static_cast<int>(pool)];
    const uint64_t size = PoolSize(pool);
    if (at >= size) return false;
    out = LocalTensor<T>::FromBuffer(pos, reinterpret_cast<T*>(PoolBase(pool) + at),
                                     static_cast<uint32_t>((size - at) / sizeof(T)));
    return true;
  }

 private:
  using Pool = ::npud::ascendc::Pool;

  void Bind(::npud::ascendc::BufferSet& set, uint32_t num, uint32_t len, const char* what) {
    using ::npud::ascendc::Fail;
    const Pool pool = ::npud::ascendc::PoolOf(set.pos_);
    if (static_cast<int>(pool) >= static_cast<int>(Pool::kCount)) {
      Fail("TPipe::InitBuffer: a %s at position %s cannot have on-chip buffers", what,
           PositionName(set.pos_));
    }
    if (len == 0) Fail("TPipe::InitBuffer: the buffer length must be greater than 0");
    if (num == 0) Fail("TPipe::InitBuffer: the buffer count must be greater than 0");
    if (buffers_ + num > ::npud::ascendc::kMaxBuffersPerPipe) {
      Fail("TPipe::InitBuffer: %u more buffers would make %u, but a TPipe manages at most %u", num,
           buffers_ + num, ::npud::ascendc::kMaxBuffersPerPipe);
    }
    const uint64_t aligned = (uint64_t{len} + 31) / 32 * 32;
    const uint64_t need = aligned * num;
    const uint64_t size = PoolSize(pool);
    const uint64_t at = used_[static_cast<int>(pool)];
    if (at + need > size) {
      Fail(
          "TPipe::InitBuffer: %u buffers of %llu bytes need bytes [%llu, %llu), which exceeds the "
          "%s "
          "size of %llu bytes",
          num, static_cast<unsigned long long>(aligned), static_cast<unsigned long long>(at),
          static_cast<unsigned long long>(at + need), ::npud::ascendc::PoolName(pool),
          static_cast<unsigned long long>(size));
    }
    set.base_ = PoolBase(pool) + at;
    set.len_ = static_cast<uint32_t>(aligned);
    set.num_ = num;
    used_[static_cast<int>(pool)] = at + need;
    buffers_ += num;
  }

  uint64_t PoolSize(Pool pool) const {
    if (pool == Pool::kUB && ::npud::ascendc::Context() == nullptr) {
      ::npud::ascendc::Fail("TPipe::InitBuffer: called outside a kernel block");
    }
    return ::npud::ascendc::PoolCapacity(pool);
  }

  uint8_t* PoolBase(Pool pool) { return ::npud::ascendc::PoolBase(pool); }

  uint64_t used_[static_cast<int>(Pool::kCount)] = {};
  uint32_t buffers_ = 0;
  uint32_t next_event_ = 0;
};

}  // namespace AscendC

// The block's last constructed TPipe, or nullptr; a global function upstream, also
// found as AscendC::GetTPipePtr.
inline AscendC::TPipe* GetTPipePtr() {
  return static_cast<AscendC::TPipe*>(::npud::ascendc::tls_block.pipe);
}
namespace AscendC {
using ::GetTPipePtr;

// All the space left at `pos` of the block's TPipe, as one tensor.
template <class T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& popLocal) {
  TPipe* pipe = GetTPipePtr();
  return pipe != nullptr && pipe->RemainingBuffer(pos, popLocal);
}
}  // namespace AscendC

#endif  // NPUD_ASCENDC_TPIPE_H_
