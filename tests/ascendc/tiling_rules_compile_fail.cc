// The reference's rules for the Kernel-Tiling registrations, which npud enforces at
// compile time (kernel_tiling_macros.h): compiled once per NPUD_RULE by CTest, which
// expects each rule's message; NPUD_RULE 0 is the valid program.
#include "kernel_operator.h"

struct TilingA {
  uint32_t a;
};
struct TilingB {
  uint32_t b;
};

extern "C" __global__ __aicore__ void tiling_rules(__gm__ uint32_t* out, GM_ADDR tiling) {
#if NPUD_RULE == 0
  REGISTER_TILING_DEFAULT(TilingA);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", TilingB);
  GET_TILING_DATA(t, tiling);
  out[0] = t.a;
#elif NPUD_RULE == 1  // GET_TILING_DATA reads the default struct: there must be one
  GET_TILING_DATA(t, tiling);
  out[0] = t.a;
#elif NPUD_RULE == 2  // REGISTER_NONE_TILING registers none
  REGISTER_NONE_TILING;
  GET_TILING_DATA(t, tiling);
  out[0] = t.a;
#elif NPUD_RULE == 3  // NONE and DEFAULT do not mix
  REGISTER_TILING_DEFAULT(TilingA);
  REGISTER_NONE_TILING;
  out[0] = 0;
#elif NPUD_RULE == 4  // a keyed struct needs the default
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", TilingB);
  out[0] = 0;
#endif
}
