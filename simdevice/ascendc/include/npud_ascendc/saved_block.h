// saved_block.h: what a block keeps of the running thread while it waits for other
// blocks (cross_block.h, mix_group.h): its thread-local block state and, if it used
// them, the thread's L1/L0/bias buffers of static tensor programming
// (LocalMemAllocator), which another block may use meanwhile.
#ifndef NPUD_ASCENDC_SAVED_BLOCK_H_
#define NPUD_ASCENDC_SAVED_BLOCK_H_

#include <cstdint>
#include <cstring>
#include <memory>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/local_mem_allocator.h"

namespace npud::ascendc {

// The running thread's state of a block, saved across a wait.
class SavedBlock {
 public:
  SavedBlock() : state_(tls_block), idx_(block_idx), num_(block_num) {
    SavePool<Pool::kL1>(0);
    SavePool<Pool::kL0A>(1);
    SavePool<Pool::kL0B>(2);
    SavePool<Pool::kL0C>(3);
    SavePool<Pool::kBiasTable>(4);
  }
  void Restore() {
    tls_block = state_;
    block_idx = idx_;
    block_num = num_;
    RestorePool<Pool::kL1>(0);
    RestorePool<Pool::kL0A>(1);
    RestorePool<Pool::kL0B>(2);
    RestorePool<Pool::kL0C>(3);
    RestorePool<Pool::kBiasTable>(4);
  }

 private:
  template <Pool kPool>
  void SavePool(int slot) {
    if ((state_.pools_used & (1u << static_cast<uint32_t>(kPool))) == 0) return;
    pools_[slot].reset(new uint8_t[ThreadPoolBytes<kPool>()]);
    std::memcpy(pools_[slot].get(), ThreadPool<kPool>(), ThreadPoolBytes<kPool>());
  }
  template <Pool kPool>
  void RestorePool(int slot) {
    if (pools_[slot] == nullptr) return;
    std::memcpy(ThreadPool<kPool>(), pools_[slot].get(), ThreadPoolBytes<kPool>());
  }

  BlockState state_;
  int64_t idx_;
  int64_t num_;
  std::unique_ptr<uint8_t[]> pools_[5];
};

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_SAVED_BLOCK_H_
