/*
 * npud_kernel_abi.h: the binary contract between the npud kernel executor (in the
 * daemon) and a kernel shared object built from AscendC sources against this header
 * library. Plain C, usable from C11 and C++.
 *
 * A kernel shared object exports npud_kernel_table and npud_kernel_params (C linkage,
 * default visibility); everything else in it is hidden, so any number of kernel
 * objects can be loaded into one process without symbol clashes. The executor
 * dlopen()s the object, dlsym()s NPUD_KERNEL_TABLE_SYMBOL, and runs an entry once
 * per block, each block with its own NpudBlockContext and stack; a block that waits
 * (NpudBlockContext.wait) may be resumed on another thread.
 *
 * Arguments: a kernel `void k(P1 a, P2 b, ...)` receives its arguments packed like a
 * C struct { P1 a; P2 b; ... } with natural alignment (pointers are 8 bytes); the
 * packed size is that struct's sizeof, and 0 for a kernel without parameters.
 * npud_kernel_args.h computes and produces this layout in C++.
 *
 * Unwinding contract for trap(): the executor's trap callback must not return. It
 * must leave the block by THROWING A C++ EXCEPTION (any type the executor owns, caught
 * by the executor around its call of the entry). Kernel frames hold objects with
 * destructors (the entry's block-state guard, TPipe pools), so longjmp is NOT
 * supported. Kernel objects are therefore compiled as C++ with exceptions enabled
 * (never -fno-exceptions) and with unwind tables, which is g++'s default; the entry
 * is not noexcept. The message pointer passed to trap() is only valid during the
 * call: copy it before throwing. Should trap() return anyway, the kernel calls
 * abort().
 */
#ifndef NPUD_KERNEL_ABI_H_
#define NPUD_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#define NPUD_KERNEL_ABI_VERSION 1

/* NpudBlockContext.core_type and NpudKernelInfo.kernel_type. */
#define NPUD_CORE_TYPE_VECTOR 0u /* AIV */
#define NPUD_CORE_TYPE_CUBE 1u   /* AIC */
#define NPUD_CORE_TYPE_MIX 2u

/* The kind argument of NpudBlockContext.trap. */
#define NPUD_TRAP_KIND_TRAP 0u /* the kernel executed a trap instruction: asm("trap"), trap() */
#define NPUD_TRAP_KIND_CHECK \
  1u /* a failed check: UB overflow, misaligned DataCopy, queue misuse... */

/* Return values of an NpudKernelEntry. */
#define NPUD_KERNEL_ENTRY_OK 0
#define NPUD_KERNEL_ENTRY_BAD_ARGS 1    /* args_size differs from the kernel's packed size */
#define NPUD_KERNEL_ENTRY_BAD_CONTEXT 2 /* ctx is NULL or its abi_version is not ours */

/* Per-block execution context; owned by the executor, valid for the whole entry call.
 * Only the block touches its ub_base buffer. */
typedef struct NpudBlockContext {
  uint32_t abi_version; /* NPUD_KERNEL_ABI_VERSION */
  uint32_t block_idx;   /* 0..block_num-1 */
  uint32_t block_num;
  uint32_t core_type; /* 0 = vector (AIV), 1 = cube (AIC), 2 = mix */
  uint8_t* ub_base;   /* this block's private unified buffer; 64-byte aligned */
  uint64_t ub_size;   /* bytes, e.g. 196608 for Ascend910B1 */
  void* host;         /* opaque, passed back to the callbacks */
  /* Device printf output of this block: one call per printf, text is exactly what C
   * printf would print (no prefix, no added newline), not NUL-terminated. */
  void (*print)(void* host, const char* text, size_t len);
  /* Does NOT return: the executor unwinds the block by throwing a C++ exception (see
   * the contract above). kind: 0 = trap instruction, 1 = failed check (UB overflow,
   * misaligned DataCopy, bad InitBuffer...). */
  void (*trap)(void* host, uint32_t kind, const char* message);
  /* Added within version 1 (npud and its kernel objects come from one release; an
   * object built before ignores them). NULL where the executor runs blocks one after
   * another and nothing may wait.
   *
   * Lets the block wait for other blocks of its launch (SyncAll, IBWait, WaitPreBlock,
   * cross-core flags): the kernel calls it in a loop for as long as the condition it
   * waits for (a flag in global memory, a count in launch_scratch) does not hold, and
   * the executor runs other blocks meanwhile — every block of a launch is alive at
   * once, as on the NPU. `what` names the primitive for reports; `spins` is 0 on the
   * first call of one wait and counts up. Returns 0, or nonzero when the wait can
   * never end (every live block of the launch waits and none can move, or the launch
   * was cancelled): the kernel then fails the block through trap(). Thread-local
   * state of the kernel library must be saved around the call: the block may resume
   * on another thread, and other blocks run on this one meanwhile. */
  int (*wait)(void* host, const char* what, uint32_t spins);
  /* Zeroed memory shared by every block of one launch (and by no other launch), for
   * the kernel library's barriers and flags; 64-byte aligned. */
  void* launch_scratch;
  uint64_t launch_scratch_size;
} NpudBlockContext;

/* Entry of one kernel in a kernel shared object. Runs one block on the calling thread.
 * Returns NPUD_KERNEL_ENTRY_OK, or NPUD_KERNEL_ENTRY_BAD_ARGS if args_size does not
 * match the kernel's parameter layout (the kernel is then not run). */
typedef int (*NpudKernelEntry)(const NpudBlockContext* ctx, const void* args, size_t args_size);

typedef struct NpudKernelInfo {
  const char* name; /* the kernel's C name, e.g. "add_custom" */
  NpudKernelEntry entry;
  uint32_t args_size;   /* packed argument bytes the entry expects */
  uint32_t kernel_type; /* NPUD_CORE_TYPE_*; NPUD_CORE_TYPE_VECTOR unless registered otherwise */
} NpudKernelInfo;

/* Every kernel shared object exports (default visibility, C linkage):
 *   const NpudKernelInfo* npud_kernel_table(size_t* count);
 * It stores the number of kernels in *count and returns an array of that many
 * entries, in registration order, owned by the shared object and valid until it is
 * unloaded. Thread-safe. */
typedef const NpudKernelInfo* (*NpudKernelTableFn)(size_t* count);
#define NPUD_KERNEL_TABLE_SYMBOL "npud_kernel_table"

/* Optional (objects built by older toolchains lack it): the parameters of the
 * kernel at `index` of the table — their count and, per parameter, its offset
 * and size in the packed arguments. Returns 1, or 0 for an index out of range.
 *   int npud_kernel_params(size_t index, size_t* count,
 *                          const uint32_t** offsets, const uint32_t** sizes);
 * The arrays are owned by the shared object. */
typedef int (*NpudKernelParamsFn)(size_t index, size_t* count, const uint32_t** offsets,
                                  const uint32_t** sizes);
#define NPUD_KERNEL_PARAMS_SYMBOL "npud_kernel_params"

/* Only in objects that have device variables: the object's device variables (`__gm__` variables
 * defined at file scope of a kernel source, which the host reaches with aclrtGetSymbolAddress and
 * aclrtMemcpyToSymbol). Each lives alone in an anonymous mapping at `address`, page
 * aligned and a whole number of pages long, so the loader may replace it (MAP_FIXED)
 * with device memory that holds the variable's bytes; kernels reach the variable
 * through that address only.
 *   const NpudVariableInfo* npud_kernel_variables(size_t* count);
 * The array is owned by the shared object. */
typedef struct NpudVariableInfo {
  const char* name;
  void* address;
  uint64_t size; /* the variable's sizeof; the mapping is rounded up to pages */
} NpudVariableInfo;
typedef const NpudVariableInfo* (*NpudKernelVariablesFn)(size_t* count);
#define NPUD_KERNEL_VARIABLES_SYMBOL "npud_kernel_variables"

#endif /* NPUD_KERNEL_ABI_H_ */
