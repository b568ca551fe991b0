/*
 * Run-time compilation of AscendC kernels (aclrtc), as in asc-devkit's
 * acl/acl_rt_compile.h. A program is created from a kernel source (and
 * optional headers), compiled with compiler options, and yields a kernel
 * binary for aclrtBinaryLoadFromData plus a compile log.
 *
 * With npud the compiler runs in the npud daemon, so programs compile on
 * machines without any compiler; the functions live in libacl_rt.so, and
 * libacl_rtc.so is the same library under its CANN name.
 *
 * Results: ACL_SUCCESS (0) or one of the RTC error codes, which no header
 * declares (CANN's values, returned as plain numbers):
 *   176000 invalid program handle        176001 invalid input
 *   176002 invalid option                176003 compilation failed (see the log)
 *   176004 link error                    176005 name expression added after compilation
 *   176006 lowered name asked for before compilation
 *   176007 name expression not valid     276000 program creation failed
 *   276001 out of memory                 576000 internal failure
 *
 * Include as "acl/acl_rt_compile.h"; it may be combined with "acl/acl.h" in
 * either order (the aclError typedef is the same in both).
 */
#ifndef ASCENDC_ACL_RT_COMPILE_H
#define ASCENDC_ACL_RT_COMPILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Also declared by acl_base_rt.h; C11 and C++ accept an identical repeat, the
 * guard keeps it to one declaration when acl_base_rt.h came first. */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_RT_H_
typedef int aclError;
#endif

/* A program made by aclrtcCreateProg, valid until aclrtcDestroyProg. */
typedef void* aclrtcProg;

/*
 * Creates a program from the NUL-terminated kernel source `src`. `name` is the
 * source's file name in diagnostics ("default_program" when NULL or empty).
 * `numHeaders` headers are passed by content (`headers[i]`) and found by
 * `#include "includeNames[i]"`; names are relative paths and may contain
 * subdirectories. Stores the program in *prog.
 */
aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name, int numHeaders,
                          const char** headers, const char** includeNames);

/*
 * Compiles the program with `numOptions` compiler options (-D, -U, -I<relative
 * dir>, -O0..-O3, -g, -std=c++17/c++20, -w, -Wall, -Werror; --npu-arch and
 * --cce-* options are accepted and ignored). On a compile error the result is
 * 176003 and the log tells why. A program may be compiled again.
 */
aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options);

/*
 * Registers a name expression (a kernel's name) before compilation; after
 * compilation aclrtcGetLoweredName gives the symbol to look the kernel up by.
 */
aclError aclrtcAddNameExpr(aclrtcProg prog, const char* const nameExpression);

/*
 * The lowered (symbol) name of a name expression registered with
 * aclrtcAddNameExpr, for aclrtBinaryGetFunction. The string belongs to the
 * program and lives until aclrtcDestroyProg.
 */
aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression, const char** loweredName);

/* Destroys the program and sets *prog to NULL. */
aclError aclrtcDestroyProg(aclrtcProg* prog);

/* Copies the kernel binary (aclrtcGetBinDataSize bytes) to binData. */
aclError aclrtcGetBinData(aclrtcProg prog, char* binData);

/* The size of the kernel binary in bytes (0 before a successful compilation). */
aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet);

/* The size of the compile log in bytes, including its terminating NUL. */
aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet);

/* Copies the compile log, NUL-terminated (aclrtcGetCompileLogSize bytes), to log. */
aclError aclrtcGetCompileLog(aclrtcProg prog, char* log);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDC_ACL_RT_COMPILE_H */
