// tensor.h: TPosition and the two tensor views, GlobalTensor<T> and LocalTensor<T>.
//
// Both are views (pointer + element count); neither owns memory, and copies alias.
//   GlobalTensor<T>  global memory (GM): plain host memory shared by all blocks. GM
//                    accesses are not bounds-checked, as in upstream's CPU mode.
//   LocalTensor<T>   on-chip memory (UB, L1, L0*), handed out by TQue/TBuf from the
//                    block's buffers. Element accesses are checked against the view's
//                    size; a failure fails the block (trap kind 1).
// GetPhyAddr() returns the host address of the data (upstream's CPU mode does the
// same), so `(__ubuf__ T*)t.GetPhyAddr()` yields a usable pointer.
// A LocalTensor made from a raw address lives in the buffer its position names
// (PoolOf: VECIN/VECOUT/VECCALC in the UB, A1/B1/C1 in L1, A2 in L0A, B2 in L0B,
// CO1 in L0C, C2 in the bias table), at that byte offset of the buffer.
// Offsets and sizes count elements; for int4b_t an element is half a byte
// (int4b.h), so offsets are scaled by ElementBits rather than added to a T*.
#ifndef NPUD_ASCENDC_TENSOR_H_
#define NPUD_ASCENDC_TENSOR_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/int4b.h"
#include "npud_ascendc/onchip_buffers.h"
#include "npud_ascendc/qualifiers.h"
#include "npud_ascendc/shape_info.h"

namespace AscendC {

// Logical buffer positions, in upstream's declaration order.
enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;
using TTagType = int32_t;

inline const char* PositionName(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
      return "GM";
    case TPosition::A1:
      return "A1";
    case TPosition::A2:
      return "A2";
    case TPosition::B1:
      return "B1";
    case TPosition::B2:
      return "B2";
    case TPosition::C1:
      return "C1";
    case TPosition::C2:
      return "C2";
    case TPosition::CO1:
      return "CO1";
    case TPosition::CO2:
      return "CO2";
    case TPosition::VECIN:
      return "VECIN";
    case TPosition::VECOUT:
      return "VECOUT";
    case TPosition::VECCALC:
      return "VECCALC";
    case TPosition::SPM:
      return "SPM";
    case TPosition::TSCM:
      return "TSCM";
    case TPosition::C2PIPE2GM:
      return "C2PIPE2GM";
    case TPosition::C2PIPE2LOCAL:
      return "C2PIPE2LOCAL";
    case TPosition::MAX:
      break;
  }
  return "MAX";
}

}  // namespace AscendC

namespace npud::ascendc {

// The buffer a position's tensors live in (kNone for GM and the pipe positions).
inline Pool PoolOf(AscendC::TPosition pos) {
  using AscendC::TPosition;
  switch (pos) {
    case TPosition::VECIN:
    case TPosition::VECOUT:
    case TPosition::VECCALC:
    case TPosition::SPM:
    case TPosition::CO2:
      return Pool::kUB;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      return Pool::kL1;
    case TPosition::A2:
      return Pool::kL0A;
    case TPosition::B2:
      return Pool::kL0B;
    case TPosition::CO1:
      return Pool::kL0C;
    case TPosition::C2:
      return Pool::kBiasTable;
    default:
      return Pool::kNone;
  }
}

// `base` advanced by `count` elements of T (whole bytes; int4b_t offsets are even).
template <class T>
T* AdvanceElements(T* base, uint64_t count) {
  if constexpr (ElementBits<T> % 8 == 0) {
    return base + count;
  } else {
    using Byte = std::conditional_t<std::is_const_v<T>, const uint8_t, uint8_t>;
    return reinterpret_cast<T*>(reinterpret_cast<Byte*>(base) + count * ElementBits<T> / 8);
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;

  GlobalTensor() = default;

  // The tensor covers `size` elements from `buffer` (a host pointer into GM).
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t size) {
    addr_ = buffer;
    size_ = size;
  }
  void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

  // A view starting `offset` elements further on.
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor view;
    view.addr_ = ::npud::ascendc::AdvanceElements(addr_, offset);
    view.size_ = size_ > offset ? size_ - offset : 0;
    return view;
  }

  T GetValue(uint64_t offset) const { return addr_[offset]; }
  void SetValue(uint64_t offset, T value) const { addr_[offset] = value; }
  T& operator()(uint64_t offset) const { return addr_[offset]; }

  uint64_t GetSize() const { return size_; }
  __gm__ T* GetPhyAddr() const { return addr_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const {
    return ::npud::ascendc::AdvanceElements(addr_, offset);
  }

  template <class U>
  GlobalTensor<U> ReinterpretCast() const {
    GlobalTensor<U> out;
    out.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(addr_),
                        size_ * ::npud::ascendc::ElementBits<T> / ::npud::ascendc::ElementBits<U>);
    return out;
  }

  // L2 cache policy hints mean nothing on the CPU.
  template <class... A>
  void SetL2CacheHint(A...) const {}

 private:
  __gm__ T* addr_ = nullptr;
  uint64_t size_ = 0;
};

template <class T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  LocalTensor(const LocalTensor&) = default;
  LocalTensor& operator=(const LocalTensor&) = default;
  // dst = src0 + src1 and the other operators of tensor_expr.h: runs the operation
  // over the whole of this tensor.
  template <class Expr, class = decltype(&Expr::EvalInto)>
  LocalTensor& operator=(const Expr& expr) {
    expr.EvalInto(*this);
    return *this;
  }

  // A tensor at byte offset `addr` of the buffer `pos` names (the UB for positions
  // without one), `size` elements long (upstream's raw-address constructor). Fails
  // if it does not fit.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t size) : pos_(pos), size_(size) {
    using ::npud::ascendc::Pool;
    Pool pool = ::npud::ascendc::PoolOf(pos);
    if (pool == Pool::kNone) pool = Pool::kUB;
    const bool fixpipe = pos == TPosition::C2PIPE2GM || pos == TPosition::C2PIPE2LOCAL;
    uint8_t* base = fixpipe ? ::npud::ascendc::FixpipeBuffer() : ::npud::ascendc::PoolBase(pool);
    const uint64_t capacity =
        fixpipe ? ::npud::ascendc::kFixpipeBufferBytes : ::npud::ascendc::PoolCapacity(pool);
    const uint64_t end = uint64_t{addr} + ::npud::ascendc::ElementBytes<T>(size);
    if (base == nullptr || end > capacity) {
      ::npud::ascendc::Fail("LocalTensor: bytes [%u, %llu) are outside the %s of %llu bytes", addr,
                            static_cast<unsigned long long>(end),
                            fixpipe ? "fixpipe buffer" : ::npud::ascendc::PoolName(pool),
                            static_cast<unsigned long long>(capacity));
    }
    addr_ = reinterpret_cast<T*>(base + addr);
  }

  // Used by TQue/TBuf: a view of `size` elements at host address `addr`.
  static LocalTensor FromBuffer(TPosition pos, T* addr, uint32_t size) {
    LocalTensor t;
    t.pos_ = pos;
    t.addr_ = addr;
    t.size_ = size;
    return t;
  }

  // A view starting `offset` elements further on (and that much shorter).
  LocalTensor operator[](uint32_t offset) const {
    if (offset > size_) {
      ::npud::ascendc::Fail("LocalTensor[%u]: offset is beyond the tensor's %u elements", offset,
                            size_);
    }
    LocalTensor view = *this;
    view.addr_ = ::npud::ascendc::AdvanceElements(addr_, offset);
    view.size_ = size_ - offset;
    return view;
  }

  T GetValue(uint32_t index) const { return *At(index, "GetValue"); }
  void SetValue(uint32_t index, T value) const { *At(index, "SetValue") = value; }
  T& operator()(uint32_t index) const { return *At(index, "operator()"); }

  uint32_t GetSize() const { return size_; }
  void SetSize(uint32_t size) { size_ = size; }
  uint32_t GetLength() const {
    return static_cast<uint32_t>(::npud::ascendc::ElementBytes<T>(size_));
  }
  void SetBufferLen(uint32_t bytes) {
    size_ = static_cast<uint32_t>(uint64_t{bytes} * 8 / ::npud::ascendc::ElementBits<T>);
  }
  int32_t GetPosition() const { return static_cast<int32_t>(pos_); }
  TPosition Position() const { return pos_; }

  uint64_t GetPhyAddr() const { return reinterpret_cast<uint64_t>(addr_); }
  uint64_t GetPhyAddr(uint32_t offset) const {
    return reinterpret_cast<uint64_t>(::npud::ascendc::AdvanceElements(addr_, offset));
  }
  // The data pointer, for the simulator's own operations.
  T* Data() const { return addr_; }

  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>::FromBuffer(
        pos_, reinterpret_cast<U*>(addr_),
        static_cast<uint32_t>(uint64_t{size_} * ::npud::ascendc::ElementBits<T> /
                              ::npud::ascendc::ElementBits<U>));
  }

  void SetUserTag(TTagType tag) { tag_ = tag; }
  TTagType GetUserTag() const { return tag_; }
  // The shape the advanced APIs may read; views and copies carry it along.
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_; }

 private:
  T* At(uint32_t index, const char* what) const {
    if (index >= size_) {
      ::npud::ascendc::Fail("LocalTensor::%s(%u): index is beyond the tensor's %u elements", what,
                            index, size_);
    }
    return addr_ + index;
  }

  TPosition pos_ = TPosition::VECCALC;
  T* addr_ = nullptr;
  uint32_t size_ = 0;
  TTagType tag_ = 0;
  ShapeInfo shape_;
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_TENSOR_H_
