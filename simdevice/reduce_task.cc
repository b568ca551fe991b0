#include "simdevice/reduce_task.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "npud_ascendc/float_format.h"

namespace npud::sim {
namespace {

using ascendc::BinaryFormat;
using ascendc::DecodeBinary;
using ascendc::EncodeBinary;
using ascendc::Rounding;

template <typename T>
T Apply(ReduceOp op, T a, T b) {
  switch (op) {
    case ReduceOp::kSum:
      return a + b;
    case ReduceOp::kMax:
      return std::max(a, b);
    case ReduceOp::kMin:
      return std::min(a, b);
  }
  return a;
}

// Integers wrap like the hardware's adders (computed unsigned: no UB).
template <typename Int>
void ReduceInts(uint8_t* dst, const uint8_t* src, size_t count, ReduceOp op) {
  using Unsigned = std::make_unsigned_t<Int>;
  for (size_t i = 0; i < count; ++i) {
    Int a, b;
    std::memcpy(&a, dst + i * sizeof(Int), sizeof(Int));
    std::memcpy(&b, src + i * sizeof(Int), sizeof(Int));
    Int r;
    if (op == ReduceOp::kSum) {
      r = static_cast<Int>(
          static_cast<Unsigned>(static_cast<Unsigned>(a) + static_cast<Unsigned>(b)));
    } else {
      r = Apply(op, a, b);
    }
    std::memcpy(dst + i * sizeof(Int), &r, sizeof(Int));
  }
}

// Floating formats of `Bits` bits: decoded exactly, combined in double,
// rounded once.
template <typename Bits>
void ReduceFloats(uint8_t* dst, const uint8_t* src, size_t count, ReduceOp op,
                  BinaryFormat format) {
  for (size_t i = 0; i < count; ++i) {
    Bits a, b;
    std::memcpy(&a, dst + i * sizeof(Bits), sizeof(Bits));
    std::memcpy(&b, src + i * sizeof(Bits), sizeof(Bits));
    const double r = Apply(op, DecodeBinary(a, format), DecodeBinary(b, format));
    const Bits bits = static_cast<Bits>(EncodeBinary(r, format, Rounding::kNearestEven));
    std::memcpy(dst + i * sizeof(Bits), &bits, sizeof(Bits));
  }
}

}  // namespace

size_t ElementBytes(ReduceType type) {
  switch (type) {
    case ReduceType::kInt8:
      return 1;
    case ReduceType::kInt16:
    case ReduceType::kFloat16:
    case ReduceType::kBfloat16:
      return 2;
    case ReduceType::kInt32:
    case ReduceType::kFloat32:
      return 4;
  }
  return 1;
}

std::unique_ptr<Task> MakeReduceTask(DeviceRange dst, DeviceRange src, ReduceOp op,
                                     ReduceType type) {
  const uint64_t bytes = dst.size;
  return std::make_unique<FunctionTask>(
      "reduce-device",
      [dst = std::move(dst), src = std::move(src), op, type]() {
        const size_t count = dst.size / ElementBytes(type);
        switch (type) {
          case ReduceType::kInt8:
            ReduceInts<int8_t>(dst.data(), src.data(), count, op);
            break;
          case ReduceType::kInt16:
            ReduceInts<int16_t>(dst.data(), src.data(), count, op);
            break;
          case ReduceType::kInt32:
            ReduceInts<int32_t>(dst.data(), src.data(), count, op);
            break;
          case ReduceType::kFloat16:
            ReduceFloats<uint16_t>(dst.data(), src.data(), count, op, ascendc::kBinary16);
            break;
          case ReduceType::kBfloat16:
            ReduceFloats<uint16_t>(dst.data(), src.data(), count, op, ascendc::kBfloat16);
            break;
          case ReduceType::kFloat32:
            ReduceFloats<uint32_t>(dst.data(), src.data(), count, op, ascendc::kBinary32);
            break;
        }
        return absl::OkStatus();
      },
      TaskKind::kCopy, bytes);
}

}  // namespace npud::sim
