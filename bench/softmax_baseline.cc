#include "bench/softmax_baseline.h"

#include <algorithm>
#include <cmath>

namespace npud::bench {

void SoftmaxRows(const float* x, float* y, uint64_t rows, uint32_t cols) {
  for (uint64_t r = 0; r < rows; ++r) {
    const float* in = x + r * cols;
    float* out = y + r * cols;
    float max = in[0];
    for (uint32_t j = 0; j < cols; ++j) max = std::max(max, in[j]);
    float sum = 0;
    for (uint32_t j = 0; j < cols; ++j) {
      out[j] = std::exp(in[j] - max);
      sum += out[j];
    }
    const float scale = 1.0f / sum;
    for (uint32_t j = 0; j < cols; ++j) out[j] *= scale;
  }
}

}  // namespace npud::bench
