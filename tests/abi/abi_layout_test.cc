// Struct sizes, alignments and field offsets of the public ACL headers (see
// abi_check.h).

#include "tests/abi/abi_check.h"

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
