// e2e_kernel_args.h
//
// The packed arguments of e2e_kernels' kernels, as tests pass them to
// aclrtLaunchKernelWithHostArgs.

#ifndef NPUD_TESTS_E2E_KERNELS_E2E_KERNEL_ARGS_H_
#define NPUD_TESTS_E2E_KERNELS_E2E_KERNEL_ARGS_H_

#include <cstdint>

namespace npud::testing {

// add_float: z[i] = x[i] + y[i] for i < n, the blocks sharing the work.
struct AddFloatArgs {
  float* x;
  float* y;
  float* z;
  uint32_t n;
};

}  // namespace npud::testing

#endif  // NPUD_TESTS_E2E_KERNELS_E2E_KERNEL_ARGS_H_
