// topk.h: TopK, the k largest (or smallest) elements of each row with their indices.
//
//   TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValue, dstIndex, src,
//        srcIndex, finish[, sharedTmpBuffer], k, tiling, topKInfo, isLargest)
//     for each of topKInfo.outter rows of topKInfo.inner elements (the first n valid):
//       the k elements ordered by value, descending if isLargest else ascending, equal
//       values in their row order (the asc-devkit golden uses a stable argsort);
//       dstValue row r (k rounded up to 32 bytes of T) gets the values, dstIndex row r
//       (k rounded up to 8) their indices: the position in the row, or with
//       isInitIndex srcIndex at that position (TOPK_NORMAL: one index row for every
//       row; TOPK_NSMALL: one per row); with isHasfinish, a row whose finish flag is
//       set gets index n for all k (upstream's marker of a finished row).
//     The padding past k of each output row is left as it was.
// The tiling and the scratch buffer are not needed (TopKTilingFunc fills the tiling for
// kernels that pass it on). NaN orders above every number for isLargest.
// Checks (trap kind 1): 1 <= k <= n <= inner, the rows fit every tensor.
#ifndef NPUD_ASCENDC_TOPK_H_
#define NPUD_ASCENDC_TOPK_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/sort_config.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct TopKInfo {
  int32_t outter = 1;
  int32_t inner;
  int32_t n;
};

struct TopKConfig {};
inline constexpr TopKConfig defaultTopKConfig{};

}  // namespace AscendC

namespace npud::ascendc {

template <class T>
void TopKRows(const AscendC::LocalTensor<T>& dst_value,
              const AscendC::LocalTensor<int32_t>& dst_index, const AscendC::LocalTensor<T>& src,
              const AscendC::LocalTensor<int32_t>& src_index,
              const AscendC::LocalTensor<bool>& finish, int32_t k, const AscendC::TopKInfo& info,
              bool is_largest, bool init_index, bool has_finish, bool small_mode) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "TopK takes half or float values");
  const char* op = "TopK";
  if (info.outter < 0 || info.n < 1 || info.n > info.inner || k < 1 || k > info.n) {
    Fail("%s: k %d, n %d, inner %d, outter %d are not 1 <= k <= n <= inner", op, k, info.n,
         info.inner, info.outter);
  }
  const uint64_t rows = static_cast<uint64_t>(info.outter);
  const uint64_t inner = static_cast<uint64_t>(info.inner);
  constexpr uint32_t kValuesPerBlock = 32 / sizeof(T);
  const uint64_t value_pitch =
      (static_cast<uint64_t>(k) + kValuesPerBlock - 1) / kValuesPerBlock * kValuesPerBlock;
  const uint64_t index_pitch = (static_cast<uint64_t>(k) + 7) / 8 * 8;
  const uint64_t last = rows == 0 ? 0 : rows - 1;
  const uint64_t kk = static_cast<uint64_t>(k);
  if (rows * inner > src.GetSize() ||
      (rows != 0 && last * value_pitch + kk > dst_value.GetSize()) ||
      (rows != 0 && last * index_pitch + kk > dst_index.GetSize()) ||
      (init_index && (small_mode ? rows * inner : inner) > src_index.GetSize()) ||
      (has_finish && rows > finish.GetSize())) {
    Fail("%s: %llu rows of %llu (k %d) do not fit src, srcIndex, finish or the outputs", op,
         static_cast<unsigned long long>(rows), static_cast<unsigned long long>(inner), k);
  }
  std::vector<uint32_t> order(static_cast<size_t>(info.n));
  for (uint64_t r = 0; r < rows; ++r) {
    const T* row = src.Data() + r * inner;
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    auto before = [&](uint32_t a, uint32_t b) {
      const float x = static_cast<float>(row[a]), y = static_cast<float>(row[b]);
      if (std::isnan(x) || std::isnan(y))
        return is_largest ? std::isnan(x) && !std::isnan(y) : std::isnan(y) && !std::isnan(x);
      return is_largest ? x > y : x < y;
    };
    std::stable_sort(order.begin(), order.end(), before);
    const bool finished = has_finish && finish.Data()[r];
    for (int32_t i = 0; i < k; ++i) {
      const uint32_t p = order[static_cast<size_t>(i)];
      dst_value.Data()[r * value_pitch + i] = row[p];
      int32_t index = static_cast<int32_t>(p);
      if (init_index) index = src_index.Data()[(small_mode ? r * inner : 0) + p];
      if (finished) index = info.n;
      dst_index.Data()[r * index_pitch + i] = index;
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& /*tmpLocal*/,
          const int32_t k, const TopkTiling& /*tilling*/, const TopKInfo& topKInfo,
          const bool isLargest = true) {
  ::npud::ascendc::TopKRows(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, k,
                            topKInfo, isLargest, isInitIndex, isHasfinish,
                            topkMode == TopKMode::TOPK_NSMALL);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
          const TopKInfo& topKInfo, const bool isLargest = true) {
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, LocalTensor<uint8_t>(), k,
      tilling, topKInfo, isLargest);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_TOPK_H_
