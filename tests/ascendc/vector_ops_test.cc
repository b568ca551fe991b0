// Every element-wise vector op on float and half against a scalar reference, Cast in
// all directions and rounding modes, and the reductions.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

namespace npud::ascendc_test {
namespace {

using npud_test::ElementwiseOp;

constexpr uint32_t kCount = 512;
constexpr float kScalar = -0.75f;

// Operands chosen so that every op is defined: positive for Ln/Sqrt/Rsqrt, non-zero
// divisors, moderate for Exp; mixed signs elsewhere.
double InputX(ElementwiseOp op, uint32_t i) {
  const double t = static_cast<double>(i) / kCount;
  switch (op) {
    case npud_test::kLn:
    case npud_test::kSqrt:
    case npud_test::kRsqrt:
      return 0.01 + 50 * t;
    case npud_test::kExp:
      return -8 + 16 * t;
    default:
      return -40 + 80 * t + (i % 3) * 0.37;
  }
}
double InputY(uint32_t i) { return (i % 2 == 0 ? 1 : -1) * (0.5 + (i * 37 % 101) * 0.21); }

// The mathematically exact (or double-precision) result.
double Reference(ElementwiseOp op, double x, double y, double s) {
  switch (op) {
    case npud_test::kAdd:
      return x + y;
    case npud_test::kSub:
      return x - y;
    case npud_test::kMul:
      return x * y;
    case npud_test::kDiv:
      return x / y;
    case npud_test::kMax:
      return std::max(x, y);
    case npud_test::kMin:
      return std::min(x, y);
    case npud_test::kAddRelu:
      return std::max(x + y, 0.0);
    case npud_test::kSubRelu:
      return std::max(x - y, 0.0);
    case npud_test::kAdds:
      return x + s;
    case npud_test::kMuls:
      return x * s;
    case npud_test::kMaxs:
      return std::max(x, s);
    case npud_test::kMins:
      return std::min(x, s);
    case npud_test::kLeakyRelu:
      return x >= 0 ? x : x * s;
    case npud_test::kAxpy:
      return y + x * s;
    case npud_test::kAbs:
      return std::fabs(x);
    case npud_test::kExp:
      return std::exp(x);
    case npud_test::kLn:
      return std::log(x);
    case npud_test::kSqrt:
      return std::sqrt(x);
    case npud_test::kRsqrt:
      return 1 / std::sqrt(x);
    case npud_test::kRelu:
      return std::max(x, 0.0);
    case npud_test::kReciprocal:
      return 1 / x;
    case npud_test::kNeg:
      return -x;
    case npud_test::kDuplicate:
      return s;
    default:
      return 0;
  }
}

// Ops whose result is correctly rounded (once per step: LeakyRelu's and Axpy's product
// is rounded before it is used): the kernel must match the reference bit for bit. The others
// (library transcendental functions, Rsqrt's two roundings) get a relative tolerance.
bool IsExact(ElementwiseOp op) {
  return op != npud_test::kExp && op != npud_test::kLn && op != npud_test::kRsqrt;
}

template <class T>
struct TypeCase {
  static constexpr const char* kKernel = "elementwise_f32";
  static constexpr double kTolerance = 3e-7;
};
template <>
struct TypeCase<half> {
  static constexpr const char* kKernel = "elementwise_f16";
  static constexpr double kTolerance = 1e-3;
};

template <class T>
void CheckElementwise(ElementwiseOp op) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_VECTOR);
  ASSERT_NE(lib, nullptr);
  std::vector<T> x(kCount);
  std::vector<T> y(kCount);
  std::vector<T> z(kCount, T(12345.0f));
  for (uint32_t i = 0; i < kCount; ++i) {
    x[i] = T(InputX(op, i));
    y[i] = T(InputY(i));
  }
  auto outcomes = Launch(*lib, TypeCase<T>::kKernel, 1, reinterpret_cast<uint8_t*>(x.data()),
                         reinterpret_cast<uint8_t*>(y.data()), reinterpret_cast<uint8_t*>(z.data()),
                         static_cast<uint32_t>(op), kScalar, kCount);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  const double s = static_cast<float>(T(kScalar));
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < kCount; ++i) {
    const double xi = static_cast<float>(x[i]);
    const double yi = static_cast<float>(y[i]);
    const double got = static_cast<float>(z[i]);
    double want = Reference(op, xi, yi, s);
    // Two roundings in the instruction: the product, then the result.
    if (op == npud_test::kLeakyRelu && xi < 0) want = static_cast<float>(T(want));
    if (op == npud_test::kAxpy) want = yi + static_cast<float>(T(xi * s));
    bool ok;
    if (IsExact(op)) {
      ok = got == static_cast<float>(T(want));
    } else {
      ok = std::fabs(got - want) <= TypeCase<T>::kTolerance * std::max(1.0, std::fabs(want));
    }
    if (!ok && ++mismatches <= 5) {
      ADD_FAILURE() << "op " << op << " element " << i << " x=" << xi << " y=" << yi << ": got "
                    << got << ", want " << want;
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

class ElementwiseTest : public ::testing::TestWithParam<ElementwiseOp> {};

TEST_P(ElementwiseTest, Float) { CheckElementwise<float>(GetParam()); }
TEST_P(ElementwiseTest, Half) { CheckElementwise<half>(GetParam()); }

std::vector<ElementwiseOp> AllOps() {
  std::vector<ElementwiseOp> ops;
  for (uint32_t op = 0; op < npud_test::kOpCount; ++op)
    ops.push_back(static_cast<ElementwiseOp>(op));
  return ops;
}
std::string OpName(const ::testing::TestParamInfo<ElementwiseOp>& info) {
  static const char* const kNames[] = {
      "Add",  "Sub",  "Mul",   "Div",  "Max",        "Min",  "AddRelu",  "SubRelu",
      "Adds", "Muls", "Maxs",  "Mins", "LeakyRelu",  "Axpy", "Abs",      "Exp",
      "Ln",   "Sqrt", "Rsqrt", "Relu", "Reciprocal", "Neg",  "Duplicate"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == npud_test::kOpCount);
  return kNames[info.param];
}
INSTANTIATE_TEST_SUITE_P(AllOps, ElementwiseTest, ::testing::ValuesIn(AllOps()), OpName);

// ---- Cast --------------------------------------------------------------------------

// Runs cast_kernel on 16 elements (64 bytes of int32/float, 32 of half).
template <class S, class D>
std::vector<D> RunCast(npud_test::CastPair pair, uint32_t mode, std::vector<S> in) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_VECTOR);
  if (lib == nullptr) return {};
  in.resize(16, S(0));
  std::vector<D> out(16, D(0));
  auto outcomes = Launch(*lib, "cast_kernel", 1, reinterpret_cast<uint8_t*>(in.data()),
                         reinterpret_cast<uint8_t*>(out.data()), static_cast<uint32_t>(pair), mode,
                         uint32_t{16});
  EXPECT_FALSE(outcomes.empty() || outcomes[0].trapped);
  return out;
}

enum Mode : uint32_t { kNone, kRint, kFloor, kCeil, kRound, kTrunc, kOdd };

TEST(CastTest, FloatToInt32InEveryMode) {
  const std::vector<float> in = {2.5f,  -2.5f, 3.5f,   1.7f,
                                 -1.7f, 3e10f, -3e10f, std::numeric_limits<float>::quiet_NaN()};
  const int32_t kMax = std::numeric_limits<int32_t>::max();
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  using V = std::vector<int32_t>;
  auto take8 = [](std::vector<int32_t> v) {
    v.resize(8);
    return v;
  };
  EXPECT_EQ(take8(RunCast<float, int32_t>(npud_test::kF32ToI32, kRint, in)),
            (V{2, -2, 4, 2, -2, kMax, kMin, 0}));
  EXPECT_EQ(take8(RunCast<float, int32_t>(npud_test::kF32ToI32, kRound, in)),
            (V{3, -3, 4, 2, -2, kMax, kMin, 0}));
  EXPECT_EQ(take8(RunCast<float, int32_t>(npud_test::kF32ToI32, kFloor, in)),
            (V{2, -3, 3, 1, -2, kMax, kMin, 0}));
  EXPECT_EQ(take8(RunCast<float, int32_t>(npud_test::kF32ToI32, kCeil, in)),
            (V{3, -2, 4, 2, -1, kMax, kMin, 0}));
  EXPECT_EQ(take8(RunCast<float, int32_t>(npud_test::kF32ToI32, kTrunc, in)),
            (V{2, -2, 3, 1, -1, kMax, kMin, 0}));
}

TEST(CastTest, FloatToHalfInEveryMode) {
  const float tie = 1.0f + std::ldexp(1.0f, -11);  // halfway between 1 and the next half
  const std::vector<float> in = {tie, -tie, 0.1f, 70000.0f, 3.0f};
  auto bits = [](const std::vector<half>& v) {
    std::vector<uint16_t> b;
    for (size_t i = 0; i < 5; ++i) b.push_back(v[i].ToBits());
    return b;
  };
  using B = std::vector<uint16_t>;
  EXPECT_EQ(bits(RunCast<float, half>(npud_test::kF32ToF16, kNone, in)),
            (B{0x3c00, 0xbc00, 0x2e66, 0x7c00, 0x4200}));
  EXPECT_EQ(bits(RunCast<float, half>(npud_test::kF32ToF16, kRint, in)),
            (B{0x3c00, 0xbc00, 0x2e66, 0x7c00, 0x4200}));
  EXPECT_EQ(bits(RunCast<float, half>(npud_test::kF32ToF16, kRound, in)),
            (B{0x3c01, 0xbc01, 0x2e66, 0x7c00, 0x4200}));
  EXPECT_EQ(bits(RunCast<float, half>(npud_test::kF32ToF16, kFloor, in)),
            (B{0x3c00, 0xbc01, 0x2e66, 0x7bff, 0x4200}));
  EXPECT_EQ(bits(RunCast<float, half>(npud_test::kF32ToF16, kCeil, in)),
            (B{0x3c01, 0xbc00, 0x2e67, 0x7c00, 0x4200}));
  EXPECT_EQ(bits(RunCast<float, half>(npud_test::kF32ToF16, kTrunc, in)),
            (B{0x3c00, 0xbc00, 0x2e66, 0x7bff, 0x4200}));
  EXPECT_EQ(bits(RunCast<float, half>(npud_test::kF32ToF16, kOdd, in)),
            (B{0x3c01, 0xbc01, 0x2e67, 0x7bff, 0x4200}));
}

TEST(CastTest, WideningIsExact) {
  const std::vector<half> h = {half(0.1f), half(-65504.0f), half::FromBits(0x0001), half(7.0f)};
  std::vector<float> f = RunCast<half, float>(npud_test::kF16ToF32, kNone, h);
  for (size_t i = 0; i < h.size(); ++i) EXPECT_EQ(f[i], static_cast<float>(h[i]));
  const std::vector<bfloat16_t> b = {bfloat16_t(1.5f), bfloat16_t(-3e38f)};
  std::vector<float> fb = RunCast<bfloat16_t, float>(npud_test::kBf16ToF32, kNone, b);
  EXPECT_EQ(fb[0], 1.5f);
  EXPECT_EQ(fb[1], static_cast<float>(b[1]));
}

TEST(CastTest, IntegersAndNarrowFloats) {
  std::vector<float> f =
      RunCast<int32_t, float>(npud_test::kI32ToF32, kRint, {16777217, -3, 2147483647});
  EXPECT_EQ(f[0], 16777216.0f);
  EXPECT_EQ(f[1], -3.0f);
  EXPECT_EQ(f[2], 2147483648.0f);
  f = RunCast<int32_t, float>(npud_test::kI32ToF32, kCeil, {16777217});
  EXPECT_EQ(f[0], 16777218.0f);

  std::vector<half> h = RunCast<int32_t, half>(npud_test::kI32ToF16, kRint, {2049, 2051, 100000});
  EXPECT_EQ(static_cast<float>(h[0]), 2048.0f);
  EXPECT_EQ(static_cast<float>(h[1]), 2052.0f);
  EXPECT_EQ(h[2].ToBits(), 0x7c00);
  h = RunCast<int32_t, half>(npud_test::kI32ToF16, kCeil, {2049});
  EXPECT_EQ(static_cast<float>(h[0]), 2050.0f);

  std::vector<int32_t> i = RunCast<half, int32_t>(npud_test::kF16ToI32, kRound,
                                                  {half(-0.5f), half(2.5f), half(1000.75f)});
  EXPECT_EQ(i[0], -1);
  EXPECT_EQ(i[1], 3);
  EXPECT_EQ(i[2], 1001);

  std::vector<bfloat16_t> b =
      RunCast<float, bfloat16_t>(npud_test::kF32ToBf16, kRint, {1.0f + std::ldexp(1.0f, -8)});
  EXPECT_EQ(b[0].ToBits(), 0x3f80);
  b = RunCast<float, bfloat16_t>(npud_test::kF32ToBf16, kCeil, {1.0f + std::ldexp(1.0f, -8)});
  EXPECT_EQ(b[0].ToBits(), 0x3f81);
}

// ---- reductions --------------------------------------------------------------------

template <class T>
std::vector<T> RunReduce(npud_test::ReduceOp op, const std::vector<T>& in) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_VECTOR);
  if (lib == nullptr) return {};
  std::vector<T> x = in;
  std::vector<T> z(32 / sizeof(T), T(-1.0f));
  const char* kernel = sizeof(T) == 4 ? "reduce_f32" : "reduce_f16";
  auto outcomes = Launch(*lib, kernel, 1, reinterpret_cast<uint8_t*>(x.data()),
                         reinterpret_cast<uint8_t*>(z.data()), static_cast<uint32_t>(op),
                         static_cast<uint32_t>(x.size()));
  EXPECT_FALSE(outcomes.empty() || outcomes[0].trapped);
  return z;
}

template <class Bits, class T>
Bits IndexBits(const T& slot) {
  Bits b;
  std::memcpy(&b, &slot, sizeof(b));
  return b;
}

TEST(ReduceTest, FloatSumMaxMin) {
  std::vector<float> x(1000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f - 100.0f;
  x[700] = 5000.0f;
  x[900] = 5000.0f;  // a tie: the first index wins
  x[12] = -7000.0f;
  double sum = 0;
  for (float v : x) sum += v;
  EXPECT_EQ(RunReduce<float>(npud_test::kReduceSum, x)[0], static_cast<float>(sum));
  EXPECT_EQ(RunReduce<float>(npud_test::kReduceMax, x)[0], 5000.0f);
  EXPECT_EQ(RunReduce<float>(npud_test::kReduceMin, x)[0], -7000.0f);
  std::vector<float> with_index = RunReduce<float>(npud_test::kReduceMaxIndex, x);
  EXPECT_EQ(with_index[0], 5000.0f);
  EXPECT_EQ(IndexBits<uint32_t>(with_index[1]), 700u);
  with_index = RunReduce<float>(npud_test::kReduceMinIndex, x);
  EXPECT_EQ(with_index[0], -7000.0f);
  EXPECT_EQ(IndexBits<uint32_t>(with_index[1]), 12u);
  // Without calIndex dst[1] keeps what the kernel put there (its Duplicate of 0).
  EXPECT_EQ(RunReduce<float>(npud_test::kReduceMax, x)[1], 0.0f);
}

TEST(ReduceTest, HalfSumMaxMin) {
  std::vector<half> x(256, half(0.5f));
  x[100] = 9.0f;
  x[30] = -3.0f;
  EXPECT_EQ(static_cast<float>(RunReduce<half>(npud_test::kReduceSum, x)[0]), 0.5f * 254 + 9 - 3);
  std::vector<half> with_index = RunReduce<half>(npud_test::kReduceMaxIndex, x);
  EXPECT_EQ(static_cast<float>(with_index[0]), 9.0f);
  EXPECT_EQ(IndexBits<uint16_t>(with_index[1]), 100);
  with_index = RunReduce<half>(npud_test::kReduceMinIndex, x);
  EXPECT_EQ(static_cast<float>(with_index[0]), -3.0f);
  EXPECT_EQ(IndexBits<uint16_t>(with_index[1]), 30);
}

}  // namespace
}  // namespace npud::ascendc_test
