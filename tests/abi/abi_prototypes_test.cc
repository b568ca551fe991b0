// The exact CANN prototype of every exported function (see abi_check.h).

#include "tests/abi/abi_check.h"

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
