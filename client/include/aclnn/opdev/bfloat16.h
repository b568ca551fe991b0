/*
 * opdev/bfloat16.h: the host bfloat16 type of CANN's operator API
 * (op::bfloat16, defined as Ops::Base::bfloat16), for host code that fills
 * and checks bf16 tensors. Written for npud from CANN's published interface;
 * header-only, so it needs no library.
 *
 * Conversions from float round to nearest even (NaN becomes 0x7FC0); the
 * arithmetic is float arithmetic rounded back. Every conversion to an
 * arithmetic type goes through float, as in CANN.
 */
#ifndef NPUD_OPDEV_BFLOAT16_H_
#define NPUD_OPDEV_BFLOAT16_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <ostream>

namespace Ops {
namespace Base {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

struct bfloat16 {
    struct from_bits_t {};
    static constexpr from_bits_t from_bits() { return from_bits_t(); }

    /* The raw bits, as from_bits() asks. */
    constexpr bfloat16(uint16_t bits, from_bits_t) : value(bits) {}
    bfloat16() : value(0) {}
    bfloat16(float v) : value(round_to_bfloat16(v).value) {}
    /* Complex values keep their real part, as numpy converts them. */
    bfloat16(const complex64& v) : bfloat16(v.real()) {}
    bfloat16(const complex128& v) : bfloat16(static_cast<float>(v.real())) {}
    template <class T>
    bfloat16(const T& v) : bfloat16(static_cast<float>(v)) {}

    template <typename T>
    bfloat16& operator=(T other) {
        value = round_to_bfloat16(static_cast<float>(other)).value;
        return *this;
    }

    operator float() const {
        const uint32_t bits = static_cast<uint32_t>(value) << 16;
        float result;
        std::memcpy(&result, &bits, sizeof(result));
        return result;
    }
    /* Nonzero: at least float's epsilon in magnitude. */
    operator bool() const { return std::fabs(float(*this)) >= std::numeric_limits<float>::epsilon(); }
    operator char() const { return static_cast<char>(float(*this)); }
    operator signed char() const { return static_cast<signed char>(float(*this)); }
    operator unsigned char() const { return static_cast<unsigned char>(float(*this)); }
    operator short() const { return static_cast<short>(float(*this)); }
    operator unsigned short() const { return static_cast<unsigned short>(float(*this)); }
    operator int() const { return static_cast<int>(float(*this)); }
    operator unsigned int() const { return static_cast<unsigned int>(float(*this)); }
    operator long() const { return static_cast<long>(float(*this)); }
    operator unsigned long() const { return static_cast<unsigned long>(float(*this)); }
    operator long long() const { return static_cast<long long>(float(*this)); }
    operator unsigned long long() const { return static_cast<unsigned long long>(float(*this)); }
    operator double() const { return static_cast<double>(float(*this)); }
    operator complex64() const { return complex64(float(*this), 0.0f); }
    operator complex128() const { return complex128(double(*this), 0.0); }

    /* Round to nearest even; a NaN stays a quiet NaN. */
    static bfloat16 round_to_bfloat16(float v) {
        bfloat16 out;
        if (std::isnan(v)) {
            out.value = NAN_VALUE;
            return out;
        }
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof(bits));
        bits += 0x7FFFu + ((bits >> 16) & 1u);
        out.value = static_cast<uint16_t>(bits >> 16);
        return out;
    }

    static constexpr bfloat16 epsilon() { return bfloat16(0x3C00, from_bits()); }
    static constexpr bfloat16 highest() { return bfloat16(0x7F7F, from_bits()); }
    static constexpr bfloat16 lowest() { return bfloat16(0xFF7F, from_bits()); }
    static constexpr bfloat16 min_positive_normal() { return bfloat16(0x0080, from_bits()); }

    bool IsZero() const { return (value & 0x7FFF) == 0; }

    uint16_t value;
    static constexpr uint16_t NAN_VALUE = 0x7FC0;
};

inline std::ostream& operator<<(std::ostream& os, const bfloat16& v) { return os << static_cast<float>(v); }

inline bfloat16 operator+(bfloat16 a, bfloat16 b) { return bfloat16(float(a) + float(b)); }
inline bfloat16 operator+(bfloat16 a, int b) { return bfloat16(float(a) + static_cast<float>(b)); }
inline bfloat16 operator+(int a, bfloat16 b) { return bfloat16(static_cast<float>(a) + float(b)); }
inline bfloat16 operator-(bfloat16 a, bfloat16 b) { return bfloat16(float(a) - float(b)); }
inline bfloat16 operator*(bfloat16 a, bfloat16 b) { return bfloat16(float(a) * float(b)); }
inline bfloat16 operator/(bfloat16 a, bfloat16 b) { return bfloat16(float(a) / float(b)); }
inline bfloat16 operator-(bfloat16 a) {
    a.value ^= 0x8000;
    return a;
}

/* Equality compares the bits; ordering compares values. */
inline bool operator==(bfloat16 a, bfloat16 b) { return a.value == b.value; }
inline bool operator!=(bfloat16 a, bfloat16 b) { return a.value != b.value; }
inline bool operator<(bfloat16 a, bfloat16 b) { return float(a) < float(b); }
inline bool operator<=(bfloat16 a, bfloat16 b) { return float(a) <= float(b); }
inline bool operator>=(bfloat16 a, bfloat16 b) { return float(a) >= float(b); }
template <typename T>
bool operator<(T a, bfloat16 b) {
    return static_cast<float>(a) < static_cast<float>(b);
}
template <typename T>
bool operator>(T a, bfloat16 b) {
    return static_cast<float>(a) > static_cast<float>(b);
}

inline bfloat16& operator+=(bfloat16& a, bfloat16 b) { return a = a + b; }
inline bfloat16& operator-=(bfloat16& a, bfloat16 b) { return a = a - b; }
inline bfloat16& operator*=(bfloat16& a, bfloat16 b) { return a = a * b; }
inline bfloat16& operator/=(bfloat16& a, bfloat16 b) { return a = a / b; }
inline bfloat16 operator++(bfloat16& a) { return a += bfloat16(1.0f); }
inline bfloat16 operator--(bfloat16& a) { return a -= bfloat16(1.0f); }
inline bfloat16 operator++(bfloat16& a, int) {
    const bfloat16 before = a;
    ++a;
    return before;
}
inline bfloat16 operator--(bfloat16& a, int) {
    const bfloat16 before = a;
    --a;
    return before;
}

}  // namespace Base
}  // namespace Ops

namespace op {
using Ops::Base::bfloat16;
using Ops::Base::complex128;
using Ops::Base::complex64;
}  // namespace op

/* The standard library's view of the type, as CANN declares it. */
namespace std {

template <>
struct hash<Ops::Base::bfloat16> {
    size_t operator()(const Ops::Base::bfloat16& v) const { return hash<float>()(static_cast<float>(v)); }
};

inline bool isinf(const Ops::Base::bfloat16& a) { return std::isinf(float(a)); }
inline bool isnan(const Ops::Base::bfloat16& a) { return std::isnan(float(a)); }
inline bool isfinite(const Ops::Base::bfloat16& a) { return std::isfinite(float(a)); }
#define NPUD_BF16_UNARY(name) \
    inline Ops::Base::bfloat16 name(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::name(float(a))); }
NPUD_BF16_UNARY(abs)
NPUD_BF16_UNARY(exp)
NPUD_BF16_UNARY(log)
NPUD_BF16_UNARY(log10)
NPUD_BF16_UNARY(sqrt)
NPUD_BF16_UNARY(sin)
NPUD_BF16_UNARY(cos)
NPUD_BF16_UNARY(tan)
NPUD_BF16_UNARY(tanh)
NPUD_BF16_UNARY(floor)
NPUD_BF16_UNARY(ceil)
#undef NPUD_BF16_UNARY
inline Ops::Base::bfloat16 pow(const Ops::Base::bfloat16& a, const Ops::Base::bfloat16& b) {
    return Ops::Base::bfloat16(std::pow(float(a), float(b)));
}

template <>
class numeric_limits<Ops::Base::bfloat16> {
    using T = Ops::Base::bfloat16;
    static constexpr T Bits(uint16_t bits) { return T(bits, T::from_bits()); }

public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = true;
    static constexpr auto has_denorm = numeric_limits<float>::has_denorm;
    static constexpr auto has_denorm_loss = numeric_limits<float>::has_denorm_loss;
    static constexpr auto round_style = numeric_limits<float>::round_style;
    static constexpr bool is_iec559 = false;
    static constexpr bool is_bounded = true;
    static constexpr bool is_modulo = false;
    static constexpr int digits = 8;
    static constexpr int digits10 = 2;
    static constexpr int max_digits10 = 4;
    static constexpr int radix = 2;
    static constexpr int min_exponent = -125;
    static constexpr int min_exponent10 = -37;
    static constexpr int max_exponent = 128;
    static constexpr int max_exponent10 = 38;
    static constexpr auto traps = numeric_limits<float>::traps;
    static constexpr auto tinyness_before = numeric_limits<float>::tinyness_before;

    static constexpr T min() { return T::min_positive_normal(); }
    static constexpr T lowest() { return T::lowest(); }
    static constexpr T max() { return T::highest(); }
    static constexpr T epsilon() { return T::epsilon(); }
    static constexpr T round_error() { return Bits(0x3F00); }
    static constexpr T infinity() { return Bits(0x7F80); }
    static constexpr T quiet_NaN() { return Bits(T::NAN_VALUE); }
    static constexpr T signaling_NaN() { return Bits(0x7F80); }
    static constexpr T denorm_min() { return Bits(0x0001); }
};

}  // namespace std

#endif /* NPUD_OPDEV_BFLOAT16_H_ */
