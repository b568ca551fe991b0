// Types of the public ACL headers: handle and scalar typedefs, function
// pointer typedefs, the field types of every struct and union, and the size
// and signedness of enumerations (see abi_check.h).

#include "tests/abi/abi_check.h"

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

}  // namespace
