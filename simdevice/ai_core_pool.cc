#include "simdevice/ai_core_pool.h"

#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>

#include <cstring>
#include <mutex>
#include <utility>

namespace npud::sim {
namespace {

constexpr size_t kAltStackBytes = 256 << 10;

// Set while a guarded block runs on this thread.
thread_local sigjmp_buf* tls_jump = nullptr;
thread_local KernelFault tls_fault;

// The pool whose core this thread is, and the work submitted by its current
// work to run next on it (AiCorePool::Submit).
thread_local AiCorePool* tls_pool = nullptr;
thread_local std::function<void(const CoreSlot&)>* tls_next = nullptr;

struct sigaction previous_segv;
struct sigaction previous_bus;

void OnFault(int signal, siginfo_t* info, void* context) {
  if (tls_jump != nullptr) {
    tls_fault.signal = signal;
    tls_fault.address = reinterpret_cast<uint64_t>(info->si_addr);
    sigjmp_buf* jump = tls_jump;
    tls_jump = nullptr;
    siglongjmp(*jump, 1);
  }
  // Not kernel code: behave as if we were not here.
  const struct sigaction& previous = signal == SIGSEGV ? previous_segv : previous_bus;
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (previous.sa_handler == SIG_IGN) return;
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != nullptr) {
    previous.sa_handler(signal);
    return;
  }
  // Default action: restore it; the faulting instruction faults again.
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigaction(signal, &fallback, nullptr);
}

void InstallFaultHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = OnFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv);
    sigaction(SIGBUS, &action, &previous_bus);
  });
}

}  // namespace

void* TakeBlockGuard() { return std::exchange(tls_jump, nullptr); }

void PutBlockGuard(void* guard) { tls_jump = static_cast<sigjmp_buf*>(guard); }

bool RunGuardedBlock(const std::function<void()>& fn, KernelFault* fault) {
  sigjmp_buf jump;
  // The signal mask is not saved (that is a system call per block): the
  // only change the handler's jump leaves behind is its own signal, blocked
  // on entry, which is unblocked here.
  if (sigsetjmp(jump, /*savesigs=*/0) != 0) {
    sigset_t faults;
    sigemptyset(&faults);
    sigaddset(&faults, SIGSEGV);
    sigaddset(&faults, SIGBUS);
    pthread_sigmask(SIG_UNBLOCK, &faults, nullptr);
    *fault = tls_fault;
    return false;
  }
  tls_jump = &jump;
  fn();
  tls_jump = nullptr;
  return true;
}

AiCorePool::AiCorePool(int cores, uint64_t ub_bytes) : ub_bytes_(ub_bytes) {
  InstallFaultHandler();
  if (cores < 1) cores = 1;
  threads_.reserve(cores);
  for (int i = 0; i < cores; ++i) threads_.emplace_back([this, i] { CoreLoop(i); });
  // Every core has its signal stack before the pool is used (a kernel host
  // locks itself down right after).
  absl::MutexLock lock(&mu_);
  auto all_started = [this, cores]()
                         ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return started_ == cores; };
  mu_.Await(absl::Condition(&all_started));
}

AiCorePool::~AiCorePool() {
  work_.Stop();
  for (auto& thread : threads_) thread.join();
}

void AiCorePool::Submit(std::function<void(const CoreSlot&)> work) {
  if (tls_pool == this && !*tls_next) {
    *tls_next = std::move(work);
    return;
  }
  work_.Put(std::move(work));
}

absl::StatusOr<std::unique_ptr<BlockFiber>> AiCorePool::TakeFiber() {
  {
    absl::MutexLock lock(&fibers_mu_);
    if (!fibers_.empty()) {
      std::unique_ptr<BlockFiber> fiber = std::move(fibers_.back());
      fibers_.pop_back();
      return fiber;
    }
  }
  return BlockFiber::Create(kBlockStackBytes, ub_bytes_);
}

void AiCorePool::ReturnFiber(std::unique_ptr<BlockFiber> fiber) {
  absl::MutexLock lock(&fibers_mu_);
  if (fibers_.size() < 2 * threads_.size()) fibers_.push_back(std::move(fiber));
}

void AiCorePool::CoreLoop(int core_id) {
  // A kernel that overflows its stack faults on the guard page; the handler
  // then needs a stack of its own.
  stack_t alt{};
  alt.ss_sp = malloc(kAltStackBytes);
  alt.ss_size = kAltStackBytes;
  sigaltstack(&alt, nullptr);
  CoreSlot slot;
  slot.core_id = core_id;
  std::function<void(const CoreSlot&)> next;
  tls_pool = this;
  tls_next = &next;
  {
    absl::MutexLock lock(&mu_);
    ++started_;
  }
  std::function<void(const CoreSlot&)> block;
  while (work_.Take(&block)) {
    // Work is dropped as soon as it has run: what it holds (a launch's
    // module, say) must not wait for the core's next work.
    std::exchange(block, nullptr)(slot);
    while (next) std::exchange(next, nullptr)(slot);
  }
  stack_t disable{};
  disable.ss_flags = SS_DISABLE;
  sigaltstack(&disable, nullptr);
  free(alt.ss_sp);
}

}  // namespace npud::sim
