// ai_core_pool.h
//
// AiCorePool: the simulated AI cores — threads that run kernel blocks.
//
// Each core thread owns an alternate signal stack. A block runs under
// RunGuardedBlock(), which turns a memory fault inside kernel code
// (SIGSEGV/SIGBUS: a null pointer, an address outside every allocation, a
// guard page) into a returned fault instead of the death of the daemon;
// faults anywhere else keep their usual meaning. Blocks run on fibers of
// their own (BlockFiber, with the block's unified buffer), which the pool
// keeps for reuse.
//
// Thread-safe. The destructor runs the work already queued, then joins.

#ifndef NPUD_SIMDEVICE_AI_CORE_POOL_H_
#define NPUD_SIMDEVICE_AI_CORE_POOL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/block_fiber.h"
#include "simdevice/handoff_queue.h"

namespace npud::sim {

// What work gets from the core it runs on.
struct CoreSlot {
  int core_id = 0;
};

// A memory fault raised by kernel code.
struct KernelFault {
  int signal = 0;
  uint64_t address = 0;
};

class AiCorePool {
 public:
  // `ub_bytes` is the largest unified buffer any device needs.
  AiCorePool(int cores, uint64_t ub_bytes);
  ~AiCorePool();
  AiCorePool(const AiCorePool&) = delete;
  AiCorePool& operator=(const AiCorePool&) = delete;

  // Runs `work` on the next free core. It must not block for long except
  // by computing. Work submitted by work of this pool as it ends (a launch
  // that starts the next one) runs on the same core right after it, without
  // waking another: the first such submission only, so the blocks of a
  // launch still spread over the cores. Submitting from the middle of long
  // work would delay the submitted work until it ends.
  void Submit(std::function<void(const CoreSlot&)> work) ABSL_LOCKS_EXCLUDED(mu_);

  int cores() const { return static_cast<int>(threads_.size()); }
  uint64_t ub_bytes() const { return ub_bytes_; }

  // A fiber for one block (its stack, kBlockStackBytes, and a unified
  // buffer of ub_bytes()), new or used; back with ReturnFiber when the block
  // has ended. Fails when the process cannot map another.
  absl::StatusOr<std::unique_ptr<BlockFiber>> TakeFiber() ABSL_LOCKS_EXCLUDED(fibers_mu_);
  void ReturnFiber(std::unique_ptr<BlockFiber> fiber) ABSL_LOCKS_EXCLUDED(fibers_mu_);

  // A block's stack (kernels on the NPU have small ones; the CPU's frames are
  // larger, and mapped pages cost only once touched).
  static constexpr uint64_t kBlockStackBytes = 4u << 20;

 private:
  void CoreLoop(int core_id) ABSL_LOCKS_EXCLUDED(mu_);

  const uint64_t ub_bytes_;
  // Each piece of work goes to the core that went idle last.
  HandOffQueue<std::function<void(const CoreSlot&)>> work_;
  absl::Mutex mu_;
  int started_ ABSL_GUARDED_BY(mu_) = 0;
  // Idle fibers, at most two per core. Under a mutex of their own: every
  // release of mu_ evaluates the idle cores' wait conditions.
  absl::Mutex fibers_mu_;
  std::vector<std::unique_ptr<BlockFiber>> fibers_ ABSL_GUARDED_BY(fibers_mu_);
  std::vector<std::thread> threads_;
};

// Calls `fn` on this thread. Returns true if it returned normally; false if
// it faulted, with the fault in *fault. After a fault, the frames of `fn`
// were abandoned without running their destructors (the block's resources
// leak; a faulting kernel is a bug to be fixed, not a path to optimize).
// Only for core threads (they have the alternate stack the handler needs).
bool RunGuardedBlock(const std::function<void()>& fn, KernelFault* fault);

// The fault guard of the guarded block running on this thread, taken off the
// thread (null if none): a block that is set aside in the middle takes its
// guard along and installs it again wherever it resumes (PutBlockGuard), so
// that its faults come back to it and to nobody else.
void* TakeBlockGuard();
void PutBlockGuard(void* guard);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_AI_CORE_POOL_H_
