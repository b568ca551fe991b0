// group_barrier.h: GroupBarrier, one set of vector blocks (the arrivers) letting
// another (the waiters) go on, through a workspace in global memory the kernel zeroes.
//
// The workspace is waitSize * 512 bytes, as on the NPU; npud's layout in it is its
// own: word 0 counts arrivals, and waiter j keeps how many rounds it has passed in
// the first word of the second half of its 512 bytes. Round r of a waiter ends once
// every arriver has arrived r times. Arrive and Wait may be called in a loop.
#ifndef NPUD_ASCENDC_GROUP_BARRIER_H_
#define NPUD_ASCENDC_GROUP_BARRIER_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/cross_block.h"
#include "npud_ascendc/qualifiers.h"

namespace AscendC {

// The unit that sends a GroupBarrier's messages (the NPU supports MTE3 only).
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode>
class GroupBarrier {
 public:
  static constexpr uint64_t kBytesPerWaiter = 512;

  __aicore__ inline GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
      : words_(reinterpret_cast<__gm__ int32_t*>(groupWorkspace)),
        arrive_size_(arriveSizeIn),
        wait_size_(waitSizeIn) {
    static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier supports PipeMode::MTE3_MODE");
    if (arriveSizeIn == 0 || waitSizeIn == 0) {
      ::npud::ascendc::Fail("GroupBarrier(%u arrivers, %u waiters): both must be at least 1",
                            arriveSizeIn, waitSizeIn);
    }
  }

  __aicore__ inline void Arrive(uint32_t arriveIndex) {
    if (arriveIndex >= arrive_size_) {
      ::npud::ascendc::Fail("GroupBarrier::Arrive(%u): arrivers are 0..%u", arriveIndex,
                            arrive_size_ - 1);
    }
    __atomic_add_fetch(&words_[0], 1, __ATOMIC_ACQ_REL);
  }

  __aicore__ inline void Wait(uint32_t waitIndex) {
    if (waitIndex >= wait_size_) {
      ::npud::ascendc::Fail("GroupBarrier::Wait(%u): waiters are 0..%u", waitIndex, wait_size_ - 1);
    }
    int32_t* rounds = &words_[(waitIndex * kBytesPerWaiter + kBytesPerWaiter / 2) / 4];
    const int64_t round = ::npud::ascendc::LoadFlag(rounds) + 1;
    ::npud::ascendc::WaitUntil("GroupBarrier::Wait", [&] {
      return ::npud::ascendc::LoadFlag(&words_[0]) >= round * static_cast<int64_t>(arrive_size_);
    });
    ::npud::ascendc::StoreFlag(rounds, static_cast<int32_t>(round));
  }

  __aicore__ inline uint64_t GetWorkspaceLen() { return wait_size_ * kBytesPerWaiter; }

 private:
  __gm__ int32_t* words_;
  uint32_t arrive_size_;
  uint32_t wait_size_;
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_GROUP_BARRIER_H_
