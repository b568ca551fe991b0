#include "common/acl_status.h"

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace npud {
namespace {

constexpr absl::string_view kPayloadUrl = "npud.acl/code";

// The canonical code that best describes an ACL code, so that statuses stay
// meaningful to code that only looks at absl codes.
absl::StatusCode CanonicalFor(AclCode code) {
  switch (code) {
    case kAclInvalidParam:
    case kRtParamInvalid:
    case kRtInvalidDeviceId:
    case kRtInvalidMemoryType:
    case kRtEventTimestampInvalid:
    case kAclInvalidFile:
    case kAclParseFile:
    case kAclInvalidDumpConfig:
    case kAclInvalidProfilingConfig:
    case kAclInvalidModelId:
      return absl::StatusCode::kInvalidArgument;
    case kRtInvalidHandle:
      return absl::StatusCode::kNotFound;
    case kAclUninitialize:
    case kAclRepeatInitialize:
    case kAclRepeatFinalize:
    case kAclDumpNotRun:
    case kAclProfAlreadyRun:
    case kAclProfNotRun:
    case kAclProfRepeatSubscribe:
    case kAclProfApiConflict:
    case kRtContextNull:
    case kRtStreamContext:
    case kRtContextReleaseError:
      return absl::StatusCode::kFailedPrecondition;
    case kRtFeatureNotSupport:
    case kAclFeatureUnsupported:
    case kAclProfModulesUnsupported:
      return absl::StatusCode::kUnimplemented;
    case kRtQueueEmpty:
      return absl::StatusCode::kNotFound;
    case kAclBadAlloc:
    case kRtMemoryAllocation:
    case kRtQueueFull:
    case kRtNoStreamResource:
    case kRtResourceAllocFail:
      return absl::StatusCode::kResourceExhausted;
    case kRtNoPermission:
      return absl::StatusCode::kPermissionDenied;
    case kRtWaitTimeout:
    case kRtTimeout:
    case kRtStreamSyncTimeout:
    case kRtEventSyncTimeout:
      return absl::StatusCode::kDeadlineExceeded;
    case kRtLostHeartbeat:
    case kRtSocketClose:
    case kRtDevSetupError:
      return absl::StatusCode::kUnavailable;
    case kRtStreamNotComplete:
    case kRtEventNotComplete:
      return absl::StatusCode::kUnavailable;
    default:
      return absl::StatusCode::kInternal;
  }
}

}  // namespace

absl::Status AclError(AclCode code, absl::string_view message) {
  absl::Status status(CanonicalFor(code), message);
  status.SetPayload(kPayloadUrl, absl::Cord(absl::StrCat(static_cast<int32_t>(code))));
  return status;
}

int32_t ToAclCode(const absl::Status& status) {
  if (status.ok()) return kAclSuccess;
  if (auto payload = status.GetPayload(kPayloadUrl)) {
    int32_t code = 0;
    if (absl::SimpleAtoi(std::string(*payload), &code)) return code;
  }
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return kRtParamInvalid;
    case absl::StatusCode::kNotFound:
      return kRtInvalidHandle;
    case absl::StatusCode::kResourceExhausted:
      return kRtMemoryAllocation;
    case absl::StatusCode::kUnimplemented:
      return kRtFeatureNotSupport;
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnauthenticated:
      return kRtNoPermission;
    case absl::StatusCode::kDeadlineExceeded:
      return kRtTimeout;
    case absl::StatusCode::kUnavailable:
      return kRtSocketClose;
    default:
      return kRtInternalError;
  }
}

absl::Status FromAclCode(int32_t code, absl::string_view message) {
  if (code == kAclSuccess) return absl::OkStatus();
  return AclError(static_cast<AclCode>(code), message);
}

}  // namespace npud
