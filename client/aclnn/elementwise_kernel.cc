// The kernel of the operator library's elementwise operators (Add, Mul):
// each block takes a contiguous share of the output's elements, finds each
// input element through its strides (0 where broadcast), and computes in
// double, or in int64 when every tensor holds integers; results round to
// the output type as the hardware's casts do (nearest even), and integers
// wrap.

#include <cstdint>
#include <cstring>

#include "client/aclnn/elementwise_desc.h"
#include "kernel_operator.h"
#include "npud_ascendc/float_format.h"

namespace {

using npud::aclnn::ElementwiseDesc;
using npud::aclnn::TensorLayout;

// aclDataType values.
enum : int32_t {
  kFloat = 0,
  kFloat16 = 1,
  kInt8 = 2,
  kInt32 = 3,
  kUint8 = 4,
  kInt16 = 6,
  kInt64 = 9,
  kDouble = 11,
  kBool = 12,
  kBf16 = 27,
};

template <typename T>
T Load(const uint8_t* base, int64_t index) {
  T value;
  std::memcpy(&value, base + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

template <typename T>
void StoreAs(uint8_t* base, int64_t index, T value) {
  std::memcpy(base + index * static_cast<int64_t>(sizeof(T)), &value, sizeof(T));
}

double LoadDouble(const uint8_t* base, int32_t dtype, int64_t i) {
  switch (dtype) {
    case kFloat:
      return Load<float>(base, i);
    case kFloat16:
      return npud::ascendc::DecodeBinary(Load<uint16_t>(base, i), npud::ascendc::kBinary16);
    case kBf16:
      return npud::ascendc::DecodeBinary(Load<uint16_t>(base, i), npud::ascendc::kBfloat16);
    case kDouble:
      return Load<double>(base, i);
    case kInt8:
      return Load<int8_t>(base, i);
    case kUint8:
    case kBool:
      return Load<uint8_t>(base, i);
    case kInt16:
      return Load<int16_t>(base, i);
    case kInt32:
      return Load<int32_t>(base, i);
    case kInt64:
      return static_cast<double>(Load<int64_t>(base, i));
  }
  return 0;
}

int64_t LoadInt(const uint8_t* base, int32_t dtype, int64_t i) {
  switch (dtype) {
    case kInt8:
      return Load<int8_t>(base, i);
    case kUint8:
    case kBool:
      return Load<uint8_t>(base, i);
    case kInt16:
      return Load<int16_t>(base, i);
    case kInt32:
      return Load<int32_t>(base, i);
    case kInt64:
      return Load<int64_t>(base, i);
  }
  return 0;
}

void StoreDouble(uint8_t* base, int32_t dtype, int64_t i, double v) {
  using npud::ascendc::EncodeBinary;
  using npud::ascendc::Rounding;
  switch (dtype) {
    case kFloat:
      StoreAs(base, i, static_cast<float>(v));
      break;
    case kFloat16:
      StoreAs(
          base, i,
          static_cast<uint16_t>(EncodeBinary(v, npud::ascendc::kBinary16, Rounding::kNearestEven)));
      break;
    case kBf16:
      StoreAs(
          base, i,
          static_cast<uint16_t>(EncodeBinary(v, npud::ascendc::kBfloat16, Rounding::kNearestEven)));
      break;
    case kDouble:
      StoreAs(base, i, v);
      break;
  }
}

void StoreInt(uint8_t* base, int32_t dtype, int64_t i, int64_t v) {
  switch (dtype) {
    case kInt8:
      StoreAs(base, i, static_cast<int8_t>(v));
      break;
    case kUint8:
      StoreAs(base, i, static_cast<uint8_t>(v));
      break;
    case kBool:
      StoreAs(base, i, static_cast<uint8_t>(v != 0));
      break;
    case kInt16:
      StoreAs(base, i, static_cast<int16_t>(v));
      break;
    case kInt32:
      StoreAs(base, i, static_cast<int32_t>(v));
      break;
    case kInt64:
      StoreAs(base, i, v);
      break;
  }
}

bool IsInteger(int32_t dtype) {
  return dtype == kInt8 || dtype == kUint8 || dtype == kBool || dtype == kInt16 ||
         dtype == kInt32 || dtype == kInt64;
}

// The element index of output element `linear` in `layout`.
int64_t IndexOf(const ElementwiseDesc& d, const TensorLayout& layout, uint64_t linear) {
  int64_t index = layout.offset;
  for (int dim = d.ndim - 1; dim >= 0; --dim) {
    const auto extent = static_cast<uint64_t>(d.shape[dim]);
    index += static_cast<int64_t>(linear % extent) * layout.strides[dim];
    linear /= extent;
  }
  return index;
}

}  // namespace

extern "C" __global__ __aicore__ void npud_aclnn_elementwise(GM_ADDR self, GM_ADDR other,
                                                             GM_ADDR out, GM_ADDR desc_addr) {
  ElementwiseDesc d;
  std::memcpy(&d, reinterpret_cast<const void*>(desc_addr), sizeof(d));
  const uint64_t per_block = (d.total + block_num - 1) / block_num;
  const uint64_t begin = per_block * block_idx;
  const uint64_t end = begin + per_block < d.total ? begin + per_block : d.total;
  const auto* a = reinterpret_cast<const uint8_t*>(self);
  const auto* b = reinterpret_cast<const uint8_t*>(other);
  auto* z = reinterpret_cast<uint8_t*>(out);
  for (uint64_t i = begin; i < end; ++i) {
    const int64_t ia = IndexOf(d, d.self, i), ib = IndexOf(d, d.other, i),
                  iz = IndexOf(d, d.out, i);
    if (d.integers) {
      const uint64_t x = static_cast<uint64_t>(LoadInt(a, d.self.dtype, ia));
      const uint64_t y = static_cast<uint64_t>(LoadInt(b, d.other.dtype, ib));
      // Unsigned arithmetic wraps without undefined behaviour.
      const uint64_t r =
          d.op == npud::aclnn::kMul ? x * y : x + static_cast<uint64_t>(d.integer_alpha) * y;
      StoreInt(z, d.out.dtype, iz, static_cast<int64_t>(r));
    } else {
      const double x = LoadDouble(a, d.self.dtype, ia), y = LoadDouble(b, d.other.dtype, ib);
      const double r = d.op == npud::aclnn::kMul ? x * y : x + d.alpha * y;
      if (IsInteger(d.out.dtype)) {  // truncated toward zero, as a cast does
        StoreInt(z, d.out.dtype, iz, static_cast<int64_t>(r));
      } else {
        StoreDouble(z, d.out.dtype, iz, r);
      }
    }
  }
}

NPUD_KERNEL_REGISTER(npud_aclnn_elementwise);
