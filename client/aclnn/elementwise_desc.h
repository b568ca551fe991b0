// elementwise_desc.h
//
// What the operator library (libopapi.so) hands its elementwise kernel
// (elementwise_kernel.cc): the output's shape and, per tensor, its element
// type, offset and strides in elements laid over the output's dimensions —
// 0 where a dimension is broadcast. Plain data: it travels as the launch's
// placeholder bytes.

#ifndef NPUD_CLIENT_ACLNN_ELEMENTWISE_DESC_H_
#define NPUD_CLIENT_ACLNN_ELEMENTWISE_DESC_H_

#include <cstdint>

namespace npud::aclnn {

inline constexpr int kMaxDims = 8;

enum ElementwiseOp : int32_t { kAdd = 0, kMul = 1 };

struct TensorLayout {
  int32_t dtype = 0;  // aclDataType
  int32_t unused = 0;
  int64_t offset = 0;
  int64_t strides[kMaxDims] = {};
};

struct ElementwiseDesc {
  int32_t op = kAdd;
  int32_t ndim = 0;
  // out = self + alpha * other; integers use integer_alpha.
  double alpha = 1;
  int64_t integer_alpha = 1;
  // Integer arithmetic when every tensor holds integers.
  int32_t integers = 0;
  int32_t unused = 0;
  uint64_t total = 0;
  int64_t shape[kMaxDims] = {};
  TensorLayout self, other, out;
};

}  // namespace npud::aclnn

#endif  // NPUD_CLIENT_ACLNN_ELEMENTWISE_DESC_H_
