// repeat.h: how a level-0 vector instruction walks its operands.
//
// One repeat covers 256 bytes of its widest operand: `lanes` = 256 / that
// element size (128 half, 64 float). Lane k of repeat r of an operand with
// element type T, block stride b and repeat stride p (both in 32-byte blocks)
// is element (r * p + (k / e) * b) * e + k % e of the tensor, e = 32 / sizeof(T)
// elements per block; so a narrower operand of a mixed-type instruction (half
// into float) spans fewer blocks per repeat. Within one repeat every lane is
// read before any is written (an instruction may run in place); repeats run in
// order. Lanes the mask leaves out are not written.
//
// Checks (trap kind 1): every element an instruction touches lies inside its
// tensor; a stride of 0 is allowed (it re-reads the same blocks).
#ifndef NPUD_ASCENDC_REPEAT_H_
#define NPUD_ASCENDC_REPEAT_H_

#include <algorithm>
#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"

namespace AscendC {

// The strides of a binary level-0 instruction, in 32-byte blocks; brace order
// {dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep}.
struct BinaryRepeatParams {
  BinaryRepeatParams() {}
  BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                     const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                     const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

// The strides of a unary (or tensor-scalar) level-0 instruction; brace order
// {dstBlk, srcBlk, dstRep, srcRep}.
struct UnaryRepeatParams {
  UnaryRepeatParams() {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                    const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                    const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn,
                    const bool halfBlockIn)
      : UnaryRepeatParams(dstBlkStrideIn, srcBlkStrideIn, dstRepStrideIn, srcRepStrideIn) {
    halfBlock = halfBlockIn;
  }
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

}  // namespace AscendC

namespace npud::ascendc {

// Lanes per repeat of an instruction whose widest element has `widest` bytes.
constexpr uint32_t LanesFor(uint32_t widest) { return 256 / widest; }

// One operand of a level-0 instruction.
template <class T>
class Strided {
 public:
  Strided(const char* op, const char* role, const AscendC::LocalTensor<T>& t, uint32_t block_stride,
          uint32_t repeat_stride)
      : op_(op),
        role_(role),
        data_(t.Data()),
        size_(t.GetSize()),
        block_(block_stride),
        repeat_(repeat_stride) {}

  // The element lane k of repeat r addresses.
  T& At(uint32_t r, uint32_t k) const {
    constexpr uint32_t kPerBlock = 32 / sizeof(T);
    const uint64_t i =
        (uint64_t{r} * repeat_ + uint64_t{k / kPerBlock} * block_) * kPerBlock + k % kPerBlock;
    if (i >= size_) {
      Fail("%s: repeat %u, lane %u of the %s tensor is element %llu, beyond its %u elements", op_,
           r, k, role_, static_cast<unsigned long long>(i), size_);
    }
    return data_[i];
  }

 private:
  const char* op_;
  const char* role_;
  T* data_;
  uint32_t size_;
  uint32_t block_;
  uint32_t repeat_;
};

// Calls visit(r, active) for each repeat the mask covers, `active` the lane
// bits ({low, high}) of that repeat.
template <class Visit>
void ForEachRepeat(const LaneMask& m, uint32_t repeat_times, uint32_t lanes, Visit&& visit) {
  uint64_t lane_bits[2];
  LaneBitsOfLength(lanes, &lane_bits[1], &lane_bits[0]);
  if (m.counter) {
    for (uint64_t r = 0, left = m.count; left > 0; ++r) {
      const uint64_t n = std::min<uint64_t>(left, lanes);
      uint64_t active[2];
      LaneBitsOfLength(n, &active[1], &active[0]);
      visit(static_cast<uint32_t>(r), active);
      left -= n;
    }
    return;
  }
  const uint64_t active[2] = {m.bits[0] & lane_bits[0], m.bits[1] & lane_bits[1]};
  if (active[0] == 0 && active[1] == 0) return;
  for (uint32_t r = 0; r < repeat_times; ++r) visit(r, active);
}

// Calls f(k) for each lane k set in `active`, in order.
template <class F>
void ForEachLane(const uint64_t active[2], F&& f) {
  for (uint32_t word = 0; word < 2; ++word) {
    for (uint64_t bits = active[word]; bits != 0; bits &= bits - 1) {
      f(word * 64 + static_cast<uint32_t>(__builtin_ctzll(bits)));
    }
  }
}

// The common loop: dst lane = compute(r, k) over every active lane of every
// repeat, each repeat's lanes computed before any is stored.
template <class D, class Compute>
void RunRepeats(const LaneMask& m, uint32_t repeat_times, uint32_t lanes, const Strided<D>& dst,
                Compute&& compute) {
  ForEachRepeat(m, repeat_times, lanes, [&](uint32_t r, const uint64_t active[2]) {
    D results[256];
    ForEachLane(active, [&](uint32_t k) { results[k] = compute(r, k); });
    ForEachLane(active, [&](uint32_t k) { dst.At(r, k) = results[k]; });
  });
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_REPEAT_H_
