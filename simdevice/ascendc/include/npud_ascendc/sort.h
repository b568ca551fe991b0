// sort.h: Sort32, MrgSort and GetMrgSortResult, sorting (score, index) pairs.
//
// A pair is 8 bytes: float: [score, index bits]; half: [score, 2 unspecified bytes,
// index as uint32_t]. Orders are descending by score; equal scores keep their order
// (a lower position, or a lower-numbered queue, first).
//   Sort32(dst, scores, indices, repeatTime)
//       repeat r sorts scores[32r..32r+32) with indices[32r..] into 32 pairs at
//       dst[r * 256 bytes].
//   MrgSort(dst, {src1..src4}, MrgSort4Info{elementLengths, ifExhaustedSuspension,
//           validBit, repeatTimes})
//       merges the sorted queues validBit names (0b11, 0b111, 0b1111) into dst; with
//       ifExhaustedSuspension it stops when one queue runs out, and
//       GetMrgSortResult tells how much of each was taken. repeatTimes > 1 (four
//       equal queues stored one after another) merges that many groups of four, each
//       following the previous in src and dst.
// Checks (trap kind 1): every pair read or written lies inside its tensor.
#ifndef NPUD_ASCENDC_SORT_H_
#define NPUD_ASCENDC_SORT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

template <class T>
constexpr void RequireSortType() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "sorting takes half or float scores");
}

inline void CheckPairs(const char* op, uint64_t bytes_available, uint64_t first_pair,
                       uint64_t pairs, const char* role) {
  if ((first_pair + pairs) * 8 > bytes_available) {
    Fail("%s: pairs [%llu, %llu) of the %s are beyond its %llu bytes", op,
         static_cast<unsigned long long>(first_pair),
         static_cast<unsigned long long>(first_pair + pairs), role,
         static_cast<unsigned long long>(bytes_available));
  }
}

// A pair's score, as a float.
template <class T>
float PairScore(const uint8_t* pair) {
  T score;
  std::memcpy(&score, pair, sizeof(T));
  return static_cast<float>(score);
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<uint32_t>& src1, const int32_t repeatTime) {
  using namespace ::npud::ascendc;
  RequireSortType<T>();
  if (repeatTime <= 0) return;
  const uint32_t n = static_cast<uint32_t>(repeatTime) * 32;
  CheckOperand("Sort32", src0, static_cast<int32_t>(n), "score");
  CheckOperand("Sort32", src1, static_cast<int32_t>(n), "index");
  CheckPairs("Sort32", uint64_t{dst.GetSize()} * sizeof(T), 0, n, "destination");
  uint8_t* out = reinterpret_cast<uint8_t*>(dst.Data());
  for (uint32_t r = 0; r < static_cast<uint32_t>(repeatTime); ++r) {
    uint32_t order[32];
    for (uint32_t i = 0; i < 32; ++i) order[i] = r * 32 + i;
    std::stable_sort(order, order + 32, [&](uint32_t a, uint32_t b) {
      return static_cast<float>(src0.Data()[a]) > static_cast<float>(src0.Data()[b]);
    });
    for (uint32_t i = 0; i < 32; ++i) {
      uint8_t* pair = out + (uint64_t{r} * 32 + i) * 8;
      std::memset(pair, 0, 8);
      std::memcpy(pair, &src0.Data()[order[i]], sizeof(T));
      std::memcpy(pair + 4, &src1.Data()[order[i]], sizeof(uint32_t));
    }
  }
}

template <class T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                 const LocalTensor<T>& src3In, const LocalTensor<T>& src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn,
               const uint16_t validBitIn, const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};

template <class T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
  using namespace ::npud::ascendc;
  RequireSortType<T>();
  uint32_t queues = 0;
  switch (params.validBit) {
    case 0b11:
      queues = 2;
      break;
    case 0b111:
      queues = 3;
      break;
    case 0b1111:
      queues = 4;
      break;
    default:
      Fail("MrgSort: validBit %u is not 0b11, 0b111 or 0b1111", params.validBit);
  }
  const LocalTensor<T>* lists[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  const uint32_t repeats = params.repeatTimes == 0 ? 0 : params.repeatTimes;
  uint64_t group_pairs = 0;
  for (uint32_t q = 0; q < queues; ++q) group_pairs += params.elementLengths[q];
  const uint64_t dst_bytes = uint64_t{dst.GetSize()} * sizeof(T);
  uint8_t* out = reinterpret_cast<uint8_t*>(dst.Data());
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint8_t* in[4] = {};
    uint64_t taken[4] = {0, 0, 0, 0};
    for (uint32_t q = 0; q < queues; ++q) {
      // Later repeats: the next four queues follow the previous group in src1.
      const uint64_t base = uint64_t{r} * group_pairs;
      CheckPairs("MrgSort", uint64_t{lists[q]->GetSize()} * sizeof(T), base,
                 params.elementLengths[q], "source queue");
      in[q] = reinterpret_cast<const uint8_t*>(lists[q]->Data()) + base * 8;
    }
    const uint64_t out_base = uint64_t{r} * group_pairs;
    uint64_t written = 0;
    for (;;) {
      int32_t best = -1;
      bool exhausted = false;
      for (uint32_t q = 0; q < queues; ++q) {
        if (taken[q] == params.elementLengths[q]) {
          exhausted = true;
          continue;
        }
        if (best < 0 ||
            PairScore<T>(in[q] + taken[q] * 8) > PairScore<T>(in[best] + taken[best] * 8)) {
          best = static_cast<int32_t>(q);
        }
      }
      if (best < 0 || (exhausted && params.ifExhaustedSuspension)) break;
      CheckPairs("MrgSort", dst_bytes, out_base + written, 1, "destination");
      std::memcpy(out + (out_base + written) * 8, in[best] + taken[best] * 8, 8);
      ++taken[best];
      ++written;
    }
    for (uint32_t q = 0; q < 4; ++q)
      tls_block.mrg_sort_consumed[q] = static_cast<uint16_t>(taken[q]);
  }
}

inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
  const uint16_t* c = ::npud::ascendc::tls_block.mrg_sort_consumed;
  mrgSortList1 = c[0];
  mrgSortList2 = c[1];
  mrgSortList3 = c[2];
  mrgSortList4 = c[3];
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SORT_H_
