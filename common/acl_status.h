// acl_status.h
//
// The ACL error vocabulary shared by simdevice, the daemon and the client.
//
// Inside npud every fallible function returns absl::Status. A Status made by
// AclError() carries the exact ACL error code CANN would return as a payload,
// next to the closest canonical code; ToAclCode() recovers it (or derives a
// code from the canonical one for statuses that came from elsewhere). The C
// ABI layer converts to aclError through ToAclCode() and nowhere else.
//
// The numbers below are the public ones of acl_base_rt.h and
// error_codes/rt_error_codes.h; tests/abi checks that they agree.

#ifndef NPUD_COMMON_ACL_STATUS_H_
#define NPUD_COMMON_ACL_STATUS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace npud {

enum AclCode : int32_t {
  kAclSuccess = 0,
  // acl_base_rt.h (ACL layer).
  kAclInvalidParam = 100000,
  kAclUninitialize = 100001,
  kAclRepeatInitialize = 100002,
  kAclInvalidFile = 100003,
  kAclWriteFile = 100004,
  kAclParseFile = 100006,
  kAclInvalidDumpConfig = 100009,
  kAclDumpNotRun = 100045,
  kAclInvalidProfilingConfig = 100010,
  kAclInvalidModelId = 100011,
  kAclProfAlreadyRun = 100042,
  kAclProfNotRun = 100043,
  kAclProfRepeatSubscribe = 148046,
  kAclProfApiConflict = 148047,
  kAclProfModulesUnsupported = 200007,
  kAclGeFailure = 500002,
  kAclProfilingFailure = 500005,
  // What CANN's msproftx calls answer for their own failures (its internal
  // PROFILING_FAILED, returned as an aclError).
  kAclProfTxFailed = -1,
  kAclRepeatFinalize = 100037,
  kAclBadAlloc = 200000,
  kAclFeatureUnsupported = 200006,
  kAclInternalError = 500000,
  kAclFailure = 500001,
  // rt_error_codes.h (runtime layer).
  kRtParamInvalid = 107000,
  kRtInvalidDeviceId = 107001,
  kRtContextNull = 107002,
  kRtStreamContext = 107003,
  kRtStreamModel = 107005,
  kRtEventTimestampInvalid = 107006,
  kRtStreamSubscribe = 107011,
  kRtThreadSubscribe = 107012,
  kRtStreamNoCbReg = 107015,
  kRtInvalidMemoryType = 107016,
  kRtInvalidHandle = 107017,
  kRtStreamCaptured = 107027,
  kRtStreamNotCaptured = 107029,
  kRtWaitTimeout = 107019,
  kRtDeviceTaskAbort = 107022,
  kRtStreamAbort = 107023,
  kRtModelRunning = 107037,
  kRtInvalidSymbol = 107043,
  kRtInvalidDeviceFunction = 107044,
  kRtModelUpdateFailed = 107040,
  kRtSysParamOptNotSet = 107021,
  kRtFeatureNotSupport = 207000,
  kRtMemoryAllocation = 207001,
  kRtMemoryFree = 207002,
  kRtResourceAllocFail = 207005,
  kRtNoPermission = 207006,
  kRtNoEventResource = 207007,
  kRtNoStreamResource = 207008,
  kRtNoModelResource = 207010,
  kRtQueueEmpty = 207013,
  kRtQueueFull = 207014,
  kRtTimeout = 207020,
  kRtInternalError = 507000,
  kRtStreamNotComplete = 507004,
  kRtEventNotComplete = 507006,
  kRtContextReleaseError = 507007,
  kRtLostHeartbeat = 507010,
  kRtModelExecute = 507011,
  kRtReportTimeout = 507012,
  kRtIpcError = 507022,
  kRtModelAbortNormal = 507023,
  kRtAicoreTimeout = 507014,
  kRtAicoreException = 507015,
  kRtAicoreTrapException = 507016,
  kRtVectorCoreTimeout = 507034,
  kRtVectorCoreException = 507035,
  kRtDevSetupError = 507033,
  kRtVectorCoreTrapException = 507036,
  kRtStreamSyncTimeout = 507046,
  kRtEventSyncTimeout = 507047,
  kRtDrvInternalError = 507899,
  kRtSocketClose = 507901,
  kRtStreamCaptureInvalidated = 507903,
  kSnapshotLockFailed = 507906,
  kSnapshotUnlockFailed = 507907,
  kSnapshotBackupFailed = 507908,
  kSnapshotRestoreFailed = 507909,
  kSnapshotCallbackFailed = 507912,
  kSnapshotRegisterCallbackFailed = 507913,
};

// Returns a non-OK status carrying `code`. `code` must not be kAclSuccess.
absl::Status AclError(AclCode code, absl::string_view message);

// The ACL code a status stands for: its payload if it has one, otherwise a
// code derived from the canonical code (kRtInternalError when in doubt).
int32_t ToAclCode(const absl::Status& status);

// Rebuilds a status from a code and message received over the wire.
absl::Status FromAclCode(int32_t code, absl::string_view message);

}  // namespace npud

#endif  // NPUD_COMMON_ACL_STATUS_H_
