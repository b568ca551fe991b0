// softmax_flash_v3.h: SoftmaxFlashV3, the softmax step of the PASA algorithm: each row
// is shifted towards its mean block by block before the FlashAttention-2 update.
//
//   SoftmaxFlashV3<T, U, isUpdate, ...>(dst, mean, expSum, max, src, expMax, inMean,
//                                       inExpSum, inMax[, sharedTmpBuffer], tiling, params)
//   per row of params.srcK = W elements (W a multiple of 512, baseK = W / 8), with
//   s = alpha / (1 - alpha):
//     local_j: the vector unit's block sums (elements [64j, 64j + 64) of the first 512,
//              and of every later 64 the elements [8j, 8j + 8)) over baseK, j < 8
//     global = mean of local_j;  x'_k = x_k - (global - local_{k / baseK}) * s
//     mean  = isUpdate ? (global + inMean * (loopCnt - 1)) / loopCnt : global
//     max   = (global - mean) * s + max_k x'_k, and with isUpdate the larger of that
//             and (inMean - mean) * s + inMax
//     dst   = e^(x' - (max - (global - mean) * s))
//     isUpdate: expMax = e^(inMax - max + (inMean - mean) * s), expSum = expMax *
//             inExpSum + sum dst; otherwise expSum = sum dst
//   as upstream's reference (asc-devkit's golden script) computes it, in float; mean,
//   expSum and max hold a row's value over 8 floats, expMax over 32 bytes of T.
// The Atlas A2 form takes half data with float statistics (T half, U float) or float
// throughout; splitMeanCnt must be 8. The tiling is not needed.
// Checks (trap kind 1): the shape fits every tensor, W is a multiple of 512.
#ifndef NPUD_ASCENDC_SOFTMAX_FLASH_V3_H_
#define NPUD_ASCENDC_SOFTMAX_FLASH_V3_H_

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/softmax.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct SoftMaxParams {
  uint32_t srcM;
  uint32_t srcK;
  uint32_t oriSrcM;
  uint32_t oriSrcK;
  uint32_t loopCnt;
  uint32_t splitMeanCnt;
  float alpha;
};

}  // namespace AscendC

namespace npud::ascendc {

template <class T, class U>
void SoftmaxFlashV3Rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& mean,
                        const AscendC::LocalTensor<U>& exp_sum, const AscendC::LocalTensor<U>& max,
                        const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& exp_max,
                        const AscendC::LocalTensor<U>& in_mean,
                        const AscendC::LocalTensor<U>& in_exp_sum,
                        const AscendC::LocalTensor<U>& in_max, const AscendC::SoftMaxParams& p,
                        bool update) {
  const char* op = "SoftmaxFlashV3";
  const uint32_t rows = p.srcM, width = p.srcK;
  if (width == 0 || width % 512 != 0 || (p.splitMeanCnt != 0 && p.splitMeanCnt != 8)) {
    Fail("%s: rows of %u (splitMeanCnt %u) are not a multiple of 512 split 8 ways", op, width,
         p.splitMeanCnt);
  }
  constexpr uint32_t kStat = 8;
  constexpr uint32_t kExpMax = 32 / sizeof(T);
  const uint64_t n = uint64_t{rows} * width;
  CheckRows(op, dst, n, "destination");
  CheckRows(op, src, n, "source");
  CheckRows(op, mean, uint64_t{rows} * kStat, "mean");
  CheckRows(op, exp_sum, uint64_t{rows} * kStat, "expSum");
  CheckRows(op, max, uint64_t{rows} * kStat, "max");
  if (update) {
    CheckRows(op, in_mean, uint64_t{rows} * kStat, "inMean");
    CheckRows(op, in_exp_sum, uint64_t{rows} * kStat, "inExpSum");
    CheckRows(op, in_max, uint64_t{rows} * kStat, "inMax");
    CheckRows(op, exp_max, uint64_t{rows} * kExpMax, "expMax");
  }
  const float scalar = p.alpha / (1.0f - p.alpha);
  const uint32_t base_k = width / 8;
  const float loops = static_cast<float>(p.loopCnt == 0 ? 1 : p.loopCnt);
  std::vector<float> x(width);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t k = 0; k < width; ++k)
      x[k] = static_cast<float>(src.Data()[uint64_t{r} * width + k]);
    float block[64] = {};
    for (uint32_t j = 0; j < 64; ++j) {
      for (uint32_t t = 0; t < 8; ++t) block[j] += x[j * 8 + t];
    }
    for (uint32_t k = 512; k < width; ++k) block[(k - 512) % 64] += x[k];
    float local[8], global_sum = 0;
    for (uint32_t j = 0; j < 8; ++j) {
      float sum = 0;
      for (uint32_t t = 0; t < 8; ++t) sum += block[j * 8 + t];
      local[j] = sum / static_cast<float>(base_k);
      global_sum += local[j];
    }
    const float global = global_sum / 8;
    float row_max = -INFINITY;
    for (uint32_t k = 0; k < width; ++k) {
      x[k] -= (global - local[k / base_k]) * scalar;
      row_max = std::fmax(row_max, x[k]);
    }
    const float old_mean = update ? static_cast<float>(in_mean.Data()[r * kStat]) : 0.0f;
    const float old_max = update ? static_cast<float>(in_max.Data()[r * kStat]) : 0.0f;
    const float old_sum = update ? static_cast<float>(in_exp_sum.Data()[r * kStat]) : 0.0f;
    const float new_mean = update ? (global + old_mean * (loops - 1)) / loops : global;
    const float shift_curr = (global - new_mean) * scalar;
    const float shift_prev = (old_mean - new_mean) * scalar;
    float new_max = shift_curr + row_max;
    if (update) new_max = std::fmax(new_max, shift_prev + old_max);
    const float offset = new_max - shift_curr;
    double sum = 0;
    for (uint32_t k = 0; k < width; ++k) {
      const float e = std::exp(x[k] - offset);
      sum += e;
      dst.Data()[uint64_t{r} * width + k] = T(e);
    }
    if (update) {
      const float scale = std::exp(old_max - new_max + shift_prev);
      sum += static_cast<double>(scale) * old_sum;
      StoreRowBlock(exp_max, r, scale);
    }
    StoreRowBlock(mean, r, new_mean);
    StoreRowBlock(exp_sum, r, static_cast<float>(sum));
    StoreRowBlock(max, r, new_max);
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor,
                    const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
                    const SoftMaxTiling& /*tiling*/, const SoftMaxParams& params) {
  static_assert(!isDataFormatNZ, "SoftmaxFlashV3: the NZ format is not simulated");
  static_assert(std::is_same_v<U, float>, "SoftmaxFlashV3 keeps its statistics in float");
  ::npud::ascendc::SoftmaxFlashV3Rows(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor,
                                      expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor,
                                      params, isUpdate);
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxParams& params) {
  SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor,
      inExpSumTensor, inMaxTensor, LocalTensor<uint8_t>(), tiling, params);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SOFTMAX_FLASH_V3_H_
