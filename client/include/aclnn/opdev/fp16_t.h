/*
 * opdev/fp16_t.h: the host half-precision type of CANN's operator API
 * (op::fp16_t), for host code that fills and checks fp16 tensors. Written
 * for npud from CANN's published interface; header-only, so it needs no
 * library (CANN defines its members in libnnopbase.so).
 *
 * Behaviour, as CANN's:
 *   - the constructor from uint16_t takes raw bits (fp16_t(uint16_t(0x3C00))
 *     is 1.0); the constructor from any other type, and every assignment,
 *     convert the value;
 *   - conversions to fp16 round to nearest even; overflow gives infinity;
 *   - the arithmetic is correctly rounded (computed in float, whose 24-bit
 *     significand makes rounding twice harmless), except that dividing by
 *     zero gives the largest finite value of the quotient's sign;
 *   - conversions to integer types round to nearest even and saturate;
 *     infinity and NaN give the type's extreme of their sign;
 *   - == and != compare bits, with +0 equal to -0.
 */
#ifndef NPUD_OPDEV_FP16_T_H_
#define NPUD_OPDEV_FP16_T_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bfloat16.h"

/* Field masks and tests of the bit pattern (CANN's names). */
#define FP16_EXP_BIAS (15)
#define FP16_EXP_LEN (5)
#define FP16_MAN_LEN (10)
#define FP16_SIGN_INDEX (15)
#define FP16_SIGN_MASK (0x8000)
#define FP16_EXP_MASK (0x7C00)
#define FP16_MAN_MASK (0x03FF)
#define FP16_MAN_HIDE_BIT (0x0400)
#define FP16_MAX (0x7BFF)
#define FP16_MIN (0xFBFF)
#define FP16_ABS_MAX (0x7FFF)
#define FP16_MAX_EXP (0x001F)
#define FP16_MAX_VALID_EXP (0x001E)
#define FP16_MAX_MAN (0x03FF)
#define FP16_MIN_NORMAL ((1.0f / (2 << 14)))
#define FP16_EXTRAC_SIGN(x) (((x) >> 15) & 1)
#define FP16_EXTRAC_EXP(x) (((x) >> 10) & FP16_MAX_EXP)
#define FP16_EXTRAC_MAN(x) ((((x) >> 0) & 0x3FF) | (((((x) >> 10) & 0x1F) > 0 ? 1 : 0) * 0x400))
#define FP16_CONSTRUCTOR(s, e, m) \
    (static_cast<uint16_t>(((s) << FP16_SIGN_INDEX) | ((e) << FP16_MAN_LEN) | ((m) & FP16_MAX_MAN)))
#define FP16_IS_ZERO(x) (((x) & FP16_ABS_MAX) == 0)
#define FP16_IS_DENORM(x) ((((x) & FP16_EXP_MASK) == 0))
#define FP16_IS_INF(x) (((x) & FP16_ABS_MAX) == FP16_ABS_MAX)
#define FP16_IS_NAN(x) ((((x) & FP16_EXP_MASK) == FP16_EXP_MASK) && ((x) & FP16_MAN_MASK))
#define FP16_IS_INVALID(x) (((x) & FP16_EXP_MASK) == FP16_EXP_MASK)

namespace op {

typedef enum tagFp16RoundMode {
    ROUND_TO_NEAREST = 0,
    ROUND_BY_TRUNCATED,
    ROUND_MODE_RESERVED,
} fp16RoundMode_t;

namespace fp16_detail {

/* IEEE half from a double, rounded to nearest even. A double holds every
 * float and integer of interest exactly, so one rounding serves them all. */
inline uint16_t FromDouble(double v) {
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    if (std::isnan(v)) return static_cast<uint16_t>(sign | 0x7E00);
    const double a = std::fabs(v);
    if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7C00);  /* rounds past the maximum */
    if (a < std::ldexp(1.0, -14)) {
        /* Subnormal: a multiple of 2^-24, rounded to nearest even. */
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24))));
    }
    int exponent = 0;
    const double fraction = std::frexp(a, &exponent);  /* a = fraction * 2^exponent, fraction in [0.5, 1) */
    uint32_t significand = static_cast<uint32_t>(std::nearbyint(std::ldexp(fraction, 11)));
    if (significand == 2048) {  /* rounded up to the next power of two */
        significand = 1024;
        ++exponent;
    }
    const uint32_t biased = static_cast<uint32_t>(exponent - 1 + 15);
    if (biased >= 31) return static_cast<uint16_t>(sign | 0x7C00);
    return static_cast<uint16_t>(sign | (biased << 10) | (significand & 0x3FF));
}

inline float ToFloat(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    float magnitude;
    if (exponent == 0) {
        magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    } else if (exponent == 31) {
        magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
    } else {
        magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
    }
    return (bits & 0x8000) ? -magnitude : magnitude;
}

/* Round to nearest even into T's range; infinities and NaN give T's extreme of their sign. */
template <typename T>
T ToInteger(uint16_t bits) {
    const float v = ToFloat(bits);
    const bool negative = (bits & 0x8000) != 0;
    if (std::isnan(v) || std::isinf(v)) {
        return negative ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    }
    const double rounded = std::nearbyint(static_cast<double>(v));
    if (rounded <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (rounded >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(rounded);
}

}  // namespace fp16_detail

typedef struct tagFp16 {
    uint16_t val;

public:
    tagFp16(void) : val(0) {}
    /* Any value but raw bits. */
    template <typename T>
    tagFp16(const T& value) : val(0) {
        *this = value;
    }
    tagFp16(const bfloat16& value) : val(fp16_detail::FromDouble(static_cast<float>(value))) {}
    /* Raw bits. */
    constexpr tagFp16(const uint16_t& uiVal) : val(uiVal) {}
    tagFp16(const tagFp16& fp) : val(fp.val) {}

    tagFp16 operator+(const tagFp16 fp) const { return FromFloat(ToFloat() + fp.ToFloat()); }
    tagFp16 operator-(const tagFp16 fp) const { return FromFloat(ToFloat() - fp.ToFloat()); }
    tagFp16 operator*(const tagFp16 fp) const { return FromFloat(ToFloat() * fp.ToFloat()); }
    tagFp16 operator/(const tagFp16 fp) const {
        if (FP16_IS_ZERO(fp.val)) return tagFp16(static_cast<uint16_t>(((val ^ fp.val) & FP16_SIGN_MASK) | FP16_MAX));
        return FromFloat(ToFloat() / fp.ToFloat());
    }
    tagFp16 operator+=(const tagFp16 fp) { return *this = *this + fp; }
    tagFp16 operator-=(const tagFp16 fp) { return *this = *this - fp; }
    tagFp16 operator*=(const tagFp16 fp) { return *this = *this * fp; }
    tagFp16 operator/=(const tagFp16 fp) { return *this = *this / fp; }

    bool operator==(const tagFp16& fp) const { return (FP16_IS_ZERO(val) && FP16_IS_ZERO(fp.val)) || val == fp.val; }
    bool operator!=(const tagFp16& fp) const { return !(*this == fp); }
    bool operator>(const tagFp16& fp) const { return ToFloat() > fp.ToFloat(); }
    bool operator>=(const tagFp16& fp) const { return *this > fp || *this == fp; }
    bool operator<(const tagFp16& fp) const { return !(*this >= fp); }
    bool operator<=(const tagFp16& fp) const { return !(*this > fp); }

    tagFp16& operator=(const tagFp16& fp) {
        val = fp.val;
        return *this;
    }
    /* Every arithmetic type converts its value (uint16_t too: only the
     * constructor takes bits). */
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
    tagFp16& operator=(const T& value) {
        val = fp16_detail::FromDouble(static_cast<double>(value));
        return *this;
    }
    tagFp16& operator=(const bfloat16& value) {
        val = fp16_detail::FromDouble(static_cast<float>(value));
        return *this;
    }

    operator float() const { return ToFloat(); }
    operator double() const { return ToFloat(); }
    operator bfloat16() const { return bfloat16(ToFloat()); }
    operator int8_t() const { return fp16_detail::ToInteger<int8_t>(val); }
    operator uint8_t() const { return fp16_detail::ToInteger<uint8_t>(val); }
    operator int16_t() const { return fp16_detail::ToInteger<int16_t>(val); }
    operator uint16_t() const { return fp16_detail::ToInteger<uint16_t>(val); }
    operator int32_t() const { return fp16_detail::ToInteger<int32_t>(val); }
    operator uint32_t() const { return fp16_detail::ToInteger<uint32_t>(val); }
    operator int64_t() const { return fp16_detail::ToInteger<int64_t>(val); }
    operator uint64_t() const { return fp16_detail::ToInteger<uint64_t>(val); }
    operator bool() const { return !FP16_IS_ZERO(val); }

    /* 1 for +infinity, -1 for -infinity, 0 otherwise. */
    int IsInf() const {
        if ((val & FP16_ABS_MAX) != FP16_EXP_MASK) return 0;
        return (val & FP16_SIGN_MASK) ? -1 : 1;
    }

    float toFloat() const { return ToFloat(); }
    double toDouble() const { return ToFloat(); }
    int8_t toInt8() const { return *this; }
    uint8_t toUInt8() const { return *this; }
    int16_t toInt16() const { return *this; }
    uint16_t toUInt16() const { return *this; }
    int32_t toInt32() const { return *this; }
    uint32_t toUInt32() const { return *this; }

private:
    float ToFloat() const { return fp16_detail::ToFloat(val); }
    static tagFp16 FromFloat(float v) { return tagFp16(fp16_detail::FromDouble(v)); }
} fp16_t;

template <typename T>
bool operator<(T a, op::fp16_t b) {
    return a < static_cast<T>(b);
}

template <typename T>
bool operator>(T a, op::fp16_t b) {
    return a > static_cast<T>(b);
}

}  // namespace op

namespace std {
inline bool isnan(op::fp16_t value) { return FP16_IS_NAN(value.val); }
inline float abs(op::fp16_t value) { return std::fabs(value.toFloat()); }
}  // namespace std

#endif /* NPUD_OPDEV_FP16_T_H_ */
