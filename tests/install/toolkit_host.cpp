// toolkit_host: what an AscendC project's host code uses of the install tree
// besides the ACL runtime, built by install_tree_test.sh against include/ and
// the tree's libraries only, and run against npud. Each figure the toolkit
// reports about the device must be what the runtime reports (whatever flags
// the daemon was started with); prints "toolkit: PASS" or the first mismatch.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "opdev/bfloat16.h"
#include "opdev/fp16_t.h"
#include "profiling/aprof_pub.h"
#include "securec.h"
#include "tiling/platform/platform_ascendc.h"

// What CANN's runtime/rt.h, ascend_hal.h, mmpa_api.h, ascendc_runtime.h and
// base/err_msg.h declare, which the tree does not install.
extern "C" {
int32_t rtGetSocVersion(char* ver, const uint32_t maxLen);
int32_t rtGetDeviceCount(int32_t* cnt);
int32_t rtGetDeviceInfo(uint32_t deviceId, int32_t moduleType, int32_t infoType, int64_t* val);
int32_t rtMalloc(void** devPtr, uint64_t size, uint32_t type, const uint16_t moduleId);
int32_t rtMemcpy(void* dst, uint64_t destMax, const void* src, uint64_t cnt, uint32_t kind);
int32_t rtFree(void* devPtr);
int32_t halGetSocVersion(uint32_t devId, char* socVersion, uint32_t len);
int32_t drvGetDevNum(uint32_t* num_dev);
int32_t halGetDeviceInfo(uint32_t devId, int32_t moduleType, int32_t infoType, int64_t* value);
int32_t mmGetPid();
int32_t mmGetEnv(const char* name, char* value, uint32_t len);
uint32_t GetCoreNumForMixVectorCore(uint32_t* aiCoreNum, uint32_t* vectorCoreNum);
bool AscendCheckSoCVersion(const char* socVersion, char* errMsg);
}
namespace error_message {
int32_t ReportUserDefinedErrMsg(const char* error_code, const char* format, ...);
std::unique_ptr<const char[]> GetErrMgrErrorMessage();
}  // namespace error_message

namespace {

int failures = 0;

void Check(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("toolkit: FAIL %s\n", what.c_str());
    ++failures;
  }
}

int64_t Attribute(aclrtDevAttr attr) {
  int64_t value = -1;
  Check(aclrtGetDeviceInfo(0, attr, &value) == ACL_SUCCESS, "aclrtGetDeviceInfo");
  return value;
}

void HalfTypes() {
  op::fp16_t a = 1.5f;
  op::fp16_t b(static_cast<uint16_t>(0x4000));  // raw bits: 2.0
  Check(static_cast<float>(a * b) == 3.0f, "fp16_t arithmetic");
  Check((a + b).val == 0x4300, "fp16_t bits of 3.5");
  op::fp16_t tenth;
  tenth = 0.1f;
  Check(tenth.val == 0x2E66, "fp16_t rounds 0.1 to nearest");
  Check(static_cast<int32_t>(op::fp16_t(2.5f)) == 2, "fp16_t to int rounds to even");
  op::bfloat16 bf = 3.14159f;
  Check(bf.value == 0x4049 && static_cast<float>(bf) == 3.140625f, "bfloat16 rounding");
  Check(static_cast<float>(op::fp16_t(bf)) == 3.140625f, "fp16_t from bfloat16");
}

void Securec() {
  char name[8];
  int number = 0;
  Check(sscanf_s("npu 7", "%s %d", name, sizeof(name), &number) == 2 && number == 7 &&
            std::strcmp(name, "npu") == 0,
        "sscanf_s");
  char small[3];
  Check(sscanf_s("toolong", "%s", small, sizeof(small)) == 0 && small[0] == '\0',
        "sscanf_s refuses a field longer than its buffer");
  char line[16];
  Check(snprintf_s(line, sizeof(line), sizeof(line) - 1, "%s-%d", "ai", 42) == 5, "snprintf_s");
  Check(memcpy_s(line, 2, "abc", 3) == ERANGE_AND_RESET, "memcpy_s bound");
}

void Platform() {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  Check(platform != nullptr, "PlatformAscendCManager::GetInstance");
  if (platform == nullptr) return;
  const int64_t cube = Attribute(ACL_DEV_ATTR_CUBE_CORE_NUM);
  const int64_t vector = Attribute(ACL_DEV_ATTR_VECTOR_CORE_NUM);
  Check(platform->GetCoreNumAic() == cube, "GetCoreNumAic is the device's cube cores");
  Check(platform->GetCoreNumAiv() == vector, "GetCoreNumAiv is the device's vector cores");
  Check(platform->GetCoreNum() == vector, "GetCoreNum is the vector cores on the 910B");
  uint64_t ub = 0;
  uint64_t hbm = 0;
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::HBM, hbm);
  Check(ub == static_cast<uint64_t>(Attribute(ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE)) - 256,
        "UB is the device's less CANN's 256 bytes");
  Check(hbm == static_cast<uint64_t>(Attribute(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE)), "HBM size");
  Check(platform->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B, "SoC family");
  Check(platform->CalcTschNumBlocks(static_cast<uint32_t>(vector), static_cast<uint32_t>(cube),
                                    static_cast<uint32_t>(vector)) == cube,
        "CalcTschNumBlocks of a mix launch");
  Check(platform->GetLibApiWorkSpaceSize() == 16u << 20, "system workspace");
  Check(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P3") == nullptr,
        "a SoC npud does not simulate");
}

void Libraries() {
  Check(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  const std::string soc = aclrtGetSocName();
  char name[64];
  Check(rtGetSocVersion(name, sizeof(name)) == 0 && soc == name, "rtGetSocVersion");
  Check(halGetSocVersion(0, name, sizeof(name)) == 0 && soc == name, "halGetSocVersion");
  uint32_t count = 0;
  int32_t rt_count = 0;
  Check(aclrtGetDeviceCount(&count) == ACL_SUCCESS, "aclrtGetDeviceCount");
  Check(drvGetDevNum(&count) == 0 && rtGetDeviceCount(&rt_count) == 0 &&
            static_cast<uint32_t>(rt_count) == count,
        "device counts");
  int64_t value = 0;
  Check(rtGetDeviceInfo(0, 4 /*AICORE*/, 3 /*CORE_NUM*/, &value) == 0 &&
            value == Attribute(ACL_DEV_ATTR_AICORE_CORE_NUM),
        "rtGetDeviceInfo");
  Check(halGetDeviceInfo(0, 7 /*VECTOR_CORE*/, 3, &value) == 0 &&
            value == Attribute(ACL_DEV_ATTR_VECTOR_CORE_NUM),
        "halGetDeviceInfo");
  Check(halGetDeviceInfo(0, 6 /*PCIE*/, 3, &value) == 0xfffe, "halGetDeviceInfo not supported");
  uint32_t aic = 0;
  uint32_t aiv = 0;
  Check(
      GetCoreNumForMixVectorCore(&aic, &aiv) == 0 && aic == Attribute(ACL_DEV_ATTR_AICORE_CORE_NUM),
      "GetCoreNumForMixVectorCore");
  char why[1024] = "";
  Check(AscendCheckSoCVersion("ascend910b1", why), "kernels for the 910B family run");
  Check(!AscendCheckSoCVersion("ascend310p3", why) && std::strstr(why, "ascend310p3") != nullptr,
        "kernels for the 310P do not");
  // Device memory through the runtime API.
  void* device = nullptr;
  const char text[] = "through rt*";
  char back[sizeof(text)] = "";
  Check(rtMalloc(&device, sizeof(text), 2 /*HBM*/, 0) == 0, "rtMalloc");
  Check(rtMemcpy(device, sizeof(text), text, sizeof(text), 1) == 0, "rtMemcpy to the device");
  Check(rtMemcpy(back, sizeof(back), device, sizeof(text), 2) == 0 && std::strcmp(back, text) == 0,
        "rtMemcpy back");
  Check(rtFree(device) == 0, "rtFree");
  // The portability layer and the error reports.
  Check(mmGetPid() == getpid(), "mmGetPid");
  char home[4096];
  Check(mmGetEnv("ASCEND_HOME_PATH", home, sizeof(home)) == 0 && home[0] == '/', "mmGetEnv");
  error_message::ReportUserDefinedErrMsg("E99999", "tile %d does not fit", 3);
  const auto reported = error_message::GetErrMgrErrorMessage();
  Check(reported != nullptr && std::strstr(reported.get(), "tile 3 does not fit") != nullptr,
        "error_message reports");
}

void Profiling() {
  const uint64_t id = MsprofStr2Id("add_custom", 10);
  Check(id != 0 && MsprofId2Str(id) != nullptr && std::strcmp(MsprofId2Str(id), "add_custom") == 0,
        "MsprofStr2Id / MsprofId2Str");
  Check(MsprofSysCycleTime() != 0, "MsprofSysCycleTime");
  MsprofApi api{};
  // Not simulated: the code, and one log line for both calls (the test checks stderr).
  Check(MsprofReportApi(1, &api) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "MsprofReportApi");
  Check(MsprofReportApi(1, &api) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "MsprofReportApi again");
}

}  // namespace

int main() {
  HalfTypes();
  Securec();
  Platform();
  Libraries();
  Profiling();
  if (failures == 0) std::printf("toolkit: PASS\n");
  return failures == 0 ? 0 : 1;
}
