// Found through ascendc_include_directories(misc_kernels PRIVATE kernels/include).
#ifndef TOOLCHAIN_TEST_MISC_HELPER_H_
#define TOOLCHAIN_TEST_MISC_HELPER_H_

#include <cstdint>

inline int32_t MiscNegate(int32_t v) { return -v; }

#endif  // TOOLCHAIN_TEST_MISC_HELPER_H_
