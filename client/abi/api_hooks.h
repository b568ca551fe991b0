// api_hooks.h
//
// The replaceable ACL functions (aclrtApiInjectionSetFunc): every aclrt* and
// aclmdlRI* function npud implements has an entry here, defined by the
// generated entry points (tools/gen_abi.py). Its exported definition calls
// the entry's hook when one is set, else its original; the original stays
// callable (aclrtApiInjectionGetFunc hands it out), so a hook can wrap it.

#ifndef NPUD_CLIENT_ABI_API_HOOKS_H_
#define NPUD_CLIENT_ABI_API_HOOKS_H_

#include <atomic>
#include <cstddef>

namespace npud::client {

// aclrtApiFunc: any function, called only after a cast to its real type.
using ApiFunction = void (*)();

struct ApiHook {
  const char* name;
  // The replacement, or null for the original.
  std::atomic<ApiFunction> current;
};

extern ApiHook kApiHooks[];
// kApiOrigins[i]: the original of kApiHooks[i].
extern const ApiFunction kApiOrigins[];
extern const size_t kApiHookCount;

}  // namespace npud::client

#endif  // NPUD_CLIENT_ABI_API_HOOKS_H_
