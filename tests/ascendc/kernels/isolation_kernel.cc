// Built twice, as two kernel objects, with NPUD_ISOLATION_TAG 1 and 2: the same
// kernel name, the same external helper function, global variable and inline member
// function in both, each with its own value. Loaded side by side (even RTLD_GLOBAL),
// each object must still use only its own definitions and its own registry.
#include "kernel_operator.h"

#ifndef NPUD_ISOLATION_TAG
#error "compile with -DNPUD_ISOLATION_TAG=<n>"
#endif

int LibraryTag() { return NPUD_ISOLATION_TAG; }
int g_library_base = 100 * NPUD_ISOLATION_TAG;

struct TagHelper {
    int Value() const { return g_library_base + LibraryTag(); }
};

// out[block_idx] = 101 for object 1, 202 for object 2.
extern "C" __global__ __aicore__ void which_library(__gm__ int32_t* out)
{
    out[block_idx] = TagHelper().Value();
}

// out[block_idx] = the block index as seen through this object's own block state.
extern "C" __global__ __aicore__ void own_block_state(__gm__ int64_t* out)
{
    out[block_idx] = AscendC::GetBlockIdx() * 10 + NPUD_ISOLATION_TAG;
}

NPUD_KERNEL_REGISTER(which_library);
NPUD_KERNEL_REGISTER(own_block_state);
