// trans_data.h: TransData, which converts half or float tensors between the 3-D
// formats NCDHW, NDC1HWC0 and FRACTAL_Z_3D (C0 = N0 = 16 elements, H*W rows of NCDHW
// padded to 16 in the UB, as the Atlas A2 lays them out).
//
//   TransData<TransDataConfig{src, dst}>(dst, src[, sharedTmpBuffer],
//                                        TransDataParams{srcLayout, dstLayout})
//     NCDHW -> FRACTAL_Z_3D  dst[d][c1][h][w][n1][n0][c0] = src[n][c][d][hw]
//     FRACTAL_Z_3D -> NCDHW  the inverse
//     NCDHW -> NDC1HWC0      dst[n][d][c1][h][w][c0] = src[n][c][d][hw]
//     NDC1HWC0 -> NCDHW      the inverse
//   with n = n1 * 16 + n0, c = c1 * 16 + c0 and hw = h * W + w; elements whose n or c
//   is past the tensor's (the padding of the fractal formats) are written as 0, and
//   the padding of each NCDHW row past H*W is left as it was. N, C, D, H, W come from
//   the NCDHW side's layout (MakeShape(n, c, d, h, w)). Other pairs fail the block.
// Elements are moved bit for bit; the scratch buffer is not needed.
// Checks (trap kind 1): the shapes fit dst and src.
#ifndef NPUD_ASCENDC_TRANS_DATA_H_
#define NPUD_ASCENDC_TRANS_DATA_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/layout.h"
#include "npud_ascendc/shape_info.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};

template <typename T, typename U>
struct TransDataParams {
  T srcLayout;
  U dstLayout;
};

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
               const TransDataParams<U, S>& params) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "TransData moves 16- or 32-bit elements");
  constexpr DataFormat kFrom = config.srcFormat, kTo = config.dstFormat;
  constexpr bool kToFractal = kFrom == DataFormat::NCDHW && kTo == DataFormat::FRACTAL_Z_3D;
  constexpr bool kFromFractal = kFrom == DataFormat::FRACTAL_Z_3D && kTo == DataFormat::NCDHW;
  constexpr bool kToNdc1hwc0 = kFrom == DataFormat::NCDHW && kTo == DataFormat::NDC1HWC0;
  constexpr bool kFromNdc1hwc0 = kFrom == DataFormat::NDC1HWC0 && kTo == DataFormat::NCDHW;
  static_assert(kToFractal || kFromFractal || kToNdc1hwc0 || kFromNdc1hwc0,
                "TransData: this pair of formats is not simulated");
  int64_t extents[5];
  for (size_t i = 0; i < 5; ++i) {
    if constexpr (kFrom == DataFormat::NCDHW) {
      extents[i] = params.srcLayout.GetShape()[i];
    } else {
      extents[i] = params.dstLayout.GetShape()[i];
    }
  }
  const int64_t n = extents[0], c = extents[1], d = extents[2], h = extents[3], w = extents[4];
  constexpr int64_t k0 = 16;
  const int64_t n1 = (n + k0 - 1) / k0, c1 = (c + k0 - 1) / k0;
  const int64_t hw = h * w, hw_pad = (hw + k0 - 1) / k0 * k0;
  const bool fractal = kToFractal || kFromFractal;
  const uint64_t plain_size = static_cast<uint64_t>(n * c * d * hw_pad);
  const uint64_t packed_size =
      static_cast<uint64_t>(fractal ? d * c1 * hw * n1 * k0 * k0 : n * d * c1 * hw * k0);
  const bool packing = kToFractal || kToNdc1hwc0;
  const uint64_t src_need = packing ? plain_size : packed_size;
  const uint64_t dst_need = packing ? packed_size : plain_size;
  if (src_need > srcTensor.GetSize() || dst_need > dstTensor.GetSize()) {
    ::npud::ascendc::Fail(
        "TransData: [%lld, %lld, %lld, %lld, %lld] needs %llu source and %llu "
        "destination elements, the tensors have %u and %u",
        static_cast<long long>(n), static_cast<long long>(c), static_cast<long long>(d),
        static_cast<long long>(h), static_cast<long long>(w),
        static_cast<unsigned long long>(src_need), static_cast<unsigned long long>(dst_need),
        srcTensor.GetSize(), dstTensor.GetSize());
  }
  const T zero{};
  // Every element of the packed format, with the NCDHW element it holds (or none).
  const int64_t packed_n = fractal ? n1 * k0 : n;
  for (int64_t in = 0; in < packed_n; ++in) {
    for (int64_t ic = 0; ic < c1 * k0; ++ic) {
      for (int64_t id = 0; id < d; ++id) {
        for (int64_t p = 0; p < hw; ++p) {
          const int64_t packed =
              fractal
                  ? ((((id * c1 + ic / k0) * hw + p) * n1 + in / k0) * k0 + in % k0) * k0 + ic % k0
                  : (((in * d + id) * c1 + ic / k0) * hw + p) * k0 + ic % k0;
          const bool real = in < n && ic < c;
          const int64_t plain = ((in * c + ic) * d + id) * hw_pad + p;
          if (packing) {
            dstTensor.Data()[packed] = real ? srcTensor.Data()[plain] : zero;
          } else if (real) {
            dstTensor.Data()[plain] = srcTensor.Data()[packed];
          }
        }
      }
    }
  }
}
template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const TransDataParams<U, S>& params) {
  TransData<config, T, U, S>(dstTensor, srcTensor, LocalTensor<uint8_t>(), params);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_TRANS_DATA_H_
