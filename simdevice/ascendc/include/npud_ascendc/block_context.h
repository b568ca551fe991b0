// block_context.h: which block the calling thread is running, and its identity.
//
// One block runs on one thread. The kernel entry (npud_kernel_register.h) installs the
// executor's NpudBlockContext in thread-local state for the duration of the call; all
// device APIs read it from there. Every kernel shared object has its own copy of this
// state (NPUD_ASCENDC_HIDDEN), so objects loaded side by side never share it.
//
// `block_idx` and `block_num` are the AscendC built-in variables, global thread-locals
// (not macros, so kernels may still declare locals of those names), readable as plain
// identifiers: `x[block_idx] += 1`.
#ifndef NPUD_ASCENDC_BLOCK_CONTEXT_H_
#define NPUD_ASCENDC_BLOCK_CONTEXT_H_

#include <chrono>
#include <cstdint>

#include "npud_ascendc/visibility.h"
#include "npud_kernel_abi.h"

NPUD_ASCENDC_HIDDEN inline thread_local int64_t block_idx = 0;
NPUD_ASCENDC_HIDDEN inline thread_local int64_t block_num = 0;

namespace npud::ascendc {

// What SetAtomicAdd/Max/Min selected for the block's following UB->GM copies.
enum class AtomicMode : uint8_t { kNone, kAdd, kMax, kMin };

// Mutable state of the block running on this thread; confined to that thread.
struct BlockState {
  const NpudBlockContext* ctx = nullptr;
  // The small fields first, together, so padding does not grow the state:
  // every kernel object has a copy per thread, and the checked build's leak
  // checker (clang 14 LSan on glibc 2.36) has been seen crashing at exit when
  // the kernel objects' thread-local blocks grew (rtc_test_inproc).
  AtomicMode atomic = AtomicMode::kNone;  // What SetAtomicAdd/Max/Min selected.
  // The element type code of the atomic mode (AscendC::AtomicDtype; 0 with none).
  uint8_t atomic_dtype = 0;
  // The vector mask register (vector_mask.h): normal mode, all lanes, until
  // the kernel says otherwise. In counter mode mask_low is an element count.
  bool mask_counter = false;
  // SetPadValue's value (raw bits) for DataCopyPad without isPad, if set.
  bool pad_set = false;
  // Which of the running thread's L1/L0/bias buffers (ThreadPool) the block
  // used, one bit per Pool: a block that waits keeps them (cross_block.h).
  uint8_t pools_used = 0;
  // SetDeqScale's scale (AddDeqRelu).
  float deq_scale = 1.0f;
  // SetDeqScale(scale, offset, signMode)'s register value, and the 16 values of
  // SetDeqScale(vdeq, info)'s tensor (cast_dequant.h).
  uint64_t deq_config = 0;
  const uint64_t* vdeq = nullptr;
  uint64_t mask_high = ~uint64_t{0};
  uint64_t mask_low = ~uint64_t{0};
  // The reduction registers: the last count-form ReduceSum's result, and the
  // extreme (value, index) of the last ReduceRepeat MAX/MIN or ReduceMax/Min.
  double acc_val = 0;
  double max_min_value = 0;
  uint64_t max_min_index = 0;
  // The comparison mask register (Compare without a destination, GetCmpMask,
  // SetCmpMask), {low, high}.
  uint64_t cmp_mask[2] = {0, 0};
  uint64_t pad_bits = 0;
  // How much of each queue the last suspending MrgSort consumed.
  uint16_t mrg_sort_consumed[4] = {0, 0, 0, 0};
  // The TPipe constructed last (GetTPipePtr), an AscendC::TPipe*.
  void* pipe = nullptr;
  // SetSysWorkspace's pointer (GetSysWorkSpacePtr); no framework sets one here.
  uint8_t* sys_workspace = nullptr;
  // The system cycle (GetSystemCycle's clock) when the block began: PrintTimeStamp's
  // "entry".
  int64_t entry_cycle = 0;
  // The CTRL register (ctrl_register.h). Bit 48 set: half and bfloat16_t results keep
  // inf and NaN (npud's INF/NAN mode; clear saturates them); bit 53 set: integer
  // arithmetic saturates (clear wraps); bit 59 set: conversions to integers truncate
  // to the low bits (clear saturates).
  uint64_t ctrl = uint64_t{1} << 48;
  // Per flag id, the launch-wide (mode 0) raises of CrossCoreSetFlag this core
  // has taken (cross_core_flags.h); allocated on first use, freed by BlockScope.
  uint32_t* flags_taken = nullptr;
  // The core's SetFlag/WaitFlag counters (sync.h); allocated with the first
  // flag, freed by BlockScope.
  uint16_t* pipe_flags = nullptr;
};
NPUD_ASCENDC_HIDDEN inline thread_local BlockState tls_block{};

// The running block's context, or nullptr outside a kernel entry.
inline const NpudBlockContext* Context() { return tls_block.ctx; }

inline uint32_t CoreType() {
  return tls_block.ctx != nullptr ? tls_block.ctx->core_type : NPUD_CORE_TYPE_VECTOR;
}

// Installs ctx as the thread's running block and restores the previous state when it
// goes out of scope, including when a trap unwinds the block.
class BlockScope {
 public:
  explicit BlockScope(const NpudBlockContext* ctx)
      : saved_(tls_block), saved_idx_(block_idx), saved_num_(block_num) {
    tls_block = BlockState{};
    tls_block.ctx = ctx;
    tls_block.entry_cycle = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now().time_since_epoch())
                                .count() /
                            20;
    block_idx = ctx->block_idx;
    block_num = ctx->block_num;
  }
  ~BlockScope() {
    delete[] tls_block.flags_taken;
    delete[] tls_block.pipe_flags;
    tls_block = saved_;
    block_idx = saved_idx_;
    block_num = saved_num_;
  }
  BlockScope(const BlockScope&) = delete;
  BlockScope& operator=(const BlockScope&) = delete;

 private:
  BlockState saved_;
  int64_t saved_idx_;
  int64_t saved_num_;
};

}  // namespace npud::ascendc

namespace AscendC {

inline int64_t GetBlockIdx() { return block_idx; }
inline int64_t GetBlockNum() { return block_num; }
// GetSubBlockIdx, GetSubBlockNum and GetTaskRation: mix_group.h.

}  // namespace AscendC

// `if ASCEND_IS_AIV { ... }`: which core type this block runs as (in a mix kernel,
// each core of the group answers for itself).
#define ASCEND_IS_AIV (::npud::ascendc::CoreType() != NPUD_CORE_TYPE_CUBE)
#define ASCEND_IS_AIC (::npud::ascendc::CoreType() == NPUD_CORE_TYPE_CUBE)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

#endif  // NPUD_ASCENDC_BLOCK_CONTEXT_H_
