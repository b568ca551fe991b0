// aclCreateTensor, aclCreateScalar and their destroyers (libnnopbase.so,
// the same library as libopapi.so).

#include "client/aclnn/tensors.h"

#include <cstdio>
#include <cstring>
#include <new>

#include "acl/acl.h"

namespace npud::aclnn {

bool IntegerType(aclDataType dtype) {
  return dtype == ACL_INT8 || dtype == ACL_UINT8 || dtype == ACL_INT16 || dtype == ACL_INT32 ||
         dtype == ACL_INT64 || dtype == ACL_BOOL;
}

bool SupportedType(aclDataType dtype) {
  return IntegerType(dtype) || dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 ||
         dtype == ACL_DOUBLE;
}

aclnnStatus Refuse(aclnnStatus status, const char* op, const std::string& why) {
  std::fprintf(stderr, "[npud aclnn] %s: %s (%d)\n", op, why.c_str(), status);
  return status;
}

}  // namespace npud::aclnn

extern "C" {

ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t* stride,
                                               int64_t offset, aclFormat /*format*/,
                                               const int64_t* /*storageDims*/,
                                               uint64_t /*storageDimsNum*/, void* tensorData) {
  if ((viewDims == nullptr && viewDimsNum > 0) || viewDimsNum > 8 || offset < 0) {
    npud::aclnn::Refuse(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor", "bad dimensions or offset");
    return nullptr;
  }
  auto* tensor = new (std::nothrow) aclTensor();
  if (tensor == nullptr) return nullptr;
  tensor->shape.assign(viewDims, viewDims + viewDimsNum);
  if (stride != nullptr) {
    tensor->strides.assign(stride, stride + viewDimsNum);
  } else {  // contiguous
    tensor->strides.assign(viewDimsNum, 1);
    for (uint64_t i = viewDimsNum; i-- > 1;) {
      tensor->strides[i - 1] = tensor->strides[i] * viewDims[i];
    }
  }
  tensor->offset = offset;
  tensor->dtype = dataType;
  tensor->data = tensorData;
  return tensor;
}

ACL_FUNC_VISIBILITY aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  if (value == nullptr) {
    npud::aclnn::Refuse(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalar", "value is null");
    return nullptr;
  }
  auto* scalar = new (std::nothrow) aclScalar();
  if (scalar == nullptr) return nullptr;
  scalar->dtype = dataType;
  auto load = [value](auto sample) {
    decltype(sample) v;
    std::memcpy(&v, value, sizeof(v));
    return v;
  };
  switch (dataType) {
    case ACL_FLOAT:
      scalar->value = load(float{});
      break;
    case ACL_DOUBLE:
      scalar->value = load(double{});
      break;
    case ACL_FLOAT16:
      scalar->value = aclFloat16ToFloat(load(aclFloat16{}));
      break;
    case ACL_BF16: {
      const uint32_t bits = uint32_t{load(uint16_t{})} << 16;
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      scalar->value = f;
      break;
    }
    case ACL_INT8:
      scalar->integer = load(int8_t{});
      break;
    case ACL_UINT8:
    case ACL_BOOL:
      scalar->integer = load(uint8_t{});
      break;
    case ACL_INT16:
      scalar->integer = load(int16_t{});
      break;
    case ACL_INT32:
      scalar->integer = load(int32_t{});
      break;
    case ACL_INT64:
      scalar->integer = load(int64_t{});
      break;
    default:
      delete scalar;
      npud::aclnn::Refuse(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar",
                          "unsupported data type " + std::to_string(dataType));
      return nullptr;
  }
  if (npud::aclnn::IntegerType(dataType)) {
    scalar->value = static_cast<double>(scalar->integer);
  } else {
    scalar->integer = static_cast<int64_t>(scalar->value);
  }
  return scalar;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  delete tensor;
  return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  delete scalar;
  return ACLNN_SUCCESS;
}

}  // extern "C"
