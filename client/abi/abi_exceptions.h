// abi_exceptions.h
//
// What an exported ACL function answers when its implementation threw. No
// C++ exception may unwind into a C caller, so every entry point that
// tools/gen_abi.py generates calls its implementation inside
// `try { ... } catch (...)` and returns one of these from the handler.
// An allocation failure (std::bad_alloc) is told apart from anything else.
//
// Call them only from inside a catch block: they look at the exception
// being handled. They never throw; when not even the message can be built
// (memory is exhausted), they still return the code.

#ifndef NPUD_CLIENT_ABI_ABI_EXCEPTIONS_H_
#define NPUD_CLIENT_ABI_ABI_EXCEPTIONS_H_

#include "acl/acl.h"

namespace npud::client {

// For functions returning aclError: ACL_ERROR_BAD_ALLOC or
// ACL_ERROR_INTERNAL_ERROR, recorded and reported like any failure (Result).
aclError ExceptionResult(const char* function) noexcept;

// For the functions of acl_rt_compile.h: the RTC codes 276001 (out of
// memory) or 576000 (internal failure), reported like RtcResult.
aclError RtcExceptionResult(const char* function) noexcept;

// For functions that cannot return an error (they return a null or zero
// value): keeps the message for aclGetRecentErrMsg and logs it.
void ReportException(const char* function) noexcept;

}  // namespace npud::client

#endif  // NPUD_CLIENT_ABI_ABI_EXCEPTIONS_H_
