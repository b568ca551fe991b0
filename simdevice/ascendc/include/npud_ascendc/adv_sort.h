// adv_sort.h: the advanced Sort of the Atlas A2 and its helpers Concat and Extract,
// over (score, index) pairs laid out as Sort32 writes them (sort.h: 8 bytes a pair,
// score in the low bytes, the uint32_t index in the high 4).
//
//   Concat(concat, src, tmp, repeatTime)   the A2 sorts the scores where they are:
//       concat becomes a view of src (the asc-devkit example passes an empty tensor).
//   Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)
//       repeatTime groups of 32 scores, each sorted descending with its indices into
//       32 pairs (Sort32); with isFullSort all 32 * repeatTime pairs are one
//       descending run. Equal scores keep their order (the lower position first).
//   Extract(dstValue, dstIndex, sorted, repeatTime)   repeatTime * 32 pairs back into
//       scores and indices.
//   GetSortLen<T>(n), GetSortOffset<T>(n): bytes of n pairs in units of T.
// tmp is not needed. The forms with a SortConfig (Ascend 950) are not simulated.
// Checks (trap kind 1): every element read or written lies inside its tensor.
#ifndef NPUD_ASCENDC_ADV_SORT_H_
#define NPUD_ASCENDC_ADV_SORT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "npud_ascendc/check.h"
#include "npud_ascendc/sort.h"
#include "npud_ascendc/sort_config.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& /*tmp*/,
            const int32_t repeatTime) {
  ::npud::ascendc::CheckOperand("Concat", src, repeatTime * 16, "source");
  concat = src;
}

template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat,
          const LocalTensor<uint32_t>& index, LocalTensor<T>& /*tmp*/, const int32_t repeatTime) {
  using namespace ::npud::ascendc;
  RequireSortType<T>();
  if (repeatTime <= 0) return;
  const uint32_t n = static_cast<uint32_t>(repeatTime) * 32;
  CheckOperand("Sort", concat, static_cast<int32_t>(n), "score");
  CheckOperand("Sort", index, static_cast<int32_t>(n), "index");
  CheckPairs("Sort", uint64_t{dst.GetSize()} * sizeof(T), 0, n, "destination");
  // Positions ordered by descending score, stable; per group of 32 unless isFullSort.
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  auto by_score = [&](uint32_t a, uint32_t b) {
    return static_cast<float>(concat.Data()[a]) > static_cast<float>(concat.Data()[b]);
  };
  if (isFullSort) {
    std::stable_sort(order.begin(), order.end(), by_score);
  } else {
    for (uint32_t g = 0; g < n; g += 32) {
      std::stable_sort(order.begin() + g, order.begin() + g + 32, by_score);
    }
  }
  // Read everything before writing: dst may overlap the scores.
  std::vector<uint8_t> pairs(uint64_t{n} * 8, 0);
  for (uint32_t i = 0; i < n; ++i) {
    std::memcpy(&pairs[uint64_t{i} * 8], &concat.Data()[order[i]], sizeof(T));
    std::memcpy(&pairs[uint64_t{i} * 8 + 4], &index.Data()[order[i]], sizeof(uint32_t));
  }
  std::memcpy(dst.Data(), pairs.data(), pairs.size());
}

template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
             const LocalTensor<T>& sorted, const int32_t repeatTime) {
  using namespace ::npud::ascendc;
  RequireSortType<T>();
  if (repeatTime <= 0) return;
  const uint32_t n = static_cast<uint32_t>(repeatTime) * 32;
  CheckPairs("Extract", uint64_t{sorted.GetSize()} * sizeof(T), 0, n, "sorted");
  CheckOperand("Extract", dstValue, static_cast<int32_t>(n), "value");
  CheckOperand("Extract", dstIndex, static_cast<int32_t>(n), "index");
  std::vector<uint8_t> pairs(uint64_t{n} * 8);
  std::memcpy(pairs.data(), sorted.Data(), pairs.size());
  for (uint32_t i = 0; i < n; ++i) {
    std::memcpy(&dstValue.Data()[i], &pairs[uint64_t{i} * 8], sizeof(T));
    std::memcpy(&dstIndex.Data()[i], &pairs[uint64_t{i} * 8 + 4], sizeof(uint32_t));
  }
}

// n pairs in elements of T, and the offset of pair n in elements of T.
template <typename T>
uint32_t GetSortLen(const uint32_t elemCount) {
  return elemCount * 8 / sizeof(T);
}
template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset) {
  return elemOffset * 8 / sizeof(T);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_SORT_H_
