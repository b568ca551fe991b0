// ai_core_pool.h
//
// AiCorePool: the simulated AI cores — threads that run kernel blocks.
//
// Each core thread owns a unified buffer and an alternate signal stack. A
// block runs under RunGuardedBlock(), which turns a memory fault inside
// kernel code (SIGSEGV/SIGBUS: a null pointer, an address outside every
// allocation, a guard page) into a returned fault instead of the death of the
// daemon; faults anywhere else keep their usual meaning.
//
// Thread-safe. The destructor runs the blocks already queued, then joins.

#ifndef NPUD_SIMDEVICE_AI_CORE_POOL_H_
#define NPUD_SIMDEVICE_AI_CORE_POOL_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace npud::sim {

// What a block gets from the core it runs on.
struct CoreSlot {
  int core_id = 0;
  uint8_t* ub = nullptr;  // 64-byte aligned
  uint64_t ub_size = 0;
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

  // Runs `block` on the next free core. It must not block for long except
  // by computing.
  void Submit(std::function<void(const CoreSlot&)> block) ABSL_LOCKS_EXCLUDED(mu_);

  int cores() const { return static_cast<int>(threads_.size()); }

 private:
  void CoreLoop(int core_id) ABSL_LOCKS_EXCLUDED(mu_);

  const uint64_t ub_bytes_;
  absl::Mutex mu_;
  std::deque<std::function<void(const CoreSlot&)>> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int started_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<std::thread> threads_;
};

// Calls `fn` on this thread. Returns true if it returned normally; false if
// it faulted, with the fault in *fault. After a fault, the frames of `fn`
// were abandoned without running their destructors (the block's resources
// leak; a faulting kernel is a bug to be fixed, not a path to optimize).
// Only for core threads (they have the alternate stack the handler needs).
bool RunGuardedBlock(const std::function<void()>& fn, KernelFault* fault);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_AI_CORE_POOL_H_
