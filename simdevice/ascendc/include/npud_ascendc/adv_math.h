// adv_math.h: the element-wise advanced APIs (activations and math functions).
//
//   unary    Sigmoid Erf Erfc Log Acos Acosh Asin Asinh Atan Atanh Cos Cosh Sin Sinh
//            Tan Tanh Ceil Floor Trunc Round Frac Sign
//            template <T, bool isReuseSource = false, [config]>
//            (dst, src[, sharedTmpBuffer][, calCount]); without calCount all of src
//   Silu(dst, src, n), Swish(dst, src, n, beta)           x * sigmoid(beta * x)
//   GeGLU, ReGlu, SwiGLU (dst, src0, src1[, beta][, sharedTmpBuffer][, calCount])
//   Gelu, FasterGelu (dst, src[, sharedTmpBuffer], n)     upstream's sigmoid forms:
//            Gelu x / (1 + e^(-1.5957691216 (x + 0.044715 x^3))),
//            FasterGelu x / (1 + e^(-1.702 x))
//   Exp<T, taylorExpandLevel>(dst, src[, sharedTmpBuffer], calCount)
//   ClampMin / ClampMax (dst, src[, sharedTmpBuffer], scalar, calCount)
//   Fmod, Hypot, Power (dst, src0, src1[, sharedTmpBuffer][, calCount]); Power also
//            with a scalar base or exponent
//   Xor (dst, src0, src1[, sharedTmpBuffer][, calCount])  integers
//   Axpy (dst, src, scalar, sharedTmpBuffer, n)           dst += src * scalar, half into float
//
// Each value is computed in double from the element's value and rounded once to T
// (upstream computes in float through several instructions, so half results may
// differ in the last bit). Frac is x - trunc(x), Round rounds halves to even.
// sharedTmpBuffer (sized by tiling/vector_tmp_size.h) is accepted and not needed;
// isReuseSource and the configs (ErfConfig, ...) change nothing here.
// Checks (trap kind 1): calCount fits dst and the sources.
#ifndef NPUD_ASCENDC_ADV_MATH_H_
#define NPUD_ASCENDC_ADV_MATH_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

namespace npud::ascendc {

// dst[i] = f(src[i]) in double for i < count.
template <class T, class F>
void AdvancedUnary(const char* op, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src, uint32_t count, F f) {
  static_assert(kIsFloating<T>, "this advanced API takes half, bfloat16_t or float tensors");
  const int32_t n = static_cast<int32_t>(count);
  CheckOperand(op, dst, n, "destination");
  CheckOperand(op, src, n, "source");
  T* d = dst.Data();
  const T* s = src.Data();
  for (int32_t i = 0; i < n; ++i) d[i] = T(f(static_cast<double>(Widen(s[i]))));
}

inline double SigmoidOf(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double SignOf(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }

}  // namespace npud::ascendc

namespace AscendC {

// The configuration structs of the APIs that take one; their fields change nothing.
struct ErfConfig {};
inline constexpr ErfConfig defaultErfConfig{};

#define NPUD_ADVANCED_UNARY(Name, expression)                                                      \
  template <class T, bool isReuseSource = false, const auto&... config>                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
            const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t calCount) {            \
    ::npud::ascendc::AdvancedUnary(#Name, dstTensor, srcTensor, calCount,                          \
                                   [](double x) { return expression; });                           \
  }                                                                                                \
  template <class T, bool isReuseSource = false, const auto&... config>                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
            const LocalTensor<uint8_t>& sharedTmpBuffer) {                                         \
    Name<T, isReuseSource, config...>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize()); \
  }                                                                                                \
  template <class T, bool isReuseSource = false, const auto&... config>                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
            const uint32_t calCount) {                                                             \
    ::npud::ascendc::AdvancedUnary(#Name, dstTensor, srcTensor, calCount,                          \
                                   [](double x) { return expression; });                           \
  }                                                                                                \
  template <class T, bool isReuseSource = false, const auto&... config>                            \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                    \
    Name<T, isReuseSource, config...>(dstTensor, srcTensor, srcTensor.GetSize());                  \
  }

NPUD_ADVANCED_UNARY(Sigmoid, ::npud::ascendc::SigmoidOf(x))
NPUD_ADVANCED_UNARY(Erf, std::erf(x))
NPUD_ADVANCED_UNARY(Erfc, std::erfc(x))
NPUD_ADVANCED_UNARY(Log, std::log(x))
NPUD_ADVANCED_UNARY(Acos, std::acos(x))
NPUD_ADVANCED_UNARY(Acosh, std::acosh(x))
NPUD_ADVANCED_UNARY(Asin, std::asin(x))
NPUD_ADVANCED_UNARY(Asinh, std::asinh(x))
NPUD_ADVANCED_UNARY(Atan, std::atan(x))
NPUD_ADVANCED_UNARY(Atanh, std::atanh(x))
NPUD_ADVANCED_UNARY(Cos, std::cos(x))
NPUD_ADVANCED_UNARY(Cosh, std::cosh(x))
NPUD_ADVANCED_UNARY(Sin, std::sin(x))
NPUD_ADVANCED_UNARY(Sinh, std::sinh(x))
NPUD_ADVANCED_UNARY(Tan, std::tan(x))
NPUD_ADVANCED_UNARY(Tanh, std::tanh(x))
NPUD_ADVANCED_UNARY(Ceil, std::ceil(x))
NPUD_ADVANCED_UNARY(Floor, std::floor(x))
NPUD_ADVANCED_UNARY(Trunc, std::trunc(x))
NPUD_ADVANCED_UNARY(Round, std::nearbyint(x))  // ties to even (the default rounding)
NPUD_ADVANCED_UNARY(Frac, x - std::trunc(x))
NPUD_ADVANCED_UNARY(Sign, ::npud::ascendc::SignOf(x))
#undef NPUD_ADVANCED_UNARY

template <class T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
  ::npud::ascendc::AdvancedUnary("Silu", dstLocal, srcLocal, dataSize,
                                 [](double x) { return x * ::npud::ascendc::SigmoidOf(x); });
}
template <class T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
           const typename ::npud::ascendc::NoDeduce<T>::type scalarValue) {
  const double beta = static_cast<double>(::npud::ascendc::Widen(scalarValue));
  ::npud::ascendc::AdvancedUnary("Swish", dstLocal, srcLocal, dataSize, [beta](double x) {
    return x * ::npud::ascendc::SigmoidOf(beta * x);
  });
}

template <class T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
  ::npud::ascendc::AdvancedUnary("Gelu", dstLocal, srcLocal, dataSize, [](double x) {
    return x / (1 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x)));
  });
}
template <class T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
          const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t dataSize) {
  Gelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, dataSize);
}
template <class T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const uint32_t dataSize) {
  ::npud::ascendc::AdvancedUnary("FasterGelu", dstLocal, srcLocal, dataSize,
                                 [](double x) { return x / (1 + std::exp(-1.702 * x)); });
}
template <class T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t dataSize) {
  FasterGelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, dataSize);
}

template <class T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
         const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t calCount) {
  ::npud::ascendc::AdvancedUnary("Exp", dstLocal, srcLocal, calCount,
                                 [](double x) { return std::exp(x); });
}
template <class T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount) {
  ::npud::ascendc::AdvancedUnary("Exp", dstLocal, srcLocal, calCount,
                                 [](double x) { return std::exp(x); });
}

template <class T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const T scalar,
              const uint32_t calCount) {
  const double low = static_cast<double>(::npud::ascendc::Widen(scalar));
  ::npud::ascendc::AdvancedUnary("ClampMin", dstTensor, srcTensor, calCount,
                                 [low](double x) { return x < low ? low : x; });
}
template <class T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
  ClampMin<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scalar, calCount);
}
template <class T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const T scalar,
              const uint32_t calCount) {
  const double high = static_cast<double>(::npud::ascendc::Widen(scalar));
  ::npud::ascendc::AdvancedUnary("ClampMax", dstTensor, srcTensor, calCount,
                                 [high](double x) { return x > high ? high : x; });
}
template <class T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
  ClampMax<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scalar, calCount);
}

inline constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
inline constexpr FmodConfig DEFAULT_FMOD_CONFIG{};
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
inline constexpr PowerConfig defaultPowerConfig{};

}  // namespace AscendC

namespace npud::ascendc {

// dst[i] = f(a(i), b(i)) in double for i < count; a and b read a tensor or give a scalar.
template <class T, class A, class B, class F>
void AdvancedBinary(const char* op, const AscendC::LocalTensor<T>& dst, uint32_t count, A a, B b,
                    F f) {
  static_assert(kIsFloating<T>, "this advanced API takes half, bfloat16_t or float tensors");
  CheckOperand(op, dst, static_cast<int32_t>(count), "destination");
  T* d = dst.Data();
  for (uint32_t i = 0; i < count; ++i) d[i] = T(f(a(i), b(i)));
}
template <class T>
auto ReadTensor(const char* op, const AscendC::LocalTensor<T>& t, uint32_t count) {
  CheckOperand(op, t, static_cast<int32_t>(count), "source");
  return [data = t.Data()](uint32_t i) { return static_cast<double>(Widen(data[i])); };
}
template <class T>
auto ReadScalar(T value) {
  return [v = static_cast<double>(Widen(value))](uint32_t) { return v; };
}

}  // namespace npud::ascendc

namespace AscendC {

// The binary advanced APIs: (dst, src0, src1[, tmp][, calCount]).
#define NPUD_ADVANCED_BINARY(Name, ConfigType, default_config, expression)                     \
  template <class T, bool isReuseSource = false, const ConfigType& config = default_config>    \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                 \
            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, \
            const uint32_t calCount) {                                                         \
    ::npud::ascendc::AdvancedBinary(#Name, dstTensor, calCount,                                \
                                    ::npud::ascendc::ReadTensor(#Name, src0Tensor, calCount),  \
                                    ::npud::ascendc::ReadTensor(#Name, src1Tensor, calCount),  \
                                    [](double x, double y) { return expression; });            \
  }                                                                                            \
  template <class T, bool isReuseSource = false, const ConfigType& config = default_config>    \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                 \
            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {   \
    Name<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,         \
                                   src0Tensor.GetSize());                                      \
  }                                                                                            \
  template <class T, bool isReuseSource = false, const ConfigType& config = default_config>    \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                 \
            const LocalTensor<T>& src1Tensor, const uint32_t calCount) {                       \
    Name<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(),  \
                                   calCount);                                                  \
  }                                                                                            \
  template <class T, bool isReuseSource = false, const ConfigType& config = default_config>    \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                 \
            const LocalTensor<T>& src1Tensor) {                                                \
    Name<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());   \
  }

struct HypotConfig {};
inline constexpr HypotConfig defaultHypotConfig{};
NPUD_ADVANCED_BINARY(Fmod, FmodConfig, DEFAULT_FMOD_CONFIG, std::fmod(x, y))
NPUD_ADVANCED_BINARY(Hypot, HypotConfig, defaultHypotConfig, std::hypot(x, y))
NPUD_ADVANCED_BINARY(Power, PowerConfig, defaultPowerConfig, std::pow(x, y))
#undef NPUD_ADVANCED_BINARY

// Power with a scalar exponent or base.
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, uint32_t calCount) {
  ::npud::ascendc::AdvancedBinary(
      "Power", dstTensor, calCount, ::npud::ascendc::ReadTensor("Power", src0Tensor, calCount),
      ::npud::ascendc::ReadScalar(src1Scalar), [](double x, double y) { return std::pow(x, y); });
}
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer,
                                  src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           uint32_t calCount) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Scalar, LocalTensor<uint8_t>(),
                                  calCount);
}
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, uint32_t calCount) {
  ::npud::ascendc::AdvancedBinary("Power", dstTensor, calCount,
                                  ::npud::ascendc::ReadScalar(src0Scalar),
                                  ::npud::ascendc::ReadTensor("Power", src1Tensor, calCount),
                                  [](double x, double y) { return std::pow(x, y); });
}
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer,
                                  src1Tensor.GetSize());
}
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           uint32_t calCount) {
  Power<T, isReuseSource, config>(dstTensor, src0Scalar, src1Tensor, LocalTensor<uint8_t>(),
                                  calCount);
}
template <class T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor) {
  Power<T, isReuseSource, config>(dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize());
}

// The gated linear units: src1 through the activation, times src0.
//   GeGLU   x0 * x1 / (1 + e^(-0.0713548162726 (x1^2 + 22.363860002236) x1))
//   ReGlu   x0 * max(0, x1)
//   SwiGLU  x0 * x1 / (1 + e^(-beta x1))
#define NPUD_GLU(Name, expression, ...)                                                       \
  template <class T, bool isReuseSource = false>                                              \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,                \
            const LocalTensor<T>& srcTensor1 __VA_ARGS__,                                     \
            const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t calCount) {       \
    ::npud::ascendc::AdvancedBinary(#Name, dstTensor, calCount,                               \
                                    ::npud::ascendc::ReadTensor(#Name, srcTensor0, calCount), \
                                    ::npud::ascendc::ReadTensor(#Name, srcTensor1, calCount), \
                                    [&](double x0, double x1) { return expression; });        \
  }
NPUD_GLU(GeGLU, x0* x1 / (1 + std::exp(-0.0713548162726 * (x1 * x1 + 22.363860002236) * x1)))
NPUD_GLU(ReGlu, x0*(x1 > 0 ? x1 : 0))
NPUD_GLU(SwiGLU, x0* x1 / (1 + std::exp(-static_cast<double>(scalarValue) * x1)), ,
         const float& scalarValue)
#undef NPUD_GLU

template <class T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize());
}
template <class T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, uint32_t calCount) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, LocalTensor<uint8_t>(), calCount);
}
template <class T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize());
}
template <class T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const uint32_t calCount) {
  ReGlu<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, LocalTensor<uint8_t>(), calCount);
}
template <class T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer,
                           srcTensor0.GetSize());
}
template <class T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, LocalTensor<uint8_t>(),
                           calCount);
}
template <class T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize());
}

template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
         const uint32_t calCount) {
  ::npud::ascendc::RequireIntegral<T>();
  ::npud::ascendc::BinaryOp("Xor", dstTensor, src0Tensor, src1Tensor,
                            static_cast<int32_t>(calCount),
                            [](auto a, auto b) { return static_cast<T>(a ^ b); });
}
template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), calCount);
}
template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

// The advanced Axpy: dst (float or T) += src * scalar, each product rounded to U.
template <class T, class U, bool isReuseSource = false>
void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
          const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t calCount) {
  Axpy(dstTensor, srcTensor, scalarValue, static_cast<int32_t>(calCount));
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_MATH_H_
