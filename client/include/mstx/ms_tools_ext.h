/*
 * mstx: marks and ranges a program sets for its timeline, globally or in
 * named domains, optionally tied to a stream.
 *
 * Header-only, as the MindStudio mstx API is: each function here is an
 * inline wrapper that, on first use, finds a tool through
 * `InitInjectionMstx` (in the library named by MSTX_INJECTION_PATH, or any
 * library the program has loaded, such as npud's libacl_rt.so /
 * libprofapi.so) and then calls what the tool filled into this program's
 * function tables. Without a tool every call does nothing and ranges get
 * id 0. npud records the markers while NPUD_TRACE or a profiling
 * collection with ACL_PROF_MSPROFTX runs.
 *
 * Define MSTX_NO_IMPL for declarations only.
 */
#ifndef MS_TOOLS_EXT_H_
#define MS_TOOLS_EXT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

typedef uint64_t mstxRangeId;
typedef void* aclrtStream;
struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t* mstxDomainHandle_t;

/* The tool protocol: modules of numbered slots (0 unused). */
typedef enum {
  MSTX_API_MODULE_INVALID = 0,
  MSTX_API_MODULE_CORE = 1,
  MSTX_API_MODULE_CORE_DOMAIN = 2,
  MSTX_API_MODULE_CORE_MEM = 3,
  MSTX_API_MODULE_SIZE
} mstxFuncModule;

typedef enum {
  MSTX_API_CORE_INVALID = 0,
  MSTX_API_CORE_MARK_A = 1,
  MSTX_API_CORE_RANGE_START_A = 2,
  MSTX_API_CORE_RANGE_END = 3,
  MSTX_API_CORE_GET_TOOL_ID = 4,
  MSTX_API_CORE_SIZE
} mstxCoreSlot;

typedef enum {
  MSTX_API_CORE2_INVALID = 0,
  MSTX_API_CORE2_DOMAIN_CREATE_A = 1,
  MSTX_API_CORE2_DOMAIN_DESTROY = 2,
  MSTX_API_CORE2_DOMAIN_MARK_A = 3,
  MSTX_API_CORE2_DOMAIN_RANGE_START_A = 4,
  MSTX_API_CORE2_DOMAIN_RANGE_END = 5,
  MSTX_API_CORE2_SIZE
} mstxCoreDomainSlot;

typedef void (*mstxFuncPointer)(void);
typedef mstxFuncPointer** mstxFuncTable;
/* The tool asks for a module's table: `*outTable` lists the program's slots
 * (pointers to its function pointers), `*outSize` is the last slot's number. */
typedef int (*mstxGetModuleFuncTableFunc)(mstxFuncModule module, mstxFuncTable* outTable,
                                          unsigned int* outSize);
/* What a tool exports. */
typedef int (*mstxInitInjectionFunc)(mstxGetModuleFuncTableFunc getFuncTable);

#ifdef MSTX_NO_IMPL

void mstxMarkA(const char* message, aclrtStream stream);
mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream);
void mstxRangeEnd(mstxRangeId id);
void mstxGetToolId(uint64_t* id);
mstxDomainHandle_t mstxDomainCreateA(const char* name);
void mstxDomainDestroy(mstxDomainHandle_t domain);
void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream stream);
mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                  aclrtStream stream);
void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

#else /* MSTX_NO_IMPL */

#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>

/* The program's tables, one per process: every translation unit that
 * includes this header shares them (a weak, hidden definition). */
typedef struct mstxContext_st {
  int state; /* 0 not looked for, 1 looking, 2 done */
  mstxFuncPointer core[MSTX_API_CORE_SIZE];
  mstxFuncPointer domain[MSTX_API_CORE2_SIZE];
  mstxFuncPointer* core_slots[MSTX_API_CORE_SIZE];
  mstxFuncPointer* domain_slots[MSTX_API_CORE2_SIZE];
} mstxContext;

__attribute__((weak, visibility("hidden"))) mstxContext mstxGlobalContext;

static inline int mstxGetModuleFuncTable(mstxFuncModule module, mstxFuncTable* outTable,
                                         unsigned int* outSize) {
  mstxContext* ctx = &mstxGlobalContext;
  unsigned int i;
  if (outTable == NULL || outSize == NULL) return MSTX_FAIL;
  switch (module) {
    case MSTX_API_MODULE_CORE:
      for (i = 0; i < MSTX_API_CORE_SIZE; ++i) ctx->core_slots[i] = &ctx->core[i];
      *outTable = ctx->core_slots;
      *outSize = MSTX_API_CORE_SIZE - 1;
      return MSTX_SUCCESS;
    case MSTX_API_MODULE_CORE_DOMAIN:
      for (i = 0; i < MSTX_API_CORE2_SIZE; ++i) ctx->domain_slots[i] = &ctx->domain[i];
      *outTable = ctx->domain_slots;
      *outSize = MSTX_API_CORE2_SIZE - 1;
      return MSTX_SUCCESS;
    default:
      return MSTX_FAIL;
  }
}

static inline void mstxInitOnce(void) {
  mstxContext* ctx = &mstxGlobalContext;
  int expected = 0;
  if (__atomic_load_n(&ctx->state, __ATOMIC_ACQUIRE) == 2) return;
  if (__atomic_compare_exchange_n(&ctx->state, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    const char* path = getenv("MSTX_INJECTION_PATH");
    void* library = path != NULL && path[0] != '\0' ? dlopen(path, RTLD_LAZY | RTLD_LOCAL) : NULL;
    mstxInitInjectionFunc init = NULL;
    /* No library named: whatever the process has loaded (RTLD_DEFAULT). The
     * copy through void** is how POSIX turns dlsym's answer into a
     * function pointer. */
    *(void**)(&init) = dlsym(library, "InitInjectionMstx");
    if (init == NULL || init(mstxGetModuleFuncTable) != MSTX_SUCCESS) {
      unsigned int i;
      for (i = 0; i < MSTX_API_CORE_SIZE; ++i) ctx->core[i] = NULL;
      for (i = 0; i < MSTX_API_CORE2_SIZE; ++i) ctx->domain[i] = NULL;
    }
    __atomic_store_n(&ctx->state, 2, __ATOMIC_RELEASE);
    return;
  }
  while (__atomic_load_n(&ctx->state, __ATOMIC_ACQUIRE) != 2) sched_yield();
}

typedef void (*mstxMarkAFunc)(const char*, aclrtStream);
typedef mstxRangeId (*mstxRangeStartAFunc)(const char*, aclrtStream);
typedef void (*mstxRangeEndFunc)(mstxRangeId);
typedef void (*mstxGetToolIdFunc)(uint64_t*);
typedef mstxDomainHandle_t (*mstxDomainCreateAFunc)(const char*);
typedef void (*mstxDomainDestroyFunc)(mstxDomainHandle_t);
typedef void (*mstxDomainMarkAFunc)(mstxDomainHandle_t, const char*, aclrtStream);
typedef mstxRangeId (*mstxDomainRangeStartAFunc)(mstxDomainHandle_t, const char*, aclrtStream);
typedef void (*mstxDomainRangeEndFunc)(mstxDomainHandle_t, mstxRangeId);

#define MSTX_CORE(slot, type) ((type)(mstxInitOnce(), mstxGlobalContext.core[slot]))
#define MSTX_DOMAIN(slot, type) ((type)(mstxInitOnce(), mstxGlobalContext.domain[slot]))

/* A mark: `message` at this moment (and where `stream` gets to it). */
static inline void mstxMarkA(const char* message, aclrtStream stream) {
  mstxMarkAFunc f = MSTX_CORE(MSTX_API_CORE_MARK_A, mstxMarkAFunc);
  if (f != NULL) f(message, stream);
}

/* A range until mstxRangeEnd of its id; 0 when nothing records. */
static inline mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream) {
  mstxRangeStartAFunc f = MSTX_CORE(MSTX_API_CORE_RANGE_START_A, mstxRangeStartAFunc);
  return f != NULL ? f(message, stream) : 0;
}

static inline void mstxRangeEnd(mstxRangeId id) {
  mstxRangeEndFunc f = MSTX_CORE(MSTX_API_CORE_RANGE_END, mstxRangeEndFunc);
  if (f != NULL) f(id);
}

/* The tool in use (MSTX_TOOL_*); MSTX_TOOL_INVALID_ID without one. */
static inline void mstxGetToolId(uint64_t* id) {
  mstxGetToolIdFunc f = MSTX_CORE(MSTX_API_CORE_GET_TOOL_ID, mstxGetToolIdFunc);
  if (id == NULL) return;
  *id = MSTX_TOOL_INVALID_ID;
  if (f != NULL) f(id);
}

/* A named domain ("default" is the global one and cannot be created). */
static inline mstxDomainHandle_t mstxDomainCreateA(const char* name) {
  mstxDomainCreateAFunc f = MSTX_DOMAIN(MSTX_API_CORE2_DOMAIN_CREATE_A, mstxDomainCreateAFunc);
  return f != NULL ? f(name) : NULL;
}

static inline void mstxDomainDestroy(mstxDomainHandle_t domain) {
  mstxDomainDestroyFunc f = MSTX_DOMAIN(MSTX_API_CORE2_DOMAIN_DESTROY, mstxDomainDestroyFunc);
  if (f != NULL) f(domain);
}

static inline void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message,
                                   aclrtStream stream) {
  mstxDomainMarkAFunc f = MSTX_DOMAIN(MSTX_API_CORE2_DOMAIN_MARK_A, mstxDomainMarkAFunc);
  if (f != NULL) f(domain, message, stream);
}

static inline mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                                aclrtStream stream) {
  mstxDomainRangeStartAFunc f =
      MSTX_DOMAIN(MSTX_API_CORE2_DOMAIN_RANGE_START_A, mstxDomainRangeStartAFunc);
  return f != NULL ? f(domain, message, stream) : 0;
}

static inline void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  mstxDomainRangeEndFunc f = MSTX_DOMAIN(MSTX_API_CORE2_DOMAIN_RANGE_END, mstxDomainRangeEndFunc);
  if (f != NULL) f(domain, id);
}

#undef MSTX_CORE
#undef MSTX_DOMAIN

#endif /* MSTX_NO_IMPL */

#ifdef __cplusplus
}
#endif

#endif /* MS_TOOLS_EXT_H_ */
