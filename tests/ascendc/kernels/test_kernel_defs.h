// test_kernel_defs.h: plain types shared by the test kernels and the host-side tests
// (no AscendC dependency).
#ifndef TESTS_ASCENDC_KERNELS_TEST_KERNEL_DEFS_H_
#define TESTS_ASCENDC_KERNELS_TEST_KERNEL_DEFS_H_

#include <cstdint>

namespace npud_test {

// What args_probe writes for each block: every argument it received.
struct ProbeRecord {
  float f;
  uint32_t u;
  int64_t i64;
  uint16_t half_bits;
  uint8_t byte;
  double d;
  uint64_t ptr;
  int32_t ptr_value;
};

// Operations of the elementwise_* kernels (tensor z from x, y and the scalar s).
enum ElementwiseOp : uint32_t {
  kAdd,         // z = x + y
  kSub,         // z = x - y
  kMul,         // z = x * y
  kDiv,         // z = x / y
  kMax,         // z = max(x, y)
  kMin,         // z = min(x, y)
  kAddRelu,     // z = relu(x + y)
  kSubRelu,     // z = relu(x - y)
  kAdds,        // z = x + s
  kMuls,        // z = x * s
  kMaxs,        // z = max(x, s)
  kMins,        // z = min(x, s)
  kLeakyRelu,   // z = x >= 0 ? x : x * s
  kAxpy,        // z = y + x * s
  kAbs,         // z = |x|
  kExp,         // z = e^x
  kLn,          // z = ln x
  kSqrt,        // z = sqrt x
  kRsqrt,       // z = 1 / sqrt x
  kRelu,        // z = max(x, 0)
  kReciprocal,  // z = 1 / x
  kNeg,         // z = -x
  kDuplicate,   // z = s
  kOpCount,
};

// Conversions of the cast kernel.
enum CastPair : uint32_t {
  kF32ToF16,
  kF16ToF32,
  kF32ToI32,
  kI32ToF32,
  kF16ToI32,
  kI32ToF16,
  kF32ToBf16,
  kBf16ToF32,
};

// Reductions of the reduce_* kernels; results go to z[0] (and the index to z[1]).
enum ReduceOp : uint32_t { kReduceSum, kReduceMax, kReduceMin, kReduceMaxIndex, kReduceMinIndex };

// How the ub_copy_* kernels pass their mask to Copy.
enum CopyMaskMode : uint32_t {
  kCopyCountMask,    // the continuous form: the first maskLow lanes
  kCopyBitMask,      // the bit form {maskLow, maskHigh}
  kCopyCounterMode,  // counter mode, maskLow elements per repeat, set beforehand
};

// Misuses the fault kernel commits, one per mode.
enum FaultMode : uint32_t {
  kDeQueEmpty,
  kEnQueBeyondDepth,
  kFreeTwice,
  kAllocExhausted,
  kFreeWhileQueued,
  kEnQueForeignTensor,
  kQueueWithoutInit,
  kInitZeroLength,
  kTooManyBuffers,
  kVectorCountTooLarge,
  kLocalIndexOutOfRange,
  kUnsupportedAsm,
  kCopyBeyondTensor,
  kMisalignedLocal,
  kTBufTooSmall,
  kWaitFlagWithoutSet,
  kSecondWaitFlag,
  kFaultModeCount,
};

}  // namespace npud_test

#endif  // TESTS_ASCENDC_KERNELS_TEST_KERNEL_DEFS_H_
