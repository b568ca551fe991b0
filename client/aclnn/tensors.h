// tensors.h
//
// The aclnn API's tensors and scalars as npud's operator library keeps
// them, and the checks every operator makes of them.

#ifndef NPUD_CLIENT_ACLNN_TENSORS_H_
#define NPUD_CLIENT_ACLNN_TENSORS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclTensor {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements
  int64_t offset = 0;            // in elements, from data
  aclDataType dtype = ACL_FLOAT;
  void* data = nullptr;
};

struct aclScalar {
  aclDataType dtype = ACL_FLOAT;
  double value = 0;     // as a double
  int64_t integer = 0;  // for integer types, exactly
};

namespace npud::aclnn {

// Element types the elementwise operators take.
bool SupportedType(aclDataType dtype);
bool IntegerType(aclDataType dtype);

// Logs an operator's refusal the way the CANN libraries do: one line on
// stderr naming the operator and why; returns `status`.
aclnnStatus Refuse(aclnnStatus status, const char* op, const std::string& why);

}  // namespace npud::aclnn

#endif  // NPUD_CLIENT_ACLNN_TENSORS_H_
