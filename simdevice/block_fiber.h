// block_fiber.h
//
// BlockFiber: a kernel block's own stack and unified buffer, so that a block
// that waits for other blocks of its launch (NpudBlockContext::wait) can be
// set aside in the middle of its kernel and resumed later, on any core
// thread (kernel_blocks.cc runs every block on one).
//
// Switching saves and restores the callee-saved registers, the stack pointer
// and the SSE and x87 control words: a few instructions on x86-64, where
// every block of every launch pays for two switches. glibc's swapcontext
// makes two system calls per switch (the signal mask, which blocks never
// change), about 1 us per block; it is used on other architectures.
//
// A fiber runs on one thread at a time: Resume() runs it on the calling
// thread until it calls Suspend() or its function returns. Under
// AddressSanitizer the switches are announced to it.

#ifndef NPUD_SIMDEVICE_BLOCK_FIBER_H_
#define NPUD_SIMDEVICE_BLOCK_FIBER_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "absl/status/statusor.h"

namespace npud::sim {

class BlockFiber {
 public:
  // A stack of `stack_bytes` above a guard page (an overflow faults), and a
  // unified buffer of `ub_bytes`, 64-byte aligned. Fails when the process
  // cannot map them (its memory limit).
  static absl::StatusOr<std::unique_ptr<BlockFiber>> Create(uint64_t stack_bytes,
                                                            uint64_t ub_bytes);
  ~BlockFiber();
  BlockFiber(const BlockFiber&) = delete;
  BlockFiber& operator=(const BlockFiber&) = delete;

  uint8_t* ub() const { return ub_; }
  uint64_t ub_bytes() const { return ub_bytes_; }

  // The next Resume() runs `fn` from the start. Only while not running (new,
  // or after `fn` returned). `fn` must not throw.
  void Start(std::function<void()> fn);

  // Runs the fiber on the calling thread until it suspends (false) or its
  // function returns (true).
  bool Resume();

  // Called by the fiber's function: back to the Resume() that ran it.
  void Suspend();

  // Called on the fiber after a fault jumped out of the frames below
  // `frame`: with AddressSanitizer, their redzones would otherwise stay
  // poisoned and fail the next calls that reuse that stack. No-op otherwise.
  void ForgetFramesBelow(const void* frame);

 private:
  BlockFiber(uint8_t* mapping, uint64_t mapping_bytes, uint64_t stack_bytes, uint8_t* ub,
             uint64_t ub_bytes);
  static void Main(void* self);
  void SwitchOut(bool finished);

  uint8_t* const mapping_;
  const uint64_t mapping_bytes_;
  uint8_t* const stack_;  // lowest usable byte, above the guard page
  const uint64_t stack_bytes_;
  uint8_t* const ub_;
  const uint64_t ub_bytes_;
  std::function<void()> fn_;
  bool finished_ = false;
  // Saved stack pointers (x86-64) or contexts (elsewhere) of the fiber and of
  // whoever resumed it.
  struct Contexts;
  std::unique_ptr<Contexts> contexts_;
  // AddressSanitizer's view of the stacks (unused without it).
  void* fake_stack_ = nullptr;
  const void* caller_stack_ = nullptr;
  size_t caller_stack_bytes_ = 0;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_BLOCK_FIBER_H_
