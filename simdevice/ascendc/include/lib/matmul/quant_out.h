// lib/matmul/quant_out.h: how the CPU Matmul (lib/matmul_intf.h) converts a result on
// its way out of L0C into C's type: a plain conversion (with enableRelu, negative
// results become zero), or with SetQuantScalar / SetQuantVector the fixpipe's
// quantisation (npud_ascendc/fixpipe.h): int32 results to half (DEQF16), int32 to int8
// (REQ8), float to int8 (QF322B8_PRE), with one word for all of C or one per column.
#ifndef NPUD_LIB_MATMUL_QUANT_OUT_H_
#define NPUD_LIB_MATMUL_QUANT_OUT_H_

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"

namespace AscendC::npud_matmul {

struct OutputQuant {
  bool on = false;
  uint64_t word = 0;                 // SetQuantScalar's
  const uint64_t* vector = nullptr;  // SetQuantVector's, one word per column of the core's C

  // `value` (the accumulator: int64 for integer inputs, float otherwise) of column `col`.
  template <class TC, class Acc>
  TC Convert(Acc value, uint64_t col, bool relu) const {
    if (!on) {
      if (relu && value < Acc{}) value = Acc{};
      return static_cast<TC>(value);
    }
    using L0C = std::conditional_t<std::is_integral_v<Acc>, int32_t, float>;
    QuantMode_t mode;
    if constexpr (std::is_integral_v<Acc> && !std::is_integral_v<TC>) {
      mode = vector != nullptr ? QuantMode_t::VDEQF16 : QuantMode_t::DEQF16;
    } else if constexpr (std::is_integral_v<Acc>) {
      mode = vector != nullptr ? QuantMode_t::VREQ8 : QuantMode_t::REQ8;
    } else {
      mode = vector != nullptr ? QuantMode_t::VQF322B8_PRE : QuantMode_t::QF322B8_PRE;
    }
    return ::npud::ascendc::ConvertOut<TC, L0C>(static_cast<L0C>(value), mode,
                                                vector != nullptr ? vector[col] : word, relu);
  }
};

}  // namespace AscendC::npud_matmul

#endif  // NPUD_LIB_MATMUL_QUANT_OUT_H_
