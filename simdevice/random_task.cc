#include "simdevice/random_task.h"

#include <array>
#include <cmath>
#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "npud_ascendc/float_format.h"

namespace npud::sim {
namespace {

using ascendc::BinaryFormat;

// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3"): four 32-bit outputs per 128-bit counter value.
std::array<uint32_t, 4> Philox(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key) {
  constexpr uint32_t kM0 = 0xD2511F53, kM1 = 0xCD9E8D57;
  constexpr uint32_t kW0 = 0x9E3779B9, kW1 = 0xBB67AE85;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t{kM0} * ctr[0];
    const uint64_t p1 = uint64_t{kM1} * ctr[2];
    ctr = {static_cast<uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1], static_cast<uint32_t>(p0)};
    key = {key[0] + kW0, key[1] + kW1};
  }
  return ctr;
}

// 32-bit words from the counter on, one Philox block at a time.
class Words {
 public:
  Words(uint64_t seed, uint64_t counter_lo, uint64_t counter_hi)
      : key_{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)},
        lo_(counter_lo),
        hi_(counter_hi) {}

  uint32_t Next() {
    if (used_ == 4) {
      block_ = Philox({static_cast<uint32_t>(lo_), static_cast<uint32_t>(lo_ >> 32),
                       static_cast<uint32_t>(hi_), static_cast<uint32_t>(hi_ >> 32)},
                      key_);
      if (++lo_ == 0) ++hi_;
      used_ = 0;
    }
    return block_[used_++];
  }
  uint64_t Next64() { return uint64_t{Next()} << 32 | Next(); }
  // In [0, 1), 53 random bits.
  double Unit() { return static_cast<double>(Next64() >> 11) * 0x1.0p-53; }

  // The counter past every block used.
  uint64_t lo() const { return lo_; }
  uint64_t hi() const { return hi_; }

 private:
  const std::array<uint32_t, 2> key_;
  uint64_t lo_, hi_;
  std::array<uint32_t, 4> block_{};
  int used_ = 4;
};

bool IsFloat(RandomType type) {
  return type == RandomType::kFloat16 || type == RandomType::kBfloat16 ||
         type == RandomType::kFloat32;
}

BinaryFormat FormatOf(RandomType type) {
  return type == RandomType::kFloat16    ? ascendc::kBinary16
         : type == RandomType::kBfloat16 ? ascendc::kBfloat16
                                         : ascendc::kBinary32;
}

uint64_t Bits(const RandomParam& param) {
  uint64_t bits = param.bits;
  if (param.source.has_value()) {
    bits = 0;
    std::memcpy(&bits, param.source->data(), std::min<size_t>(param.size, sizeof(bits)));
  }
  if (param.size < 8) bits &= (uint64_t{1} << (8 * param.size)) - 1;
  return bits;
}

double AsDouble(const RandomParam& param, RandomType type) {
  const uint64_t bits = Bits(param);
  switch (type) {
    case RandomType::kInt32:
      return static_cast<int32_t>(bits);
    case RandomType::kInt64:
      return static_cast<double>(static_cast<int64_t>(bits));
    case RandomType::kUint32:
    case RandomType::kUint64:
      return static_cast<double>(bits);
    default:
      return ascendc::DecodeBinary(static_cast<uint32_t>(bits), FormatOf(type));
  }
}

void Store(uint8_t* at, RandomType type, uint64_t bits) {
  std::memcpy(at, &bits, ElementBytes(type));  // little-endian: the low bytes
}

absl::Status Fill(const RandomSpec& spec) {
  const uint8_t* counter = spec.counter.data();
  uint64_t lo = 0, hi = 0;
  std::memcpy(&lo, counter, 8);
  std::memcpy(&hi, counter + 8, 8);
  Words words(Bits(spec.seed), lo, hi);
  uint8_t* out = spec.result.data();
  const RandomType type = spec.type;
  const size_t width = ElementBytes(type);

  if (spec.distribution == RandomDistribution::kDropoutBitmask) {
    const double ratio = AsDouble(spec.a, RandomType::kFloat32);
    if (!(ratio >= 0 && ratio <= 1)) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("dropout ratio %g is outside [0, 1]", ratio));
    }
    std::memset(out, 0, (spec.count + 7) / 8);
    for (uint64_t i = 0; i < spec.count; ++i) {
      if (words.Unit() >= ratio) out[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
  } else if (spec.distribution == RandomDistribution::kUniform && !IsFloat(type)) {
    const bool is_signed = type == RandomType::kInt32 || type == RandomType::kInt64;
    const uint64_t a = Bits(spec.a), b = Bits(spec.b);
    // Sign-extend 32-bit values to compare and offset them as 64-bit ones.
    const auto widen = [&](uint64_t v) -> int64_t {
      return width == 4 && is_signed ? static_cast<int32_t>(v) : static_cast<int64_t>(v);
    };
    const bool ordered = is_signed ? widen(a) < widen(b) : a < b;
    if (!ordered) return AclError(kRtParamInvalid, "uniform integers need min < max");
    const uint64_t span = static_cast<uint64_t>(widen(b)) - static_cast<uint64_t>(widen(a));
    for (uint64_t i = 0; i < spec.count; ++i) {
      // Lemire's multiply-shift maps 64 random bits onto [0, span).
      const uint64_t offset =
          static_cast<uint64_t>((static_cast<unsigned __int128>(words.Next64()) * span) >> 64);
      Store(out + i * width, type, static_cast<uint64_t>(widen(a)) + offset);
    }
  } else {
    const double a = AsDouble(spec.a, type), b = AsDouble(spec.b, type);
    const bool uniform = spec.distribution == RandomDistribution::kUniform;
    if (uniform ? !(a < b) : !(b >= 0)) {
      return AclError(kRtParamInvalid, uniform ? "uniform numbers need min < max"
                                               : "normal numbers need a deviation >= 0");
    }
    for (uint64_t i = 0; i < spec.count; ++i) {
      double x;
      if (uniform) {
        x = a + words.Unit() * (b - a);
      } else {
        double z;
        do {  // Box-Muller; 1 - Unit() is in (0, 1]
          z = std::sqrt(-2 * std::log(1 - words.Unit())) * std::cos(2 * M_PI * words.Unit());
        } while (spec.distribution == RandomDistribution::kTruncatedNormal && std::fabs(z) > 2);
        x = a + b * z;
      }
      uint64_t bits = ascendc::EncodeBinary(x, FormatOf(type), ascendc::Rounding::kNearestEven);
      // Rounding may reach the excluded maximum: stay below it.
      if (uniform && ascendc::DecodeBinary(static_cast<uint32_t>(bits), FormatOf(type)) >= b) {
        bits = ascendc::EncodeBinary(x, FormatOf(type), ascendc::Rounding::kDown);
      }
      Store(out + i * width, type, bits);
    }
  }
  lo = words.lo();
  hi = words.hi();
  uint8_t* next = spec.counter.data();
  std::memcpy(next, &lo, 8);
  std::memcpy(next + 8, &hi, 8);
  return absl::OkStatus();
}

}  // namespace

size_t ElementBytes(RandomType type) {
  switch (type) {
    case RandomType::kFloat16:
    case RandomType::kBfloat16:
      return 2;
    case RandomType::kInt32:
    case RandomType::kUint32:
    case RandomType::kFloat32:
      return 4;
    case RandomType::kInt64:
    case RandomType::kUint64:
      return 8;
  }
  return 4;
}

std::unique_ptr<Task> MakeRandomTask(RandomSpec spec) {
  const uint64_t bytes = spec.result.size;
  return std::make_unique<FunctionTask>(
      "random-numbers", [spec = std::move(spec)]() { return Fill(spec); }, TaskKind::kOther, bytes);
}

}  // namespace npud::sim
