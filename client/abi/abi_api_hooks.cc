// aclrtApiInjectionSetFunc / GetFunc: replacing ACL functions at run time
// (client/abi/api_hooks.h).

#include <cstring>
#include <optional>
#include <string>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/abi/api_hooks.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;

namespace {

// The index of `name` in kApiHooks.
std::optional<size_t> FindHook(const char* name) {
  for (size_t i = 0; i < npud::client::kApiHookCount; ++i) {
    if (std::strcmp(npud::client::kApiHooks[i].name, name) == 0) return i;
  }
  return std::nullopt;
}

aclError NotHookable(const char* name, const char* function) {
  return Result(
      npud::AclError(npud::kAclInvalidParam,
                     std::string(name) + " is not a function npud lets replace (the aclrt* and "
                                         "aclmdlRI* functions it implements)"),
      function);
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtApiInjectionSetFunc(const char* name, aclrtApiFunc func) {
  NPUD_REQUIRE_NOT_NULL(name);
  NPUD_REQUIRE_NOT_NULL(func);
  const std::optional<size_t> index = FindHook(name);
  if (!index) return NotHookable(name, __func__);
  // Setting the original back removes the hook.
  const npud::client::ApiFunction hook = func == npud::client::kApiOrigins[*index] ? nullptr : func;
  npud::client::kApiHooks[*index].current.store(hook, std::memory_order_release);
  return ACL_SUCCESS;
}

aclError aclrtApiInjectionGetFunc(const char* name, aclrtApiFunc* originFunc,
                                  aclrtApiFunc* currentFunc) {
  NPUD_REQUIRE_NOT_NULL(name);
  NPUD_REQUIRE_NOT_NULL(originFunc);
  NPUD_REQUIRE_NOT_NULL(currentFunc);
  const std::optional<size_t> index = FindHook(name);
  if (!index) return NotHookable(name, __func__);
  const npud::client::ApiFunction origin = npud::client::kApiOrigins[*index];
  const npud::client::ApiFunction hook =
      npud::client::kApiHooks[*index].current.load(std::memory_order_acquire);
  *originFunc = origin;
  *currentFunc = hook != nullptr ? hook : origin;
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
