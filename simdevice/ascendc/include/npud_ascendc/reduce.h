// reduce.h: whole-tensor reductions into dst[0], "count" forms.
//
//   ReduceSum(dst, src, work, count)                  dst[0] = src[0] + ... + src[count-1]
//   ReduceMax(dst, src, work, count, calIndex=false)  dst[0] = the largest element
//   ReduceMin(dst, src, work, count, calIndex=false)  dst[0] = the smallest element
//
// With calIndex, dst[1] holds the (first, i.e. smallest) index of that element, stored
// as the raw bits of an unsigned integer of T's size (read it back by reinterpreting
// dst as uint16_t/uint32_t), as upstream documents. ReduceSum adds in double and rounds
// once to T; the NPU adds in a tree of T-precision additions, so for inputs whose sum
// is not exact the last bits may differ. NaNs are skipped by ReduceMax/ReduceMin. The
// work tensor (upstream's scratch space) is not used or checked; dst may overlap it.
// Checks (trap kind 1): count >= 1, src has count elements, dst has room for the result.
#ifndef NPUD_ASCENDC_REDUCE_H_
#define NPUD_ASCENDC_REDUCE_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"

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

template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t count) {
  using namespace ::npud::ascendc;
  CheckReduce("ReduceSum", dst, src, count, 1);
  const T* s = src.Data();
  double sum = 0;
  for (int32_t i = 0; i < count; ++i) sum += static_cast<double>(Widen(s[i]));
  dst.Data()[0] = T(sum);
}

template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t count, bool calIndex = false) {
  using namespace ::npud::ascendc;
  CheckReduce("ReduceMax", dst, src, count, calIndex ? 2 : 1);
  const uint32_t at = Extremum(src.Data(), count, [](float a, float b) { return a > b; });
  StoreExtremum(dst, src, calIndex, at);
}

template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& /*work*/,
               const int32_t count, bool calIndex = false) {
  using namespace ::npud::ascendc;
  CheckReduce("ReduceMin", dst, src, count, calIndex ? 2 : 1);
  const uint32_t at = Extremum(src.Data(), count, [](float a, float b) { return a < b; });
  StoreExtremum(dst, src, calIndex, at);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_REDUCE_H_
