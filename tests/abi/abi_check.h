// abi_check.h
//
// The checks of the ABI layout tests (abi_*_test.cc), written from the
// reference facts (sections 3-8 of acl_types.md and its "additions from newer
// upstream" section), never regenerated from the headers themselves. Every
// number is what CANN's own headers produce on LP64 Linux, so a failure means
// our headers no longer match CANN's ABI.
//
// Each value check is made twice: as a static_assert (a broken ABI does not
// even build) and as a gtest expectation (the test report lists what was
// checked).

#ifndef NPUD_TESTS_ABI_ABI_CHECK_H_
#define NPUD_TESTS_ABI_ABI_CHECK_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "acl/acl.h"
#include "acl/acl_rt_api.h"

// Deprecated enumerators and members are part of the ABI and are checked too.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define ABI_EQ(expr, expected)                                        \
  do {                                                                \
    static_assert(static_cast<long long>(expr) == (expected), #expr); \
    EXPECT_EQ(static_cast<long long>(expr), (expected)) << #expr;     \
  } while (0)

#define ABI_SAME(a, b) static_assert(std::is_same<a, b>::value, #a " is " #b)

#define FIELD_SIZE(type, member) sizeof(static_cast<type*>(nullptr)->member)

#endif  // NPUD_TESTS_ABI_ABI_CHECK_H_
