// visibility.h: NPUD_ASCENDC_HIDDEN marks the library's stateful symbols (thread-local
// block state, the kernel registry) hidden even when a kernel object is compiled with
// default visibility, so each kernel shared object keeps its own copy: never exported,
// never interposed, never merged across objects as STB_GNU_UNIQUE.
//
// Types and stateless inline functions keep the build's visibility: user classes that
// hold a TPipe or a LocalTensor must not end up with more visibility than their
// members (g++ rejects that under -Werror). With the kernel compile options
// (npud_ascendc_options.cmake: -fvisibility=hidden -fvisibility-inlines-hidden) they
// are hidden as well and the object exports only npud_kernel_table.
#ifndef NPUD_ASCENDC_VISIBILITY_H_
#define NPUD_ASCENDC_VISIBILITY_H_

// CANN's CPU-debug layout (tikicpulib.h) puts the kernels in a shared library and
// ICPU_RUN_KF in the program that loads it, and both must see one block state: that
// build defines NPUD_ASCENDC_SHARED_STATE (tikicpulib-config.cmake does), which leaves
// these symbols at the build's (default) visibility, merged across the two.
#ifdef NPUD_ASCENDC_SHARED_STATE
#define NPUD_ASCENDC_HIDDEN
#else
#define NPUD_ASCENDC_HIDDEN __attribute__((visibility("hidden")))
#endif

#endif  // NPUD_ASCENDC_VISIBILITY_H_
