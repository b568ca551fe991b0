// dump_hook.h
//
// How npud's operator library (libopapi.so, client/aclnn) has its operators
// dumped: after a launch it calls NpudDumpOperator, which libacl_rt.so
// exports for it alone (tools/gen_abi.py --extra-export). Not installed, not
// ACL API: CANN's operator libraries reach their dump component the same
// way, through an internal interface of libascend_dump.so.

#ifndef NPUD_CLIENT_ABI_DUMP_HOOK_H_
#define NPUD_CLIENT_ABI_DUMP_HOOK_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct NpudDumpTensor {
  int32_t is_output;  // 0 input, 1 output
  int32_t data_type;  // aclDataType
  int32_t format;     // aclFormat
  uint32_t dims;
  const int64_t* shape;
  const void* address;  // device memory
  uint64_t bytes;
} NpudDumpTensor;

// Dumps (data, argument records) of operator `op_type` just launched on
// `stream`, if any are on; `attrs_json` a JSON object of its attributes.
// Returns 0 or the aclError of a dump that failed (the operator did not).
int32_t NpudDumpOperator(const char* op_type, const char* op_name, const NpudDumpTensor* tensors,
                         uint32_t count, const char* attrs_json, void* stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUD_CLIENT_ABI_DUMP_HOOK_H_
