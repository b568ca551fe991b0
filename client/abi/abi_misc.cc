// ACL helpers that need no device: fp16 conversion, data type sizes, data
// buffers and application logging.

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/client_log.h"
#include "client/generated/acl_impl.h"

// The opaque type behind aclDataBuffer.
struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace {

constexpr uint16_t kHalfMaxMagnitude = 0x7BFF;  // 65504

uint16_t RoundedShift(uint32_t mantissa, int shift) {
  uint32_t result = mantissa >> shift;
  const uint32_t remainder = mantissa & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (remainder > halfway || (remainder == halfway && (result & 1))) ++result;
  return static_cast<uint16_t>(result);
}

}  // namespace

namespace npud::abi_impl {

// Round to nearest even; NaN, infinities and overflow saturate to +-65504.
aclFloat16 aclFloatToFloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const int exponent = static_cast<int>((bits >> 23) & 0xFF);
  uint32_t mantissa = bits & 0x7FFFFF;
  if (exponent == 0xFF) return sign | kHalfMaxMagnitude;
  int half_exponent = exponent - 127 + 15;
  if (half_exponent >= 31) return sign | kHalfMaxMagnitude;
  if (half_exponent <= 0) {
    if (half_exponent < -10) return sign;  // Below half the smallest subnormal.
    mantissa |= 0x800000;
    return sign | RoundedShift(mantissa, 14 - half_exponent);
  }
  uint32_t half_mantissa = RoundedShift(mantissa, 13);
  if (half_mantissa == 0x400) {  // Rounding carried into the exponent.
    half_mantissa = 0;
    if (++half_exponent >= 31) return sign | kHalfMaxMagnitude;
  }
  return sign | static_cast<uint16_t>(half_exponent << 10) | static_cast<uint16_t>(half_mantissa);
}

// Exponent 31 is read as an ordinary exponent, so infinities and NaNs come
// back as large finite numbers, as CANN's helper does.
float aclFloat16ToFloat(aclFloat16 value) {
  const int exponent = (value >> 10) & 0x1F;
  const int mantissa = value & 0x3FF;
  float magnitude = exponent == 0
                        ? std::ldexp(static_cast<float>(mantissa), -24)
                        : std::ldexp(1.0f + static_cast<float>(mantissa) / 1024.0f, exponent - 15);
  return (value & 0x8000) ? -magnitude : magnitude;
}

size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
    case ACL_INT4:
    case ACL_UINT1:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
      return 0;
    default:
      // CANN answers 8 for every type its table lacks, which includes the
      // 6- and 4-bit float types.
      return 8;
  }
}

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  return new aclDataBuffer{data, size};
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  NPUD_REQUIRE_NOT_NULL(dataBuffer);
  delete dataBuffer;
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  NPUD_REQUIRE_NOT_NULL(dataBuffer);
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  return dataBuffer != nullptr ? dataBuffer->data : nullptr;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return dataBuffer != nullptr ? static_cast<uint32_t>(dataBuffer->size) : 0;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  return dataBuffer != nullptr ? dataBuffer->size : 0;
}

// The generated entry point owns the va_list (va_start / va_end).
void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
               const char* fmt, va_list args) {
  if (fmt == nullptr) return;
  char text[1024];
  std::vsnprintf(text, sizeof(text), fmt, args);
  spdlog::level::level_enum level = spdlog::level::err;
  switch (logLevel) {
    case ACL_DEBUG:
      level = spdlog::level::debug;
      break;
    case ACL_INFO:
      level = spdlog::level::info;
      break;
    case ACL_WARNING:
      level = spdlog::level::warn;
      break;
    default:
      break;
  }
  npud::client::ClientLog().log(level, "[{}:{} {}] {}", file != nullptr ? file : "?", line,
                                func != nullptr ? func : "?", text);
}

}  // namespace npud::abi_impl
