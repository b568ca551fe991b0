// libascendc_runtime.so: the launch support CANN's AscendC toolchain links
// into the host code it generates (ascendc_runtime.h of asc-devkit), and
// which AscendC projects list among their libraries. CANN builds it over the
// ACL runtime; so does npud, over libacl_rt.so. npud's own toolchain (bisheng,
// ascendc.cmake) generates launches that do not need it: it is here for the
// projects that name it and the code that calls it.
//
// Results follow CANN's: 0 or the ACL error for the uint32_t functions.

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "client/toolkit/toolkit_log.h"

#define NPUD_ASCENDC_API extern "C" __attribute__((visibility("default")))

using rtStream_t = void*;
using rtFuncHandle = void*;

namespace {

// CANN's ElfType of RegisterAscendBinary: which cores the object's kernels
// run on.
constexpr uint32_t kElfVector = 1;
constexpr uint32_t kElfCube = 2;

aclError LoadBinary(const char* data, size_t size, uint32_t magic, bool lazy, void** handle) {
  aclrtBinaryLoadOption options[2] = {};
  options[0].type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  options[0].value.magic = magic;
  options[1].type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  options[1].value.isLazyLoad = 1;
  aclrtBinaryLoadOptions list = {options, lazy ? 2u : 1u};
  return aclrtBinaryLoadFromData(data, size, &list, handle);
}

// The family a SoC name belongs to (lower case, as the toolchain spells the
// SoC it compiled for); "" for a name outside the families CANN knows here.
std::string Family(std::string soc) {
  for (char& c : soc) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto starts = [&soc](const char* prefix) { return soc.rfind(prefix, 0) == 0; };
  if (starts("ascend910b") && soc.size() > 10) return "ascend910b";  // 910B1..4, B2C, B4-1
  if (starts("ascend910_93")) return "ascend910b";                   // the A3 SoCs
  if (starts("ascend910")) return "ascend910";
  if (starts("ascend310p")) return "ascend310p";
  if (starts("ascend310b")) return "ascend310b";
  if (starts("ascend950") || starts("ascend350")) return "ascend950";
  return "";
}

}  // namespace

NPUD_ASCENDC_API uint32_t AllocAscendMemDevice(void** devMem, uint64_t size) {
  return static_cast<uint32_t>(aclrtMalloc(devMem, size, ACL_MEM_MALLOC_HUGE_FIRST));
}

NPUD_ASCENDC_API uint32_t FreeAscendMemDevice(void* devMem) {
  return static_cast<uint32_t>(aclrtFree(devMem));
}

NPUD_ASCENDC_API uint32_t RegisterAscendBinary(const char* fileBuf, size_t fileSize, uint32_t type,
                                               void** handle) {
  uint32_t magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
  if (type == kElfVector) magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  if (type == kElfCube) magic = ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE;
  return static_cast<uint32_t>(LoadBinary(fileBuf, fileSize, magic, false, handle));
}

NPUD_ASCENDC_API int32_t AscendDevBinaryLazyRegister(const char* binBuf, size_t binSize,
                                                     void** handle) {
  return LoadBinary(binBuf, binSize, ACL_RT_BINARY_MAGIC_ELF_AICORE, true, handle);
}

NPUD_ASCENDC_API int UnregisterAscendBinary(void* hdl) { return aclrtBinaryUnLoad(hdl); }

NPUD_ASCENDC_API int32_t AscendGetFuncFromBinary(void* const binHandle, const char* kernelName,
                                                 void** funcHandle) {
  return aclrtBinaryGetFunction(binHandle, kernelName, funcHandle);
}

// The dynamic unified buffer size is a 950 launch attribute; on the 910B
// family npud simulates it does not exist, as in CANN.
NPUD_ASCENDC_API int32_t AscendLaunchKernelWithHostArgs(void* funcHandle, uint32_t numBlocks,
                                                        void* stream, void* hostArgs,
                                                        size_t argsSize,
                                                        uint32_t /*ubufDynamicSize*/) {
  return aclrtLaunchKernelWithHostArgs(funcHandle, numBlocks, stream, nullptr, hostArgs, argsSize,
                                       nullptr, 0);
}

NPUD_ASCENDC_API uint32_t LaunchAscendKernel(void* handle, const uint64_t key,
                                             const uint32_t numBlocks, void** args, uint32_t size,
                                             const rtStream_t stream) {
  aclrtFuncHandle function = nullptr;
  if (const aclError ret = aclrtBinaryGetFunctionByEntry(handle, key, &function);
      ret != ACL_SUCCESS) {
    return static_cast<uint32_t>(ret);
  }
  return static_cast<uint32_t>(
      aclrtLaunchKernelWithHostArgs(function, numBlocks, stream, nullptr, args, size, nullptr, 0));
}

NPUD_ASCENDC_API uint32_t GetAscendCoreSyncAddr(void** addr) {
  return static_cast<uint32_t>(aclrtGetHardwareSyncAddr(addr));
}

NPUD_ASCENDC_API uint32_t GetCoreNumForMixVectorCore(uint32_t* aiCoreNum, uint32_t* vectorCoreNum) {
  if (aiCoreNum == nullptr || vectorCoreNum == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
  int32_t device = 0;
  int64_t ai_core = 0;
  int64_t vector_core = 0;
  aclError ret = aclrtGetDevice(&device);
  if (ret == ACL_SUCCESS) ret = aclrtGetDeviceInfo(device, ACL_DEV_ATTR_AICORE_CORE_NUM, &ai_core);
  if (ret == ACL_SUCCESS) {
    ret = aclrtGetDeviceInfo(device, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vector_core);
  }
  if (ret != ACL_SUCCESS) return static_cast<uint32_t>(ret);
  *aiCoreNum = static_cast<uint32_t>(ai_core);
  *vectorCoreNum = static_cast<uint32_t>(vector_core);
  return 0;
}

// Whether kernels compiled for `socVersion` run on this device: the same SoC
// family. On a mismatch `errMsg` (1024 bytes, CANN's size) says why.
NPUD_ASCENDC_API bool AscendCheckSoCVersion(const char* socVersion, char* errMsg) {
  const char* current = aclrtGetSocName();
  if (socVersion == nullptr || current == nullptr) return false;
  const std::string compiled_family = Family(socVersion);
  if (!compiled_family.empty() && compiled_family == Family(current)) return true;
  if (errMsg != nullptr) {
    std::snprintf(errMsg, 1024,
                  "the soc version %s of the kernels does not match the device's soc version %s",
                  socVersion, current);
  }
  return false;
}

// Launch profiling: npud records every launch in its own timeline (aclprof*,
// NPUD_TRACE), so the toolchain's reports have nothing to add and the switch
// it polls stays off.
NPUD_ASCENDC_API bool GetAscendProfStatus() { return false; }
NPUD_ASCENDC_API void AscendProfRegister() {}
NPUD_ASCENDC_API void StartAscendProf(const char* /*name*/, uint64_t* /*startTime*/) {}
NPUD_ASCENDC_API void ReportAscendProf(const char* /*name*/, uint32_t /*numBlocks*/,
                                       uint32_t /*taskType*/, const uint64_t /*startTime*/) {}

// A kernel's metadata (core type, cross-core mode, mix ratio) is in the
// object's registration in npud, not readable through ACL.
NPUD_ASCENDC_API uint32_t AscendCFunctionGetMetaInfoKtype(const rtFuncHandle /*funcHandle*/,
                                                          unsigned int* /*kernelType*/) {
  npud::toolkit::ReportUnsupported("AscendCFunctionGetMetaInfoKtype");
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

NPUD_ASCENDC_API uint32_t AscendCFunctionGetMetaInfoCrossCoreType(const rtFuncHandle /*funcHandle*/,
                                                                  unsigned int* /*crossType*/) {
  npud::toolkit::ReportUnsupported("AscendCFunctionGetMetaInfoCrossCoreType");
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

NPUD_ASCENDC_API uint32_t AscendCFunctionGetMetaInfoCoreRation(const rtFuncHandle /*funcHandle*/,
                                                               unsigned short* /*aicRation*/,
                                                               unsigned short* /*aivRation*/) {
  npud::toolkit::ReportUnsupported("AscendCFunctionGetMetaInfoCoreRation");
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}
