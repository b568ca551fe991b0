// runtime_options.h
//
// Settings a program makes for the whole process or for one context, that
// CANN keeps on the host: device limits (aclrtDeviceSetLimit) and system
// parameters (aclrtSetSysParamOpt, aclrtCtxSetSysParamOpt).
//
// The CPU model needs neither: its cores run on host threads whose stacks
// and printf buffers are the host's, and its kernels compute the same
// result on every run (what ACL_OPT_DETERMINISTIC asks for). So the values
// are checked and kept as CANN checks and keeps them, and reported back.

#ifndef NPUD_CLIENT_CORE_RUNTIME_OPTIONS_H_
#define NPUD_CLIENT_CORE_RUNTIME_OPTIONS_H_

#include <array>
#include <atomic>
#include <cstdint>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

// The process's options. Thread-safe.
class RuntimeOptions {
 public:
  // The number of aclSysParamOpt values (DETERMINISTIC .. KERNEL_EARLY_START).
  static constexpr int kSysParams = 4;

  static RuntimeOptions& Get();

  // aclrtDeviceLimit `limit`: the SIMT limits do not exist on the 910B
  // (ACL_ERROR_RT_FEATURE_NOT_SUPPORT); the SIMD stack size is kept when
  // above its 32 KiB default, rounded up to 16 KiB; the printf buffer per
  // core must lie in [1 KiB, 64 MiB] and is rounded up to 8 bytes.
  absl::Status SetDeviceLimit(uint32_t limit, uint64_t value) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<uint64_t> DeviceLimit(uint32_t limit) const ABSL_LOCKS_EXCLUDED(mu_);
  // CANN checks a SIMD stack size when the next device opens: above
  // 192 KiB, aclrtSetDevice fails with ACL_ERROR_RT_PARAM_INVALID.
  absl::Status CheckDeviceOpen() const ABSL_LOCKS_EXCLUDED(mu_);

  // aclSysParamOpt `opt` (checked by the caller) for the process; 0 until
  // set.
  absl::Status SetSysParam(int opt, int64_t value) ABSL_LOCKS_EXCLUDED(mu_);
  int64_t SysParam(int opt) const ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtSetOpWaitTimeout: how long, in seconds, later event waits may wait
  // before their stream fails (0: for ever, the default).
  void SetOpWaitTimeout(uint32_t seconds) { op_wait_timeout_s_.store(seconds); }
  uint32_t OpWaitTimeout() const { return op_wait_timeout_s_.load(); }

 private:
  mutable absl::Mutex mu_;
  uint64_t simd_stack_bytes_ ABSL_GUARDED_BY(mu_);
  uint64_t printf_fifo_bytes_ ABSL_GUARDED_BY(mu_);
  std::array<int64_t, kSysParams> sys_params_ ABSL_GUARDED_BY(mu_) = {};
  std::atomic<uint32_t> op_wait_timeout_s_{0};

  RuntimeOptions();
};

// ACL_ERROR_RT_PARAM_INVALID unless `value` is in the range of `opt`
// ([0, 3] for DETERMINISTIC, 0 or 1 for the others).
absl::Status CheckSysParamValue(int opt, int64_t value);

// The current context's options: aclrtCtxSetSysParamOpt also sets the
// process's value (as CANN's does); aclrtCtxGetSysParamOpt answers
// ACL_ERROR_RT_SYSPARAMOPT_NOT_SET for an option never set in the context.
absl::Status SetContextSysParam(int opt, int64_t value);
absl::StatusOr<int64_t> ContextSysParam(int opt);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_RUNTIME_OPTIONS_H_
