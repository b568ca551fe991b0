// adv_mrg_sort.h: the advanced MrgSort, the basic one (sort.h) with its arguments
// spread out and the consumed counts returned:
//
//   MrgSort<T, isExhaustedSuspension>(dst, {src1..src4}, elementCountList[4],
//                                     sortedNum[4], validBit, repeatTime)
//
// merges the sorted (score, index) queues validBit names (0b11, 0b111, 0b1111) into
// dst, highest score first, ties in queue order; with isExhaustedSuspension it stops
// when a queue runs out and sortedNum tells how many pairs of each were merged (else
// the whole queues, which sortedNum then also reports). repeatTime > 1 merges that
// many groups of four equal queues stored one after another.
#ifndef NPUD_ASCENDC_ADV_MRG_SORT_H_
#define NPUD_ASCENDC_ADV_MRG_SORT_H_

#include <cstdint>

#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

// After vector_ops.h: sort.h uses its CheckOperand without including it.
#include "npud_ascendc/sort.h"

namespace AscendC {

template <class T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
             const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
             const int32_t repeatTime) {
  const MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit,
                          static_cast<uint16_t>(repeatTime));
  MrgSort(dst, sortList, info);
  uint16_t taken[4];
  GetMrgSortResult(taken[0], taken[1], taken[2], taken[3]);
  for (int q = 0; q < 4; ++q) sortedNum[q] = taken[q];
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_MRG_SORT_H_
