// data_copy.h: DataCopy and DataCopyPad between GM and on-chip buffers, and the atomic
// modes of UB->GM copies.
//
// DataCopy(dst, src, count) copies `count` elements GM->local, local->GM or
// local->local. count * sizeof(T) must be a multiple of 32 bytes: upstream's CPU mode
// asserts this (the NPU silently rounds down), and so does the simulator (trap kind 1).
//
// DataCopy(dst, src, DataCopyParams{blockCount, blockLen, srcStride, dstStride})
// copies blockCount bursts of blockLen 32-byte blocks; the strides are the gaps, in
// 32-byte blocks, between the end of one burst and the start of the next on each side.
//
// DataCopyPad moves unaligned lengths (blockLen in bytes):
//   GM->local: burst i reads blockLen bytes at src + i * (blockLen + srcStride bytes)
//     and writes them `leftPadding` elements into a local row; rows are the padded
//     length rounded up to 32 bytes, plus dstStride 32-byte blocks, apart. With isPad
//     the left and right padding elements are set to paddingValue, without it to the
//     value of SetPadValue(v) if the block set one; other bytes of the row keep their
//     contents.
//   local->GM: burst i reads blockLen bytes from local rows of blockLen rounded up to
//     32 bytes plus srcStride 32-byte blocks, and writes them at
//     dst + i * (blockLen + dstStride bytes).
//
// Copy(dst, src, mask or mask[2], repeatTime, CopyRepeatParams) is the vector unit's
// local->local copy of 16- and 32-bit elements, a level-0 instruction (repeat.h,
// vector_mask.h): dstStride/srcStride are its block strides, dstRepeatSize/
// srcRepeatSize its repeat strides (at most 4095), all in 32-byte blocks; unmasked
// lanes keep their contents. Unlike the other level-0 instructions, in counter mode
// the count is per repeat and repeatTime still counts: each repeat copies `count`
// elements, over as many blocks as they fill.
//
// Checks on the local side (trap kind 1), as upstream's CPU mode: the tensor starts
// 32-byte aligned and the copy fits in it. GM is not bounds-checked.
//
// SetAtomicAdd<T>() / SetAtomicMax<T>() / SetAtomicMin<T>() make the block's following
// local->GM copies combine element-wise with GM atomically (other blocks may write the
// same elements concurrently) until SetAtomicNone(). Each kernel starts with none.
#ifndef NPUD_ASCENDC_DATA_COPY_H_
#define NPUD_ASCENDC_DATA_COPY_H_

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/store_atomic_config.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"

namespace AscendC {

struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src_stride, uint16_t dst_stride)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride) {}

  uint16_t blockCount = 1;
  uint16_t blockLen = 0;  // 32-byte blocks per burst (bytes for DataCopyPad)
  // The gaps after each source / destination burst, under their newer names too.
  union {
    uint16_t srcGap = 0;
    uint16_t srcStride;
  };
  union {
    uint16_t dstGap = 0;
    uint16_t dstStride;
  };
};

struct DataCopyExtParams {
  DataCopyExtParams() = default;
  // All five, as upstream's: a braced {count, len, src, dst} is a DataCopyParams.
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src_stride, uint32_t dst_stride,
                    uint32_t reserved)
      : blockCount(count),
        blockLen(len),
        srcStride(src_stride),
        dstStride(dst_stride),
        rsv(reserved) {}

  uint16_t blockCount = 1;
  uint32_t blockLen = 0;  // bytes per burst
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

template <class T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}

  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue = T(0);
};

// The older form of DataCopyPadExtParams, with the padding value as raw bits.
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}

  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

// Brace order {dstStride, srcStride, dstRepeatSize, srcRepeatSize}.
struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn,
                   const uint16_t dstRepeatSizeIn, const uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}

  // Upstream's defaults, kept so that a kernel relying on them behaves as on the NPU:
  // block strides of 0 put every block of a repeat on the same 32 bytes.
  uint16_t dstStride = 0;
  uint16_t srcStride = 0;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace npud::ascendc {

using AscendC::GlobalTensor;
using AscendC::LocalTensor;

// Local tensors must start on a 32-byte boundary of their buffer pool.
template <class T>
void CheckLocalAligned(const char* op, const LocalTensor<T>& t, const char* role) {
  const NpudBlockContext* ctx = Context();
  uintptr_t addr = reinterpret_cast<uintptr_t>(t.Data());
  if (ctx != nullptr) {
    const uintptr_t ub = reinterpret_cast<uintptr_t>(ctx->ub_base);
    if (addr >= ub && addr < ub + ctx->ub_size) addr -= ub;
  }
  if (addr % 32 != 0) {
    Fail("%s: the %s local tensor (position %s) does not start at a 32-byte aligned address", op,
         role, AscendC::PositionName(t.Position()));
  }
}

template <class T>
void CheckLocalFits(const char* op, const LocalTensor<T>& t, uint64_t bytes, const char* role) {
  const uint64_t have = ElementBytes<T>(t.GetSize());
  if (bytes > have) {
    Fail("%s: the copy needs %llu bytes of the %s local tensor (position %s), which has only %llu",
         op, static_cast<unsigned long long>(bytes), role, AscendC::PositionName(t.Position()),
         static_cast<unsigned long long>(have));
  }
}

template <class T>
uint64_t CheckedCountBytes(const char* op, uint32_t count) {
  const uint64_t bytes = ElementBytes<T>(count);
  if (bytes % 32 != 0) {
    Fail("%s: count %u x %zu-byte elements = %llu bytes is not a multiple of 32 bytes", op, count,
         sizeof(T), static_cast<unsigned long long>(bytes));
  }
  return bytes;
}

template <class T>
T Combine(T old_value, T value, AtomicMode mode) {
  switch (mode) {
    case AtomicMode::kAdd:
      return AddOf(old_value, value);
    case AtomicMode::kMax:
      return MaxOf(old_value, value);
    case AtomicMode::kMin:
      return MinOf(old_value, value);
    case AtomicMode::kNone:
      break;
  }
  return value;
}

// Combines n elements of src into dst under the block's atomic mode, atomically.
template <class T>
void AtomicStore(T* dst, const T* src, uint64_t n, AtomicMode mode) {
  for (uint64_t i = 0; i < n; ++i) {
    T cur;
    __atomic_load(dst + i, &cur, __ATOMIC_RELAXED);
    T next = Combine(cur, src[i], mode);
    while (!__atomic_compare_exchange(dst + i, &cur, &next, false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED)) {
      next = Combine(cur, src[i], mode);
    }
  }
}

// Copies of at least this many bytes to GM bypass the CPU caches.
constexpr uint64_t kStreamingStoreBytes = 16 * 1024;

// memcpy to GM. Large copies use non-temporal stores, as the device's copy
// engine writes HBM: the destination is not read into the cache first, which
// saves a quarter of the memory traffic of a kernel streaming through GM.
// Small copies stay cached, since a kernel often reads them back soon. The
// fence makes the bytes visible to other cores before the copy returns, as
// ordinary stores would be.
inline void CopyToGm(void* dst, const void* src, uint64_t bytes) {
#if defined(__SSE2__)
  if (bytes >= kStreamingStoreBytes) {
    auto* d = static_cast<uint8_t*>(dst);
    auto* s = static_cast<const uint8_t*>(src);
    const uint64_t head = (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16;
    std::memcpy(d, s, head);
    d += head;
    s += head;
    bytes -= head;
    for (; bytes >= 64; bytes -= 64, d += 64, s += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
      const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(d), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), e);
    }
    _mm_sfence();
    std::memcpy(d, s, bytes);
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

// Stores `bytes` bytes (whole elements) of local data to GM under the atomic mode.
template <class T>
void StoreToGm(T* dst, const T* src, uint64_t bytes) {
  const AtomicMode mode = tls_block.atomic;
  if (mode == AtomicMode::kNone) {
    CopyToGm(dst, src, bytes);
  } else {
    AtomicStore(dst, src, bytes / sizeof(T), mode);
  }
}

// The unit of blockLen and the strides of a local -> local burst copy: 64 bytes into
// the bias table (L1 -> BT), 128 into the fixpipe buffer (L1 -> FB), else a 32-byte
// block.
inline uint64_t LocalBurstUnit(AscendC::TPosition src, AscendC::TPosition dst) {
  using AscendC::TPosition;
  const bool from_l1 = PoolOf(src) == Pool::kL1;
  if (from_l1 && dst == TPosition::C2) return 64;
  if (from_l1 && (dst == TPosition::C2PIPE2GM || dst == TPosition::C2PIPE2LOCAL)) return 128;
  return 32;
}

// Burst copy: `count` bursts of `len` bytes, bursts `src_pitch` / `dst_pitch` apart.
inline void CopyBursts(uint8_t* dst, const uint8_t* src, uint32_t count, uint64_t len,
                       uint64_t src_pitch, uint64_t dst_pitch) {
  for (uint32_t i = 0; i < count; ++i) std::memmove(dst + i * dst_pitch, src + i * src_pitch, len);
}

// Bytes a burst pattern spans: (count - 1) pitches plus one burst.
inline uint64_t BurstExtent(uint32_t count, uint64_t len, uint64_t pitch) {
  return count == 0 ? 0 : (count - 1) * pitch + len;
}

template <class T>
void CopyRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LaneMask& m,
                uint32_t repeat_times, const AscendC::CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy takes 16- or 32-bit elements");
  // The repeat strides are 12-bit fields of the instruction.
  constexpr uint16_t kMaxRepeatSize = 4095;
  if (p.dstRepeatSize > kMaxRepeatSize || p.srcRepeatSize > kMaxRepeatSize) {
    Fail("Copy: repeat sizes (destination %u, source %u blocks) exceed %u", p.dstRepeatSize,
         p.srcRepeatSize, kMaxRepeatSize);
  }
  CheckLocalAligned("Copy", dst, "destination");
  CheckLocalAligned("Copy", src, "source");
  const Strided<T> d("Copy", "destination", dst, p.dstStride, p.dstRepeatSize);
  const Strided<T> s("Copy", "source", src, p.srcStride, p.srcRepeatSize);
  if (!m.counter) {
    RunRepeats(m, repeat_times, LanesFor(sizeof(T)), d,
               [&](uint32_t r, uint32_t k) { return s.At(r, k); });
    return;
  }
  for (uint32_t r = 0; r < repeat_times; ++r) {
    for (uint64_t k = 0; k < m.count; ++k) {
      d.At(r, static_cast<uint32_t>(k)) = s.At(r, static_cast<uint32_t>(k));
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

// ---- count form ------------------------------------------------------------------

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  using namespace ::npud::ascendc;
  const uint64_t bytes = CheckedCountBytes<T>("DataCopy GM->local", count);
  CheckLocalAligned("DataCopy GM->local", dst, "destination");
  CheckLocalFits("DataCopy GM->local", dst, bytes, "destination");
  std::memcpy(dst.Data(), src.GetPhyAddr(), bytes);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  using namespace ::npud::ascendc;
  const uint64_t bytes = CheckedCountBytes<T>("DataCopy local->GM", count);
  CheckLocalAligned("DataCopy local->GM", src, "source");
  CheckLocalFits("DataCopy local->GM", src, bytes, "source");
  StoreToGm(dst.GetPhyAddr(), src.Data(), bytes);
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  using namespace ::npud::ascendc;
  const uint64_t bytes = CheckedCountBytes<T>("DataCopy local->local", count);
  CheckLocalAligned("DataCopy local->local", src, "source");
  CheckLocalAligned("DataCopy local->local", dst, "destination");
  CheckLocalFits("DataCopy local->local", src, bytes, "source");
  CheckLocalFits("DataCopy local->local", dst, bytes, "destination");
  std::memmove(dst.Data(), src.Data(), bytes);
}

// ---- burst form (DataCopyParams, units of 32-byte blocks) -------------------------

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  using namespace ::npud::ascendc;
  const uint64_t len = uint64_t{p.blockLen} * 32;
  const uint64_t dst_pitch = len + uint64_t{p.dstStride} * 32;
  CheckLocalAligned("DataCopy GM->local", dst, "destination");
  CheckLocalFits("DataCopy GM->local", dst, BurstExtent(p.blockCount, len, dst_pitch),
                 "destination");
  CopyBursts(reinterpret_cast<uint8_t*>(dst.Data()),
             reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), p.blockCount, len,
             len + uint64_t{p.srcStride} * 32, dst_pitch);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  using namespace ::npud::ascendc;
  const uint64_t len = uint64_t{p.blockLen} * 32;
  const uint64_t src_pitch = len + uint64_t{p.srcStride} * 32;
  const uint64_t dst_pitch = len + uint64_t{p.dstStride} * 32;
  CheckLocalAligned("DataCopy local->GM", src, "source");
  CheckLocalFits("DataCopy local->GM", src, BurstExtent(p.blockCount, len, src_pitch), "source");
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    StoreToGm(
        reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + i * dst_pitch),
        reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(src.Data()) + i * src_pitch),
        len);
  }
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  using namespace ::npud::ascendc;
  const uint64_t unit = LocalBurstUnit(src.Position(), dst.Position());
  const uint64_t len = uint64_t{p.blockLen} * unit;
  const uint64_t src_pitch = len + uint64_t{p.srcStride} * unit;
  const uint64_t dst_pitch = len + uint64_t{p.dstStride} * unit;
  CheckLocalAligned("DataCopy local->local", src, "source");
  CheckLocalAligned("DataCopy local->local", dst, "destination");
  CheckLocalFits("DataCopy local->local", src, BurstExtent(p.blockCount, len, src_pitch), "source");
  CheckLocalFits("DataCopy local->local", dst, BurstExtent(p.blockCount, len, dst_pitch),
                 "destination");
  CopyBursts(reinterpret_cast<uint8_t*>(dst.Data()), reinterpret_cast<const uint8_t*>(src.Data()),
             p.blockCount, len, src_pitch, dst_pitch);
}

// ---- DataCopyPad (blockLen in bytes) ----------------------------------------------

template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad) {
  using namespace ::npud::ascendc;
  constexpr const char* kOp = "DataCopyPad GM->local";
  if (p.blockLen % sizeof(T) != 0) {
    Fail("%s: blockLen %u is not a whole number of %zu-byte elements", kOp, p.blockLen, sizeof(T));
  }
  const uint64_t left = uint64_t{pad.leftPadding} * sizeof(T);
  const uint64_t right = uint64_t{pad.rightPadding} * sizeof(T);
  const uint64_t row = (left + p.blockLen + right + 31) / 32 * 32;
  const uint64_t dst_pitch = row + uint64_t{p.dstStride} * 32;
  CheckLocalAligned(kOp, dst, "destination");
  CheckLocalFits(kOp, dst, BurstExtent(p.blockCount, row, dst_pitch), "destination");
  uint8_t* out = reinterpret_cast<uint8_t*>(dst.Data());
  const uint8_t* in = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint8_t* at = out + i * dst_pitch;
    std::memmove(at + left, in + i * (uint64_t{p.blockLen} + p.srcStride), p.blockLen);
    // isPad pads with paddingValue, otherwise with SetPadValue's value if one was set.
    if (pad.isPad || tls_block.pad_set) {
      T value = pad.paddingValue;
      if (!pad.isPad) std::memcpy(&value, &tls_block.pad_bits, sizeof(T));
      for (uint32_t k = 0; k < pad.leftPadding; ++k)
        std::memcpy(at + k * sizeof(T), &value, sizeof(T));
      for (uint32_t k = 0; k < pad.rightPadding; ++k) {
        std::memcpy(at + left + p.blockLen + k * sizeof(T), &value, sizeof(T));
      }
    }
  }
}

template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& p) {
  using namespace ::npud::ascendc;
  constexpr const char* kOp = "DataCopyPad local->GM";
  if (p.blockLen % sizeof(T) != 0) {
    Fail("%s: blockLen %u is not a whole number of %zu-byte elements", kOp, p.blockLen, sizeof(T));
  }
  const uint64_t row = (uint64_t{p.blockLen} + 31) / 32 * 32;
  const uint64_t src_pitch = row + uint64_t{p.srcStride} * 32;
  CheckLocalAligned(kOp, src, "source");
  CheckLocalFits(kOp, src, BurstExtent(p.blockCount, p.blockLen, src_pitch), "source");
  uint8_t* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const uint8_t* in = reinterpret_cast<const uint8_t*>(src.Data());
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    StoreToGm(reinterpret_cast<T*>(out + i * (uint64_t{p.blockLen} + p.dstStride)),
              reinterpret_cast<const T*>(in + i * src_pitch), p.blockLen);
  }
}

template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad) {
  T value;
  std::memcpy(&value, &pad.paddingValue, sizeof(T));
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
              DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value));
}

template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  ::npud::ascendc::CopyRepeat(dst, src, ::npud::ascendc::MaskOfBits<isSetMask>(mask), repeatTime,
                              repeatParams);
}
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
          const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  ::npud::ascendc::CopyRepeat(dst, src, ::npud::ascendc::MaskOfLength<isSetMask>(mask), repeatTime,
                              repeatParams);
}

// ---- atomic modes of local->GM copies ---------------------------------------------

template <class T>
void SetAtomicAdd() {
  ::npud::ascendc::tls_block.atomic = ::npud::ascendc::AtomicMode::kAdd;
  ::npud::ascendc::tls_block.atomic_dtype = ::npud::ascendc::AtomicDtypeOf<T>();
}
template <class T>
void SetAtomicMax() {
  ::npud::ascendc::tls_block.atomic = ::npud::ascendc::AtomicMode::kMax;
  ::npud::ascendc::tls_block.atomic_dtype = ::npud::ascendc::AtomicDtypeOf<T>();
}
template <class T>
void SetAtomicMin() {
  ::npud::ascendc::tls_block.atomic = ::npud::ascendc::AtomicMode::kMin;
  ::npud::ascendc::tls_block.atomic_dtype = ::npud::ascendc::AtomicDtypeOf<T>();
}
inline void SetAtomicNone() {
  ::npud::ascendc::tls_block.atomic = ::npud::ascendc::AtomicMode::kNone;
}
inline void DisableDmaAtomic() { SetAtomicNone(); }

// The padding of the following DataCopyPad GM->local copies that do not ask for
// isPad themselves.
template <class T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue) {
  static_assert(sizeof(T) <= 8, "SetPadValue: element types of up to 8 bytes");
  ::npud::ascendc::tls_block.pad_set = true;
  ::npud::ascendc::tls_block.pad_bits = 0;
  std::memcpy(&::npud::ascendc::tls_block.pad_bits, &paddingValue, sizeof(T));
}
// The element type of the atomic copies is the copy's own; nothing to select.
template <class T>
void SetAtomicType() {}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_DATA_COPY_H_
