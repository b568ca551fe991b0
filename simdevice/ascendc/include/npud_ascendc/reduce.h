// reduce.h: reductions.
//
//   ReduceSum(dst, src, work, count)                  dst[0] = src[0] + ... + src[count-1]
//   ReduceMax(dst, src, work, count, calIndex=false)  dst[0] = the largest element
//   ReduceMin(dst, src, work, count, calIndex=false)  dst[0] = the smallest element
//     and their level-0 forms (..., mask, repeatTime, srcRepStride[, calIndex])
//   ReduceDataBlock<SUM|MAX|MIN>  one result per 32-byte block of each repeat
//   ReduceRepeat<SUM|MAX|MIN>     one result per repeat (MAX/MIN: value and/or index,
//                                 in the ReduceOrder asked for)
//   ReducePairElem<SUM>           src[2k] + src[2k+1] for each pair of a repeat
//
// With calIndex (or an order with an index), the index is stored as the raw bits of
// an unsigned integer of T's size in an element of T (read it back by reinterpreting
// dst as uint16_t/uint32_t), as upstream documents; ORDER_ONLY_INDEX stores a uint32_t
// for half too. On ties the smallest index wins; NaNs are skipped.
//
// Additions happen as the hardware orders them, each rounded to T: within a block or a
// repeat as an adjacent-pair tree ((x0+x1)+(x2+x3))+...; the count form of ReduceSum
// then adds the repeats' sums in sequence, its level-0 form as a tree. Lanes the mask
// leaves out count as absent: a block or pair with no active lane is not written. The
// work tensor (upstream's scratch space) is not used; dst may overlap it.
// Checks (trap kind 1): count >= 1, src has count elements, dst has room for the result,
// level-0 operands stay inside their tensors.
#ifndef NPUD_ASCENDC_REDUCE_H_
#define NPUD_ASCENDC_REDUCE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"

namespace npud::ascendc {

template <class T>
void CheckReduce(const char* op, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, int32_t count, uint32_t dst_needed) {
  static_assert(kIsFloating<T>, "reductions take half, bfloat16_t or float tensors");
  if (count < 1) Fail("%s: count %d must be at least 1", op, count);
  if (static_cast<uint32_t>(count) > src.GetSize()) {
    Fail("%s: count %d exceeds the %u elements of the source tensor", op, count, src.GetSize());
  }
  if (dst.GetSize() < dst_needed) {
    Fail("%s: the destination tensor has %u elements, the result needs %u", op, dst.GetSize(),
         dst_needed);
  }
}

// The adjacent-pair tree sum of values[0..n) (n a power of two), each addition
// rounded to T. Overwrites values.
template <class T>
T TreeSum(ComputeOf<T>* values, uint32_t n) {
  for (uint32_t width = n; width > 1; width /= 2) {
    for (uint32_t i = 0; i < width / 2; ++i) {
      values[i] = Widen(Narrow<T>(values[2 * i] + values[2 * i + 1]));
    }
  }
  return Narrow<T>(values[0]);
}

// The active lanes of one repeat of a level-0 reduction, read through `src`.
template <class T>
struct RepeatValues {
  ComputeOf<T> v[256];
  bool active[256];
};
template <class T>
void ReadRepeat(const Strided<T>& src, uint32_t r, const uint64_t bits[2], uint32_t lanes,
                RepeatValues<T>* out) {
  for (uint32_t k = 0; k < lanes; ++k) {
    out->active[k] = (bits[k / 64] >> (k % 64)) & 1;
    out->v[k] = out->active[k] ? Widen(src.At(r, k)) : ComputeOf<T>(0);
  }
}

// The lane `better` prefers among the active lanes [begin, end) (NaNs skipped), or -1.
template <class T, class Better>
int32_t BestLane(const RepeatValues<T>& rv, uint32_t begin, uint32_t end, Better better) {
  int32_t best = -1;
  for (uint32_t k = begin; k < end; ++k) {
    if (!rv.active[k] || std::isnan(static_cast<float>(rv.v[k]))) continue;
    if (best < 0 || better(rv.v[k], rv.v[best])) best = static_cast<int32_t>(k);
  }
  return best;
}

// Writes `value` of type V at byte offset `byte` of dst, inside its bytes.
template <class T, class V>
void StoreBytes(const char* op, const AscendC::LocalTensor<T>& dst, uint64_t byte, V value) {
  if (byte + sizeof(V) > uint64_t{dst.GetSize()} * sizeof(T)) {
    Fail("%s: the result at byte %llu is beyond the destination's %u elements", op,
         static_cast<unsigned long long>(byte), dst.GetSize());
  }
  std::memcpy(reinterpret_cast<unsigned char*>(dst.Data()) + byte, &value, sizeof(V));
}

// Index of the element `better` prefers over all others (the first on ties).
template <class T, class Better>
uint32_t Extremum(const T* s, int32_t count, Better better) {
  int32_t best = -1;
  for (int32_t i = 0; i < count; ++i) {
    const float v = static_cast<float>(s[i]);
    if (std::isnan(v)) continue;
    if (best < 0 || better(v, static_cast<float>(s[best]))) best = i;
  }
  return best < 0 ? 0 : static_cast<uint32_t>(best);
}

// dst[0] = src[index], and with_index: dst[1] = the bits of index.
template <class T>
void StoreExtremum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   bool with_index, uint32_t index) {
  T* d = dst.Data();
  const T value = src.Data()[index];
  d[0] = value;
  if (with_index) {
    using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    const Bits bits = static_cast<Bits>(index);
    std::memcpy(static_cast<void*>(&d[1]), &bits, sizeof(bits));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

enum class ReduceType : uint8_t { SUM, MAX, MIN };
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX
};

}  // namespace AscendC

namespace npud::ascendc {

template <AscendC::ReduceType kType, class T>
constexpr void CheckReduceTypes() {
  static_assert(kIsFloating<T> && !std::is_same_v<T, bfloat16_t>,
                "level-0 reductions take half or float tensors");
}

// Keeps the running extreme of a MAX / MIN instruction in the block's registers
// (GetReduceRepeatMaxMinSpr).
template <AscendC::ReduceType kType>
void NoteExtreme(bool first, double value, uint64_t index) {
  const bool better = kType == AscendC::ReduceType::MAX ? value > tls_block.max_min_value
                                                        : value < tls_block.max_min_value;
  if (first || better) {
    tls_block.max_min_value = value;
    tls_block.max_min_index = index;
  }
}

// The extreme lane of a repeat for MAX / MIN.
template <AscendC::ReduceType kType, class T>
int32_t ExtremeLane(const RepeatValues<T>& rv, uint32_t begin, uint32_t end) {
  if constexpr (kType == AscendC::ReduceType::MAX) {
    return BestLane(rv, begin, end, [](auto a, auto b) { return a > b; });
  } else {
    return BestLane(rv, begin, end, [](auto a, auto b) { return a < b; });
  }
}

template <AscendC::ReduceType kType, class T, class U, bool kSetMask, class Mask>
void ReduceDataBlockImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                         Mask mask, int32_t repeat_times, int32_t dst_rep_stride,
                         int32_t src_blk_stride, int32_t src_rep_stride) {
  static_assert(std::is_same_v<T, U>, "ReduceDataBlock: dst and src have one type");
  CheckReduceTypes<kType, T>();
  constexpr uint32_t kLanes = LanesFor(sizeof(T));
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  const Strided<U> s("ReduceDataBlock", "source", src, static_cast<uint32_t>(src_blk_stride),
                     static_cast<uint32_t>(src_rep_stride));
  const LaneMask m = MaskOf<kSetMask>(mask);
  ForEachRepeat(m, static_cast<uint32_t>(repeat_times < 0 ? 0 : repeat_times), kLanes,
                [&](uint32_t r, const uint64_t bits[2]) {
                  RepeatValues<U> rv;
                  ReadRepeat(s, r, bits, kLanes, &rv);
                  for (uint32_t b = 0; b < 8; ++b) {
                    const uint32_t begin = b * kPerBlock, end = begin + kPerBlock;
                    bool any = false;
                    for (uint32_t k = begin; k < end; ++k) any = any || rv.active[k];
                    if (!any) continue;
                    T result;
                    if constexpr (kType == AscendC::ReduceType::SUM) {
                      result = TreeSum<T>(&rv.v[begin], kPerBlock);
                    } else {
                      const int32_t at = ExtremeLane<kType>(rv, begin, end);
                      result = at < 0 ? T(0) : Narrow<T>(rv.v[at]);
                    }
                    const uint64_t i = uint64_t{r} * static_cast<uint32_t>(dst_rep_stride) * 8 + b;
                    StoreBytes("ReduceDataBlock", dst, i * sizeof(T), result);
                  }
                });
}

template <AscendC::ReduceType kType, class T, class U, bool kSetMask, class Mask>
void ReduceRepeatImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                      Mask mask, int32_t repeat_times, int32_t dst_rep_stride,
                      int32_t src_blk_stride, int32_t src_rep_stride, AscendC::ReduceOrder order) {
  using AscendC::ReduceOrder;
  static_assert(std::is_same_v<T, U>, "ReduceRepeat: dst and src have one type");
  CheckReduceTypes<kType, T>();
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
  constexpr uint32_t kLanes = LanesFor(sizeof(T));
  const Strided<U> s("ReduceRepeat", "source", src, static_cast<uint32_t>(src_blk_stride),
                     static_cast<uint32_t>(src_rep_stride));
  const LaneMask m = MaskOf<kSetMask>(mask);
  // The bytes one repeat's result takes (the unit of dstRepStride).
  uint32_t unit = sizeof(T);
  if (kType != AscendC::ReduceType::SUM) {
    if (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE) {
      unit = 2 * sizeof(T);
    } else if (order == ReduceOrder::ORDER_ONLY_INDEX) {
      unit = 4;
    }
  }
  ForEachRepeat(m, static_cast<uint32_t>(repeat_times < 0 ? 0 : repeat_times), kLanes,
                [&](uint32_t r, const uint64_t bits[2]) {
                  RepeatValues<U> rv;
                  ReadRepeat(s, r, bits, kLanes, &rv);
                  const uint64_t at = uint64_t{r} * static_cast<uint32_t>(dst_rep_stride) * unit;
                  if constexpr (kType == AscendC::ReduceType::SUM) {
                    StoreBytes("ReduceRepeat", dst, at, TreeSum<T>(rv.v, kLanes));
                  } else {
                    const int32_t lane = ExtremeLane<kType>(rv, 0, kLanes);
                    if (lane < 0) return;
                    const T value = Narrow<T>(rv.v[lane]);
                    const Bits index = static_cast<Bits>(lane);
                    NoteExtreme<kType>(r == 0, static_cast<double>(rv.v[lane]),
                                       uint64_t{r} * kLanes + static_cast<uint32_t>(lane));
                    switch (order) {
                      case ReduceOrder::ORDER_VALUE_INDEX:
                        StoreBytes("ReduceRepeat", dst, at, value);
                        StoreBytes("ReduceRepeat", dst, at + sizeof(T), index);
                        break;
                      case ReduceOrder::ORDER_INDEX_VALUE:
                        StoreBytes("ReduceRepeat", dst, at, index);
                        StoreBytes("ReduceRepeat", dst, at + sizeof(T), value);
                        break;
                      case ReduceOrder::ORDER_ONLY_VALUE:
                        StoreBytes("ReduceRepeat", dst, at, value);
                        break;
                      case ReduceOrder::ORDER_ONLY_INDEX:
                        StoreBytes("ReduceRepeat", dst, at, static_cast<uint32_t>(lane));
                        break;
                    }
                  }
                });
}

template <class T, class U, bool kSetMask, class Mask>
void ReducePairElemImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                        Mask mask, int32_t repeat_times, int32_t dst_rep_stride,
                        int32_t src_blk_stride, int32_t src_rep_stride) {
  static_assert(std::is_same_v<T, U>, "ReducePairElem: dst and src have one type");
  CheckReduceTypes<AscendC::ReduceType::SUM, T>();
  constexpr uint32_t kLanes = LanesFor(sizeof(T));
  const Strided<U> s("ReducePairElem", "source", src, static_cast<uint32_t>(src_blk_stride),
                     static_cast<uint32_t>(src_rep_stride));
  const LaneMask m = MaskOf<kSetMask>(mask);
  ForEachRepeat(m, static_cast<uint32_t>(repeat_times < 0 ? 0 : repeat_times), kLanes,
                [&](uint32_t r, const uint64_t bits[2]) {
                  RepeatValues<U> rv;
                  ReadRepeat(s, r, bits, kLanes, &rv);
                  for (uint32_t k = 0; k < kLanes / 2; ++k) {
                    if (!rv.active[2 * k] && !rv.active[2 * k + 1]) continue;
                    const uint64_t i =
                        uint64_t{r} * static_cast<uint32_t>(dst_rep_stride) * (128 / sizeof(T)) + k;
                    StoreBytes("ReducePairElem", dst, i * sizeof(T),
                               Narrow<T>(rv.v[2 * k] + rv.v[2 * k + 1]));
                  }
                });
}

// The level-0 whole reductions: a repeat at a time (block stride 1), then across the
// repeats (a tree of sums, or the first extreme).
template <AscendC::ReduceType kType, class T, class Mask>
void ReduceAllImpl(const char* op, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src, Mask mask, int32_t repeat_times,
                   int32_t src_rep_stride, bool with_index) {
  CheckReduceTypes<kType, T>();
  constexpr uint32_t kLanes = LanesFor(sizeof(T));
  const Strided<T> s(op, "source", src, 1, static_cast<uint32_t>(src_rep_stride));
  const LaneMask m = MaskOf<true>(mask);
  if (dst.GetSize() < (with_index ? 2u : 1u)) Fail("%s: the destination tensor is too small", op);
  std::vector<ComputeOf<T>> sums;
  bool found = false;
  ComputeOf<T> best = 0;
  uint64_t best_index = 0;
  ForEachRepeat(m, static_cast<uint32_t>(repeat_times < 0 ? 0 : repeat_times), kLanes,
                [&](uint32_t r, const uint64_t bits[2]) {
                  RepeatValues<T> rv;
                  ReadRepeat(s, r, bits, kLanes, &rv);
                  if constexpr (kType == AscendC::ReduceType::SUM) {
                    sums.push_back(Widen(TreeSum<T>(rv.v, kLanes)));
                  } else {
                    const int32_t lane = ExtremeLane<kType>(rv, 0, kLanes);
                    if (lane < 0) return;
                    const bool better =
                        kType == AscendC::ReduceType::MAX ? rv.v[lane] > best : rv.v[lane] < best;
                    if (!found || better) {
                      found = true;
                      best = rv.v[lane];
                      best_index = uint64_t{r} * kLanes + static_cast<uint32_t>(lane);
                    }
                  }
                });
  if constexpr (kType == AscendC::ReduceType::SUM) {
    if (sums.empty()) return;
    // Pairs of neighbours, level by level; an odd one out goes up as it is.
    while (sums.size() > 1) {
      std::vector<ComputeOf<T>> next;
      for (size_t i = 0; i < sums.size(); i += 2) {
        next.push_back(i + 1 < sums.size() ? Widen(Narrow<T>(sums[i] + sums[i + 1])) : sums[i]);
      }
      sums.swap(next);
    }
    dst.Data()[0] = Narrow<T>(sums[0]);
  } else {
    if (!found) return;
    using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    NoteExtreme<kType>(true, static_cast<double>(best), best_index);
    StoreBytes(op, dst, 0, Narrow<T>(best));
    if (with_index) StoreBytes(op, dst, sizeof(T), static_cast<Bits>(best_index));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

// One result per block: dst[r * dstRepStride * 8 + b].
template <ReduceType reduceType, class T, class U, bool isSetMask = true>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                     const int32_t repeatTime, const int32_t dstRepStride,
                     const int32_t srcBlkStride, const int32_t srcRepStride) {
  ::npud::ascendc::ReduceDataBlockImpl<reduceType, T, U, isSetMask>(
      dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}
template <ReduceType reduceType, class T, class U, bool isSetMask = true>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                     const int32_t repeatTime, const int32_t dstRepStride,
                     const int32_t srcBlkStride, const int32_t srcRepStride) {
  ::npud::ascendc::ReduceDataBlockImpl<reduceType, T, U, isSetMask>(
      dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
}

// One result per repeat, at r * dstRepStride result slots.
template <ReduceType reduceType, class T, class U, bool isSetMask = true>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  ::npud::ascendc::ReduceRepeatImpl<reduceType, T, U, isSetMask>(
      dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
}
template <ReduceType reduceType, class T, class U, bool isSetMask = true>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  ::npud::ascendc::ReduceRepeatImpl<reduceType, T, U, isSetMask>(
      dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
}

// Sums of neighbouring pairs: dst[r * dstRepStride * (128 / sizeof(T)) + k].
template <ReduceType reduceType, class T, class U, bool isSetMask = true>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride) {
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem sums only");
  ::npud::ascendc::ReducePairElemImpl<T, U, isSetMask>(dst, src, mask, repeatTime, dstRepStride,
                                                       srcBlkStride, srcRepStride);
}
template <ReduceType reduceType, class T, class U, bool isSetMask = true>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride) {
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem sums only");
  ::npud::ascendc::ReducePairElemImpl<T, U, isSetMask>(dst, src, mask, repeatTime, dstRepStride,
                                                       srcBlkStride, srcRepStride);
}

// The level-0 forms of the whole reductions.
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride) {
  ::npud::ascendc::ReduceAllImpl<ReduceType::SUM>("ReduceSum", dst, src, mask, repeatTime,
                                                  srcRepStride, false);
}
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride) {
  ::npud::ascendc::ReduceAllImpl<ReduceType::SUM>("ReduceSum", dst, src, mask, repeatTime,
                                                  srcRepStride, false);
}
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,
               bool calIndex = false) {
  ::npud::ascendc::ReduceAllImpl<ReduceType::MAX>("ReduceMax", dst, src, mask, repeatTime,
                                                  srcRepStride, calIndex);
}
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,
               bool calIndex = false) {
  ::npud::ascendc::ReduceAllImpl<ReduceType::MAX>("ReduceMax", dst, src, mask, repeatTime,
                                                  srcRepStride, calIndex);
}
template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,
               bool calIndex = false) {
  ::npud::ascendc::ReduceAllImpl<ReduceType::MIN>("ReduceMin", dst, src, mask, repeatTime,
                                                  srcRepStride, calIndex);
}
template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,
               bool calIndex = false) {
  ::npud::ascendc::ReduceAllImpl<ReduceType::MIN>("ReduceMin", dst, src, mask, repeatTime,
                                                  srcRepStride, calIndex);
}

template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t count) {
  using namespace ::npud::ascendc;
  CheckReduce("ReduceSum", dst, src, count, 1);
  const T* s = src.Data();
  constexpr uint32_t kLanes = LanesFor(sizeof(T));
  ComputeOf<T> values[kLanes];
  T sum = T(0);
  for (int32_t at = 0; at < count; at += kLanes) {
    const uint32_t n = std::min<uint32_t>(kLanes, static_cast<uint32_t>(count - at));
    for (uint32_t k = 0; k < kLanes; ++k) values[k] = k < n ? Widen(s[at + k]) : ComputeOf<T>(0);
    sum = Narrow<T>(Widen(sum) + Widen(TreeSum<T>(values, kLanes)));
  }
  Level2Count<true>(count);
  tls_block.acc_val = static_cast<double>(Widen(sum));
  dst.Data()[0] = sum;
}

template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t count, bool calIndex = false) {
  using namespace ::npud::ascendc;
  CheckReduce("ReduceMax", dst, src, count, calIndex ? 2 : 1);
  const uint32_t at = Extremum(src.Data(), count, [](float a, float b) { return a > b; });
  tls_block.max_min_value = static_cast<double>(Widen(src.Data()[at]));
  tls_block.max_min_index = at;
  Level2Count<true>(count);
  StoreExtremum(dst, src, calIndex, at);
}

template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t count, bool calIndex = false) {
  using namespace ::npud::ascendc;
  CheckReduce("ReduceMin", dst, src, count, calIndex ? 2 : 1);
  const uint32_t at = Extremum(src.Data(), count, [](float a, float b) { return a < b; });
  tls_block.max_min_value = static_cast<double>(Widen(src.Data()[at]));
  tls_block.max_min_index = at;
  Level2Count<true>(count);
  StoreExtremum(dst, src, calIndex, at);
}

// The reduction registers.
template <class T>
T GetReduceRepeatSumSpr() {
  return T(::npud::ascendc::tls_block.acc_val);
}
template <class T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
  maxMinValue = T(::npud::ascendc::tls_block.max_min_value);
  const Bits bits = static_cast<Bits>(::npud::ascendc::tls_block.max_min_index);
  std::memcpy(static_cast<void*>(&maxMinIndex), &bits, sizeof(bits));
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_REDUCE_H_
