#include "client/core/runtime_options.h"

#include <limits>

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// aclrtDeviceLimit values.
// (0 SIMT_STACK_SIZE, 1 SIMT_DVG_WARP_STACK_SIZE and 4 SIMT_PRINTF_FIFO_SIZE
// are the SIMT ones.)
constexpr uint32_t kSimdStackSize = 2;
constexpr uint32_t kSimdPrintfFifoPerCore = 3;
constexpr uint32_t kSimtPrintfFifo = 4;

constexpr uint64_t kDefaultSimdStack = 32 << 10;
constexpr uint64_t kSimdStackGranule = 16 << 10;
constexpr uint64_t kMaxSimdStack = 192 << 10;
constexpr uint64_t kDefaultPrintfFifo = 32 << 10;
constexpr uint64_t kMinPrintfFifo = 1 << 10;
constexpr uint64_t kMaxPrintfFifo = 64 << 20;

constexpr int kDeterministic = 0;

uint64_t RoundUp(uint64_t value, uint64_t granule) {
  return (value + granule - 1) / granule * granule;
}

absl::Status SimtLimit(uint32_t limit) {
  return AclError(
      kRtFeatureNotSupport,
      absl::StrFormat("device limit %d is a SIMT limit; the 910B has no SIMT cores", limit));
}

}  // namespace

RuntimeOptions::RuntimeOptions()
    : simd_stack_bytes_(kDefaultSimdStack), printf_fifo_bytes_(kDefaultPrintfFifo) {}

RuntimeOptions& RuntimeOptions::Get() {
  static RuntimeOptions* const options = new RuntimeOptions();
  return *options;
}

absl::Status RuntimeOptions::SetDeviceLimit(uint32_t limit, uint64_t value) {
  if (limit > kSimtPrintfFifo) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("device limit %d is not in [0, %d]", limit, kSimtPrintfFifo));
  }
  if (value > std::numeric_limits<uint32_t>::max()) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("device limit value %d is above UINT32_MAX", value));
  }
  absl::MutexLock lock(&mu_);
  switch (limit) {
    case kSimdStackSize:
      // CANN ignores sizes at or below the default rather than shrinking.
      if (value > kDefaultSimdStack) simd_stack_bytes_ = RoundUp(value, kSimdStackGranule);
      return absl::OkStatus();
    case kSimdPrintfFifoPerCore:
      if (value < kMinPrintfFifo || value > kMaxPrintfFifo) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("printf buffer of %d bytes per core is not in [%d, %d]",
                                        value, kMinPrintfFifo, kMaxPrintfFifo));
      }
      printf_fifo_bytes_ = RoundUp(value, 8);
      return absl::OkStatus();
    default:
      return SimtLimit(limit);
  }
}

absl::StatusOr<uint64_t> RuntimeOptions::DeviceLimit(uint32_t limit) const {
  if (limit > kSimtPrintfFifo) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("device limit %d is not in [0, %d]", limit, kSimtPrintfFifo));
  }
  absl::MutexLock lock(&mu_);
  switch (limit) {
    case kSimdStackSize:
      return simd_stack_bytes_;
    case kSimdPrintfFifoPerCore:
      return printf_fifo_bytes_;
    default:
      return SimtLimit(limit);
  }
}

absl::Status RuntimeOptions::CheckDeviceOpen() const {
  absl::MutexLock lock(&mu_);
  if (simd_stack_bytes_ > kMaxSimdStack) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("the SIMD stack size set by aclrtDeviceSetLimit (%d bytes) "
                                    "is above the %d the cores have",
                                    simd_stack_bytes_, kMaxSimdStack));
  }
  return absl::OkStatus();
}

absl::Status RuntimeOptions::SetSysParam(int opt, int64_t value) {
  NPUD_RETURN_IF_ERROR(CheckSysParamValue(opt, value));
  absl::MutexLock lock(&mu_);
  sys_params_[opt] = value;
  return absl::OkStatus();
}

int64_t RuntimeOptions::SysParam(int opt) const {
  absl::MutexLock lock(&mu_);
  return sys_params_[opt];
}

absl::Status CheckSysParamValue(int opt, int64_t value) {
  const int64_t max = opt == kDeterministic ? 3 : 1;
  if (opt < 0 || opt >= RuntimeOptions::kSysParams || value < 0 || value > max) {
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("value %d of system parameter %d is not in [0, %d]", value, opt, max));
  }
  return absl::OkStatus();
}

absl::Status SetContextSysParam(int opt, int64_t value) {
  NPUD_RETURN_IF_ERROR(CheckSysParamValue(opt, value));
  NPUD_ASSIGN_OR_RETURN(const CurrentContextInfo context, CurrentContext());
  Runtime::Get().objects().SetContextSysParam(context.id, opt, value);
  return RuntimeOptions::Get().SetSysParam(opt, value);
}

absl::StatusOr<int64_t> ContextSysParam(int opt) {
  NPUD_ASSIGN_OR_RETURN(const CurrentContextInfo context, CurrentContext());
  const std::optional<int64_t> value = context.record.sys_params[opt];
  if (!value) {
    return AclError(kRtSysParamOptNotSet,
                    absl::StrFormat("system parameter %d was not set in this context", opt));
  }
  return *value;
}

}  // namespace npud::client
