// ABI layout test for the public ACL runtime headers.
//
// Generated once from the reference facts (sections 3-8 of acl_types.md and its
// "additions from newer upstream" section); do not regenerate from the headers
// themselves. Every number below is what CANN's own headers produce on LP64 Linux,
// so a failure here means our headers no longer match CANN's ABI.
//
// Each check is made twice: as a static_assert (a broken ABI does not even build)
// and as a gtest expectation (the test report lists what was checked).

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "acl/acl_rt_api.h"

// Deprecated enumerators and members are part of the ABI and are checked too.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define ABI_EQ(expr, expected)                                        \
  do {                                                                \
    static_assert(static_cast<long long>(expr) == (expected), #expr); \
    EXPECT_EQ(static_cast<long long>(expr), (expected)) << #expr;     \
  } while (0)

#define ABI_SAME(a, b) static_assert(std::is_same<a, b>::value, #a " is " #b)

#define FIELD_SIZE(type, member) sizeof(static_cast<type*>(nullptr)->member)

namespace {

// Handle and scalar typedefs (section 3).
ABI_SAME(aclDataBuffer, struct aclDataBuffer);
ABI_SAME(aclrtStream, void*);
ABI_SAME(aclmdlRITask, void*);
ABI_SAME(aclrtEvent, void*);
ABI_SAME(aclrtContext, void*);
ABI_SAME(aclrtNotify, void*);
ABI_SAME(aclrtCntNotify, void*);
ABI_SAME(aclrtLabel, void*);
ABI_SAME(aclrtLabelList, void*);
ABI_SAME(aclrtMbuf, void*);
ABI_SAME(aclError, int);
ABI_SAME(aclFloat16, uint16_t);
ABI_SAME(aclrtAllocatorDesc, void*);
ABI_SAME(aclrtAllocator, void*);
ABI_SAME(aclrtAllocatorBlock, void*);
ABI_SAME(aclrtAllocatorAddr, void*);
ABI_SAME(aclrtTaskGrp, void*);
ABI_SAME(aclrtUtilizationExtendInfo, struct aclrtUtilizationExtendInfo);
ABI_SAME(aclrtGroupInfo, struct tagRtGroupInfo);
ABI_SAME(aclrtExceptionInfo, struct rtExceptionInfo);
ABI_SAME(aclrtDrvMemHandle, void*);
ABI_SAME(aclrtBinary, void*);
ABI_SAME(aclrtBinHandle, void*);
ABI_SAME(aclrtFuncHandle, void*);
ABI_SAME(aclrtArgsHandle, void*);
ABI_SAME(aclrtParamHandle, void*);
ABI_SAME(aclmdlRI, void*);
ABI_SAME(aclmdlRICondHandle, void*);

// Function-pointer typedefs (section 4).
ABI_SAME(aclrtCallback, void (*)(void*));
ABI_SAME(aclrtHostFunc, void (*)(void*));
ABI_SAME(aclrtExceptionInfoCallback, void (*)(aclrtExceptionInfo*));
ABI_SAME(aclrtOpExceptionCallback, void (*)(aclrtExceptionInfo*, void*));
ABI_SAME(aclrtDeviceStateCallback, void (*)(int32_t, aclrtDeviceState, void*));
ABI_SAME(aclrtSnapShotCallBack, uint32_t (*)(int32_t, void*));
ABI_SAME(aclrtStreamStateCallback, void (*)(aclrtStream, aclrtStreamState, void*));
ABI_SAME(aclrtDeviceTaskAbortCallback,
         int32_t (*)(int32_t, aclrtDeviceTaskAbortStage, uint32_t, void*));
ABI_SAME(aclInitCallbackFunc, aclError (*)(const char*, size_t, void*));
ABI_SAME(aclFinalizeCallbackFunc, aclError (*)(void*));
ABI_SAME(aclrtAllocatorAllocFunc, void* (*)(aclrtAllocator, size_t));
ABI_SAME(aclrtAllocatorFreeFunc, void (*)(aclrtAllocator, aclrtAllocatorBlock));
ABI_SAME(aclrtAllocatorAllocAdviseFunc, void* (*)(aclrtAllocator, size_t, aclrtAllocatorAddr));
ABI_SAME(aclrtAllocatorGetAddrFromBlockFunc, void* (*)(aclrtAllocatorBlock));
ABI_SAME(aclrtApiFunc, void (*)(void));  // our choice, see acl_rt.h

// Field types of every struct and union (section 8).
ABI_SAME(decltype(aclrtMemManagedLocation::type), aclrtMemManagedLocationType);
ABI_SAME(decltype(aclrtMemManagedLocation::id), int32_t);
ABI_SAME(decltype(aclrtMallocAttrValue::moduleId), uint16_t);
ABI_SAME(decltype(aclrtMallocAttrValue::deviceId), uint32_t);
ABI_SAME(decltype(aclrtMallocAttrValue::vaFlag), uint32_t);
ABI_SAME(decltype(aclrtMallocAttrValue::rsv), uint8_t[8]);
ABI_SAME(decltype(aclrtMallocAttribute::attr), aclrtMallocAttrType);
ABI_SAME(decltype(aclrtMallocAttribute::value), aclrtMallocAttrValue);
ABI_SAME(decltype(aclrtMallocConfig::attrs), aclrtMallocAttribute*);
ABI_SAME(decltype(aclrtMallocConfig::numAttrs), size_t);
ABI_SAME(decltype(aclrtServerPid::sdid), uint32_t);
ABI_SAME(decltype(aclrtServerPid::pid), int32_t*);
ABI_SAME(decltype(aclrtServerPid::num), size_t);
ABI_SAME(decltype(aclrtStreamConfigHandle::workptr), void*);
ABI_SAME(decltype(aclrtStreamConfigHandle::workSize), size_t);
ABI_SAME(decltype(aclrtStreamConfigHandle::flag), size_t);
ABI_SAME(decltype(aclrtStreamConfigHandle::priority), uint32_t);
ABI_SAME(decltype(aclrtUtilizationInfo::cubeUtilization), int32_t);
ABI_SAME(decltype(aclrtUtilizationInfo::vectorUtilization), int32_t);
ABI_SAME(decltype(aclrtUtilizationInfo::aicpuUtilization), int32_t);
ABI_SAME(decltype(aclrtUtilizationInfo::memoryUtilization), int32_t);
ABI_SAME(decltype(aclrtUtilizationInfo::utilizationExtend), aclrtUtilizationExtendInfo*);
ABI_SAME(decltype(aclrtMemLocation::id), uint32_t);
ABI_SAME(decltype(aclrtMemLocation::type), aclrtMemLocationType);
ABI_SAME(decltype(aclrtPtrAttributes::location), aclrtMemLocation);
ABI_SAME(decltype(aclrtPtrAttributes::pageSize), uint32_t);
ABI_SAME(decltype(aclrtPtrAttributes::rsv), uint32_t[4]);
ABI_SAME(decltype(aclrtMemUsageInfo::name), char[32]);
ABI_SAME(decltype(aclrtMemUsageInfo::curMemSize), uint64_t);
ABI_SAME(decltype(aclrtMemUsageInfo::memPeakSize), uint64_t);
ABI_SAME(decltype(aclrtMemUsageInfo::reserved), size_t[8]);
ABI_SAME(decltype(aclrtMemFabricHandle::data), uint8_t[128]);
ABI_SAME(decltype(aclrtPhysicalMemProp::handleType), aclrtMemHandleType);
ABI_SAME(decltype(aclrtPhysicalMemProp::allocationType), aclrtMemAllocationType);
ABI_SAME(decltype(aclrtPhysicalMemProp::memAttr), aclrtMemAttr);
ABI_SAME(decltype(aclrtPhysicalMemProp::location), aclrtMemLocation);
ABI_SAME(decltype(aclrtPhysicalMemProp::reserve), uint64_t);
ABI_SAME(decltype(aclrtMemUceInfo::addr), void*);
ABI_SAME(decltype(aclrtMemUceInfo::len), size_t);
ABI_SAME(decltype(aclrtMemUceInfo::reserved), size_t[UCE_INFO_RESERVED_SIZE]);
ABI_SAME(decltype(aclrtMemUceInfoArray::arraySize), size_t);
ABI_SAME(decltype(aclrtMemUceInfoArray::memUceInfoArray),
         aclrtMemUceInfo[ACL_RT_MEM_UCE_INFO_MAX_NUM]);
ABI_SAME(decltype(aclrtErrorInfoDetail::uceInfo), aclrtMemUceInfoArray);
ABI_SAME(decltype(aclrtErrorInfoDetail::aicoreErrType), aclrtAicoreErrorType);
ABI_SAME(decltype(aclrtErrorInfo::tryRepair), uint8_t);
ABI_SAME(decltype(aclrtErrorInfo::hasDetail), uint8_t);
ABI_SAME(decltype(aclrtErrorInfo::reserved), uint8_t[2]);
ABI_SAME(decltype(aclrtErrorInfo::errorType), aclrtErrorType);
ABI_SAME(decltype(aclrtErrorInfo::detail), aclrtErrorInfoDetail);
ABI_SAME(decltype(aclrtBinaryLoadOptionValue::isLazyLoad), uint32_t);
ABI_SAME(decltype(aclrtBinaryLoadOptionValue::magic), uint32_t);
ABI_SAME(decltype(aclrtBinaryLoadOptionValue::cpuKernelMode), int32_t);
ABI_SAME(decltype(aclrtBinaryLoadOptionValue::rsv), uint32_t[4]);
ABI_SAME(decltype(aclrtBinaryLoadOption::type), aclrtBinaryLoadOptionType);
ABI_SAME(decltype(aclrtBinaryLoadOption::value), aclrtBinaryLoadOptionValue);
ABI_SAME(decltype(aclrtBinaryLoadOptions::options), aclrtBinaryLoadOption*);
ABI_SAME(decltype(aclrtBinaryLoadOptions::numOpt), size_t);
ABI_SAME(decltype(dim3::x), uint32_t);
ABI_SAME(decltype(dim3::y), uint32_t);
ABI_SAME(decltype(dim3::z), uint32_t);
ABI_SAME(decltype(aclrtTimeoutUs::timeoutLow), uint32_t);
ABI_SAME(decltype(aclrtTimeoutUs::timeoutHigh), uint32_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::schemMode), uint8_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::localMemorySize), uint32_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::dynUBufSize), uint32_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::engineType), aclrtEngineType);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::blockDimOffset), uint32_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::isBlockTaskPrefetch), uint8_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::isDataDump), uint8_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::timeout), uint16_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::timeoutUs), aclrtTimeoutUs);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::enableProfiling), uint8_t);
ABI_SAME(decltype(aclrtLaunchKernelAttrValue::rsv), uint32_t[4]);
ABI_SAME(decltype(aclrtLaunchKernelAttr::id), aclrtLaunchKernelAttrId);
ABI_SAME(decltype(aclrtLaunchKernelAttr::value), aclrtLaunchKernelAttrValue);
ABI_SAME(decltype(aclrtLaunchKernelCfg::attrs), aclrtLaunchKernelAttr*);
ABI_SAME(decltype(aclrtLaunchKernelCfg::numAttrs), size_t);
ABI_SAME(decltype(aclrtStreamAttrValue::failureMode), uint64_t);
ABI_SAME(decltype(aclrtStreamAttrValue::overflowSwitch), uint32_t);
ABI_SAME(decltype(aclrtStreamAttrValue::userCustomTag), uint32_t);
ABI_SAME(decltype(aclrtStreamAttrValue::cacheOpInfoSwitch), uint32_t);
ABI_SAME(decltype(aclrtStreamAttrValue::streamPriority), uint32_t);
ABI_SAME(decltype(aclrtStreamAttrValue::launchBlockingMode), uint32_t);
ABI_SAME(decltype(aclrtStreamAttrValue::reserve), uint32_t[4]);
ABI_SAME(decltype(aclmdlRIKernelTaskParams::funcHandle), aclrtFuncHandle);
ABI_SAME(decltype(aclmdlRIKernelTaskParams::cfg), aclrtLaunchKernelCfg*);
ABI_SAME(decltype(aclmdlRIKernelTaskParams::args), void*);
ABI_SAME(decltype(aclmdlRIKernelTaskParams::isHostArgs), uint32_t);
ABI_SAME(decltype(aclmdlRIKernelTaskParams::argsSize), size_t);
ABI_SAME(decltype(aclmdlRIKernelTaskParams::numBlocks), uint32_t);
ABI_SAME(decltype(aclmdlRIKernelTaskParams::rsv), uint32_t[10]);
ABI_SAME(decltype(aclmdlRIEventRecordTaskParams::event), aclrtEvent);
ABI_SAME(decltype(aclmdlRIEventRecordTaskParams::eventFlag), uint32_t);
ABI_SAME(decltype(aclmdlRIEventRecordTaskParams::recordFlag), uint32_t);
ABI_SAME(decltype(aclmdlRIEventWaitTaskParams::event), aclrtEvent);
ABI_SAME(decltype(aclmdlRIEventWaitTaskParams::eventFlag), uint32_t);
ABI_SAME(decltype(aclmdlRIEventWaitTaskParams::waitFlag), uint32_t);
ABI_SAME(decltype(aclmdlRIEventResetTaskParams::event), aclrtEvent);
ABI_SAME(decltype(aclmdlRIEventResetTaskParams::eventFlag), uint32_t);
ABI_SAME(decltype(aclmdlRIEventResetTaskParams::resetFlag), uint32_t);
ABI_SAME(decltype(aclmdlRIValueWriteTaskParams::devAddr), void*);
ABI_SAME(decltype(aclmdlRIValueWriteTaskParams::value), uint64_t);
ABI_SAME(decltype(aclmdlRIValueWaitTaskParams::devAddr), void*);
ABI_SAME(decltype(aclmdlRIValueWaitTaskParams::value), uint64_t);
ABI_SAME(decltype(aclmdlRIValueWaitTaskParams::flag), uint32_t);
ABI_SAME(decltype(aclmdlRITaskParams::type), aclmdlRITaskType);
ABI_SAME(decltype(aclmdlRITaskParams::rsv0), uint32_t[3]);
ABI_SAME(decltype(aclmdlRITaskParams::taskGrp), aclrtTaskGrp);
ABI_SAME(decltype(aclmdlRITaskParams::opInfoPtr), void*);
ABI_SAME(decltype(aclmdlRITaskParams::opInfoSize), size_t);
ABI_SAME(decltype(aclmdlRITaskParams::rsv1), uint8_t[32]);
ABI_SAME(decltype(aclmdlRITaskParams::rsv2), uint8_t[128]);
ABI_SAME(decltype(aclmdlRITaskParams::kernelTaskParams), struct aclmdlRIKernelTaskParams);
ABI_SAME(decltype(aclmdlRITaskParams::eventRecordTaskParams), struct aclmdlRIEventRecordTaskParams);
ABI_SAME(decltype(aclmdlRITaskParams::eventWaitTaskParams), struct aclmdlRIEventWaitTaskParams);
ABI_SAME(decltype(aclmdlRITaskParams::eventResetTaskParams), struct aclmdlRIEventResetTaskParams);
ABI_SAME(decltype(aclmdlRITaskParams::valueWriteTaskParams), struct aclmdlRIValueWriteTaskParams);
ABI_SAME(decltype(aclmdlRITaskParams::valueWaitTaskParams), struct aclmdlRIValueWaitTaskParams);
ABI_SAME(decltype(aclrtBarrierCmoInfo::cmoType), aclrtCmoType);
ABI_SAME(decltype(aclrtBarrierCmoInfo::barrierId), uint32_t);
ABI_SAME(decltype(aclrtBarrierTaskInfo::barrierNum), size_t);
ABI_SAME(decltype(aclrtBarrierTaskInfo::cmoInfo), aclrtBarrierCmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM]);
ABI_SAME(decltype(aclrtMemcpyBatchAttr::dstLoc), aclrtMemLocation);
ABI_SAME(decltype(aclrtMemcpyBatchAttr::srcLoc), aclrtMemLocation);
ABI_SAME(decltype(aclrtMemcpyBatchAttr::rsv), uint8_t[16]);
ABI_SAME(decltype(aclrtPlaceHolderInfo::addrOffset), uint32_t);
ABI_SAME(decltype(aclrtPlaceHolderInfo::dataOffset), uint32_t);
ABI_SAME(decltype(aclrtRandomParaInfo::isAddr), uint8_t);
ABI_SAME(decltype(aclrtRandomParaInfo::valueOrAddr), uint8_t[8]);
ABI_SAME(decltype(aclrtRandomParaInfo::size), uint8_t);
ABI_SAME(decltype(aclrtRandomParaInfo::rsv), uint8_t[6]);
ABI_SAME(decltype(aclrtDropoutBitmaskInfo::dropoutRation), aclrtRandomParaInfo);
ABI_SAME(decltype(aclrtUniformDisInfo::min), aclrtRandomParaInfo);
ABI_SAME(decltype(aclrtUniformDisInfo::max), aclrtRandomParaInfo);
ABI_SAME(decltype(aclrtNormalDisInfo::mean), aclrtRandomParaInfo);
ABI_SAME(decltype(aclrtNormalDisInfo::stddev), aclrtRandomParaInfo);
ABI_SAME(decltype(aclrtRandomNumFuncParaInfo::funcType), aclrtRandomNumFuncType);
ABI_SAME(decltype(aclrtRandomNumFuncParaInfo::paramInfo.dropoutBitmaskInfo),
         aclrtDropoutBitmaskInfo);
ABI_SAME(decltype(aclrtRandomNumFuncParaInfo::paramInfo.uniformDisInfo), aclrtUniformDisInfo);
ABI_SAME(decltype(aclrtRandomNumFuncParaInfo::paramInfo.normalDisInfo), aclrtNormalDisInfo);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::dataType), aclDataType);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::randomNumFuncParaInfo), aclrtRandomNumFuncParaInfo);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::randomParaAddr), void*);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::randomResultAddr), void*);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::randomCounterAddr), void*);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::randomSeed), aclrtRandomParaInfo);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::randomNum), aclrtRandomParaInfo);
ABI_SAME(decltype(aclrtRandomNumTaskInfo::rsv), uint8_t[8]);
ABI_SAME(decltype(aclrtRandomTaskUpdateAttr::srcAddr), void*);
ABI_SAME(decltype(aclrtRandomTaskUpdateAttr::size), size_t);
ABI_SAME(decltype(aclrtRandomTaskUpdateAttr::rsv), uint32_t[4]);
ABI_SAME(decltype(aclrtAicAivTaskUpdateAttr::binHandle), void*);
ABI_SAME(decltype(aclrtAicAivTaskUpdateAttr::funcEntryAddr), void*);
ABI_SAME(decltype(aclrtAicAivTaskUpdateAttr::blockDimAddr), void*);
ABI_SAME(decltype(aclrtAicAivTaskUpdateAttr::rsv), uint32_t[4]);
ABI_SAME(decltype(aclrtUpdateTaskAttrVal::randomTaskAttr), aclrtRandomTaskUpdateAttr);
ABI_SAME(decltype(aclrtUpdateTaskAttrVal::aicAivTaskAttr), aclrtAicAivTaskUpdateAttr);
ABI_SAME(decltype(aclrtTaskUpdateInfo::id), aclrtUpdateTaskAttrId);
ABI_SAME(decltype(aclrtTaskUpdateInfo::val), aclrtUpdateTaskAttrVal);
ABI_SAME(decltype(aclrtSnapShotBackupArgs::backupFlags), uint32_t);
ABI_SAME(decltype(aclrtSnapShotBackupArgs::reserved), char[60]);
ABI_SAME(decltype(aclrtSnapShotRestoreArgs::restoreFlags), uint32_t);
ABI_SAME(decltype(aclrtSnapShotRestoreArgs::reserved), char[60]);
ABI_SAME(decltype(aclrtUuid::bytes), char[16]);
ABI_SAME(decltype(aclrtCntNotifyRecordInfo::mode), aclrtCntNotifyRecordMode);
ABI_SAME(decltype(aclrtCntNotifyRecordInfo::value), uint32_t);
ABI_SAME(decltype(aclrtCntNotifyWaitInfo::mode), aclrtCntNotifyWaitMode);
ABI_SAME(decltype(aclrtCntNotifyWaitInfo::value), uint32_t);
ABI_SAME(decltype(aclrtCntNotifyWaitInfo::timeout), uint32_t);
ABI_SAME(decltype(aclrtCntNotifyWaitInfo::isClear), uint8_t);
ABI_SAME(decltype(aclrtCntNotifyWaitInfo::rsv), uint8_t[3]);
ABI_SAME(decltype(aclrtMemAccessDesc::flags), aclrtMemAccessFlags);
ABI_SAME(decltype(aclrtMemAccessDesc::location), aclrtMemLocation);
ABI_SAME(decltype(aclrtMemAccessDesc::rsv), uint8_t[12]);
ABI_SAME(decltype(aclCANNPackageVersion::version), char[ACL_PKG_VERSION_MAX_SIZE]);
ABI_SAME(decltype(aclCANNPackageVersion::majorVersion), char[ACL_PKG_VERSION_PARTS_MAX_SIZE]);
ABI_SAME(decltype(aclCANNPackageVersion::minorVersion), char[ACL_PKG_VERSION_PARTS_MAX_SIZE]);
ABI_SAME(decltype(aclCANNPackageVersion::releaseVersion), char[ACL_PKG_VERSION_PARTS_MAX_SIZE]);
ABI_SAME(decltype(aclCANNPackageVersion::patchVersion), char[ACL_PKG_VERSION_PARTS_MAX_SIZE]);
ABI_SAME(decltype(aclCANNPackageVersion::reserved), char[ACL_PKG_VERSION_MAX_SIZE]);
ABI_SAME(decltype(aclrtIpcEventHandle::reserved), char[ACL_IPC_EVENT_HANDLE_SIZE]);
ABI_SAME(decltype(MemAttrMapping::pgType), uint32_t);
ABI_SAME(decltype(MemAttrMapping::memType), uint32_t);
ABI_SAME(decltype(MemAttrMapping::isHostAlloc), bool);
ABI_SAME(decltype(MemAttrMapping::memAttr), aclrtMemAttr);
ABI_SAME(decltype(aclmdlRICondTaskParams::handle), aclmdlRICondHandle);
ABI_SAME(decltype(aclmdlRICondTaskParams::type), aclmdlRICondTaskType);
ABI_SAME(decltype(aclmdlRICondTaskParams::size), uint32_t);
ABI_SAME(decltype(aclmdlRICondTaskParams::modelRIArray), aclmdlRI*);

// Enumerations are 4 bytes; those with a negative enumerator are signed (section 7).
static_assert(sizeof(aclDataType) == 4, "aclDataType");
static_assert(std::is_signed<std::underlying_type<aclDataType>::type>::value, "aclDataType");
static_assert(sizeof(aclFormat) == 4, "aclFormat");
static_assert(std::is_signed<std::underlying_type<aclFormat>::type>::value, "aclFormat");
static_assert(sizeof(aclLogLevel) == 4, "aclLogLevel");
static_assert(std::is_unsigned<std::underlying_type<aclLogLevel>::type>::value, "aclLogLevel");
static_assert(sizeof(aclMemType) == 4, "aclMemType");
static_assert(std::is_unsigned<std::underlying_type<aclMemType>::type>::value, "aclMemType");
static_assert(sizeof(aclSysParamOpt) == 4, "aclSysParamOpt");
static_assert(std::is_unsigned<std::underlying_type<aclSysParamOpt>::type>::value,
              "aclSysParamOpt");
static_assert(sizeof(aclCannAttr) == 4, "aclCannAttr");
static_assert(std::is_signed<std::underlying_type<aclCannAttr>::type>::value, "aclCannAttr");
static_assert(sizeof(aclDeviceInfo) == 4, "aclDeviceInfo");
static_assert(std::is_signed<std::underlying_type<aclDeviceInfo>::type>::value, "aclDeviceInfo");
static_assert(sizeof(aclrtRunMode) == 4, "aclrtRunMode");
static_assert(std::is_unsigned<std::underlying_type<aclrtRunMode>::type>::value, "aclrtRunMode");
static_assert(sizeof(aclrtTsId) == 4, "aclrtTsId");
static_assert(std::is_unsigned<std::underlying_type<aclrtTsId>::type>::value, "aclrtTsId");
static_assert(sizeof(aclrtEventStatus) == 4, "aclrtEventStatus");
static_assert(std::is_unsigned<std::underlying_type<aclrtEventStatus>::type>::value,
              "aclrtEventStatus");
static_assert(sizeof(aclrtEventRecordedStatus) == 4, "aclrtEventRecordedStatus");
static_assert(std::is_unsigned<std::underlying_type<aclrtEventRecordedStatus>::type>::value,
              "aclrtEventRecordedStatus");
static_assert(sizeof(aclrtEventWaitStatus) == 4, "aclrtEventWaitStatus");
static_assert(std::is_unsigned<std::underlying_type<aclrtEventWaitStatus>::type>::value,
              "aclrtEventWaitStatus");
static_assert(sizeof(aclrtStreamStatus) == 4, "aclrtStreamStatus");
static_assert(std::is_unsigned<std::underlying_type<aclrtStreamStatus>::type>::value,
              "aclrtStreamStatus");
static_assert(sizeof(aclrtCallbackBlockType) == 4, "aclrtCallbackBlockType");
static_assert(std::is_unsigned<std::underlying_type<aclrtCallbackBlockType>::type>::value,
              "aclrtCallbackBlockType");
static_assert(sizeof(aclrtMemcpyKind) == 4, "aclrtMemcpyKind");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemcpyKind>::type>::value,
              "aclrtMemcpyKind");
static_assert(sizeof(aclrtMemManagedAdviseType) == 4, "aclrtMemManagedAdviseType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemManagedAdviseType>::type>::value,
              "aclrtMemManagedAdviseType");
static_assert(sizeof(aclrtMemManagedLocationType) == 4, "aclrtMemManagedLocationType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemManagedLocationType>::type>::value,
              "aclrtMemManagedLocationType");
static_assert(sizeof(aclrtMemMallocPolicy) == 4, "aclrtMemMallocPolicy");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemMallocPolicy>::type>::value,
              "aclrtMemMallocPolicy");
static_assert(sizeof(aclrtHostRegisterType) == 4, "aclrtHostRegisterType");
static_assert(std::is_unsigned<std::underlying_type<aclrtHostRegisterType>::type>::value,
              "aclrtHostRegisterType");
static_assert(sizeof(aclrtMallocAttrType) == 4, "aclrtMallocAttrType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMallocAttrType>::type>::value,
              "aclrtMallocAttrType");
static_assert(sizeof(aclrtMemAttr) == 4, "aclrtMemAttr");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemAttr>::type>::value, "aclrtMemAttr");
static_assert(sizeof(aclrtMemPgType) == 4, "aclrtMemPgType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemPgType>::type>::value,
              "aclrtMemPgType");
static_assert(sizeof(aclrtMemType) == 4, "aclrtMemType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemType>::type>::value, "aclrtMemType");
static_assert(sizeof(aclrtIpcMemAttrType) == 4, "aclrtIpcMemAttrType");
static_assert(std::is_unsigned<std::underlying_type<aclrtIpcMemAttrType>::type>::value,
              "aclrtIpcMemAttrType");
static_assert(sizeof(aclrtGroupAttr) == 4, "aclrtGroupAttr");
static_assert(std::is_unsigned<std::underlying_type<aclrtGroupAttr>::type>::value,
              "aclrtGroupAttr");
static_assert(sizeof(aclrtFloatOverflowMode) == 4, "aclrtFloatOverflowMode");
static_assert(std::is_unsigned<std::underlying_type<aclrtFloatOverflowMode>::type>::value,
              "aclrtFloatOverflowMode");
static_assert(sizeof(aclrtStreamConfigAttr) == 4, "aclrtStreamConfigAttr");
static_assert(std::is_unsigned<std::underlying_type<aclrtStreamConfigAttr>::type>::value,
              "aclrtStreamConfigAttr");
static_assert(sizeof(aclrtMemLocationType) == 4, "aclrtMemLocationType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemLocationType>::type>::value,
              "aclrtMemLocationType");
static_assert(sizeof(aclrtMemManagedRangeAttribute) == 4, "aclrtMemManagedRangeAttribute");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemManagedRangeAttribute>::type>::value,
              "aclrtMemManagedRangeAttribute");
static_assert(sizeof(aclrtMemAllocationType) == 4, "aclrtMemAllocationType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemAllocationType>::type>::value,
              "aclrtMemAllocationType");
static_assert(sizeof(aclrtMemHandleType) == 4, "aclrtMemHandleType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemHandleType>::type>::value,
              "aclrtMemHandleType");
static_assert(sizeof(aclrtMemSharedHandleType) == 4, "aclrtMemSharedHandleType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemSharedHandleType>::type>::value,
              "aclrtMemSharedHandleType");
static_assert(sizeof(aclrtMemGranularityOptions) == 4, "aclrtMemGranularityOptions");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemGranularityOptions>::type>::value,
              "aclrtMemGranularityOptions");
static_assert(sizeof(aclrtDeviceStatus) == 4, "aclrtDeviceStatus");
static_assert(std::is_unsigned<std::underlying_type<aclrtDeviceStatus>::type>::value,
              "aclrtDeviceStatus");
static_assert(sizeof(aclmdlRICaptureMode) == 4, "aclmdlRICaptureMode");
static_assert(std::is_unsigned<std::underlying_type<aclmdlRICaptureMode>::type>::value,
              "aclmdlRICaptureMode");
static_assert(sizeof(aclmdlRICaptureStatus) == 4, "aclmdlRICaptureStatus");
static_assert(std::is_unsigned<std::underlying_type<aclmdlRICaptureStatus>::type>::value,
              "aclmdlRICaptureStatus");
static_assert(sizeof(aclrtErrorType) == 4, "aclrtErrorType");
static_assert(std::is_unsigned<std::underlying_type<aclrtErrorType>::type>::value,
              "aclrtErrorType");
static_assert(sizeof(aclrtAicoreErrorType) == 4, "aclrtAicoreErrorType");
static_assert(std::is_unsigned<std::underlying_type<aclrtAicoreErrorType>::type>::value,
              "aclrtAicoreErrorType");
static_assert(sizeof(aclrtCmoType) == 4, "aclrtCmoType");
static_assert(std::is_unsigned<std::underlying_type<aclrtCmoType>::type>::value, "aclrtCmoType");
static_assert(sizeof(aclrtLastErrLevel) == 4, "aclrtLastErrLevel");
static_assert(std::is_unsigned<std::underlying_type<aclrtLastErrLevel>::type>::value,
              "aclrtLastErrLevel");
static_assert(sizeof(aclrtBinaryLoadOptionType) == 4, "aclrtBinaryLoadOptionType");
static_assert(std::is_unsigned<std::underlying_type<aclrtBinaryLoadOptionType>::type>::value,
              "aclrtBinaryLoadOptionType");
static_assert(sizeof(aclrtEngineType) == 4, "aclrtEngineType");
static_assert(std::is_unsigned<std::underlying_type<aclrtEngineType>::type>::value,
              "aclrtEngineType");
static_assert(sizeof(aclrtLaunchKernelAttrId) == 4, "aclrtLaunchKernelAttrId");
static_assert(std::is_unsigned<std::underlying_type<aclrtLaunchKernelAttrId>::type>::value,
              "aclrtLaunchKernelAttrId");
static_assert(sizeof(aclrtStreamAttr) == 4, "aclrtStreamAttr");
static_assert(std::is_unsigned<std::underlying_type<aclrtStreamAttr>::type>::value,
              "aclrtStreamAttr");
static_assert(sizeof(aclmdlRITaskType) == 4, "aclmdlRITaskType");
static_assert(std::is_unsigned<std::underlying_type<aclmdlRITaskType>::type>::value,
              "aclmdlRITaskType");
static_assert(sizeof(aclrtDevAttr) == 4, "aclrtDevAttr");
static_assert(std::is_unsigned<std::underlying_type<aclrtDevAttr>::type>::value, "aclrtDevAttr");
static_assert(sizeof(aclrtDevFeatureType) == 4, "aclrtDevFeatureType");
static_assert(std::is_unsigned<std::underlying_type<aclrtDevFeatureType>::type>::value,
              "aclrtDevFeatureType");
static_assert(sizeof(aclrtReduceKind) == 4, "aclrtReduceKind");
static_assert(std::is_unsigned<std::underlying_type<aclrtReduceKind>::type>::value,
              "aclrtReduceKind");
static_assert(sizeof(aclrtDevResLimitType) == 4, "aclrtDevResLimitType");
static_assert(std::is_unsigned<std::underlying_type<aclrtDevResLimitType>::type>::value,
              "aclrtDevResLimitType");
static_assert(sizeof(aclrtCondition) == 4, "aclrtCondition");
static_assert(std::is_unsigned<std::underlying_type<aclrtCondition>::type>::value,
              "aclrtCondition");
static_assert(sizeof(aclrtCompareDataType) == 4, "aclrtCompareDataType");
static_assert(std::is_unsigned<std::underlying_type<aclrtCompareDataType>::type>::value,
              "aclrtCompareDataType");
static_assert(sizeof(aclrtRandomNumFuncType) == 4, "aclrtRandomNumFuncType");
static_assert(std::is_unsigned<std::underlying_type<aclrtRandomNumFuncType>::type>::value,
              "aclrtRandomNumFuncType");
static_assert(sizeof(aclrtDeviceTaskAbortStage) == 4, "aclrtDeviceTaskAbortStage");
static_assert(std::is_unsigned<std::underlying_type<aclrtDeviceTaskAbortStage>::type>::value,
              "aclrtDeviceTaskAbortStage");
static_assert(sizeof(aclrtUpdateTaskAttrId) == 4, "aclrtUpdateTaskAttrId");
static_assert(std::is_unsigned<std::underlying_type<aclrtUpdateTaskAttrId>::type>::value,
              "aclrtUpdateTaskAttrId");
static_assert(sizeof(aclrtDeviceState) == 4, "aclrtDeviceState");
static_assert(std::is_unsigned<std::underlying_type<aclrtDeviceState>::type>::value,
              "aclrtDeviceState");
static_assert(sizeof(aclrtSnapShotStage) == 4, "aclrtSnapShotStage");
static_assert(std::is_unsigned<std::underlying_type<aclrtSnapShotStage>::type>::value,
              "aclrtSnapShotStage");
static_assert(sizeof(aclrtStreamState) == 4, "aclrtStreamState");
static_assert(std::is_unsigned<std::underlying_type<aclrtStreamState>::type>::value,
              "aclrtStreamState");
static_assert(sizeof(aclrtFuncAttribute) == 4, "aclrtFuncAttribute");
static_assert(std::is_unsigned<std::underlying_type<aclrtFuncAttribute>::type>::value,
              "aclrtFuncAttribute");
static_assert(sizeof(aclrtKernelType) == 4, "aclrtKernelType");
static_assert(std::is_unsigned<std::underlying_type<aclrtKernelType>::type>::value,
              "aclrtKernelType");
static_assert(sizeof(aclrtCntNotifyRecordMode) == 4, "aclrtCntNotifyRecordMode");
static_assert(std::is_unsigned<std::underlying_type<aclrtCntNotifyRecordMode>::type>::value,
              "aclrtCntNotifyRecordMode");
static_assert(sizeof(aclrtCntNotifyWaitMode) == 4, "aclrtCntNotifyWaitMode");
static_assert(std::is_unsigned<std::underlying_type<aclrtCntNotifyWaitMode>::type>::value,
              "aclrtCntNotifyWaitMode");
static_assert(sizeof(aclrtMemAccessFlags) == 4, "aclrtMemAccessFlags");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemAccessFlags>::type>::value,
              "aclrtMemAccessFlags");
static_assert(sizeof(aclCANNPackageName) == 4, "aclCANNPackageName");
static_assert(std::is_unsigned<std::underlying_type<aclCANNPackageName>::type>::value,
              "aclCANNPackageName");
static_assert(sizeof(aclrtHacType) == 4, "aclrtHacType");
static_assert(std::is_unsigned<std::underlying_type<aclrtHacType>::type>::value, "aclrtHacType");
static_assert(sizeof(aclrtHostMemMapCapability) == 4, "aclrtHostMemMapCapability");
static_assert(std::is_unsigned<std::underlying_type<aclrtHostMemMapCapability>::type>::value,
              "aclrtHostMemMapCapability");
static_assert(sizeof(aclrtMemLinkType) == 4, "aclrtMemLinkType");
static_assert(std::is_unsigned<std::underlying_type<aclrtMemLinkType>::type>::value,
              "aclrtMemLinkType");
static_assert(sizeof(aclrtAtomicOperationCapability) == 4, "aclrtAtomicOperationCapability");
static_assert(std::is_unsigned<std::underlying_type<aclrtAtomicOperationCapability>::type>::value,
              "aclrtAtomicOperationCapability");
static_assert(sizeof(aclrtAtomicOperation) == 4, "aclrtAtomicOperation");
static_assert(std::is_unsigned<std::underlying_type<aclrtAtomicOperation>::type>::value,
              "aclrtAtomicOperation");
static_assert(sizeof(aclmdlRICondHandleFlag) == 4, "aclmdlRICondHandleFlag");
static_assert(std::is_unsigned<std::underlying_type<aclmdlRICondHandleFlag>::type>::value,
              "aclmdlRICondHandleFlag");
static_assert(sizeof(aclmdlRICondTaskType) == 4, "aclmdlRICondTaskType");
static_assert(std::is_unsigned<std::underlying_type<aclmdlRICondTaskType>::type>::value,
              "aclmdlRICondTaskType");
static_assert(sizeof(aclrtDeviceLimit) == 4, "aclrtDeviceLimit");
static_assert(std::is_unsigned<std::underlying_type<aclrtDeviceLimit>::type>::value,
              "aclrtDeviceLimit");
static_assert(sizeof(aclRegisterCallbackType) == 4, "aclRegisterCallbackType");
static_assert(std::is_unsigned<std::underlying_type<aclRegisterCallbackType>::type>::value,
              "aclRegisterCallbackType");
static_assert(sizeof(aclrtProcessState) == 4, "aclrtProcessState");
static_assert(std::is_unsigned<std::underlying_type<aclrtProcessState>::type>::value,
              "aclrtProcessState");

// ACL_ERROR_* are static const int, ACL_ERROR_GE_* static const uint32_t (section 5).
ABI_SAME(decltype(ACL_ERROR_NONE), const int);
ABI_SAME(decltype(ACL_SUCCESS), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_PARAM), const int);
ABI_SAME(decltype(ACL_ERROR_UNINITIALIZE), const int);
ABI_SAME(decltype(ACL_ERROR_REPEAT_INITIALIZE), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_FILE), const int);
ABI_SAME(decltype(ACL_ERROR_WRITE_FILE), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_FILE_SIZE), const int);
ABI_SAME(decltype(ACL_ERROR_PARSE_FILE), const int);
ABI_SAME(decltype(ACL_ERROR_FILE_MISSING_ATTR), const int);
ABI_SAME(decltype(ACL_ERROR_FILE_ATTR_INVALID), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_DUMP_CONFIG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_PROFILING_CONFIG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_MODEL_ID), const int);
ABI_SAME(decltype(ACL_ERROR_DESERIALIZE_MODEL), const int);
ABI_SAME(decltype(ACL_ERROR_PARSE_MODEL), const int);
ABI_SAME(decltype(ACL_ERROR_READ_MODEL_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_SIZE_INVALID), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_MISSING_ATTR), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_INPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_NOT_DYNAMIC), const int);
ABI_SAME(decltype(ACL_ERROR_OP_TYPE_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_INPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_OUTPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_ATTR_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_NOT_FOUND), const int);
ABI_SAME(decltype(ACL_ERROR_OP_LOAD_FAILED), const int);
ABI_SAME(decltype(ACL_ERROR_UNSUPPORTED_DATA_TYPE), const int);
ABI_SAME(decltype(ACL_ERROR_FORMAT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED), const int);
ABI_SAME(decltype(ACL_ERROR_KERNEL_NOT_FOUND), const int);
ABI_SAME(decltype(ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED), const int);
ABI_SAME(decltype(ACL_ERROR_KERNEL_ALREADY_REGISTERED), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_QUEUE_ID), const int);
ABI_SAME(decltype(ACL_ERROR_REPEAT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_STREAM_NOT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_THREAD_NOT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_WAIT_CALLBACK_TIMEOUT), const int);
ABI_SAME(decltype(ACL_ERROR_REPEAT_FINALIZE), const int);
ABI_SAME(decltype(ACL_ERROR_NOT_STATIC_AIPP), const int);
ABI_SAME(decltype(ACL_ERROR_COMPILING_STUB_MODE), const int);
ABI_SAME(decltype(ACL_ERROR_GROUP_NOT_SET), const int);
ABI_SAME(decltype(ACL_ERROR_GROUP_NOT_CREATE), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_ALREADY_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_NOT_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_DUMP_ALREADY_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_DUMP_NOT_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_REPEAT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_API_CONFLICT), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_OPP_PATH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC), const int);
ABI_SAME(decltype(ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED), const int);
ABI_SAME(decltype(ACL_ERROR_UNSUPPORTED_JPEG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_BUNDLE_MODEL_ID), const int);
ABI_SAME(decltype(ACL_ERROR_BAD_ALLOC), const int);
ABI_SAME(decltype(ACL_ERROR_API_NOT_SUPPORT), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_DEVICE), const int);
ABI_SAME(decltype(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED), const int);
ABI_SAME(decltype(ACL_ERROR_RESOURCE_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_RESOURCE_HANDLE), const int);
ABI_SAME(decltype(ACL_ERROR_FEATURE_UNSUPPORTED), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_MODULES_UNSUPPORTED), const int);
ABI_SAME(decltype(ACL_ERROR_STORAGE_OVER_LIMIT), const int);
ABI_SAME(decltype(ACL_ERROR_INTERNAL_ERROR), const int);
ABI_SAME(decltype(ACL_ERROR_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_GE_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_RT_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_DRV_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_PROFILING_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_NOT_INIT), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_AIPP_BATCH_EMPTY), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_AIPP_NOT_EXIST), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_AIPP_MODE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_OP_TASK_TYPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_PLGMGR_PATH_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_FORMAT_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_SHAPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DATATYPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_MEMORY_ALLOCATION), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_MEMORY_OPERATE_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_SUBHEALTHY), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_USER_RAISE_EXCEPTION), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DATA_NOT_ALIGNED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_INTERNAL_ERROR), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_LOAD_MODEL), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_COMMAND_HANDLE), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_GET_TENSOR_INFO), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_UNLOAD_MODEL), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_REDEPLOYING), const uint32_t);

// Runtime error codes are object-like macros (section 5.2).
#ifndef ACL_RT_SUCCESS
#error "ACL_RT_SUCCESS must be a macro"
#endif
#ifndef ACL_ERROR_RT_PARAM_INVALID
#error "ACL_ERROR_RT_PARAM_INVALID must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_DEVICEID
#error "ACL_ERROR_RT_INVALID_DEVICEID must be a macro"
#endif
#ifndef ACL_ERROR_RT_CONTEXT_NULL
#error "ACL_ERROR_RT_CONTEXT_NULL must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CONTEXT
#error "ACL_ERROR_RT_STREAM_CONTEXT must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_CONTEXT
#error "ACL_ERROR_RT_MODEL_CONTEXT must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_MODEL
#error "ACL_ERROR_RT_STREAM_MODEL must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
#error "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL
#error "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL must be a macro"
#endif
#ifndef ACL_ERROR_RT_ADDR_UNALIGNED
#error "ACL_ERROR_RT_ADDR_UNALIGNED must be a macro"
#endif
#ifndef ACL_ERROR_RT_FILE_OPEN
#error "ACL_ERROR_RT_FILE_OPEN must be a macro"
#endif
#ifndef ACL_ERROR_RT_FILE_WRITE
#error "ACL_ERROR_RT_FILE_WRITE must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_SUBSCRIBE
#error "ACL_ERROR_RT_STREAM_SUBSCRIBE must be a macro"
#endif
#ifndef ACL_ERROR_RT_THREAD_SUBSCRIBE
#error "ACL_ERROR_RT_THREAD_SUBSCRIBE must be a macro"
#endif
#ifndef ACL_ERROR_RT_GROUP_NOT_SET
#error "ACL_ERROR_RT_GROUP_NOT_SET must be a macro"
#endif
#ifndef ACL_ERROR_RT_GROUP_NOT_CREATE
#error "ACL_ERROR_RT_GROUP_NOT_CREATE must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_NO_CB_REG
#error "ACL_ERROR_RT_STREAM_NO_CB_REG must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_MEMORY_TYPE
#error "ACL_ERROR_RT_INVALID_MEMORY_TYPE must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_HANDLE
#error "ACL_ERROR_RT_INVALID_HANDLE must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_MALLOC_TYPE
#error "ACL_ERROR_RT_INVALID_MALLOC_TYPE must be a macro"
#endif
#ifndef ACL_ERROR_RT_WAIT_TIMEOUT
#error "ACL_ERROR_RT_WAIT_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_TASK_TIMEOUT
#error "ACL_ERROR_RT_TASK_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_SYSPARAMOPT_NOT_SET
#error "ACL_ERROR_RT_SYSPARAMOPT_NOT_SET must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEVICE_TASK_ABORT
#error "ACL_ERROR_RT_DEVICE_TASK_ABORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_ABORT
#error "ACL_ERROR_RT_STREAM_ABORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_CAPTURE_DEPENDENCY
#error "ACL_ERROR_RT_CAPTURE_DEPENDENCY must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_UNJOINED
#error "ACL_ERROR_RT_STREAM_UNJOINED must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_CAPTURED
#error "ACL_ERROR_RT_MODEL_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURED
#error "ACL_ERROR_RT_STREAM_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_CAPTURED
#error "ACL_ERROR_RT_EVENT_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_NOT_CAPTURED
#error "ACL_ERROR_RT_STREAM_NOT_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
#error "ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
#error "ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT must be a macro"
#endif
#ifndef ACL_ERROR_STREAM_CAPTURE_CONFLICT
#error "ACL_ERROR_STREAM_CAPTURE_CONFLICT must be a macro"
#endif
#ifndef ACL_ERROR_STREAM_TASK_GROUP_STATUS
#error "ACL_ERROR_STREAM_TASK_GROUP_STATUS must be a macro"
#endif
#ifndef ACL_ERROR_STREAM_TASK_GROUP_INTR
#error "ACL_ERROR_STREAM_TASK_GROUP_INTR must be a macro"
#endif
#ifndef ACL_ERROR_RT_TASK_ABORT_STOP
#error "ACL_ERROR_RT_TASK_ABORT_STOP must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED
#error "ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_RUNNING
#error "ACL_ERROR_RT_MODEL_RUNNING must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD
#error "ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD must be a macro"
#endif
#ifndef ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY
#error "ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_UPDATE_FAILED
#error "ACL_ERROR_RT_MODEL_UPDATE_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC
#error "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC must be a macro"
#endif
#ifndef ACL_ERROR_RT_SYMBOL_NOT_FOUND
#error "ACL_ERROR_RT_SYMBOL_NOT_FOUND must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_SYMBOL
#error "ACL_ERROR_RT_INVALID_SYMBOL must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_DEVICE_FUNCTION
#error "ACL_ERROR_RT_INVALID_DEVICE_FUNCTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING
#error "ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING must be a macro"
#endif
#ifndef ACL_ERROR_RT_FEATURE_NOT_SUPPORT
#error "ACL_ERROR_RT_FEATURE_NOT_SUPPORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_MEMORY_ALLOCATION
#error "ACL_ERROR_RT_MEMORY_ALLOCATION must be a macro"
#endif
#ifndef ACL_ERROR_RT_MEMORY_FREE
#error "ACL_ERROR_RT_MEMORY_FREE must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_OVER_FLOW
#error "ACL_ERROR_RT_AICORE_OVER_FLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_DEVICE
#error "ACL_ERROR_RT_NO_DEVICE must be a macro"
#endif
#ifndef ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
#error "ACL_ERROR_RT_RESOURCE_ALLOC_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_PERMISSION
#error "ACL_ERROR_RT_NO_PERMISSION must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_EVENT_RESOURCE
#error "ACL_ERROR_RT_NO_EVENT_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_STREAM_RESOURCE
#error "ACL_ERROR_RT_NO_STREAM_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_NOTIFY_RESOURCE
#error "ACL_ERROR_RT_NO_NOTIFY_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_MODEL_RESOURCE
#error "ACL_ERROR_RT_NO_MODEL_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_CDQ_RESOURCE
#error "ACL_ERROR_RT_NO_CDQ_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_OVER_LIMIT
#error "ACL_ERROR_RT_OVER_LIMIT must be a macro"
#endif
#ifndef ACL_ERROR_RT_QUEUE_EMPTY
#error "ACL_ERROR_RT_QUEUE_EMPTY must be a macro"
#endif
#ifndef ACL_ERROR_RT_QUEUE_FULL
#error "ACL_ERROR_RT_QUEUE_FULL must be a macro"
#endif
#ifndef ACL_ERROR_RT_REPEATED_INIT
#error "ACL_ERROR_RT_REPEATED_INIT must be a macro"
#endif
#ifndef ACL_ERROR_RT_AIVEC_OVER_FLOW
#error "ACL_ERROR_RT_AIVEC_OVER_FLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_OVER_FLOW
#error "ACL_ERROR_RT_OVER_FLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEVICE_OOM
#error "ACL_ERROR_RT_DEVICE_OOM must be a macro"
#endif
#ifndef ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP
#error "ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP must be a macro"
#endif
#ifndef ACL_ERROR_RT_TIMEOUT
#error "ACL_ERROR_RT_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED
#error "ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED must be a macro"
#endif
#ifndef ACL_ERROR_RT_INTERNAL_ERROR
#error "ACL_ERROR_RT_INTERNAL_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_TS_ERROR
#error "ACL_ERROR_RT_TS_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_TASK_FULL
#error "ACL_ERROR_RT_STREAM_TASK_FULL must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_TASK_EMPTY
#error "ACL_ERROR_RT_STREAM_TASK_EMPTY must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_NOT_COMPLETE
#error "ACL_ERROR_RT_STREAM_NOT_COMPLETE must be a macro"
#endif
#ifndef ACL_ERROR_RT_END_OF_SEQUENCE
#error "ACL_ERROR_RT_END_OF_SEQUENCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_NOT_COMPLETE
#error "ACL_ERROR_RT_EVENT_NOT_COMPLETE must be a macro"
#endif
#ifndef ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
#error "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SOC_VERSION
#error "ACL_ERROR_RT_SOC_VERSION must be a macro"
#endif
#ifndef ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
#error "ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_LOST_HEARTBEAT
#error "ACL_ERROR_RT_LOST_HEARTBEAT must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_EXECUTE
#error "ACL_ERROR_RT_MODEL_EXECUTE must be a macro"
#endif
#ifndef ACL_ERROR_RT_REPORT_TIMEOUT
#error "ACL_ERROR_RT_REPORT_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_SYS_DMA
#error "ACL_ERROR_RT_SYS_DMA must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TIMEOUT
#error "ACL_ERROR_RT_AICORE_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_EXCEPTION
#error "ACL_ERROR_RT_AICORE_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TRAP_EXCEPTION
#error "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_TIMEOUT
#error "ACL_ERROR_RT_AICPU_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_EXCEPTION
#error "ACL_ERROR_RT_AICPU_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR
#error "ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_MODEL_RSP_ERR
#error "ACL_ERROR_RT_AICPU_MODEL_RSP_ERR must be a macro"
#endif
#ifndef ACL_ERROR_RT_PROFILING_ERROR
#error "ACL_ERROR_RT_PROFILING_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_IPC_ERROR
#error "ACL_ERROR_RT_IPC_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_ABORT_NORMAL
#error "ACL_ERROR_RT_MODEL_ABORT_NORMAL must be a macro"
#endif
#ifndef ACL_ERROR_RT_KERNEL_UNREGISTERING
#error "ACL_ERROR_RT_KERNEL_UNREGISTERING must be a macro"
#endif
#ifndef ACL_ERROR_RT_RINGBUFFER_NOT_INIT
#error "ACL_ERROR_RT_RINGBUFFER_NOT_INIT must be a macro"
#endif
#ifndef ACL_ERROR_RT_RINGBUFFER_NO_DATA
#error "ACL_ERROR_RT_RINGBUFFER_NO_DATA must be a macro"
#endif
#ifndef ACL_ERROR_RT_KERNEL_LOOKUP
#error "ACL_ERROR_RT_KERNEL_LOOKUP must be a macro"
#endif
#ifndef ACL_ERROR_RT_KERNEL_DUPLICATE
#error "ACL_ERROR_RT_KERNEL_DUPLICATE must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEBUG_REGISTER_FAIL
#error "ACL_ERROR_RT_DEBUG_REGISTER_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL
#error "ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_RT_LABEL_CONTEXT
#error "ACL_ERROR_RT_LABEL_CONTEXT must be a macro"
#endif
#ifndef ACL_ERROR_RT_PROGRAM_USE_OUT
#error "ACL_ERROR_RT_PROGRAM_USE_OUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEV_SETUP_ERROR
#error "ACL_ERROR_RT_DEV_SETUP_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TIMEOUT
#error "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
#error "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION
#error "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_CDQ_BATCH_ABNORMAL
#error "ACL_ERROR_RT_CDQ_BATCH_ABNORMAL must be a macro"
#endif
#ifndef ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR
#error "ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_DIE_SET_ERROR
#error "ACL_ERROR_RT_DIE_SET_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_DIEID
#error "ACL_ERROR_RT_INVALID_DIEID must be a macro"
#endif
#ifndef ACL_ERROR_RT_DIE_MODE_NOT_SET
#error "ACL_ERROR_RT_DIE_MODE_NOT_SET must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW
#error "ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW
#error "ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW
#error "ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW
#error "ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
#error "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
#error "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_FFTS_PLUS_TIMEOUT
#error "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_FFTS_PLUS_EXCEPTION
#error "ACL_ERROR_RT_FFTS_PLUS_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION
#error "ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_SEND_MSG
#error "ACL_ERROR_RT_SEND_MSG must be a macro"
#endif
#ifndef ACL_ERROR_RT_COPY_DATA
#error "ACL_ERROR_RT_COPY_DATA must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEVICE_MEM_ERROR
#error "ACL_ERROR_RT_DEVICE_MEM_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR
#error "ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR
#error "ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_LINK_ERROR
#error "ACL_ERROR_RT_LINK_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SUSPECT_REMOTE_ERROR
#error "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_DRV_INTERNAL_ERROR
#error "ACL_ERROR_RT_DRV_INTERNAL_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_INTERNAL_ERROR
#error "ACL_ERROR_RT_AICPU_INTERNAL_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SOCKET_CLOSE
#error "ACL_ERROR_RT_SOCKET_CLOSE must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR
#error "ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
#error "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED must be a macro"
#endif
#ifndef ACL_ERROR_RT_COMM_OP_RETRY_FAIL
#error "ACL_ERROR_RT_COMM_OP_RETRY_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT
#error "ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_LOCK_FAILED
#error "ACL_ERROR_SNAPSHOT_LOCK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_UNLOCK_FAILED
#error "ACL_ERROR_SNAPSHOT_UNLOCK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_BACKUP_FAILED
#error "ACL_ERROR_SNAPSHOT_BACKUP_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_RESTORE_FAILED
#error "ACL_ERROR_SNAPSHOT_RESTORE_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED
#error "ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED must be a macro"
#endif
#ifndef ACL_ERROR_HOST_MEMORY_NOT_REGISTERED
#error "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_CALLBACK_FAILED
#error "ACL_ERROR_SNAPSHOT_CALLBACK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED
#error "ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_RT_L3_PORT_ERROR
#error "ACL_ERROR_RT_L3_PORT_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_CCU_TIMEOUT
#error "ACL_ERROR_RT_CCU_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_CCU_EXCEPTION
#error "ACL_ERROR_RT_CCU_EXCEPTION must be a macro"
#endif

// Numeric macros keep the literal type of CANN's spelling (section 6).
ABI_SAME(decltype(ACL_MAJOR_VERSION), int);
ABI_SAME(decltype(ACL_MINOR_VERSION), int);
ABI_SAME(decltype(ACL_PATCH_VERSION), int);
ABI_SAME(decltype(ACL_EVENT_SYNC), unsigned int);
ABI_SAME(decltype(ACL_EVENT_CAPTURE_STREAM_PROGRESS), unsigned int);
ABI_SAME(decltype(ACL_EVENT_TIME_LINE), unsigned int);
ABI_SAME(decltype(ACL_EVENT_DEVICE_USE_ONLY), unsigned int);
ABI_SAME(decltype(ACL_EVENT_EXTERNAL), unsigned int);
ABI_SAME(decltype(ACL_EVENT_IPC), unsigned int);
ABI_SAME(decltype(ACL_STREAM_FAST_LAUNCH), unsigned int);
ABI_SAME(decltype(ACL_STREAM_FAST_SYNC), unsigned int);
ABI_SAME(decltype(ACL_STREAM_PERSISTENT), unsigned int);
ABI_SAME(decltype(ACL_STREAM_HUGE), unsigned int);
ABI_SAME(decltype(ACL_STREAM_CPU_SCHEDULE), unsigned int);
ABI_SAME(decltype(ACL_STREAM_DEVICE_USE_ONLY), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_GEQ), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_EQ), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_AND), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_NOR), unsigned int);
ABI_SAME(decltype(ACL_CONTINUE_ON_FAILURE), unsigned int);
ABI_SAME(decltype(ACL_STOP_ON_FAILURE), unsigned int);
ABI_SAME(decltype(ACL_NOTIFY_DEFAULT), unsigned int);
ABI_SAME(decltype(ACL_NOTIFY_DEVICE_USE_ONLY), unsigned int);
ABI_SAME(decltype(ACL_DEV_FEATURE_SUPPORT), int);
ABI_SAME(decltype(ACL_DEV_FEATURE_NOT_SUPPORT), int);
ABI_SAME(decltype(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
ABI_SAME(decltype(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS), unsigned long);
ABI_SAME(decltype(ACL_RT_VMM_EXPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_MAPPED), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_IOMEMORY), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_READONLY), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_PINNED), unsigned long);
ABI_SAME(decltype(ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY), unsigned long);
ABI_SAME(decltype(ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), unsigned long);
ABI_SAME(decltype(ACL_RT_MAX_RECORD_PA_NUM_PER_DEV), unsigned int);
ABI_SAME(decltype(ACL_IPC_EVENT_HANDLE_SIZE), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_ATTACH_GLOBAL), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_LINK_IDX_0), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_LINK_IDX_1), unsigned int);
ABI_SAME(decltype(ACL_HOST_DEVICE_CONNECT_TYPE_PCIE), int);
ABI_SAME(decltype(ACL_HOST_DEVICE_CONNECT_TYPE_HCCS), int);
ABI_SAME(decltype(ACL_HOST_DEVICE_CONNECT_TYPE_UB), int);
ABI_SAME(decltype(ACL_EVENT_RECORD_DEFAULT), unsigned int);
ABI_SAME(decltype(ACL_EVENT_RECORD_EXTERNAL), unsigned int);
ABI_SAME(decltype(ACL_EVENT_WAIT_DEFAULT), unsigned int);
ABI_SAME(decltype(ACL_EVENT_WAIT_EXTERNAL), unsigned int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO), int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS), int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH), int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH), int);
ABI_SAME(decltype(MAX_MEM_UCE_INFO_ARRAY_SIZE), int);
ABI_SAME(decltype(UCE_INFO_RESERVED_SIZE), int);
ABI_SAME(decltype(ACL_RT_MEM_UCE_INFO_MAX_NUM), int);
ABI_SAME(decltype(ACL_RT_BINARY_MAGIC_ELF_AICORE), unsigned int);
ABI_SAME(decltype(ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE), unsigned int);
ABI_SAME(decltype(ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE), unsigned int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_POD), int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_A_K), int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_A_X), int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_PCIE_CARD), int);
ABI_SAME(decltype(ACL_RT_CMO_MAX_BARRIER_NUM), unsigned int);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_HCCS), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PIX), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PIB), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PHB), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_SYS), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_SIO), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_HCCS_SW), unsigned long long);
ABI_SAME(decltype(ACL_RT_MEM_TYPE_DEV), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_TYPE_DVPP), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_TYPE_RSVD), unsigned int);
ABI_SAME(decltype(ACL_PKG_VERSION_MAX_SIZE), int);
ABI_SAME(decltype(ACL_PKG_VERSION_PARTS_MAX_SIZE), int);

}  // namespace

// Every function of client/abi/acl_api.tsv, redeclared with the exact CANN prototype. A
// redeclaration of an extern "C" function with different parameter or return types does
// not compile, so this pins each declaration in the headers.
extern "C" {
float aclFloat16ToFloat(aclFloat16 value);
aclFloat16 aclFloatToFloat16(float value);
aclDataBuffer* aclCreateDataBuffer(void* data, size_t size);
aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer);
aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size);
void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer);
uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer);
size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer);
size_t aclDataTypeSize(aclDataType dataType);
void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
               const char* fmt, ...);
const char* aclrtGetSocName(void);
aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num);
aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value);
aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value);
aclError aclInit(const char* configPath);
aclError aclFinalize(void);
aclError aclFinalizeReference(uint64_t* refCount);
const char* aclGetRecentErrMsg(void);
aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version);
aclError aclsysGetVersionStr(char* pkgName, char* versionStr);
aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum);
aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
aclError aclrtGetLastError(aclrtLastErrLevel level);
aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);
aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);
aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);
uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info);
aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr,
                                       uint32_t* devArgsLen);
aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func);
aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                         aclrtOpExceptionCallback callback, void* userData);
aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream);
aclError aclrtProcessReport(int32_t timeout);
aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtGetCurrentContext(aclrtContext* context);
aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value);
aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value);
aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtResetDeviceForce(int32_t deviceId);
aclError aclrtGetDevice(int32_t* deviceId);
aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);
aclError aclrtGetRunMode(aclrtRunMode* runMode);
aclError aclrtSynchronizeDevice(void);
aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);
aclError aclrtSetTsDevice(aclrtTsId tsId);
aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo);
aclError aclrtGetDeviceCount(uint32_t* count);
aclError aclrtCreateEvent(aclrtEvent* event);
aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag);
aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status);
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status);
aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent);
aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp);
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                            aclrtMallocConfig* cfg);
aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                                     aclrtMallocConfig* cfg);
aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg);
aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes);
aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr,
                                size_t size, void* data, size_t dataSize);
aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes,
                                 const void* ptr, size_t size, void** data, size_t* dataSizes);
aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr);
aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag);
aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag);
aclError aclrtHostUnregister(void* ptr);
aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                     aclrtHostMemMapCapability* capabilities);
aclError aclrtGetThreadLastTaskId(uint32_t* taskId);
aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId);
aclError aclrtMemFlush(void* devPtr, size_t size);
aclError aclrtMemInvalidate(void* devPtr, size_t size);
aclError aclrtFree(void* devPtr);
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag);
aclError aclrtFreeHost(void* hostPtr);
aclError aclrtFreeWithDevSync(void* devPtr);
aclError aclrtFreeHostWithDevSync(void* hostPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N);
aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N,
                             aclrtStream stream);
aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
                                       aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind);
aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr);
aclError aclrtGetSymbolSize(const void* symbol, size_t* size);
aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count,
                               size_t offset, aclrtMemcpyKind kind);
aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count,
                                    size_t offset, aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                             aclrtMemcpyKind kind);
aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream);
aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size,
                               aclrtMemManagedAdviseType advise, aclrtMemManagedLocation location);
aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                uint64_t flags);
aclError aclrtReleaseMemAddress(void* virPtr);
aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                             const aclrtPhysicalMemProp* prop, uint64_t flags);
aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                     uint64_t flags);
aclError aclrtUnmapMem(void* virPtr);
aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                             uint64_t flags);
aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void);
aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle);
aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
                                 const void* attrValue, size_t valueSize);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle);
aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtDestroyStreamForce(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status);
aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority);
aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                      uint32_t flag);
aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout);
aclError aclrtSetGroup(int32_t groupId);
aclError aclrtGetGroupCount(uint32_t* count);
aclrtGroupInfo* aclrtCreateGroupInfo(void);
aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo);
aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo);
aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo, int32_t groupIndex,
                                 aclrtGroupAttr attr, void* attrValue, size_t valueLen,
                                 size_t* paramRetSize);
aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total);
aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum,
                              size_t* outputNum);
aclError aclrtSetOpWaitTimeout(uint32_t timeout);
aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);
aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);
aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout);
aclError aclrtGetOpTimeOutInterval(uint64_t* interval);
aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);
aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag);
aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode);
aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream);
aclError aclrtResetOverflowStatus(aclrtStream stream);
aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);
aclError aclrtProcessHostFunc(int32_t timeout);
aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);
aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus);
aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen);
aclError aclrtDestroyBinary(aclrtBinary binary);
aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle);
aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);
aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                aclrtFuncHandle* funcHandle);
aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                           size_t argsSize, aclrtStream stream);
aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                         uint64_t flags, uint64_t* shareableHandle);
aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                           aclrtMemSharedHandleType shareType,
                                           void* shareableHandle);
aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                           aclrtDrvMemHandle* handle);
aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle,
                                             aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle* handle);
aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum);
aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle,
                                           aclrtMemSharedHandleType shareType, int32_t* pid,
                                           size_t pidNum);
aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                          aclrtMemGranularityOptions option, size_t* granularity);
aclError aclrtDeviceGetBareTgid(int32_t* pid);
aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream);
aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize,
                            size_t* retSize);
aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout);
aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize);
aclError aclrtStreamAbort(aclrtStream stream);
aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle);
aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr, size_t* binSize);
aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                       aclrtFuncHandle* funcHandle);
aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name, void** dptr,
                              size_t* size);
aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle);
aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr);
aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize);
aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize);
aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr,
                            size_t count, void* config);
aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset,
                                    const void** src, size_t count, size_t srcDataOffset,
                                    aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t* memSize);
aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                   size_t* actualArgsSize);
aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle);
aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                      void* userHostMem, size_t actualArgsSize);
aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                               aclrtParamHandle* paramHandle);
aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle);
aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr);
aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                   void* param, size_t paramSize);
aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle, void* reserve);
aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params);
aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params);
aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue* attrValue);
aclError aclmdlRIUpdate(aclmdlRI modelRI);
aclError aclmdlRITaskDisable(aclmdlRITask task);
aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);
aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
aclError aclrtGetStreamAvailableNum(uint32_t* streamCount);
aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value);
aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue* value);
aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag);
aclError aclrtDestroyNotify(aclrtNotify notify);
aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag);
aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);
aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);
aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);
aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId);
aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId);
aclError aclrtGetEventAvailNum(uint32_t* eventCount);
aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value);
aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority);
aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                  int32_t* value);
aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid);
aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);
aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value);
aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len);
aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId);
aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities,
                                              const aclrtAtomicOperation* operations,
                                              const uint32_t count, int32_t deviceId);
aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities,
                                             const aclrtAtomicOperation* operations,
                                             const uint32_t count, int32_t srcDeviceId,
                                             int32_t dstDeviceId);
aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream);
aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active);
aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind,
                          aclDataType type, aclrtStream stream, void* reserve);
aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value);
aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);
aclError aclrtResetDeviceResLimit(int32_t deviceId);
aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value);
aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);
aclError aclrtResetStreamResLimit(aclrtStream stream);
aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);
aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);
aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value);
aclError aclrtCreateLabel(aclrtLabel* label);
aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);
aclError aclrtDestroyLabel(aclrtLabel label);
aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList);
aclError aclrtDestroyLabelList(aclrtLabelList labelList);
aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList,
                                 aclrtStream stream);
aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);
aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue,
                           aclrtCompareDataType dataType, aclrtStream trueStream,
                           aclrtStream falseStream, aclrtStream stream);
aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name);
aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf);
aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num);
aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);
aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf);
aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset);
aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset);
aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size);
aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len);
aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);
aclError aclrtFreeBuf(aclrtMbuf buf);
aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size);
aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                 const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle);
aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char* funcName,
                              const char* kernelName, aclrtFuncHandle* funcHandle);
aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                  aclrtStream stream);
aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag);
aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value);
aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                          size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                          size_t numAttrs, size_t* failIndex);
aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                            size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                            size_t numAttrs);
aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                               size_t numBatches, aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                               size_t numAttrs, size_t* failIndex, aclrtStream stream);
aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes,
                                 size_t numBatches, aclrtMemcpyBatchAttr* attrs,
                                 size_t* attrsIndexes, size_t numAttrs, aclrtStream stream);
aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags);
aclError aclrtIpcMemClose(const char* key);
aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags);
aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num);
aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr);
aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num);
aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num);
aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags);
aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags);
aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num);
aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid* serverPids,
                                            size_t num);
aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                aclmdlRI* modelRI);
aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI);
aclError aclmdlRIDebugPrint(aclmdlRI modelRI);
aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags);
aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode);
aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
aclError aclmdlRIDestroy(aclmdlRI modelRI);
aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle);
aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);
aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag);
aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);
aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve);
aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRISetName(aclmdlRI modelRI, const char* name);
aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name);
aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId);
aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData);
aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);
aclError aclmdlInitDump(void);
aclError aclmdlSetDump(const char* dumpCfgPath);
aclError aclmdlFinalizeDump(void);
aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams);
aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks);
aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type);
aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id);
aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion);
aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                 void* userData);
aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);
aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                     void* userData);
aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                       aclFinalizeCallbackFunc cbFunc);
aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult,
                           uint32_t reserve);
aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId);
aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid);
aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId);
aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId);
aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId);
aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId);
aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream);
aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                             size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream);
aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                       aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum);
aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg, void** args);
aclError aclrtLaunchSIMTKernelWithArgsArray(void* func, dim3 gridDim, dim3 blockDim,
                                            size_t dynUbufSize, aclrtStream stream,
                                            aclrtLaunchKernelCfg* cfg, void** args);
aclError aclrtLaunchSIMTKernelWithHostArgs(void* func, dim3 gridDim, dim3 blockDim,
                                           size_t dynUbufSize, aclrtStream stream,
                                           aclrtLaunchKernelCfg* cfg, void* hostArgs,
                                           size_t argsSize, aclrtPlaceHolderInfo* placeHolderArray,
                                           size_t placeHolderNum);
aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr);
aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream);
aclError aclrtResetFloatOverflowStatus(aclrtStream stream);
aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode,
                                        aclrtStream stream);
aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args);
aclError aclrtGetHardwareSyncAddr(void** addr);
aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream,
                             void* reserve);
aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback,
                                     void* args);
aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback,
                                     void* args);
aclError aclrtSetDeviceTaskAbortCallback(const char* regName, aclrtDeviceTaskAbortCallback callback,
                                         void* args);
aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs);
aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status);
aclError aclrtStreamStop(aclrtStream stream);
aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo* info,
                              aclrtStream execStream);
aclError aclrtCmoGetDescSize(size_t* size);
aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size);
aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                               const void* reserve);
aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible);
aclError aclmdlRIAbort(aclmdlRI modelRI);
aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                  aclmdlRICondHandleFlag flag, aclmdlRICondHandle* handle);
aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr);
aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);
aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                       aclmdlRICaptureMode mode);
aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                              aclrtCntNotifyRecordInfo* info);
aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                       aclrtCntNotifyWaitInfo* info);
aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);
aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId);
aclError aclrtPersistentTaskClean(aclrtStream stream);
aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo);
aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo* errorInfo);
aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count);
aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag);
aclError aclrtSnapShotProcessLock(int pid, void* reserve);
aclError aclrtSnapShotProcessUnlock(int pid, void* reserve);
aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args);
aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args);
aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                       void* args);
aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback);
aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr, const size_t infoSize);
aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr, const size_t infoSize);
aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                   int64_t* attrValue);
aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle);
aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount);
aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                   size_t* paramSize);
aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags, size_t* dynamicUbufSize);
aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle);
aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event);
aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle);
aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                   aclrtPhysicalMemProp* prop);
aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment,
                                          void* expectPtr, uint64_t flags);
aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize);
aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags);
aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size,
                                      aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream);
aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs,
                                           size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                           uint64_t flags, aclrtStream stream);
aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc, uint32_t linkIdx);
aclError aclrtDeviceL2CacheFlush(void* rsv);
aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);
aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);
aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);
aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);
aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                          aclrtAllocatorAllocFunc func);
aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                         aclrtAllocatorFreeFunc func);
aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                aclrtAllocatorAllocAdviseFunc func);
aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func);
aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);
aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc,
                                   aclrtAllocator* allocator, aclrtAllocatorAllocFunc* allocFunc,
                                   aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc);
aclError aclrtAllocatorUnregister(aclrtStream stream);
aclError aclrtBinaryGetFunctionCount(aclrtBinHandle binHandle, uint32_t* count);
aclError aclrtBinaryEnumerateFunctions(const aclrtBinHandle binHandle, aclrtFuncHandle* funcHandles,
                                       uint32_t numFunctions);
aclError aclrtNonBlockingLaunchBegin(aclrtStream stream, uint32_t flags);
aclError aclrtNonBlockingLaunchEnd(aclrtStream stream, uint32_t flags);
aclError aclrtApiInjectionSetFunc(const char* name, aclrtApiFunc func);
aclError aclrtApiInjectionGetFunc(const char* name, aclrtApiFunc* originFunc,
                                  aclrtApiFunc* currentFunc);
}  // extern "C"

TEST(AbiLayoutTest, StructSizesAndAlignment) {
  ABI_EQ(sizeof(aclrtMemManagedLocation), 8);
  ABI_EQ(alignof(aclrtMemManagedLocation), 4);
  ABI_EQ(sizeof(aclrtMallocAttrValue), 8);
  ABI_EQ(alignof(aclrtMallocAttrValue), 4);
  ABI_EQ(sizeof(aclrtMallocAttribute), 12);
  ABI_EQ(alignof(aclrtMallocAttribute), 4);
  ABI_EQ(sizeof(aclrtMallocConfig), 16);
  ABI_EQ(alignof(aclrtMallocConfig), 8);
  ABI_EQ(sizeof(aclrtServerPid), 24);
  ABI_EQ(alignof(aclrtServerPid), 8);
  ABI_EQ(sizeof(aclrtStreamConfigHandle), 32);
  ABI_EQ(alignof(aclrtStreamConfigHandle), 8);
  ABI_EQ(sizeof(aclrtUtilizationInfo), 24);
  ABI_EQ(alignof(aclrtUtilizationInfo), 8);
  ABI_EQ(sizeof(aclrtMemLocation), 8);
  ABI_EQ(alignof(aclrtMemLocation), 4);
  ABI_EQ(sizeof(aclrtPtrAttributes), 28);
  ABI_EQ(alignof(aclrtPtrAttributes), 4);
  ABI_EQ(sizeof(aclrtMemUsageInfo), 112);
  ABI_EQ(alignof(aclrtMemUsageInfo), 8);
  ABI_EQ(sizeof(aclrtMemFabricHandle), 128);
  ABI_EQ(alignof(aclrtMemFabricHandle), 1);
  ABI_EQ(sizeof(aclrtPhysicalMemProp), 32);
  ABI_EQ(alignof(aclrtPhysicalMemProp), 8);
  ABI_EQ(sizeof(aclrtMemUceInfo), 128);
  ABI_EQ(alignof(aclrtMemUceInfo), 8);
  ABI_EQ(sizeof(aclrtMemUceInfoArray), 2568);
  ABI_EQ(alignof(aclrtMemUceInfoArray), 8);
  ABI_EQ(sizeof(aclrtErrorInfoDetail), 2568);
  ABI_EQ(alignof(aclrtErrorInfoDetail), 8);
  ABI_EQ(sizeof(aclrtErrorInfo), 2576);
  ABI_EQ(alignof(aclrtErrorInfo), 8);
  ABI_EQ(sizeof(aclrtBinaryLoadOptionValue), 16);
  ABI_EQ(alignof(aclrtBinaryLoadOptionValue), 4);
  ABI_EQ(sizeof(aclrtBinaryLoadOption), 20);
  ABI_EQ(alignof(aclrtBinaryLoadOption), 4);
  ABI_EQ(sizeof(aclrtBinaryLoadOptions), 16);
  ABI_EQ(alignof(aclrtBinaryLoadOptions), 8);
  ABI_EQ(sizeof(dim3), 12);
  ABI_EQ(alignof(dim3), 4);
  ABI_EQ(sizeof(aclrtTimeoutUs), 8);
  ABI_EQ(alignof(aclrtTimeoutUs), 4);
  ABI_EQ(sizeof(aclrtLaunchKernelAttrValue), 16);
  ABI_EQ(alignof(aclrtLaunchKernelAttrValue), 4);
  ABI_EQ(sizeof(aclrtLaunchKernelAttr), 20);
  ABI_EQ(alignof(aclrtLaunchKernelAttr), 4);
  ABI_EQ(sizeof(aclrtLaunchKernelCfg), 16);
  ABI_EQ(alignof(aclrtLaunchKernelCfg), 8);
  ABI_EQ(sizeof(aclrtStreamAttrValue), 16);
  ABI_EQ(alignof(aclrtStreamAttrValue), 8);
  ABI_EQ(sizeof(aclmdlRIKernelTaskParams), 88);
  ABI_EQ(alignof(aclmdlRIKernelTaskParams), 8);
  ABI_EQ(sizeof(aclmdlRIEventRecordTaskParams), 16);
  ABI_EQ(alignof(aclmdlRIEventRecordTaskParams), 8);
  ABI_EQ(sizeof(aclmdlRIEventWaitTaskParams), 16);
  ABI_EQ(alignof(aclmdlRIEventWaitTaskParams), 8);
  ABI_EQ(sizeof(aclmdlRIEventResetTaskParams), 16);
  ABI_EQ(alignof(aclmdlRIEventResetTaskParams), 8);
  ABI_EQ(sizeof(aclmdlRIValueWriteTaskParams), 16);
  ABI_EQ(alignof(aclmdlRIValueWriteTaskParams), 8);
  ABI_EQ(sizeof(aclmdlRIValueWaitTaskParams), 24);
  ABI_EQ(alignof(aclmdlRIValueWaitTaskParams), 8);
  ABI_EQ(sizeof(aclmdlRITaskParams), 200);
  ABI_EQ(alignof(aclmdlRITaskParams), 8);
  ABI_EQ(sizeof(aclrtBarrierCmoInfo), 8);
  ABI_EQ(alignof(aclrtBarrierCmoInfo), 4);
  ABI_EQ(sizeof(aclrtBarrierTaskInfo), 56);
  ABI_EQ(alignof(aclrtBarrierTaskInfo), 8);
  ABI_EQ(sizeof(aclrtMemcpyBatchAttr), 32);
  ABI_EQ(alignof(aclrtMemcpyBatchAttr), 4);
  ABI_EQ(sizeof(aclrtPlaceHolderInfo), 8);
  ABI_EQ(alignof(aclrtPlaceHolderInfo), 4);
  ABI_EQ(sizeof(aclrtRandomParaInfo), 16);
  ABI_EQ(alignof(aclrtRandomParaInfo), 1);
  ABI_EQ(sizeof(aclrtDropoutBitmaskInfo), 16);
  ABI_EQ(alignof(aclrtDropoutBitmaskInfo), 1);
  ABI_EQ(sizeof(aclrtUniformDisInfo), 32);
  ABI_EQ(alignof(aclrtUniformDisInfo), 1);
  ABI_EQ(sizeof(aclrtNormalDisInfo), 32);
  ABI_EQ(alignof(aclrtNormalDisInfo), 1);
  ABI_EQ(sizeof(aclrtRandomNumFuncParaInfo), 36);
  ABI_EQ(alignof(aclrtRandomNumFuncParaInfo), 4);
  ABI_EQ(sizeof(aclrtRandomNumTaskInfo), 104);
  ABI_EQ(alignof(aclrtRandomNumTaskInfo), 8);
  ABI_EQ(sizeof(aclrtRandomTaskUpdateAttr), 32);
  ABI_EQ(alignof(aclrtRandomTaskUpdateAttr), 8);
  ABI_EQ(sizeof(aclrtAicAivTaskUpdateAttr), 40);
  ABI_EQ(alignof(aclrtAicAivTaskUpdateAttr), 8);
  ABI_EQ(sizeof(aclrtUpdateTaskAttrVal), 40);
  ABI_EQ(alignof(aclrtUpdateTaskAttrVal), 8);
  ABI_EQ(sizeof(aclrtTaskUpdateInfo), 48);
  ABI_EQ(alignof(aclrtTaskUpdateInfo), 8);
  ABI_EQ(sizeof(aclrtSnapShotBackupArgs), 64);
  ABI_EQ(alignof(aclrtSnapShotBackupArgs), 4);
  ABI_EQ(sizeof(aclrtSnapShotRestoreArgs), 64);
  ABI_EQ(alignof(aclrtSnapShotRestoreArgs), 4);
  ABI_EQ(sizeof(aclrtUuid), 16);
  ABI_EQ(alignof(aclrtUuid), 1);
  ABI_EQ(sizeof(aclrtCntNotifyRecordInfo), 8);
  ABI_EQ(alignof(aclrtCntNotifyRecordInfo), 4);
  ABI_EQ(sizeof(aclrtCntNotifyWaitInfo), 16);
  ABI_EQ(alignof(aclrtCntNotifyWaitInfo), 4);
  ABI_EQ(sizeof(aclrtMemAccessDesc), 24);
  ABI_EQ(alignof(aclrtMemAccessDesc), 4);
  ABI_EQ(sizeof(aclCANNPackageVersion), 512);
  ABI_EQ(alignof(aclCANNPackageVersion), 1);
  ABI_EQ(sizeof(aclrtIpcEventHandle), 64);
  ABI_EQ(alignof(aclrtIpcEventHandle), 1);
  ABI_EQ(sizeof(struct MemAttrMapping), 16);
  ABI_EQ(alignof(struct MemAttrMapping), 4);
  ABI_EQ(sizeof(aclmdlRICondTaskParams), 24);
  ABI_EQ(alignof(aclmdlRICondTaskParams), 8);
}

TEST(AbiLayoutTest, FieldOffsetsAndSizes) {
  // aclrtMemManagedLocation
  ABI_EQ(offsetof(aclrtMemManagedLocation, type), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemManagedLocation, type), 4);
  ABI_EQ(offsetof(aclrtMemManagedLocation, id), 4);
  ABI_EQ(FIELD_SIZE(aclrtMemManagedLocation, id), 4);
  // aclrtMallocAttrValue
  ABI_EQ(offsetof(aclrtMallocAttrValue, moduleId), 0);
  ABI_EQ(FIELD_SIZE(aclrtMallocAttrValue, moduleId), 2);
  ABI_EQ(offsetof(aclrtMallocAttrValue, deviceId), 0);
  ABI_EQ(FIELD_SIZE(aclrtMallocAttrValue, deviceId), 4);
  ABI_EQ(offsetof(aclrtMallocAttrValue, vaFlag), 0);
  ABI_EQ(FIELD_SIZE(aclrtMallocAttrValue, vaFlag), 4);
  ABI_EQ(offsetof(aclrtMallocAttrValue, rsv), 0);
  ABI_EQ(FIELD_SIZE(aclrtMallocAttrValue, rsv), 8);
  // aclrtMallocAttribute
  ABI_EQ(offsetof(aclrtMallocAttribute, attr), 0);
  ABI_EQ(FIELD_SIZE(aclrtMallocAttribute, attr), 4);
  ABI_EQ(offsetof(aclrtMallocAttribute, value), 4);
  ABI_EQ(FIELD_SIZE(aclrtMallocAttribute, value), 8);
  // aclrtMallocConfig
  ABI_EQ(offsetof(aclrtMallocConfig, attrs), 0);
  ABI_EQ(FIELD_SIZE(aclrtMallocConfig, attrs), 8);
  ABI_EQ(offsetof(aclrtMallocConfig, numAttrs), 8);
  ABI_EQ(FIELD_SIZE(aclrtMallocConfig, numAttrs), 8);
  // aclrtServerPid
  ABI_EQ(offsetof(aclrtServerPid, sdid), 0);
  ABI_EQ(FIELD_SIZE(aclrtServerPid, sdid), 4);
  ABI_EQ(offsetof(aclrtServerPid, pid), 8);
  ABI_EQ(FIELD_SIZE(aclrtServerPid, pid), 8);
  ABI_EQ(offsetof(aclrtServerPid, num), 16);
  ABI_EQ(FIELD_SIZE(aclrtServerPid, num), 8);
  // aclrtStreamConfigHandle
  ABI_EQ(offsetof(aclrtStreamConfigHandle, workptr), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamConfigHandle, workptr), 8);
  ABI_EQ(offsetof(aclrtStreamConfigHandle, workSize), 8);
  ABI_EQ(FIELD_SIZE(aclrtStreamConfigHandle, workSize), 8);
  ABI_EQ(offsetof(aclrtStreamConfigHandle, flag), 16);
  ABI_EQ(FIELD_SIZE(aclrtStreamConfigHandle, flag), 8);
  ABI_EQ(offsetof(aclrtStreamConfigHandle, priority), 24);
  ABI_EQ(FIELD_SIZE(aclrtStreamConfigHandle, priority), 4);
  // aclrtUtilizationInfo
  ABI_EQ(offsetof(aclrtUtilizationInfo, cubeUtilization), 0);
  ABI_EQ(FIELD_SIZE(aclrtUtilizationInfo, cubeUtilization), 4);
  ABI_EQ(offsetof(aclrtUtilizationInfo, vectorUtilization), 4);
  ABI_EQ(FIELD_SIZE(aclrtUtilizationInfo, vectorUtilization), 4);
  ABI_EQ(offsetof(aclrtUtilizationInfo, aicpuUtilization), 8);
  ABI_EQ(FIELD_SIZE(aclrtUtilizationInfo, aicpuUtilization), 4);
  ABI_EQ(offsetof(aclrtUtilizationInfo, memoryUtilization), 12);
  ABI_EQ(FIELD_SIZE(aclrtUtilizationInfo, memoryUtilization), 4);
  ABI_EQ(offsetof(aclrtUtilizationInfo, utilizationExtend), 16);
  ABI_EQ(FIELD_SIZE(aclrtUtilizationInfo, utilizationExtend), 8);
  // aclrtMemLocation
  ABI_EQ(offsetof(aclrtMemLocation, id), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemLocation, id), 4);
  ABI_EQ(offsetof(aclrtMemLocation, type), 4);
  ABI_EQ(FIELD_SIZE(aclrtMemLocation, type), 4);
  // aclrtPtrAttributes
  ABI_EQ(offsetof(aclrtPtrAttributes, location), 0);
  ABI_EQ(FIELD_SIZE(aclrtPtrAttributes, location), 8);
  ABI_EQ(offsetof(aclrtPtrAttributes, pageSize), 8);
  ABI_EQ(FIELD_SIZE(aclrtPtrAttributes, pageSize), 4);
  ABI_EQ(offsetof(aclrtPtrAttributes, rsv), 12);
  ABI_EQ(FIELD_SIZE(aclrtPtrAttributes, rsv), 16);
  // aclrtMemUsageInfo
  ABI_EQ(offsetof(aclrtMemUsageInfo, name), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemUsageInfo, name), 32);
  ABI_EQ(offsetof(aclrtMemUsageInfo, curMemSize), 32);
  ABI_EQ(FIELD_SIZE(aclrtMemUsageInfo, curMemSize), 8);
  ABI_EQ(offsetof(aclrtMemUsageInfo, memPeakSize), 40);
  ABI_EQ(FIELD_SIZE(aclrtMemUsageInfo, memPeakSize), 8);
  ABI_EQ(offsetof(aclrtMemUsageInfo, reserved), 48);
  ABI_EQ(FIELD_SIZE(aclrtMemUsageInfo, reserved), 64);
  // aclrtMemFabricHandle
  ABI_EQ(offsetof(aclrtMemFabricHandle, data), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemFabricHandle, data), 128);
  // aclrtPhysicalMemProp
  ABI_EQ(offsetof(aclrtPhysicalMemProp, handleType), 0);
  ABI_EQ(FIELD_SIZE(aclrtPhysicalMemProp, handleType), 4);
  ABI_EQ(offsetof(aclrtPhysicalMemProp, allocationType), 4);
  ABI_EQ(FIELD_SIZE(aclrtPhysicalMemProp, allocationType), 4);
  ABI_EQ(offsetof(aclrtPhysicalMemProp, memAttr), 8);
  ABI_EQ(FIELD_SIZE(aclrtPhysicalMemProp, memAttr), 4);
  ABI_EQ(offsetof(aclrtPhysicalMemProp, location), 12);
  ABI_EQ(FIELD_SIZE(aclrtPhysicalMemProp, location), 8);
  ABI_EQ(offsetof(aclrtPhysicalMemProp, reserve), 24);
  ABI_EQ(FIELD_SIZE(aclrtPhysicalMemProp, reserve), 8);
  // aclrtMemUceInfo
  ABI_EQ(offsetof(aclrtMemUceInfo, addr), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemUceInfo, addr), 8);
  ABI_EQ(offsetof(aclrtMemUceInfo, len), 8);
  ABI_EQ(FIELD_SIZE(aclrtMemUceInfo, len), 8);
  ABI_EQ(offsetof(aclrtMemUceInfo, reserved), 16);
  ABI_EQ(FIELD_SIZE(aclrtMemUceInfo, reserved), 112);
  // aclrtMemUceInfoArray
  ABI_EQ(offsetof(aclrtMemUceInfoArray, arraySize), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemUceInfoArray, arraySize), 8);
  ABI_EQ(offsetof(aclrtMemUceInfoArray, memUceInfoArray), 8);
  ABI_EQ(FIELD_SIZE(aclrtMemUceInfoArray, memUceInfoArray), 2560);
  // aclrtErrorInfoDetail
  ABI_EQ(offsetof(aclrtErrorInfoDetail, uceInfo), 0);
  ABI_EQ(FIELD_SIZE(aclrtErrorInfoDetail, uceInfo), 2568);
  ABI_EQ(offsetof(aclrtErrorInfoDetail, aicoreErrType), 0);
  ABI_EQ(FIELD_SIZE(aclrtErrorInfoDetail, aicoreErrType), 4);
  // aclrtErrorInfo
  ABI_EQ(offsetof(aclrtErrorInfo, tryRepair), 0);
  ABI_EQ(FIELD_SIZE(aclrtErrorInfo, tryRepair), 1);
  ABI_EQ(offsetof(aclrtErrorInfo, hasDetail), 1);
  ABI_EQ(FIELD_SIZE(aclrtErrorInfo, hasDetail), 1);
  ABI_EQ(offsetof(aclrtErrorInfo, reserved), 2);
  ABI_EQ(FIELD_SIZE(aclrtErrorInfo, reserved), 2);
  ABI_EQ(offsetof(aclrtErrorInfo, errorType), 4);
  ABI_EQ(FIELD_SIZE(aclrtErrorInfo, errorType), 4);
  ABI_EQ(offsetof(aclrtErrorInfo, detail), 8);
  ABI_EQ(FIELD_SIZE(aclrtErrorInfo, detail), 2568);
  // aclrtBinaryLoadOptionValue
  ABI_EQ(offsetof(aclrtBinaryLoadOptionValue, isLazyLoad), 0);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOptionValue, isLazyLoad), 4);
  ABI_EQ(offsetof(aclrtBinaryLoadOptionValue, magic), 0);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOptionValue, magic), 4);
  ABI_EQ(offsetof(aclrtBinaryLoadOptionValue, cpuKernelMode), 0);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOptionValue, cpuKernelMode), 4);
  ABI_EQ(offsetof(aclrtBinaryLoadOptionValue, rsv), 0);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOptionValue, rsv), 16);
  // aclrtBinaryLoadOption
  ABI_EQ(offsetof(aclrtBinaryLoadOption, type), 0);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOption, type), 4);
  ABI_EQ(offsetof(aclrtBinaryLoadOption, value), 4);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOption, value), 16);
  // aclrtBinaryLoadOptions
  ABI_EQ(offsetof(aclrtBinaryLoadOptions, options), 0);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOptions, options), 8);
  ABI_EQ(offsetof(aclrtBinaryLoadOptions, numOpt), 8);
  ABI_EQ(FIELD_SIZE(aclrtBinaryLoadOptions, numOpt), 8);
  // dim3
  ABI_EQ(offsetof(dim3, x), 0);
  ABI_EQ(FIELD_SIZE(dim3, x), 4);
  ABI_EQ(offsetof(dim3, y), 4);
  ABI_EQ(FIELD_SIZE(dim3, y), 4);
  ABI_EQ(offsetof(dim3, z), 8);
  ABI_EQ(FIELD_SIZE(dim3, z), 4);
  // aclrtTimeoutUs
  ABI_EQ(offsetof(aclrtTimeoutUs, timeoutLow), 0);
  ABI_EQ(FIELD_SIZE(aclrtTimeoutUs, timeoutLow), 4);
  ABI_EQ(offsetof(aclrtTimeoutUs, timeoutHigh), 4);
  ABI_EQ(FIELD_SIZE(aclrtTimeoutUs, timeoutHigh), 4);
  // aclrtLaunchKernelAttrValue
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, schemMode), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, schemMode), 1);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, localMemorySize), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, localMemorySize), 4);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, dynUBufSize), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, dynUBufSize), 4);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, engineType), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, engineType), 4);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, blockDimOffset), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, blockDimOffset), 4);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, isBlockTaskPrefetch), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, isBlockTaskPrefetch), 1);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, isDataDump), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, isDataDump), 1);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, timeout), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, timeout), 2);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, timeoutUs), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, timeoutUs), 8);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, enableProfiling), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, enableProfiling), 1);
  ABI_EQ(offsetof(aclrtLaunchKernelAttrValue, rsv), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttrValue, rsv), 16);
  // aclrtLaunchKernelAttr
  ABI_EQ(offsetof(aclrtLaunchKernelAttr, id), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttr, id), 4);
  ABI_EQ(offsetof(aclrtLaunchKernelAttr, value), 4);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelAttr, value), 16);
  // aclrtLaunchKernelCfg
  ABI_EQ(offsetof(aclrtLaunchKernelCfg, attrs), 0);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelCfg, attrs), 8);
  ABI_EQ(offsetof(aclrtLaunchKernelCfg, numAttrs), 8);
  ABI_EQ(FIELD_SIZE(aclrtLaunchKernelCfg, numAttrs), 8);
  // aclrtStreamAttrValue
  ABI_EQ(offsetof(aclrtStreamAttrValue, failureMode), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamAttrValue, failureMode), 8);
  ABI_EQ(offsetof(aclrtStreamAttrValue, overflowSwitch), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamAttrValue, overflowSwitch), 4);
  ABI_EQ(offsetof(aclrtStreamAttrValue, userCustomTag), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamAttrValue, userCustomTag), 4);
  ABI_EQ(offsetof(aclrtStreamAttrValue, cacheOpInfoSwitch), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamAttrValue, cacheOpInfoSwitch), 4);
  ABI_EQ(offsetof(aclrtStreamAttrValue, streamPriority), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamAttrValue, streamPriority), 4);
  ABI_EQ(offsetof(aclrtStreamAttrValue, launchBlockingMode), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamAttrValue, launchBlockingMode), 4);
  ABI_EQ(offsetof(aclrtStreamAttrValue, reserve), 0);
  ABI_EQ(FIELD_SIZE(aclrtStreamAttrValue, reserve), 16);
  // aclmdlRIKernelTaskParams
  ABI_EQ(offsetof(aclmdlRIKernelTaskParams, funcHandle), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRIKernelTaskParams, funcHandle), 8);
  ABI_EQ(offsetof(aclmdlRIKernelTaskParams, cfg), 8);
  ABI_EQ(FIELD_SIZE(aclmdlRIKernelTaskParams, cfg), 8);
  ABI_EQ(offsetof(aclmdlRIKernelTaskParams, args), 16);
  ABI_EQ(FIELD_SIZE(aclmdlRIKernelTaskParams, args), 8);
  ABI_EQ(offsetof(aclmdlRIKernelTaskParams, isHostArgs), 24);
  ABI_EQ(FIELD_SIZE(aclmdlRIKernelTaskParams, isHostArgs), 4);
  ABI_EQ(offsetof(aclmdlRIKernelTaskParams, argsSize), 32);
  ABI_EQ(FIELD_SIZE(aclmdlRIKernelTaskParams, argsSize), 8);
  ABI_EQ(offsetof(aclmdlRIKernelTaskParams, numBlocks), 40);
  ABI_EQ(FIELD_SIZE(aclmdlRIKernelTaskParams, numBlocks), 4);
  ABI_EQ(offsetof(aclmdlRIKernelTaskParams, rsv), 44);
  ABI_EQ(FIELD_SIZE(aclmdlRIKernelTaskParams, rsv), 40);
  // aclmdlRIEventRecordTaskParams
  ABI_EQ(offsetof(aclmdlRIEventRecordTaskParams, event), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventRecordTaskParams, event), 8);
  ABI_EQ(offsetof(aclmdlRIEventRecordTaskParams, eventFlag), 8);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventRecordTaskParams, eventFlag), 4);
  ABI_EQ(offsetof(aclmdlRIEventRecordTaskParams, recordFlag), 12);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventRecordTaskParams, recordFlag), 4);
  // aclmdlRIEventWaitTaskParams
  ABI_EQ(offsetof(aclmdlRIEventWaitTaskParams, event), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventWaitTaskParams, event), 8);
  ABI_EQ(offsetof(aclmdlRIEventWaitTaskParams, eventFlag), 8);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventWaitTaskParams, eventFlag), 4);
  ABI_EQ(offsetof(aclmdlRIEventWaitTaskParams, waitFlag), 12);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventWaitTaskParams, waitFlag), 4);
  // aclmdlRIEventResetTaskParams
  ABI_EQ(offsetof(aclmdlRIEventResetTaskParams, event), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventResetTaskParams, event), 8);
  ABI_EQ(offsetof(aclmdlRIEventResetTaskParams, eventFlag), 8);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventResetTaskParams, eventFlag), 4);
  ABI_EQ(offsetof(aclmdlRIEventResetTaskParams, resetFlag), 12);
  ABI_EQ(FIELD_SIZE(aclmdlRIEventResetTaskParams, resetFlag), 4);
  // aclmdlRIValueWriteTaskParams
  ABI_EQ(offsetof(aclmdlRIValueWriteTaskParams, devAddr), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRIValueWriteTaskParams, devAddr), 8);
  ABI_EQ(offsetof(aclmdlRIValueWriteTaskParams, value), 8);
  ABI_EQ(FIELD_SIZE(aclmdlRIValueWriteTaskParams, value), 8);
  // aclmdlRIValueWaitTaskParams
  ABI_EQ(offsetof(aclmdlRIValueWaitTaskParams, devAddr), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRIValueWaitTaskParams, devAddr), 8);
  ABI_EQ(offsetof(aclmdlRIValueWaitTaskParams, value), 8);
  ABI_EQ(FIELD_SIZE(aclmdlRIValueWaitTaskParams, value), 8);
  ABI_EQ(offsetof(aclmdlRIValueWaitTaskParams, flag), 16);
  ABI_EQ(FIELD_SIZE(aclmdlRIValueWaitTaskParams, flag), 4);
  // aclmdlRITaskParams
  ABI_EQ(offsetof(aclmdlRITaskParams, type), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, type), 4);
  ABI_EQ(offsetof(aclmdlRITaskParams, rsv0), 4);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, rsv0), 12);
  ABI_EQ(offsetof(aclmdlRITaskParams, taskGrp), 16);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, taskGrp), 8);
  ABI_EQ(offsetof(aclmdlRITaskParams, opInfoPtr), 24);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, opInfoPtr), 8);
  ABI_EQ(offsetof(aclmdlRITaskParams, opInfoSize), 32);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, opInfoSize), 8);
  ABI_EQ(offsetof(aclmdlRITaskParams, rsv1), 40);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, rsv1), 32);
  ABI_EQ(offsetof(aclmdlRITaskParams, rsv2), 72);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, rsv2), 128);
  ABI_EQ(offsetof(aclmdlRITaskParams, kernelTaskParams), 72);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, kernelTaskParams), 88);
  ABI_EQ(offsetof(aclmdlRITaskParams, eventRecordTaskParams), 72);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, eventRecordTaskParams), 16);
  ABI_EQ(offsetof(aclmdlRITaskParams, eventWaitTaskParams), 72);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, eventWaitTaskParams), 16);
  ABI_EQ(offsetof(aclmdlRITaskParams, eventResetTaskParams), 72);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, eventResetTaskParams), 16);
  ABI_EQ(offsetof(aclmdlRITaskParams, valueWriteTaskParams), 72);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, valueWriteTaskParams), 16);
  ABI_EQ(offsetof(aclmdlRITaskParams, valueWaitTaskParams), 72);
  ABI_EQ(FIELD_SIZE(aclmdlRITaskParams, valueWaitTaskParams), 24);
  // aclrtBarrierCmoInfo
  ABI_EQ(offsetof(aclrtBarrierCmoInfo, cmoType), 0);
  ABI_EQ(FIELD_SIZE(aclrtBarrierCmoInfo, cmoType), 4);
  ABI_EQ(offsetof(aclrtBarrierCmoInfo, barrierId), 4);
  ABI_EQ(FIELD_SIZE(aclrtBarrierCmoInfo, barrierId), 4);
  // aclrtBarrierTaskInfo
  ABI_EQ(offsetof(aclrtBarrierTaskInfo, barrierNum), 0);
  ABI_EQ(FIELD_SIZE(aclrtBarrierTaskInfo, barrierNum), 8);
  ABI_EQ(offsetof(aclrtBarrierTaskInfo, cmoInfo), 8);
  ABI_EQ(FIELD_SIZE(aclrtBarrierTaskInfo, cmoInfo), 48);
  // aclrtMemcpyBatchAttr
  ABI_EQ(offsetof(aclrtMemcpyBatchAttr, dstLoc), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemcpyBatchAttr, dstLoc), 8);
  ABI_EQ(offsetof(aclrtMemcpyBatchAttr, srcLoc), 8);
  ABI_EQ(FIELD_SIZE(aclrtMemcpyBatchAttr, srcLoc), 8);
  ABI_EQ(offsetof(aclrtMemcpyBatchAttr, rsv), 16);
  ABI_EQ(FIELD_SIZE(aclrtMemcpyBatchAttr, rsv), 16);
  // aclrtPlaceHolderInfo
  ABI_EQ(offsetof(aclrtPlaceHolderInfo, addrOffset), 0);
  ABI_EQ(FIELD_SIZE(aclrtPlaceHolderInfo, addrOffset), 4);
  ABI_EQ(offsetof(aclrtPlaceHolderInfo, dataOffset), 4);
  ABI_EQ(FIELD_SIZE(aclrtPlaceHolderInfo, dataOffset), 4);
  // aclrtRandomParaInfo
  ABI_EQ(offsetof(aclrtRandomParaInfo, isAddr), 0);
  ABI_EQ(FIELD_SIZE(aclrtRandomParaInfo, isAddr), 1);
  ABI_EQ(offsetof(aclrtRandomParaInfo, valueOrAddr), 1);
  ABI_EQ(FIELD_SIZE(aclrtRandomParaInfo, valueOrAddr), 8);
  ABI_EQ(offsetof(aclrtRandomParaInfo, size), 9);
  ABI_EQ(FIELD_SIZE(aclrtRandomParaInfo, size), 1);
  ABI_EQ(offsetof(aclrtRandomParaInfo, rsv), 10);
  ABI_EQ(FIELD_SIZE(aclrtRandomParaInfo, rsv), 6);
  // aclrtDropoutBitmaskInfo
  ABI_EQ(offsetof(aclrtDropoutBitmaskInfo, dropoutRation), 0);
  ABI_EQ(FIELD_SIZE(aclrtDropoutBitmaskInfo, dropoutRation), 16);
  // aclrtUniformDisInfo
  ABI_EQ(offsetof(aclrtUniformDisInfo, min), 0);
  ABI_EQ(FIELD_SIZE(aclrtUniformDisInfo, min), 16);
  ABI_EQ(offsetof(aclrtUniformDisInfo, max), 16);
  ABI_EQ(FIELD_SIZE(aclrtUniformDisInfo, max), 16);
  // aclrtNormalDisInfo
  ABI_EQ(offsetof(aclrtNormalDisInfo, mean), 0);
  ABI_EQ(FIELD_SIZE(aclrtNormalDisInfo, mean), 16);
  ABI_EQ(offsetof(aclrtNormalDisInfo, stddev), 16);
  ABI_EQ(FIELD_SIZE(aclrtNormalDisInfo, stddev), 16);
  // aclrtRandomNumFuncParaInfo
  ABI_EQ(offsetof(aclrtRandomNumFuncParaInfo, funcType), 0);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumFuncParaInfo, funcType), 4);
  ABI_EQ(offsetof(aclrtRandomNumFuncParaInfo, paramInfo), 4);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumFuncParaInfo, paramInfo), 32);
  ABI_EQ(offsetof(aclrtRandomNumFuncParaInfo, paramInfo.dropoutBitmaskInfo), 4);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumFuncParaInfo, paramInfo.dropoutBitmaskInfo), 16);
  ABI_EQ(offsetof(aclrtRandomNumFuncParaInfo, paramInfo.uniformDisInfo), 4);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumFuncParaInfo, paramInfo.uniformDisInfo), 32);
  ABI_EQ(offsetof(aclrtRandomNumFuncParaInfo, paramInfo.normalDisInfo), 4);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumFuncParaInfo, paramInfo.normalDisInfo), 32);
  // aclrtRandomNumTaskInfo
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, dataType), 0);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, dataType), 4);
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, randomNumFuncParaInfo), 4);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, randomNumFuncParaInfo), 36);
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, randomParaAddr), 40);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, randomParaAddr), 8);
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, randomResultAddr), 48);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, randomResultAddr), 8);
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, randomCounterAddr), 56);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, randomCounterAddr), 8);
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, randomSeed), 64);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, randomSeed), 16);
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, randomNum), 80);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, randomNum), 16);
  ABI_EQ(offsetof(aclrtRandomNumTaskInfo, rsv), 96);
  ABI_EQ(FIELD_SIZE(aclrtRandomNumTaskInfo, rsv), 8);
  // aclrtRandomTaskUpdateAttr
  ABI_EQ(offsetof(aclrtRandomTaskUpdateAttr, srcAddr), 0);
  ABI_EQ(FIELD_SIZE(aclrtRandomTaskUpdateAttr, srcAddr), 8);
  ABI_EQ(offsetof(aclrtRandomTaskUpdateAttr, size), 8);
  ABI_EQ(FIELD_SIZE(aclrtRandomTaskUpdateAttr, size), 8);
  ABI_EQ(offsetof(aclrtRandomTaskUpdateAttr, rsv), 16);
  ABI_EQ(FIELD_SIZE(aclrtRandomTaskUpdateAttr, rsv), 16);
  // aclrtAicAivTaskUpdateAttr
  ABI_EQ(offsetof(aclrtAicAivTaskUpdateAttr, binHandle), 0);
  ABI_EQ(FIELD_SIZE(aclrtAicAivTaskUpdateAttr, binHandle), 8);
  ABI_EQ(offsetof(aclrtAicAivTaskUpdateAttr, funcEntryAddr), 8);
  ABI_EQ(FIELD_SIZE(aclrtAicAivTaskUpdateAttr, funcEntryAddr), 8);
  ABI_EQ(offsetof(aclrtAicAivTaskUpdateAttr, blockDimAddr), 16);
  ABI_EQ(FIELD_SIZE(aclrtAicAivTaskUpdateAttr, blockDimAddr), 8);
  ABI_EQ(offsetof(aclrtAicAivTaskUpdateAttr, rsv), 24);
  ABI_EQ(FIELD_SIZE(aclrtAicAivTaskUpdateAttr, rsv), 16);
  // aclrtUpdateTaskAttrVal
  ABI_EQ(offsetof(aclrtUpdateTaskAttrVal, randomTaskAttr), 0);
  ABI_EQ(FIELD_SIZE(aclrtUpdateTaskAttrVal, randomTaskAttr), 32);
  ABI_EQ(offsetof(aclrtUpdateTaskAttrVal, aicAivTaskAttr), 0);
  ABI_EQ(FIELD_SIZE(aclrtUpdateTaskAttrVal, aicAivTaskAttr), 40);
  // aclrtTaskUpdateInfo
  ABI_EQ(offsetof(aclrtTaskUpdateInfo, id), 0);
  ABI_EQ(FIELD_SIZE(aclrtTaskUpdateInfo, id), 4);
  ABI_EQ(offsetof(aclrtTaskUpdateInfo, val), 8);
  ABI_EQ(FIELD_SIZE(aclrtTaskUpdateInfo, val), 40);
  // aclrtSnapShotBackupArgs
  ABI_EQ(offsetof(aclrtSnapShotBackupArgs, backupFlags), 0);
  ABI_EQ(FIELD_SIZE(aclrtSnapShotBackupArgs, backupFlags), 4);
  ABI_EQ(offsetof(aclrtSnapShotBackupArgs, reserved), 4);
  ABI_EQ(FIELD_SIZE(aclrtSnapShotBackupArgs, reserved), 60);
  // aclrtSnapShotRestoreArgs
  ABI_EQ(offsetof(aclrtSnapShotRestoreArgs, restoreFlags), 0);
  ABI_EQ(FIELD_SIZE(aclrtSnapShotRestoreArgs, restoreFlags), 4);
  ABI_EQ(offsetof(aclrtSnapShotRestoreArgs, reserved), 4);
  ABI_EQ(FIELD_SIZE(aclrtSnapShotRestoreArgs, reserved), 60);
  // aclrtUuid
  ABI_EQ(offsetof(aclrtUuid, bytes), 0);
  ABI_EQ(FIELD_SIZE(aclrtUuid, bytes), 16);
  // aclrtCntNotifyRecordInfo
  ABI_EQ(offsetof(aclrtCntNotifyRecordInfo, mode), 0);
  ABI_EQ(FIELD_SIZE(aclrtCntNotifyRecordInfo, mode), 4);
  ABI_EQ(offsetof(aclrtCntNotifyRecordInfo, value), 4);
  ABI_EQ(FIELD_SIZE(aclrtCntNotifyRecordInfo, value), 4);
  // aclrtCntNotifyWaitInfo
  ABI_EQ(offsetof(aclrtCntNotifyWaitInfo, mode), 0);
  ABI_EQ(FIELD_SIZE(aclrtCntNotifyWaitInfo, mode), 4);
  ABI_EQ(offsetof(aclrtCntNotifyWaitInfo, value), 4);
  ABI_EQ(FIELD_SIZE(aclrtCntNotifyWaitInfo, value), 4);
  ABI_EQ(offsetof(aclrtCntNotifyWaitInfo, timeout), 8);
  ABI_EQ(FIELD_SIZE(aclrtCntNotifyWaitInfo, timeout), 4);
  ABI_EQ(offsetof(aclrtCntNotifyWaitInfo, isClear), 12);
  ABI_EQ(FIELD_SIZE(aclrtCntNotifyWaitInfo, isClear), 1);
  ABI_EQ(offsetof(aclrtCntNotifyWaitInfo, rsv), 13);
  ABI_EQ(FIELD_SIZE(aclrtCntNotifyWaitInfo, rsv), 3);
  // aclrtMemAccessDesc
  ABI_EQ(offsetof(aclrtMemAccessDesc, flags), 0);
  ABI_EQ(FIELD_SIZE(aclrtMemAccessDesc, flags), 4);
  ABI_EQ(offsetof(aclrtMemAccessDesc, location), 4);
  ABI_EQ(FIELD_SIZE(aclrtMemAccessDesc, location), 8);
  ABI_EQ(offsetof(aclrtMemAccessDesc, rsv), 12);
  ABI_EQ(FIELD_SIZE(aclrtMemAccessDesc, rsv), 12);
  // aclCANNPackageVersion
  ABI_EQ(offsetof(aclCANNPackageVersion, version), 0);
  ABI_EQ(FIELD_SIZE(aclCANNPackageVersion, version), 128);
  ABI_EQ(offsetof(aclCANNPackageVersion, majorVersion), 128);
  ABI_EQ(FIELD_SIZE(aclCANNPackageVersion, majorVersion), 64);
  ABI_EQ(offsetof(aclCANNPackageVersion, minorVersion), 192);
  ABI_EQ(FIELD_SIZE(aclCANNPackageVersion, minorVersion), 64);
  ABI_EQ(offsetof(aclCANNPackageVersion, releaseVersion), 256);
  ABI_EQ(FIELD_SIZE(aclCANNPackageVersion, releaseVersion), 64);
  ABI_EQ(offsetof(aclCANNPackageVersion, patchVersion), 320);
  ABI_EQ(FIELD_SIZE(aclCANNPackageVersion, patchVersion), 64);
  ABI_EQ(offsetof(aclCANNPackageVersion, reserved), 384);
  ABI_EQ(FIELD_SIZE(aclCANNPackageVersion, reserved), 128);
  // aclrtIpcEventHandle
  ABI_EQ(offsetof(aclrtIpcEventHandle, reserved), 0);
  ABI_EQ(FIELD_SIZE(aclrtIpcEventHandle, reserved), 64);
  // MemAttrMapping
  ABI_EQ(offsetof(struct MemAttrMapping, pgType), 0);
  ABI_EQ(FIELD_SIZE(struct MemAttrMapping, pgType), 4);
  ABI_EQ(offsetof(struct MemAttrMapping, memType), 4);
  ABI_EQ(FIELD_SIZE(struct MemAttrMapping, memType), 4);
  ABI_EQ(offsetof(struct MemAttrMapping, isHostAlloc), 8);
  ABI_EQ(FIELD_SIZE(struct MemAttrMapping, isHostAlloc), 1);
  ABI_EQ(offsetof(struct MemAttrMapping, memAttr), 12);
  ABI_EQ(FIELD_SIZE(struct MemAttrMapping, memAttr), 4);
  // aclmdlRICondTaskParams
  ABI_EQ(offsetof(aclmdlRICondTaskParams, handle), 0);
  ABI_EQ(FIELD_SIZE(aclmdlRICondTaskParams, handle), 8);
  ABI_EQ(offsetof(aclmdlRICondTaskParams, type), 8);
  ABI_EQ(FIELD_SIZE(aclmdlRICondTaskParams, type), 4);
  ABI_EQ(offsetof(aclmdlRICondTaskParams, size), 12);
  ABI_EQ(FIELD_SIZE(aclmdlRICondTaskParams, size), 4);
  ABI_EQ(offsetof(aclmdlRICondTaskParams, modelRIArray), 16);
  ABI_EQ(FIELD_SIZE(aclmdlRICondTaskParams, modelRIArray), 8);
}

TEST(AbiLayoutTest, EnumeratorValues) {
  // aclDataType
  ABI_EQ(ACL_DT_UNDEFINED, -1);
  ABI_EQ(ACL_FLOAT, 0);
  ABI_EQ(ACL_FLOAT16, 1);
  ABI_EQ(ACL_INT8, 2);
  ABI_EQ(ACL_INT32, 3);
  ABI_EQ(ACL_UINT8, 4);
  ABI_EQ(ACL_INT16, 6);
  ABI_EQ(ACL_UINT16, 7);
  ABI_EQ(ACL_UINT32, 8);
  ABI_EQ(ACL_INT64, 9);
  ABI_EQ(ACL_UINT64, 10);
  ABI_EQ(ACL_DOUBLE, 11);
  ABI_EQ(ACL_BOOL, 12);
  ABI_EQ(ACL_STRING, 13);
  ABI_EQ(ACL_COMPLEX64, 16);
  ABI_EQ(ACL_COMPLEX128, 17);
  ABI_EQ(ACL_BF16, 27);
  ABI_EQ(ACL_INT4, 29);
  ABI_EQ(ACL_UINT1, 30);
  ABI_EQ(ACL_COMPLEX32, 33);
  ABI_EQ(ACL_HIFLOAT8, 34);
  ABI_EQ(ACL_FLOAT8_E5M2, 35);
  ABI_EQ(ACL_FLOAT8_E4M3FN, 36);
  ABI_EQ(ACL_FLOAT8_E8M0, 37);
  ABI_EQ(ACL_FLOAT6_E3M2, 38);
  ABI_EQ(ACL_FLOAT6_E2M3, 39);
  ABI_EQ(ACL_FLOAT4_E2M1, 40);
  ABI_EQ(ACL_FLOAT4_E1M2, 41);
  // aclFormat
  ABI_EQ(ACL_FORMAT_UNDEFINED, -1);
  ABI_EQ(ACL_FORMAT_NCHW, 0);
  ABI_EQ(ACL_FORMAT_NHWC, 1);
  ABI_EQ(ACL_FORMAT_ND, 2);
  ABI_EQ(ACL_FORMAT_NC1HWC0, 3);
  ABI_EQ(ACL_FORMAT_FRACTAL_Z, 4);
  ABI_EQ(ACL_FORMAT_NC1HWC0_C04, 12);
  ABI_EQ(ACL_FORMAT_HWCN, 16);
  ABI_EQ(ACL_FORMAT_NDHWC, 27);
  ABI_EQ(ACL_FORMAT_FRACTAL_NZ, 29);
  ABI_EQ(ACL_FORMAT_NCDHW, 30);
  ABI_EQ(ACL_FORMAT_NDC1HWC0, 32);
  ABI_EQ(ACL_FRACTAL_Z_3D, 33);
  ABI_EQ(ACL_FORMAT_NC, 35);
  ABI_EQ(ACL_FORMAT_NCL, 47);
  ABI_EQ(ACL_FORMAT_FRACTAL_NZ_C0_16, 50);
  ABI_EQ(ACL_FORMAT_FRACTAL_NZ_C0_32, 51);
  ABI_EQ(ACL_FORMAT_FRACTAL_NZ_C0_2, 52);
  ABI_EQ(ACL_FORMAT_FRACTAL_NZ_C0_4, 53);
  ABI_EQ(ACL_FORMAT_FRACTAL_NZ_C0_8, 54);
  // aclLogLevel
  ABI_EQ(ACL_DEBUG, 0);
  ABI_EQ(ACL_INFO, 1);
  ABI_EQ(ACL_WARNING, 2);
  ABI_EQ(ACL_ERROR, 3);
  // aclMemType
  ABI_EQ(ACL_MEMTYPE_DEVICE, 0);
  ABI_EQ(ACL_MEMTYPE_HOST, 1);
  ABI_EQ(ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT, 2);
  // aclSysParamOpt
  ABI_EQ(ACL_OPT_DETERMINISTIC, 0);
  ABI_EQ(ACL_OPT_ENABLE_DEBUG_KERNEL, 1);
  ABI_EQ(ACL_OPT_STRONG_CONSISTENCY, 2);
  ABI_EQ(ACL_OPT_ENABLE_KERNEL_EARLY_START, 3);
  // aclCannAttr
  ABI_EQ(ACL_CANN_ATTR_UNDEFINED, -1);
  ABI_EQ(ACL_CANN_ATTR_INF_NAN, 0);
  ABI_EQ(ACL_CANN_ATTR_BF16, 1);
  ABI_EQ(ACL_CANN_ATTR_JIT_COMPILE, 2);
  // aclDeviceInfo
  ABI_EQ(ACL_DEVICE_INFO_UNDEFINED, -1);
  ABI_EQ(ACL_DEVICE_INFO_AI_CORE_NUM, 0);
  ABI_EQ(ACL_DEVICE_INFO_VECTOR_CORE_NUM, 1);
  ABI_EQ(ACL_DEVICE_INFO_L2_SIZE, 2);
  // aclrtRunMode
  ABI_EQ(ACL_DEVICE, 0);
  ABI_EQ(ACL_HOST, 1);
  // aclrtTsId
  ABI_EQ(ACL_TS_ID_AICORE, 0);
  ABI_EQ(ACL_TS_ID_AIVECTOR, 1);
  ABI_EQ(ACL_TS_ID_RESERVED, 2);
  // aclrtEventStatus
  ABI_EQ(ACL_EVENT_STATUS_COMPLETE, 0);
  ABI_EQ(ACL_EVENT_STATUS_NOT_READY, 1);
  ABI_EQ(ACL_EVENT_STATUS_RESERVED, 2);
  // aclrtEventRecordedStatus
  ABI_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, 0);
  ABI_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, 1);
  // aclrtEventWaitStatus
  ABI_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, 0);
  ABI_EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, 1);
  ABI_EQ(ACL_EVENT_WAIT_STATUS_RESERVED, 65535);
  // aclrtStreamStatus
  ABI_EQ(ACL_STREAM_STATUS_COMPLETE, 0);
  ABI_EQ(ACL_STREAM_STATUS_NOT_READY, 1);
  ABI_EQ(ACL_STREAM_STATUS_RESERVED, 65535);
  // aclrtCallbackBlockType
  ABI_EQ(ACL_CALLBACK_NO_BLOCK, 0);
  ABI_EQ(ACL_CALLBACK_BLOCK, 1);
  // aclrtMemcpyKind
  ABI_EQ(ACL_MEMCPY_HOST_TO_HOST, 0);
  ABI_EQ(ACL_MEMCPY_HOST_TO_DEVICE, 1);
  ABI_EQ(ACL_MEMCPY_DEVICE_TO_HOST, 2);
  ABI_EQ(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
  ABI_EQ(ACL_MEMCPY_DEFAULT, 4);
  ABI_EQ(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 5);
  ABI_EQ(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, 6);
  ABI_EQ(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 7);
  // aclrtMemManagedAdviseType
  ABI_EQ(ACL_MEM_ADVISE_SET_READ_MOSTLY, 0);
  ABI_EQ(ACL_MEM_ADVISE_UNSET_READ_MOSTLY, 1);
  ABI_EQ(ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, 2);
  ABI_EQ(ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, 3);
  ABI_EQ(ACL_MEM_ADVISE_SET_ACCESSED_BY, 4);
  ABI_EQ(ACL_MEM_ADVISE_UNSET_ACCESSED_BY, 5);
  // aclrtMemManagedLocationType
  ABI_EQ(ACL_MEM_LOCATIONTYPE_INVALID, 0);
  ABI_EQ(ACL_MEM_LOCATIONTYPE_DEVICE, 1);
  ABI_EQ(ACL_MEM_LOCATIONTYPE_HOST, 2);
  ABI_EQ(ACL_MEM_LOCATIONTYPE_HOST_NUMA, 3);
  ABI_EQ(ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 4);
  // aclrtMemMallocPolicy
  ABI_EQ(ACL_MEM_MALLOC_HUGE_FIRST, 0);
  ABI_EQ(ACL_MEM_MALLOC_HUGE_ONLY, 1);
  ABI_EQ(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
  ABI_EQ(ACL_MEM_MALLOC_HUGE_FIRST_P2P, 3);
  ABI_EQ(ACL_MEM_MALLOC_HUGE_ONLY_P2P, 4);
  ABI_EQ(ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 5);
  ABI_EQ(ACL_MEM_MALLOC_HUGE1G_ONLY, 6);
  ABI_EQ(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, 7);
  ABI_EQ(ACL_MEM_TYPE_LOW_BAND_WIDTH, 256);
  ABI_EQ(ACL_MEM_TYPE_HIGH_BAND_WIDTH, 4096);
  ABI_EQ(ACL_MEM_ACCESS_USER_SPACE_READONLY, 1048576);
  // aclrtHostRegisterType
  ABI_EQ(ACL_HOST_REGISTER_MAPPED, 0);
  ABI_EQ(ACL_HOST_REGISTER_IOMEMORY, 4);
  ABI_EQ(ACL_HOST_REGISTER_READONLY, 8);
  // aclrtMallocAttrType
  ABI_EQ(ACL_RT_MEM_ATTR_RSV, 0);
  ABI_EQ(ACL_RT_MEM_ATTR_MODULE_ID, 1);
  ABI_EQ(ACL_RT_MEM_ATTR_DEVICE_ID, 2);
  ABI_EQ(ACL_RT_MEM_ATTR_VA_FLAG, 3);
  // aclrtMemAttr
  ABI_EQ(ACL_DDR_MEM, 0);
  ABI_EQ(ACL_HBM_MEM, 1);
  ABI_EQ(ACL_DDR_MEM_HUGE, 2);
  ABI_EQ(ACL_DDR_MEM_NORMAL, 3);
  ABI_EQ(ACL_HBM_MEM_HUGE, 4);
  ABI_EQ(ACL_HBM_MEM_NORMAL, 5);
  ABI_EQ(ACL_DDR_MEM_P2P_HUGE, 6);
  ABI_EQ(ACL_DDR_MEM_P2P_NORMAL, 7);
  ABI_EQ(ACL_HBM_MEM_P2P_HUGE, 8);
  ABI_EQ(ACL_HBM_MEM_P2P_NORMAL, 9);
  ABI_EQ(ACL_HBM_MEM_HUGE1G, 10);
  ABI_EQ(ACL_HBM_MEM_P2P_HUGE1G, 11);
  ABI_EQ(ACL_MEM_NORMAL, 12);
  ABI_EQ(ACL_MEM_HUGE, 13);
  ABI_EQ(ACL_MEM_HUGE1G, 14);
  ABI_EQ(ACL_MEM_P2P_NORMAL, 15);
  ABI_EQ(ACL_MEM_P2P_HUGE, 16);
  ABI_EQ(ACL_MEM_P2P_HUGE1G, 17);
  // aclrtMemPgType
  ABI_EQ(NORMAL_PAGE_TYPE, 0);
  ABI_EQ(HUGE_PAGE_TYPE, 1);
  ABI_EQ(HUGE1G_PAGE_TYPE, 2);
  // aclrtMemType
  ABI_EQ(HBM_TYPE, 0);
  ABI_EQ(DDR_TYPE, 1);
  ABI_EQ(P2P_HBM_TYPE, 2);
  ABI_EQ(P2P_DDR_TYPE, 3);
  // aclrtIpcMemAttrType
  ABI_EQ(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0);
  // aclrtGroupAttr
  ABI_EQ(ACL_GROUP_AICORE_INT, 0);
  ABI_EQ(ACL_GROUP_AIV_INT, 1);
  ABI_EQ(ACL_GROUP_AIC_INT, 2);
  ABI_EQ(ACL_GROUP_SDMANUM_INT, 3);
  ABI_EQ(ACL_GROUP_ASQNUM_INT, 4);
  ABI_EQ(ACL_GROUP_GROUPID_INT, 5);
  // aclrtFloatOverflowMode
  ABI_EQ(ACL_RT_OVERFLOW_MODE_SATURATION, 0);
  ABI_EQ(ACL_RT_OVERFLOW_MODE_INFNAN, 1);
  ABI_EQ(ACL_RT_OVERFLOW_MODE_UNDEF, 2);
  // aclrtStreamConfigAttr
  ABI_EQ(ACL_RT_STREAM_WORK_ADDR_PTR, 0);
  ABI_EQ(ACL_RT_STREAM_WORK_SIZE, 1);
  ABI_EQ(ACL_RT_STREAM_FLAG, 2);
  ABI_EQ(ACL_RT_STREAM_PRIORITY, 3);
  // aclrtMemLocationType
  ABI_EQ(ACL_MEM_LOCATION_TYPE_HOST, 0);
  ABI_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, 1);
  ABI_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 2);
  ABI_EQ(ACL_MEM_LOCATION_TYPE_MANAGED, 3);
  ABI_EQ(ACL_MEM_LOCATION_TYPE_HOST_NUMA, 4);
  // aclrtMemManagedRangeAttribute
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, 1);
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, 2);
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, 3);
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, 4);
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, 5);
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, 6);
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, 7);
  ABI_EQ(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, 8);
  // aclrtMemAllocationType
  ABI_EQ(ACL_MEM_ALLOCATION_TYPE_PINNED, 0);
  // aclrtMemHandleType
  ABI_EQ(ACL_MEM_HANDLE_TYPE_NONE, 0);
  ABI_EQ(ACL_MEM_HANDLE_TYPE_POSIX, 2);
  // aclrtMemSharedHandleType
  ABI_EQ(ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1);
  ABI_EQ(ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 2);
  // aclrtMemGranularityOptions
  ABI_EQ(ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, 0);
  ABI_EQ(ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, 1);
  ABI_EQ(ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, 65535);
  // aclrtDeviceStatus
  ABI_EQ(ACL_RT_DEVICE_STATUS_NORMAL, 0);
  ABI_EQ(ACL_RT_DEVICE_STATUS_ABNORMAL, 1);
  ABI_EQ(ACL_RT_DEVICE_STATUS_END, 65535);
  // aclmdlRICaptureMode
  ABI_EQ(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, 0);
  ABI_EQ(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, 1);
  ABI_EQ(ACL_MODEL_RI_CAPTURE_MODE_RELAXED, 2);
  // aclmdlRICaptureStatus
  ABI_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0);
  ABI_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, 1);
  ABI_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, 2);
  // aclrtErrorType
  ABI_EQ(ACL_RT_NO_ERROR, 0);
  ABI_EQ(ACL_RT_ERROR_MEMORY, 1);
  ABI_EQ(ACL_RT_ERROR_L2, 2);
  ABI_EQ(ACL_RT_ERROR_AICORE, 3);
  ABI_EQ(ACL_RT_ERROR_LINK, 4);
  ABI_EQ(ACL_RT_ERROR_L3_PORT, 5);
  ABI_EQ(ACL_RT_ERROR_OTHERS, 65535);
  // aclrtAicoreErrorType
  ABI_EQ(ACL_RT_AICORE_ERROR_UNKNOWN, 0);
  ABI_EQ(ACL_RT_AICORE_ERROR_SW, 1);
  ABI_EQ(ACL_RT_AICORE_ERROR_HW_LOCAL, 2);
  // aclrtCmoType
  ABI_EQ(ACL_RT_CMO_TYPE_PREFETCH, 0);
  ABI_EQ(ACL_RT_CMO_TYPE_WRITEBACK, 1);
  ABI_EQ(ACL_RT_CMO_TYPE_INVALID, 2);
  ABI_EQ(ACL_RT_CMO_TYPE_FLUSH, 3);
  // aclrtLastErrLevel
  ABI_EQ(ACL_RT_THREAD_LEVEL, 0);
  // aclrtBinaryLoadOptionType
  ABI_EQ(ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, 1);
  ABI_EQ(ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC, 2);
  ABI_EQ(ACL_RT_BINARY_LOAD_OPT_MAGIC, 2);
  ABI_EQ(ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE, 3);
  // aclrtEngineType
  ABI_EQ(ACL_RT_ENGINE_TYPE_AIC, 0);
  ABI_EQ(ACL_RT_ENGINE_TYPE_AIV, 1);
  // aclrtLaunchKernelAttrId
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, 1);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE, 2);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, 2);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, 3);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, 4);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, 5);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, 6);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, 7);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 8);
  ABI_EQ(ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, 9);
  // aclrtStreamAttr
  ABI_EQ(ACL_STREAM_ATTR_FAILURE_MODE, 1);
  ABI_EQ(ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, 2);
  ABI_EQ(ACL_STREAM_ATTR_USER_CUSTOM_TAG, 3);
  ABI_EQ(ACL_STREAM_ATTR_CACHE_OP_INFO, 4);
  ABI_EQ(ACL_STREAM_ATTR_PRIORITY, 5);
  ABI_EQ(ACL_STREAM_LAUNCH_BLOCKING_MODE, 6);
  // aclmdlRITaskType
  ABI_EQ(ACL_MODEL_RI_TASK_DEFAULT, 0);
  ABI_EQ(ACL_MODEL_RI_TASK_KERNEL, 1);
  ABI_EQ(ACL_MODEL_RI_TASK_EVENT_RECORD, 2);
  ABI_EQ(ACL_MODEL_RI_TASK_EVENT_WAIT, 3);
  ABI_EQ(ACL_MODEL_RI_TASK_EVENT_RESET, 4);
  ABI_EQ(ACL_MODEL_RI_TASK_VALUE_WRITE, 5);
  ABI_EQ(ACL_MODEL_RI_TASK_VALUE_WAIT, 6);
  // aclrtDevAttr
  ABI_EQ(ACL_DEV_ATTR_AICPU_CORE_NUM, 1);
  ABI_EQ(ACL_DEV_ATTR_AICORE_CORE_NUM, 101);
  ABI_EQ(ACL_DEV_ATTR_CUBE_CORE_NUM, 102);
  ABI_EQ(ACL_DEV_ATTR_VECTOR_CORE_NUM, 201);
  ABI_EQ(ACL_DEV_ATTR_WARP_SIZE, 202);
  ABI_EQ(ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE, 203);
  ABI_EQ(ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE, 204);
  ABI_EQ(ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, 204);
  ABI_EQ(ACL_DEV_ATTR_MAX_GRID_DIM_X, 205);
  ABI_EQ(ACL_DEV_ATTR_MAX_GRID_DIM_Y, 206);
  ABI_EQ(ACL_DEV_ATTR_MAX_GRID_DIM_Z, 207);
  ABI_EQ(ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, 208);
  ABI_EQ(ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK, 209);
  ABI_EQ(ACL_DEV_ATTR_MAX_BLOCK_DIM_X, 210);
  ABI_EQ(ACL_DEV_ATTR_MAX_BLOCK_DIM_Y, 211);
  ABI_EQ(ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, 212);
  ABI_EQ(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 301);
  ABI_EQ(ACL_DEV_ATTR_L2_CACHE_SIZE, 302);
  ABI_EQ(ACL_DEV_ATTR_SMP_ID, 401);
  ABI_EQ(ACL_DEV_ATTR_PHY_CHIP_ID, 402);
  ABI_EQ(ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID, 403);
  ABI_EQ(ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, 403);
  ABI_EQ(ACL_DEV_ATTR_SUPER_POD_SERVER_ID, 404);
  ABI_EQ(ACL_DEV_ATTR_SUPER_POD_ID, 405);
  ABI_EQ(ACL_DEV_ATTR_CUST_OP_PRIVILEGE, 406);
  ABI_EQ(ACL_DEV_ATTR_MAINBOARD_ID, 407);
  ABI_EQ(ACL_DEV_ATTR_HD_CONNECT_TYPE, 408);
  ABI_EQ(ACL_DEV_ATTR_DEVICE_FORM_FACTOR, 409);
  ABI_EQ(ACL_DEV_ATTR_IS_VIRTUAL, 501);
  ABI_EQ(ACL_DEV_ATTR_NPU_ARCH, 601);
  ABI_EQ(ACL_DEV_ATTR_SUPER_POD_CHASSIS_ID, 410);
  // aclrtDevFeatureType
  ABI_EQ(ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, 1);
  ABI_EQ(ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, 21);
  // aclrtReduceKind
  ABI_EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 10);
  ABI_EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, 11);
  ABI_EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, 12);
  ABI_EQ(ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, 13);
  // aclrtDevResLimitType
  ABI_EQ(ACL_RT_DEV_RES_CUBE_CORE, 0);
  ABI_EQ(ACL_RT_DEV_RES_VECTOR_CORE, 1);
  // aclrtCondition
  ABI_EQ(ACL_RT_EQUAL, 0);
  ABI_EQ(ACL_RT_NOT_EQUAL, 1);
  ABI_EQ(ACL_RT_GREATER, 2);
  ABI_EQ(ACL_RT_GREATER_OR_EQUAL, 3);
  ABI_EQ(ACL_RT_LESS, 4);
  ABI_EQ(ACL_RT_LESS_OR_EQUAL, 5);
  // aclrtCompareDataType
  ABI_EQ(ACL_RT_SWITCH_INT32, 0);
  ABI_EQ(ACL_RT_SWITCH_INT64, 1);
  // aclrtRandomNumFuncType
  ABI_EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 0);
  ABI_EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1);
  ABI_EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 2);
  ABI_EQ(ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, 3);
  // aclrtDeviceTaskAbortStage
  ABI_EQ(ACL_RT_DEVICE_TASK_ABORT_PRE, 0);
  ABI_EQ(ACL_RT_DEVICE_TASK_ABORT_POST, 1);
  // aclrtUpdateTaskAttrId
  ABI_EQ(ACL_RT_UPDATE_RANDOM_TASK, 1);
  ABI_EQ(ACL_RT_UPDATE_AIC_AIV_TASK, 2);
  // aclrtDeviceState
  ABI_EQ(ACL_RT_DEVICE_STATE_SET_PRE, 0);
  ABI_EQ(ACL_RT_DEVICE_STATE_SET_POST, 1);
  ABI_EQ(ACL_RT_DEVICE_STATE_RESET_PRE, 2);
  ABI_EQ(ACL_RT_DEVICE_STATE_RESET_POST, 3);
  // aclrtSnapShotStage
  ABI_EQ(ACL_RT_SNAPSHOT_LOCK_PRE, 0);
  ABI_EQ(ACL_RT_SNAPSHOT_BACKUP_PRE, 1);
  ABI_EQ(ACL_RT_SNAPSHOT_BACKUP_POST, 2);
  ABI_EQ(ACL_RT_SNAPSHOT_RESTORE_PRE, 3);
  ABI_EQ(ACL_RT_SNAPSHOT_RESTORE_POST, 4);
  ABI_EQ(ACL_RT_SNAPSHOT_UNLOCK_POST, 5);
  // aclrtStreamState
  ABI_EQ(ACL_RT_STREAM_STATE_CREATE_POST, 1);
  ABI_EQ(ACL_RT_STREAM_STATE_DESTROY_PRE, 2);
  // aclrtFuncAttribute
  ABI_EQ(ACL_FUNC_ATTR_KERNEL_TYPE, 1);
  ABI_EQ(ACL_FUNC_ATTR_KERNEL_RATIO, 2);
  ABI_EQ(ACL_FUNC_ATTR_KERNEL_SCHED_MODE, 3);
  // aclrtKernelType
  ABI_EQ(ACL_KERNEL_TYPE_AICORE, 0);
  ABI_EQ(ACL_KERNEL_TYPE_CUBE, 1);
  ABI_EQ(ACL_KERNEL_TYPE_VECTOR, 2);
  ABI_EQ(ACL_KERNEL_TYPE_MIX, 3);
  ABI_EQ(ACL_KERNEL_TYPE_AICPU, 100);
  // aclrtCntNotifyRecordMode
  ABI_EQ(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0);
  ABI_EQ(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
  ABI_EQ(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 2);
  ABI_EQ(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 4);
  // aclrtCntNotifyWaitMode
  ABI_EQ(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 0);
  ABI_EQ(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1);
  ABI_EQ(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 2);
  ABI_EQ(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3);
  ABI_EQ(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 4);
  // aclrtMemAccessFlags
  ABI_EQ(ACL_RT_MEM_ACCESS_FLAGS_NONE, 0);
  ABI_EQ(ACL_RT_MEM_ACCESS_FLAGS_READ, 1);
  ABI_EQ(ACL_RT_MEM_ACCESS_FLAGS_READWRITE, 3);
  // aclCANNPackageName
  ABI_EQ(ACL_PKG_NAME_CANN, 0);
  ABI_EQ(ACL_PKG_NAME_RUNTIME, 1);
  ABI_EQ(ACL_PKG_NAME_COMPILER, 2);
  ABI_EQ(ACL_PKG_NAME_HCCL, 3);
  ABI_EQ(ACL_PKG_NAME_TOOLKIT, 4);
  ABI_EQ(ACL_PKG_NAME_OPP, 5);
  ABI_EQ(ACL_PKG_NAME_OPP_KERNEL, 6);
  ABI_EQ(ACL_PKG_NAME_DRIVER, 7);
  // aclrtHacType
  ABI_EQ(ACL_RT_HAC_TYPE_STARS, 0);
  ABI_EQ(ACL_RT_HAC_TYPE_AICPU, 1);
  ABI_EQ(ACL_RT_HAC_TYPE_AIC, 2);
  ABI_EQ(ACL_RT_HAC_TYPE_AIV, 3);
  ABI_EQ(ACL_RT_HAC_TYPE_PCIEDMA, 4);
  ABI_EQ(ACL_RT_HAC_TYPE_RDMA, 5);
  ABI_EQ(ACL_RT_HAC_TYPE_SDMA, 6);
  ABI_EQ(ACL_RT_HAC_TYPE_DVPP, 7);
  ABI_EQ(ACL_RT_HAC_TYPE_UDMA, 8);
  ABI_EQ(ACL_RT_HAC_TYPE_CCU, 9);
  // aclrtHostMemMapCapability
  ABI_EQ(ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED, 0);
  ABI_EQ(ACL_RT_HOST_MEM_MAP_SUPPORTED, 1);
  // aclrtMemLinkType
  ABI_EQ(ACL_RT_MEM_ACCESS_LINK_SIO, 0);
  ABI_EQ(ACL_RT_MEM_ACCESS_LINK_HCCS, 1);
  ABI_EQ(ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH, 2);
  ABI_EQ(ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH, 3);
  // aclrtAtomicOperationCapability
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_SIGNED, 1);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_UNSIGNED, 2);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_REDUCATION, 4);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_REDUCTION, 4);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR8, 8);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR16, 16);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR32, 32);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR64, 64);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_SCALAR128, 128);
  ABI_EQ(ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4, 256);
  // aclrtAtomicOperation
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, 0);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_MIN, 1);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_MAX, 2);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT, 3);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT, 4);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_AND, 5);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_OR, 6);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_XOR, 7);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_EXCHANGE, 8);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_CAS, 9);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_FLOAT_ADD, 10);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_FLOAT_MIN, 11);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_FLOAT_MAX, 12);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_DMA_ADD, 30);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_DMA_MIN, 31);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_DMA_MAX, 32);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD, 40);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN, 41);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX, 42);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS, 43);
  ABI_EQ(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH, 44);
  // aclmdlRICondHandleFlag
  ABI_EQ(ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, 1);
  // aclmdlRICondTaskType
  ABI_EQ(ACL_MODEL_RI_COND_TYPE_IF, 0);
  ABI_EQ(ACL_MODEL_RI_COND_TYPE_WHILE, 1);
  ABI_EQ(ACL_MODEL_RI_COND_TYPE_SWITCH, 2);
  // aclrtDeviceLimit
  ABI_EQ(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 0);
  ABI_EQ(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, 1);
  ABI_EQ(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 2);
  ABI_EQ(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 3);
  ABI_EQ(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 4);
  // aclRegisterCallbackType
  ABI_EQ(ACL_REG_TYPE_ACL_MODEL, 0);
  ABI_EQ(ACL_REG_TYPE_ACL_OP_EXECUTOR, 1);
  ABI_EQ(ACL_REG_TYPE_ACL_OP_CBLAS, 2);
  ABI_EQ(ACL_REG_TYPE_ACL_OP_COMPILER, 3);
  ABI_EQ(ACL_REG_TYPE_ACL_TDT_CHANNEL, 4);
  ABI_EQ(ACL_REG_TYPE_ACL_TDT_QUEUE, 5);
  ABI_EQ(ACL_REG_TYPE_ACL_DVPP, 6);
  ABI_EQ(ACL_REG_TYPE_ACL_RETR, 7);
  ABI_EQ(ACL_REG_TYPE_OTHER, 65535);
  // aclrtProcessState
  ABI_EQ(ACL_RT_PROCESS_STATE_RUNNING, 0);
  ABI_EQ(ACL_RT_PROCESS_STATE_LOCKED, 1);
  // Launch-blocking mode values: the numbers are our choice (not published upstream).
  ABI_EQ(ACL_STREAM_LAUNCH_BLOCKING_MODE_CTRL_BY_ENV, 0);
  ABI_EQ(ACL_STREAM_LAUNCH_BLOCKING_MODE_NON_BLOCKING, 1);
  ABI_EQ(ACL_STREAM_LAUNCH_BLOCKING_MODE_BLOCKING, 2);
}

TEST(AbiLayoutTest, GeneralErrorCodes) {
  ABI_EQ(ACL_ERROR_NONE, 0);
  ABI_EQ(ACL_SUCCESS, 0);
  ABI_EQ(ACL_ERROR_INVALID_PARAM, 100000);
  ABI_EQ(ACL_ERROR_UNINITIALIZE, 100001);
  ABI_EQ(ACL_ERROR_REPEAT_INITIALIZE, 100002);
  ABI_EQ(ACL_ERROR_INVALID_FILE, 100003);
  ABI_EQ(ACL_ERROR_WRITE_FILE, 100004);
  ABI_EQ(ACL_ERROR_INVALID_FILE_SIZE, 100005);
  ABI_EQ(ACL_ERROR_PARSE_FILE, 100006);
  ABI_EQ(ACL_ERROR_FILE_MISSING_ATTR, 100007);
  ABI_EQ(ACL_ERROR_FILE_ATTR_INVALID, 100008);
  ABI_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, 100009);
  ABI_EQ(ACL_ERROR_INVALID_PROFILING_CONFIG, 100010);
  ABI_EQ(ACL_ERROR_INVALID_MODEL_ID, 100011);
  ABI_EQ(ACL_ERROR_DESERIALIZE_MODEL, 100012);
  ABI_EQ(ACL_ERROR_PARSE_MODEL, 100013);
  ABI_EQ(ACL_ERROR_READ_MODEL_FAILURE, 100014);
  ABI_EQ(ACL_ERROR_MODEL_SIZE_INVALID, 100015);
  ABI_EQ(ACL_ERROR_MODEL_MISSING_ATTR, 100016);
  ABI_EQ(ACL_ERROR_MODEL_INPUT_NOT_MATCH, 100017);
  ABI_EQ(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, 100018);
  ABI_EQ(ACL_ERROR_MODEL_NOT_DYNAMIC, 100019);
  ABI_EQ(ACL_ERROR_OP_TYPE_NOT_MATCH, 100020);
  ABI_EQ(ACL_ERROR_OP_INPUT_NOT_MATCH, 100021);
  ABI_EQ(ACL_ERROR_OP_OUTPUT_NOT_MATCH, 100022);
  ABI_EQ(ACL_ERROR_OP_ATTR_NOT_MATCH, 100023);
  ABI_EQ(ACL_ERROR_OP_NOT_FOUND, 100024);
  ABI_EQ(ACL_ERROR_OP_LOAD_FAILED, 100025);
  ABI_EQ(ACL_ERROR_UNSUPPORTED_DATA_TYPE, 100026);
  ABI_EQ(ACL_ERROR_FORMAT_NOT_MATCH, 100027);
  ABI_EQ(ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED, 100028);
  ABI_EQ(ACL_ERROR_KERNEL_NOT_FOUND, 100029);
  ABI_EQ(ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED, 100030);
  ABI_EQ(ACL_ERROR_KERNEL_ALREADY_REGISTERED, 100031);
  ABI_EQ(ACL_ERROR_INVALID_QUEUE_ID, 100032);
  ABI_EQ(ACL_ERROR_REPEAT_SUBSCRIBE, 100033);
  ABI_EQ(ACL_ERROR_STREAM_NOT_SUBSCRIBE, 100034);
  ABI_EQ(ACL_ERROR_THREAD_NOT_SUBSCRIBE, 100035);
  ABI_EQ(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, 100036);
  ABI_EQ(ACL_ERROR_REPEAT_FINALIZE, 100037);
  ABI_EQ(ACL_ERROR_NOT_STATIC_AIPP, 100038);
  ABI_EQ(ACL_ERROR_COMPILING_STUB_MODE, 100039);
  ABI_EQ(ACL_ERROR_GROUP_NOT_SET, 100040);
  ABI_EQ(ACL_ERROR_GROUP_NOT_CREATE, 100041);
  ABI_EQ(ACL_ERROR_PROF_ALREADY_RUN, 100042);
  ABI_EQ(ACL_ERROR_PROF_NOT_RUN, 100043);
  ABI_EQ(ACL_ERROR_DUMP_ALREADY_RUN, 100044);
  ABI_EQ(ACL_ERROR_DUMP_NOT_RUN, 100045);
  ABI_EQ(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, 148046);
  ABI_EQ(ACL_ERROR_PROF_API_CONFLICT, 148047);
  ABI_EQ(ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG, 148048);
  ABI_EQ(ACL_ERROR_INVALID_OPP_PATH, 148049);
  ABI_EQ(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, 148050);
  ABI_EQ(ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED, 148051);
  ABI_EQ(ACL_ERROR_UNSUPPORTED_JPEG, 148052);
  ABI_EQ(ACL_ERROR_INVALID_BUNDLE_MODEL_ID, 148053);
  ABI_EQ(ACL_ERROR_BAD_ALLOC, 200000);
  ABI_EQ(ACL_ERROR_API_NOT_SUPPORT, 200001);
  ABI_EQ(ACL_ERROR_INVALID_DEVICE, 200002);
  ABI_EQ(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, 200003);
  ABI_EQ(ACL_ERROR_RESOURCE_NOT_MATCH, 200004);
  ABI_EQ(ACL_ERROR_INVALID_RESOURCE_HANDLE, 200005);
  ABI_EQ(ACL_ERROR_FEATURE_UNSUPPORTED, 200006);
  ABI_EQ(ACL_ERROR_PROF_MODULES_UNSUPPORTED, 200007);
  ABI_EQ(ACL_ERROR_STORAGE_OVER_LIMIT, 300000);
  ABI_EQ(ACL_ERROR_INTERNAL_ERROR, 500000);
  ABI_EQ(ACL_ERROR_FAILURE, 500001);
  ABI_EQ(ACL_ERROR_GE_FAILURE, 500002);
  ABI_EQ(ACL_ERROR_RT_FAILURE, 500003);
  ABI_EQ(ACL_ERROR_DRV_FAILURE, 500004);
  ABI_EQ(ACL_ERROR_PROFILING_FAILURE, 500005);
}

TEST(AbiLayoutTest, RuntimeErrorCodes) {
  ABI_EQ(ACL_RT_SUCCESS, 0);
  ABI_EQ(ACL_ERROR_RT_PARAM_INVALID, 107000);
  ABI_EQ(ACL_ERROR_RT_INVALID_DEVICEID, 107001);
  ABI_EQ(ACL_ERROR_RT_CONTEXT_NULL, 107002);
  ABI_EQ(ACL_ERROR_RT_STREAM_CONTEXT, 107003);
  ABI_EQ(ACL_ERROR_RT_MODEL_CONTEXT, 107004);
  ABI_EQ(ACL_ERROR_RT_STREAM_MODEL, 107005);
  ABI_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, 107006);
  ABI_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL, 107007);
  ABI_EQ(ACL_ERROR_RT_ADDR_UNALIGNED, 107008);
  ABI_EQ(ACL_ERROR_RT_FILE_OPEN, 107009);
  ABI_EQ(ACL_ERROR_RT_FILE_WRITE, 107010);
  ABI_EQ(ACL_ERROR_RT_STREAM_SUBSCRIBE, 107011);
  ABI_EQ(ACL_ERROR_RT_THREAD_SUBSCRIBE, 107012);
  ABI_EQ(ACL_ERROR_RT_GROUP_NOT_SET, 107013);
  ABI_EQ(ACL_ERROR_RT_GROUP_NOT_CREATE, 107014);
  ABI_EQ(ACL_ERROR_RT_STREAM_NO_CB_REG, 107015);
  ABI_EQ(ACL_ERROR_RT_INVALID_MEMORY_TYPE, 107016);
  ABI_EQ(ACL_ERROR_RT_INVALID_HANDLE, 107017);
  ABI_EQ(ACL_ERROR_RT_INVALID_MALLOC_TYPE, 107018);
  ABI_EQ(ACL_ERROR_RT_WAIT_TIMEOUT, 107019);
  ABI_EQ(ACL_ERROR_RT_TASK_TIMEOUT, 107020);
  ABI_EQ(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, 107021);
  ABI_EQ(ACL_ERROR_RT_DEVICE_TASK_ABORT, 107022);
  ABI_EQ(ACL_ERROR_RT_STREAM_ABORT, 107023);
  ABI_EQ(ACL_ERROR_RT_CAPTURE_DEPENDENCY, 107024);
  ABI_EQ(ACL_ERROR_RT_STREAM_UNJOINED, 107025);
  ABI_EQ(ACL_ERROR_RT_MODEL_CAPTURED, 107026);
  ABI_EQ(ACL_ERROR_RT_STREAM_CAPTURED, 107027);
  ABI_EQ(ACL_ERROR_RT_EVENT_CAPTURED, 107028);
  ABI_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, 107029);
  ABI_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, 107030);
  ABI_EQ(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, 107031);
  ABI_EQ(ACL_ERROR_STREAM_CAPTURE_CONFLICT, 107032);
  ABI_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, 107033);
  ABI_EQ(ACL_ERROR_STREAM_TASK_GROUP_INTR, 107034);
  ABI_EQ(ACL_ERROR_RT_TASK_ABORT_STOP, 107035);
  ABI_EQ(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, 107036);
  ABI_EQ(ACL_ERROR_RT_MODEL_RUNNING, 107037);
  ABI_EQ(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, 107038);
  ABI_EQ(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, 107039);
  ABI_EQ(ACL_ERROR_RT_MODEL_UPDATE_FAILED, 107040);
  ABI_EQ(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, 107041);
  ABI_EQ(ACL_ERROR_RT_SYMBOL_NOT_FOUND, 107042);
  ABI_EQ(ACL_ERROR_RT_INVALID_SYMBOL, 107043);
  ABI_EQ(ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, 107044);
  ABI_EQ(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING, 107045);
  ABI_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000);
  ABI_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, 207001);
  ABI_EQ(ACL_ERROR_RT_MEMORY_FREE, 207002);
  ABI_EQ(ACL_ERROR_RT_AICORE_OVER_FLOW, 207003);
  ABI_EQ(ACL_ERROR_RT_NO_DEVICE, 207004);
  ABI_EQ(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, 207005);
  ABI_EQ(ACL_ERROR_RT_NO_PERMISSION, 207006);
  ABI_EQ(ACL_ERROR_RT_NO_EVENT_RESOURCE, 207007);
  ABI_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, 207008);
  ABI_EQ(ACL_ERROR_RT_NO_NOTIFY_RESOURCE, 207009);
  ABI_EQ(ACL_ERROR_RT_NO_MODEL_RESOURCE, 207010);
  ABI_EQ(ACL_ERROR_RT_NO_CDQ_RESOURCE, 207011);
  ABI_EQ(ACL_ERROR_RT_OVER_LIMIT, 207012);
  ABI_EQ(ACL_ERROR_RT_QUEUE_EMPTY, 207013);
  ABI_EQ(ACL_ERROR_RT_QUEUE_FULL, 207014);
  ABI_EQ(ACL_ERROR_RT_REPEATED_INIT, 207015);
  ABI_EQ(ACL_ERROR_RT_AIVEC_OVER_FLOW, 207016);
  ABI_EQ(ACL_ERROR_RT_OVER_FLOW, 207017);
  ABI_EQ(ACL_ERROR_RT_DEVICE_OOM, 207018);
  ABI_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP, 207019);
  ABI_EQ(ACL_ERROR_RT_TIMEOUT, 207020);
  ABI_EQ(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, 207021);
  ABI_EQ(ACL_ERROR_RT_INTERNAL_ERROR, 507000);
  ABI_EQ(ACL_ERROR_RT_TS_ERROR, 507001);
  ABI_EQ(ACL_ERROR_RT_STREAM_TASK_FULL, 507002);
  ABI_EQ(ACL_ERROR_RT_STREAM_TASK_EMPTY, 507003);
  ABI_EQ(ACL_ERROR_RT_STREAM_NOT_COMPLETE, 507004);
  ABI_EQ(ACL_ERROR_RT_END_OF_SEQUENCE, 507005);
  ABI_EQ(ACL_ERROR_RT_EVENT_NOT_COMPLETE, 507006);
  ABI_EQ(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, 507007);
  ABI_EQ(ACL_ERROR_RT_SOC_VERSION, 507008);
  ABI_EQ(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, 507009);
  ABI_EQ(ACL_ERROR_RT_LOST_HEARTBEAT, 507010);
  ABI_EQ(ACL_ERROR_RT_MODEL_EXECUTE, 507011);
  ABI_EQ(ACL_ERROR_RT_REPORT_TIMEOUT, 507012);
  ABI_EQ(ACL_ERROR_RT_SYS_DMA, 507013);
  ABI_EQ(ACL_ERROR_RT_AICORE_TIMEOUT, 507014);
  ABI_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, 507015);
  ABI_EQ(ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, 507016);
  ABI_EQ(ACL_ERROR_RT_AICPU_TIMEOUT, 507017);
  ABI_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, 507018);
  ABI_EQ(ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR, 507019);
  ABI_EQ(ACL_ERROR_RT_AICPU_MODEL_RSP_ERR, 507020);
  ABI_EQ(ACL_ERROR_RT_PROFILING_ERROR, 507021);
  ABI_EQ(ACL_ERROR_RT_IPC_ERROR, 507022);
  ABI_EQ(ACL_ERROR_RT_MODEL_ABORT_NORMAL, 507023);
  ABI_EQ(ACL_ERROR_RT_KERNEL_UNREGISTERING, 507024);
  ABI_EQ(ACL_ERROR_RT_RINGBUFFER_NOT_INIT, 507025);
  ABI_EQ(ACL_ERROR_RT_RINGBUFFER_NO_DATA, 507026);
  ABI_EQ(ACL_ERROR_RT_KERNEL_LOOKUP, 507027);
  ABI_EQ(ACL_ERROR_RT_KERNEL_DUPLICATE, 507028);
  ABI_EQ(ACL_ERROR_RT_DEBUG_REGISTER_FAIL, 507029);
  ABI_EQ(ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL, 507030);
  ABI_EQ(ACL_ERROR_RT_LABEL_CONTEXT, 507031);
  ABI_EQ(ACL_ERROR_RT_PROGRAM_USE_OUT, 507032);
  ABI_EQ(ACL_ERROR_RT_DEV_SETUP_ERROR, 507033);
  ABI_EQ(ACL_ERROR_RT_VECTOR_CORE_TIMEOUT, 507034);
  ABI_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, 507035);
  ABI_EQ(ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION, 507036);
  ABI_EQ(ACL_ERROR_RT_CDQ_BATCH_ABNORMAL, 507037);
  ABI_EQ(ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR, 507038);
  ABI_EQ(ACL_ERROR_RT_DIE_SET_ERROR, 507039);
  ABI_EQ(ACL_ERROR_RT_INVALID_DIEID, 507040);
  ABI_EQ(ACL_ERROR_RT_DIE_MODE_NOT_SET, 507041);
  ABI_EQ(ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW, 507042);
  ABI_EQ(ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW, 507043);
  ABI_EQ(ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW, 507044);
  ABI_EQ(ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW, 507045);
  ABI_EQ(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 507046);
  ABI_EQ(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, 507047);
  ABI_EQ(ACL_ERROR_RT_FFTS_PLUS_TIMEOUT, 507048);
  ABI_EQ(ACL_ERROR_RT_FFTS_PLUS_EXCEPTION, 507049);
  ABI_EQ(ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION, 507050);
  ABI_EQ(ACL_ERROR_RT_SEND_MSG, 507051);
  ABI_EQ(ACL_ERROR_RT_COPY_DATA, 507052);
  ABI_EQ(ACL_ERROR_RT_DEVICE_MEM_ERROR, 507053);
  ABI_EQ(ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR, 507054);
  ABI_EQ(ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR, 507055);
  ABI_EQ(ACL_ERROR_RT_LINK_ERROR, 507056);
  ABI_EQ(ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, 507057);
  ABI_EQ(ACL_ERROR_RT_DRV_INTERNAL_ERROR, 507899);
  ABI_EQ(ACL_ERROR_RT_AICPU_INTERNAL_ERROR, 507900);
  ABI_EQ(ACL_ERROR_RT_SOCKET_CLOSE, 507901);
  ABI_EQ(ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR, 507902);
  ABI_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, 507903);
  ABI_EQ(ACL_ERROR_RT_COMM_OP_RETRY_FAIL, 507904);
  ABI_EQ(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT, 507905);
  ABI_EQ(ACL_ERROR_SNAPSHOT_LOCK_FAILED, 507906);
  ABI_EQ(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, 507907);
  ABI_EQ(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, 507908);
  ABI_EQ(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, 507909);
  ABI_EQ(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 507910);
  ABI_EQ(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, 507911);
  ABI_EQ(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, 507912);
  ABI_EQ(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, 507913);
  ABI_EQ(ACL_ERROR_RT_L3_PORT_ERROR, 507914);
  ABI_EQ(ACL_ERROR_RT_CCU_TIMEOUT, 507915);
  ABI_EQ(ACL_ERROR_RT_CCU_EXCEPTION, 507916);
}

TEST(AbiLayoutTest, GraphEngineErrorCodes) {
  ABI_EQ(ACL_ERROR_GE_PARAM_INVALID, 145000);
  ABI_EQ(ACL_ERROR_GE_EXEC_NOT_INIT, 145001);
  ABI_EQ(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, 145002);
  ABI_EQ(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, 145003);
  ABI_EQ(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID, 145006);
  ABI_EQ(ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID, 145007);
  ABI_EQ(ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID, 145008);
  ABI_EQ(ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED, 145009);
  ABI_EQ(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID, 145011);
  ABI_EQ(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, 145012);
  ABI_EQ(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, 145013);
  ABI_EQ(ACL_ERROR_GE_AIPP_BATCH_EMPTY, 145014);
  ABI_EQ(ACL_ERROR_GE_AIPP_NOT_EXIST, 145015);
  ABI_EQ(ACL_ERROR_GE_AIPP_MODE_INVALID, 145016);
  ABI_EQ(ACL_ERROR_GE_OP_TASK_TYPE_INVALID, 145017);
  ABI_EQ(ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID, 145018);
  ABI_EQ(ACL_ERROR_GE_PLGMGR_PATH_INVALID, 145019);
  ABI_EQ(ACL_ERROR_GE_FORMAT_INVALID, 145020);
  ABI_EQ(ACL_ERROR_GE_SHAPE_INVALID, 145021);
  ABI_EQ(ACL_ERROR_GE_DATATYPE_INVALID, 145022);
  ABI_EQ(ACL_ERROR_GE_MEMORY_ALLOCATION, 245000);
  ABI_EQ(ACL_ERROR_GE_MEMORY_OPERATE_FAILED, 245001);
  ABI_EQ(ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED, 245002);
  ABI_EQ(ACL_ERROR_GE_SUBHEALTHY, 345102);
  ABI_EQ(ACL_ERROR_GE_USER_RAISE_EXCEPTION, 345103);
  ABI_EQ(ACL_ERROR_GE_DATA_NOT_ALIGNED, 345104);
  ABI_EQ(ACL_ERROR_GE_INTERNAL_ERROR, 545000);
  ABI_EQ(ACL_ERROR_GE_LOAD_MODEL, 545001);
  ABI_EQ(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED, 545002);
  ABI_EQ(ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED, 545003);
  ABI_EQ(ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED, 545004);
  ABI_EQ(ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED, 545005);
  ABI_EQ(ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA, 545006);
  ABI_EQ(ACL_ERROR_GE_COMMAND_HANDLE, 545007);
  ABI_EQ(ACL_ERROR_GE_GET_TENSOR_INFO, 545008);
  ABI_EQ(ACL_ERROR_GE_UNLOAD_MODEL, 545009);
  ABI_EQ(ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT, 545601);
  ABI_EQ(ACL_ERROR_GE_REDEPLOYING, 545602);
}

TEST(AbiLayoutTest, NumericMacros) {
  ABI_EQ(ACL_MAJOR_VERSION, 1);
  ABI_EQ(ACL_MINOR_VERSION, 17);
  ABI_EQ(ACL_PATCH_VERSION, 0);
  ABI_EQ(ACL_EVENT_SYNC, 1);
  ABI_EQ(ACL_EVENT_CAPTURE_STREAM_PROGRESS, 2);
  ABI_EQ(ACL_EVENT_TIME_LINE, 8);
  ABI_EQ(ACL_EVENT_DEVICE_USE_ONLY, 16);
  ABI_EQ(ACL_EVENT_EXTERNAL, 32);
  ABI_EQ(ACL_EVENT_IPC, 64);
  ABI_EQ(ACL_STREAM_FAST_LAUNCH, 1);
  ABI_EQ(ACL_STREAM_FAST_SYNC, 2);
  ABI_EQ(ACL_STREAM_PERSISTENT, 4);
  ABI_EQ(ACL_STREAM_HUGE, 8);
  ABI_EQ(ACL_STREAM_CPU_SCHEDULE, 16);
  ABI_EQ(ACL_STREAM_DEVICE_USE_ONLY, 32);
  ABI_EQ(ACL_STREAM_WAIT_VALUE_GEQ, 0);
  ABI_EQ(ACL_STREAM_WAIT_VALUE_EQ, 1);
  ABI_EQ(ACL_STREAM_WAIT_VALUE_AND, 2);
  ABI_EQ(ACL_STREAM_WAIT_VALUE_NOR, 3);
  ABI_EQ(ACL_CONTINUE_ON_FAILURE, 0);
  ABI_EQ(ACL_STOP_ON_FAILURE, 1);
  ABI_EQ(ACL_NOTIFY_DEFAULT, 0);
  ABI_EQ(ACL_NOTIFY_DEVICE_USE_ONLY, 1);
  ABI_EQ(ACL_DEV_FEATURE_SUPPORT, 1);
  ABI_EQ(ACL_DEV_FEATURE_NOT_SUPPORT, 0);
  ABI_EQ(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT, 0);
  ABI_EQ(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION, 2);
  ABI_EQ(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT, 0);
  ABI_EQ(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS, 2);
  ABI_EQ(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, 0);
  ABI_EQ(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, 1);
  ABI_EQ(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT, 0);
  ABI_EQ(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS, 1);
  ABI_EQ(ACL_RT_VMM_EXPORT_FLAG_DEFAULT, 0);
  ABI_EQ(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, 1);
  ABI_EQ(ACL_HOST_REG_MAPPED, 2);
  ABI_EQ(ACL_HOST_REG_IOMEMORY, 4);
  ABI_EQ(ACL_HOST_REG_READONLY, 8);
  ABI_EQ(ACL_HOST_REG_PINNED, 268435456);
  ABI_EQ(ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY, 0);
  ABI_EQ(ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE, 1);
  ABI_EQ(ACL_RT_MAX_RECORD_PA_NUM_PER_DEV, 20);
  ABI_EQ(ACL_IPC_EVENT_HANDLE_SIZE, 64);
  ABI_EQ(ACL_RT_MEM_ATTACH_GLOBAL, 1);
  ABI_EQ(ACL_RT_MEM_LINK_IDX_0, 0);
  ABI_EQ(ACL_RT_MEM_LINK_IDX_1, 1);
  ABI_EQ(ACL_HOST_DEVICE_CONNECT_TYPE_PCIE, 0);
  ABI_EQ(ACL_HOST_DEVICE_CONNECT_TYPE_HCCS, 1);
  ABI_EQ(ACL_HOST_DEVICE_CONNECT_TYPE_UB, 2);
  ABI_EQ(ACL_EVENT_RECORD_DEFAULT, 0);
  ABI_EQ(ACL_EVENT_RECORD_EXTERNAL, 1);
  ABI_EQ(ACL_EVENT_WAIT_DEFAULT, 0);
  ABI_EQ(ACL_EVENT_WAIT_EXTERNAL, 1);
  ABI_EQ(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO, 0);
  ABI_EQ(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS, 1);
  ABI_EQ(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH, 2);
  ABI_EQ(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH, 3);
  ABI_EQ(MAX_MEM_UCE_INFO_ARRAY_SIZE, 128);
  ABI_EQ(UCE_INFO_RESERVED_SIZE, 14);
  ABI_EQ(ACL_RT_MEM_UCE_INFO_MAX_NUM, 20);
  ABI_EQ(ACL_RT_BINARY_MAGIC_ELF_AICORE, 1129660997);
  ABI_EQ(ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, 1094799942);
  ABI_EQ(ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE, 1095320387);
  ABI_EQ(ACL_DEVICE_FORM_FACTOR_POD, 0);
  ABI_EQ(ACL_DEVICE_FORM_FACTOR_A_K, 1);
  ABI_EQ(ACL_DEVICE_FORM_FACTOR_A_X, 2);
  ABI_EQ(ACL_DEVICE_FORM_FACTOR_PCIE_CARD, 3);
  ABI_EQ(ACL_RT_CMO_MAX_BARRIER_NUM, 6);
  ABI_EQ(ACL_RT_DEVS_TOPOLOGY_HCCS, 1);
  ABI_EQ(ACL_RT_DEVS_TOPOLOGY_PIX, 2);
  ABI_EQ(ACL_RT_DEVS_TOPOLOGY_PIB, 4);
  ABI_EQ(ACL_RT_DEVS_TOPOLOGY_PHB, 8);
  ABI_EQ(ACL_RT_DEVS_TOPOLOGY_SYS, 16);
  ABI_EQ(ACL_RT_DEVS_TOPOLOGY_SIO, 32);
  ABI_EQ(ACL_RT_DEVS_TOPOLOGY_HCCS_SW, 64);
  ABI_EQ(ACL_RT_MEM_TYPE_DEV, 2);
  ABI_EQ(ACL_RT_MEM_TYPE_DVPP, 8);
  ABI_EQ(ACL_RT_MEM_TYPE_RSVD, 16);
  ABI_EQ(ACL_PKG_VERSION_MAX_SIZE, 128);
  ABI_EQ(ACL_PKG_VERSION_PARTS_MAX_SIZE, 64);
}

TEST(AbiLayoutTest, VersionMacros) {
  ABI_EQ(ACL_MAJOR_VERSION, 1);
  ABI_EQ(ACL_MINOR_VERSION, 17);
  ABI_EQ(ACL_PATCH_VERSION, 0);
}

TEST(AbiLayoutTest, Dim3DefaultsToOne) {
  constexpr dim3 all;
  static_assert(all.x == 1 && all.y == 1 && all.z == 1, "dim3 defaults");
  constexpr dim3 two(4, 2);
  static_assert(two.x == 4 && two.y == 2 && two.z == 1, "dim3 partial");
  EXPECT_EQ(two.z, 1u);
}
