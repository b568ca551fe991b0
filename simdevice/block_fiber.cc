#include "simdevice/block_fiber.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/acl_status.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPUD_FIBER_ASAN 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define NPUD_FIBER_ASAN 1
#endif

#ifdef NPUD_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__)
// npud_fiber_switch(save, load): pushes the callee-saved registers and the
// MXCSR / x87 control words on the running stack, stores the stack pointer
// in *save, loads `load` and pops the same from there. A new fiber's stack
// is laid out (Start) so that its first switch "returns" into
// npud_fiber_trampoline with its function in r12 and argument in r13.
asm(R"(
  .text
  .globl npud_fiber_switch
  .hidden npud_fiber_switch
  .type npud_fiber_switch, @function
npud_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size npud_fiber_switch, .-npud_fiber_switch

  .globl npud_fiber_trampoline
  .hidden npud_fiber_trampoline
  .type npud_fiber_trampoline, @function
npud_fiber_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  movq %r13, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size npud_fiber_trampoline, .-npud_fiber_trampoline
)");
extern "C" void npud_fiber_switch(void** save, void* load);
extern "C" void npud_fiber_trampoline();
#endif

namespace npud::sim {
namespace {

constexpr uint64_t kFiberPage = 4096;

uint64_t FiberPageRound(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

}  // namespace

#if defined(__x86_64__)
struct BlockFiber::Contexts {
  void* fiber_sp = nullptr;
  void* caller_sp = nullptr;
};
#else
struct BlockFiber::Contexts {
  ucontext_t fiber;
  ucontext_t caller;
};
#endif

absl::StatusOr<std::unique_ptr<BlockFiber>> BlockFiber::Create(uint64_t stack_bytes,
                                                               uint64_t ub_bytes) {
  stack_bytes = FiberPageRound(stack_bytes, kFiberPage);
  const uint64_t ub_mapped = FiberPageRound(ub_bytes, kFiberPage);
  const uint64_t total = kFiberPage + stack_bytes + ub_mapped;
  void* mapping = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) {
    return AclError(kRtMemoryAllocation,
                    absl::StrCat("no memory for a block's stack and buffer: ", strerror(errno)));
  }
  auto* base = static_cast<uint8_t*>(mapping);
  // The guard page: a block that overflows its stack faults here.
  if (mprotect(base, kFiberPage, PROT_NONE) != 0) {
    munmap(mapping, total);
    return AclError(kRtInternalError, absl::StrCat("guard page: ", strerror(errno)));
  }
  return std::unique_ptr<BlockFiber>(
      new BlockFiber(base, total, stack_bytes, base + kFiberPage + stack_bytes, ub_bytes));
}

BlockFiber::BlockFiber(uint8_t* mapping, uint64_t mapping_bytes, uint64_t stack_bytes, uint8_t* ub,
                       uint64_t ub_bytes)
    : mapping_(mapping),
      mapping_bytes_(mapping_bytes),
      stack_(mapping + kFiberPage),
      stack_bytes_(stack_bytes),
      ub_(ub),
      ub_bytes_(ub_bytes),
      contexts_(std::make_unique<Contexts>()) {}

BlockFiber::~BlockFiber() { munmap(mapping_, mapping_bytes_); }

void BlockFiber::Start(std::function<void()> fn) {
  fn_ = std::move(fn);
  finished_ = false;
#if defined(__x86_64__)
  // The frame npud_fiber_switch pops: control words, r15..rbp, then the
  // return address. After the `ret` the stack pointer is the 16-byte aligned
  // top, as a `call` in the trampoline needs.
  auto* top = reinterpret_cast<uint64_t*>(stack_ + stack_bytes_);
  uint64_t* sp = top - 8;
  const uint32_t mxcsr = 0x1f80;   // all exceptions masked, round to nearest
  const uint16_t fpu_cw = 0x037f;  // the same for x87
  std::memcpy(&sp[0], &mxcsr, sizeof(mxcsr));
  std::memcpy(reinterpret_cast<uint8_t*>(&sp[0]) + 4, &fpu_cw, sizeof(fpu_cw));
  sp[1] = 0;                                                   // r15
  sp[2] = 0;                                                   // r14
  sp[3] = reinterpret_cast<uint64_t>(this);                    // r13: the argument
  sp[4] = reinterpret_cast<uint64_t>(&BlockFiber::Main);       // r12: the function
  sp[5] = 0;                                                   // rbx
  sp[6] = 0;                                                   // rbp
  sp[7] = reinterpret_cast<uint64_t>(&npud_fiber_trampoline);  // return address
  contexts_->fiber_sp = sp;
#else
  getcontext(&contexts_->fiber);
  contexts_->fiber.uc_stack.ss_sp = stack_;
  contexts_->fiber.uc_stack.ss_size = stack_bytes_;
  contexts_->fiber.uc_link = nullptr;
  const uintptr_t self = reinterpret_cast<uintptr_t>(this);
  makecontext(&contexts_->fiber, reinterpret_cast<void (*)()>(+[](uint32_t high, uint32_t low) {
    Main(reinterpret_cast<void*>((static_cast<uintptr_t>(high) << 32) | low));
  }),
              2, static_cast<uint32_t>(self >> 32), static_cast<uint32_t>(self & 0xffffffffu));
#endif
}

bool BlockFiber::Resume() {
#ifdef NPUD_FIBER_ASAN
  void* caller_fake = nullptr;
  __sanitizer_start_switch_fiber(&caller_fake, stack_, stack_bytes_);
#endif
#if defined(__x86_64__)
  npud_fiber_switch(&contexts_->caller_sp, contexts_->fiber_sp);
#else
  swapcontext(&contexts_->caller, &contexts_->fiber);
#endif
#ifdef NPUD_FIBER_ASAN
  __sanitizer_finish_switch_fiber(caller_fake, nullptr, nullptr);
#endif
  return finished_;
}

void BlockFiber::Suspend() { SwitchOut(/*finished=*/false); }

void BlockFiber::ForgetFramesBelow(const void* frame) {
#ifdef NPUD_FIBER_ASAN
  const uint8_t* top = static_cast<const uint8_t*>(frame);
  if (top > stack_ && top <= stack_ + stack_bytes_) {
    __asan_unpoison_memory_region(stack_, static_cast<size_t>(top - stack_));
  }
#else
  (void)frame;
#endif
}

void BlockFiber::SwitchOut(bool finished) {
  finished_ = finished;
#ifdef NPUD_FIBER_ASAN
  // A finished fiber's stack is done with: no fake stack to keep.
  __sanitizer_start_switch_fiber(finished ? nullptr : &fake_stack_, caller_stack_,
                                 caller_stack_bytes_);
#endif
#if defined(__x86_64__)
  npud_fiber_switch(&contexts_->fiber_sp, contexts_->caller_sp);
#else
  swapcontext(&contexts_->fiber, &contexts_->caller);
#endif
#ifdef NPUD_FIBER_ASAN
  // Resumed, perhaps by another thread: its stack is the one to go back to.
  __sanitizer_finish_switch_fiber(fake_stack_, &caller_stack_, &caller_stack_bytes_);
#endif
}

void BlockFiber::Main(void* self) {
  auto* fiber = static_cast<BlockFiber*>(self);
#ifdef NPUD_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &fiber->caller_stack_, &fiber->caller_stack_bytes_);
#endif
  fiber->fn_();
  fiber->fn_ = nullptr;
  fiber->SwitchOut(/*finished=*/true);
  std::abort();  // a finished fiber is never resumed before Start()
}

}  // namespace npud::sim
