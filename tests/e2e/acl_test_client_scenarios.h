// acl_test_client_scenarios.h
//
// The scenarios of acl_test_client (acl_test_client.cc says what each does)
// that live in files of their own, and the helpers they share.

#ifndef NPUD_TESTS_E2E_ACL_TEST_CLIENT_SCENARIOS_H_
#define NPUD_TESTS_E2E_ACL_TEST_CLIENT_SCENARIOS_H_

#include <cstddef>
#include <cstdint>

#include "acl/acl.h"

namespace npud::test_client {

// Sets device 0, creates *stream and finds kernel `name` of the kernel
// object file `kernels`.
bool OpenKernel(const char* kernels, const char* name, aclrtStream* stream,
                aclrtFuncHandle* function);

// acl_test_client_sharing.cc: memory, events and notifies shared between
// processes.
int Export(size_t bytes, uint64_t flags, bool physical, const char* spin_kernels = nullptr,
           uint32_t spin_ms = 0);
int Import(const char* key, size_t bytes, bool physical);
int ExportPart(size_t bytes);
int Ring(int count, int index, int ms);
int EventProducer(size_t bytes);
int EventConsumer(const char* memory_key, const char* event_key);
int NotifyWaiter(int32_t device, uint64_t flags);
int NotifyRecorder(const char* key, int32_t device);

// acl_test_client_compute.cc: one session's kernels against another's.
int Hog(const char* kernels, uint32_t blocks, uint32_t kilo_rounds, double seconds);
int Victim(const char* kernels, double seconds);
// THREADS threads compiling programs of their own (aclrtc) back to back.
int CompileHog(int threads, double seconds);

}  // namespace npud::test_client

#endif  // NPUD_TESTS_E2E_ACL_TEST_CLIENT_SCENARIOS_H_
