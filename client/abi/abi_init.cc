// ACL initialization, version and platform entry points.

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/init_callbacks.h"
#include "client/core/platform_info.h"
#include "client/core/runtime.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::Result;
using npud::client::ResultInto;
using npud::client::Runtime;
using npud::client::Unrecorded;

namespace {

void CopyString(char* dst, size_t capacity, const char* src) {
  std::strncpy(dst, src, capacity - 1);
  dst[capacity - 1] = '\0';
}

// Copies the version of `package` to `out` (`capacity` bytes), cut short if need be.
absl::Status CopyVersion(const char* package, char* out, size_t capacity) {
  NPUD_ASSIGN_OR_RETURN(const std::string version, npud::client::PackageVersion(package));
  CopyString(out, capacity, version.c_str());
  return absl::OkStatus();
}

absl::StatusOr<int32_t> VersionNumberOf(const char* package) {
  NPUD_ASSIGN_OR_RETURN(const std::string version, npud::client::PackageVersion(package));
  return npud::client::VersionNumber(version);
}

// Fills *out with the version of `package`, whole and split at its dots.
absl::Status DescribeVersion(const char* package, aclCANNPackageVersion* out) {
  NPUD_ASSIGN_OR_RETURN(const std::string text, npud::client::PackageVersion(package));
  std::memset(out, 0, sizeof(*out));
  CopyString(out->version, sizeof(out->version), text.c_str());
  const std::vector<std::string> parts = absl::StrSplit(text, absl::MaxSplits('.', 3));
  char* const fields[] = {out->majorVersion, out->minorVersion, out->releaseVersion,
                          out->patchVersion};
  for (size_t i = 0; i < parts.size() && i < 4; ++i) {
    CopyString(fields[i], ACL_PKG_VERSION_PARTS_MAX_SIZE, parts[i].c_str());
  }
  return absl::OkStatus();
}

}  // namespace

namespace npud::abi_impl {

aclError aclInit(const char* configPath) {
  return Result(Runtime::Get().Init(configPath), __func__);
}

aclError aclFinalize(void) { return Result(Runtime::Get().Finalize(), __func__); }

// CANN's callback manager answers without recording a last error.
aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                 void* userData) {
  NPUD_REQUIRE_NOT_NULL(cbFunc);
  return Unrecorded(client::RegisterInitCallback(type, reinterpret_cast<uintptr_t>(cbFunc),
                                                 [cbFunc, userData](const std::string& config) {
                                                   return cbFunc(config.c_str(), config.size(),
                                                                 userData);
                                                 }),
                    __func__);
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
  NPUD_REQUIRE_NOT_NULL(cbFunc);
  return Unrecorded(client::UnregisterInitCallback(type, reinterpret_cast<uintptr_t>(cbFunc)),
                    __func__);
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                     void* userData) {
  NPUD_REQUIRE_NOT_NULL(cbFunc);
  return Unrecorded(
      client::RegisterFinalizeCallback(type, reinterpret_cast<uintptr_t>(cbFunc),
                                       [cbFunc, userData] { return cbFunc(userData); }),
      __func__);
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                       aclFinalizeCallbackFunc cbFunc) {
  NPUD_REQUIRE_NOT_NULL(cbFunc);
  return Unrecorded(client::UnregisterFinalizeCallback(type, reinterpret_cast<uintptr_t>(cbFunc)),
                    __func__);
}

aclError aclFinalizeReference(uint64_t* refCount) {
  absl::StatusOr<uint64_t> left = Runtime::Get().FinalizeReference();
  if (refCount == nullptr) return Result(left.status(), __func__);  // refCount is optional
  return ResultInto(std::move(left), refCount, __func__);
}

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
  NPUD_REQUIRE_NOT_NULL(versionStr);
  NPUD_REQUIRE_NOT_NULL(pkgName);
  return Result(CopyVersion(pkgName, versionStr, ACL_PKG_VERSION_MAX_SIZE), __func__);
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  NPUD_REQUIRE_NOT_NULL(versionNum);
  NPUD_REQUIRE_NOT_NULL(pkgName);
  return ResultInto(VersionNumberOf(pkgName), versionNum, __func__);
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
  NPUD_REQUIRE_NOT_NULL(version);
  static const char* const kPackages[] = {"cann",    "runtime", "compiler",   "hccl",
                                          "toolkit", "opp",     "opp_kernel", "driver"};
  if (name < ACL_PKG_NAME_CANN || name > ACL_PKG_NAME_DRIVER) {
    return Result(npud::AclError(npud::kAclInvalidParam, "unknown CANN package name"), __func__);
  }
  return Result(DescribeVersion(kPackages[name], version), __func__);
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  NPUD_REQUIRE_NOT_NULL(majorVersion);
  NPUD_REQUIRE_NOT_NULL(minorVersion);
  NPUD_REQUIRE_NOT_NULL(patchVersion);
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  NPUD_REQUIRE_NOT_NULL(cannAttrList);
  NPUD_REQUIRE_NOT_NULL(num);
  static const aclCannAttr kAttributes[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16,
                                            ACL_CANN_ATTR_JIT_COMPILE};
  *cannAttrList = kAttributes;
  *num = sizeof(kAttributes) / sizeof(kAttributes[0]);
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  switch (cannAttr) {
    case ACL_CANN_ATTR_INF_NAN:
    case ACL_CANN_ATTR_BF16:
      *value = 1;
      return ACL_SUCCESS;
    case ACL_CANN_ATTR_JIT_COMPILE:
      *value = 0;  // Operators are not compiled at run time.
      return ACL_SUCCESS;
    default:
      return Result(npud::AclError(npud::kAclInvalidParam, "unknown aclCannAttr"), __func__);
  }
}

const char* aclrtGetSocName(void) {
  // Asked once; the string must stay valid for the life of the process.
  static absl::Mutex mu(absl::kConstInit);
  static std::string* name = nullptr;
  absl::MutexLock lock(&mu);
  if (name == nullptr) name = new std::string(Runtime::Get().SocName());
  return name->c_str();
}

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
  if (socVersion == nullptr || canCompatible == nullptr || *socVersion == '\0') {
    return Result(
        npud::AclError(npud::kRtParamInvalid, "socVersion and canCompatible are required"),
        __func__);
  }
  const int theirs = npud::client::NpuArchOf(socVersion);
  if (theirs == 0) {
    return Result(
        npud::AclError(npud::kRtParamInvalid, std::string("unknown SoC version ") + socVersion),
        __func__);
  }
  *canCompatible = theirs == npud::client::NpuArchOf(aclrtGetSocName()) ? 1 : 0;
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
