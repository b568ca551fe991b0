// bisheng's function attributes as projects use them: in their own macros
// (CATLASS defines CATLASS_DEVICE and CATLASS_HOST_DEVICE so), on functions
// both halves of a .asc call.
#ifndef ASC_ATTRIBUTES_CORE_MACROS_H_
#define ASC_ATTRIBUTES_CORE_MACROS_H_

#include <cstdint>

#define TEST_DEVICE __forceinline__[aicore]
#define TEST_HOST_DEVICE __forceinline__[host, aicore]
#define TEST_GLOBAL __global__[aicore]

TEST_HOST_DEVICE constexpr uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

#endif  // ASC_ATTRIBUTES_CORE_MACROS_H_
