/*
 * Links a C program against libacl_rt.so: each entry point below is taken by address
 * through a pointer of its exact prototype, so the link fails if a symbol is not
 * exported and the build fails if a declaration changes type. Nothing is called.
 */
#include <stdio.h>

#include "acl/acl.h"

int main(void) {
  aclError (*init)(const char*) = aclInit;
  aclError (*finalize)(void) = aclFinalize;
  const char* (*socName)(void) = aclrtGetSocName;
  aclError (*setDevice)(int32_t) = aclrtSetDevice;
  aclError (*createStream)(aclrtStream*) = aclrtCreateStream;
  aclError (*deviceMalloc)(void**, size_t, aclrtMemMallocPolicy) = aclrtMalloc;
  aclError (*memcpySync)(void*, size_t, const void*, size_t, aclrtMemcpyKind) = aclrtMemcpy;
  float (*halfToFloat)(aclFloat16) = aclFloat16ToFloat;
  void (*appLog)(aclLogLevel, const char*, const char*, uint32_t, const char*, ...) = aclAppLog;
  aclrtAllocatorDesc (*createDesc)(void) = aclrtAllocatorCreateDesc;
  aclrtBinary (*createBinary)(const void*, size_t) = aclrtCreateBinary;
  aclError (*launchKernel)(aclrtFuncHandle, uint32_t, const void*, size_t, aclrtStream) =
      aclrtLaunchKernel;
  aclError (*injectSet)(const char*, aclrtApiFunc) = aclrtApiInjectionSetFunc;

  /* Print through volatile reads so none of the references can be dropped. */
  void (*const volatile entries[])(void) = {
      (void (*)(void))init,       (void (*)(void))finalize,     (void (*)(void))socName,
      (void (*)(void))setDevice,  (void (*)(void))createStream, (void (*)(void))deviceMalloc,
      (void (*)(void))memcpySync, (void (*)(void))halfToFloat,  (void (*)(void))appLog,
      (void (*)(void))createDesc, (void (*)(void))createBinary, (void (*)(void))launchKernel,
      (void (*)(void))injectSet,
  };
  size_t missing = 0;
  for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); ++i) {
    if (entries[i] == NULL) {
      ++missing;
    }
  }
  printf("abi_link_c: %zu entry points resolved, %zu missing\n",
         sizeof(entries) / sizeof(entries[0]) - missing, missing);
  return missing == 0 ? 0 : 1;
}
